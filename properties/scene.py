"""Scene libraries of physics materials and collision filters, referenced from objects by name."""

from __future__ import annotations

import bpy
from bpy.props import BoolProperty, CollectionProperty, EnumProperty, FloatProperty, IntProperty, StringProperty

from ..io.omi import model
from ..io.omi.dialects import builtin, registry  # noqa: F401 - builtin: the built-in units registered
from . import display
from .migrate import SETTINGS_VERSION

COMBINE_ITEMS = [
    ('AVERAGE', "Average", "Use the mean of the two values", 0),
    ('MINIMUM', "Minimum", "Use the smaller value", 1),
    ('MAXIMUM', "Maximum", "Use the larger value", 2),
    ('MULTIPLY', "Multiply", "Use the product of the two values", 3),
]
COMBINE_TO_OMI = {item[0]: model.combine_mode(item[0].lower()) for item in COMBINE_ITEMS}
COMBINE_FROM_OMI = {value: key for key, value in COMBINE_TO_OMI.items()}


class OMIPhysicsMaterial(bpy.types.PropertyGroup):
    """How a surface rubs and bounces; `name` is the key objects use."""

    static_friction: FloatProperty(
        name="Static Friction",
        description="Friction of a body at rest: 0 feels like ice, 1 makes it hard to get moving",
        default=model.DEFAULT_FRICTION,
        min=0.0,
        soft_max=1.0,
        precision=display.FACTOR,
    )
    dynamic_friction: FloatProperty(
        name="Dynamic Friction",
        description="Friction of a sliding body: 0 feels like ice, 1 stops it quickly",
        default=model.DEFAULT_FRICTION,
        min=0.0,
        soft_max=1.0,
        precision=display.FACTOR,
    )
    restitution: FloatProperty(
        name="Bounciness",
        description="Restitution: 0 does not bounce, 1 bounces back without losing energy",
        default=model.DEFAULT_RESTITUTION,
        min=0.0,
        soft_max=1.0,
        precision=display.FACTOR,
    )
    friction_combine: EnumProperty(
        name="Friction Combine",
        description="How the frictions of two touching surfaces combine",
        items=COMBINE_ITEMS,
        default='AVERAGE',
    )
    restitution_combine: EnumProperty(
        name="Bounce Combine",
        description="How the bounciness of two touching surfaces combines",
        items=COMBINE_ITEMS,
        default='AVERAGE',
    )
    unknown_json: StringProperty(options={'HIDDEN'})  # keys the file held that the model does not read (JSON)


class OMISystemName(bpy.types.PropertyGroup):
    """One collision system (layer) name; the name is the value."""

    use: BoolProperty(default=True, options={'HIDDEN'})


FILTER_MODE_ITEMS = [
    ('ALL', "Collide With All", "Collide with every system", 0),
    ('ONLY', "Collide Only With", "Collide only with the listed systems", 1),
    ('EXCEPT', "Collide With All Except", "Collide with every system except the listed ones", 2),
]


class OMICollisionFilter(bpy.types.PropertyGroup):
    """Which collision systems (layers) an object belongs to and which it collides with."""

    collision_systems: CollectionProperty(type=OMISystemName)
    mode: EnumProperty(
        name="Collides With",
        description="Whether the listed systems are the only ones collided with, or the ones ignored",
        items=FILTER_MODE_ITEMS,
        default='ALL',
    )
    listed_systems: CollectionProperty(type=OMISystemName)
    unknown_json: StringProperty(options={'HIDDEN'})  # keys the file held that the model does not read (JSON)



_TARGET_ITEMS: list[tuple[str, str, str, int]] = []  # Blender keeps no reference to a callback's strings


def _target_items(_settings: object, _context: object) -> list[tuple[str, str, str, int]]:
    """The registry's export targets, by their stable numbers (`registry.Target.number`)."""
    _TARGET_ITEMS[:] = [(target.name, target.label, target.description, target.number)
                        for target in registry.targets()]
    return _TARGET_ITEMS

class OMISceneSettings(bpy.types.PropertyGroup):
    """Per-scene physics libraries and overlay/export options."""

    version: IntProperty(default=SETTINGS_VERSION, options={'HIDDEN'})  # see migrate.py
    physics_materials: CollectionProperty(type=OMIPhysicsMaterial)
    physics_materials_active_index: IntProperty(options={'HIDDEN'})
    collision_filters: CollectionProperty(type=OMICollisionFilter)
    collision_filters_active_index: IntProperty(options={'HIDDEN'})
    show_overlay: BoolProperty(
        name="Show Physics Overlay",
        description="Draw collider shapes and joint frames in the 3D viewport",
        default=True,
    )
    overlay_in_front: BoolProperty(
        name="In Front",
        description="Draw the physics overlay over the meshes (x-ray), so fitted shapes never hide in their mesh",
        default=False,
    )
    live_rigid_bodies: BoolProperty(
        name="Live Rigid Bodies",
        description=("Keep Blender's rigid bodies and constraints in step with the OMI settings as they are "
                     "edited, so play shows them at once. Off: only Rebuild Rigid Bodies makes them"),
        default=True,
    )
    new_name: StringProperty(options={'HIDDEN', 'SKIP_SAVE'})
    # imported files' document-level keys beside the OMI arrays, by extension: {"OMI_physics_body": {...}}
    document_unknown_json: StringProperty(options={'HIDDEN'})
    kept_extensions_json: StringProperty(options={'HIDDEN'})  # document-level extensions nothing here reads
    # Options of the glTF dialogs (read by the hooks, so headless pipelines set them here too).
    export_physics: BoolProperty(
        name="Export OMI Physics",
        description="Write colliders, bodies, triggers and joints as OMI physics extensions",
        default=True,
    )
    export_rigid_bodies: BoolProperty(
        name="Export Untagged Rigid Bodies",
        description=("Also export objects that have a Blender rigid body or rigid body constraint but no OMI "
                     "settings, as physics read from Blender's settings. Objects with OMI settings are always "
                     "exported from those"),
        default=True,
    )
    export_dialect: EnumProperty(  # the export target (its stored number stays, for saved files)
        name="Target",
        description="Which engine or spec the physics is written for",
        items=_target_items,  # asked each time: a target registered later (another unit) is offered too
        default=registry.targets()[0].number,
    )
    import_physics: BoolProperty(
        name="Import OMI Physics",
        description="Read OMI physics extensions into the objects' OMI settings",
        default=True,
    )
    import_rigid_bodies: BoolProperty(
        name="Create Blender Rigid Bodies",
        description="Build Blender rigid bodies and constraints from the imported physics, ready to simulate",
        default=True,
    )


CLASSES: tuple[type, ...] = (OMIPhysicsMaterial, OMISystemName, OMICollisionFilter, OMISceneSettings)
