"""The settings' binding for animation: where each animatable model value is held in the PropertyGroups, and the
conversions the animation import needs, registered with `io/blender/animation/settings` at register time.

This is the one home of the settings' paths as animation sees them (`omi_physics.motion.mass`): the animation
package maps F-curves and channels through this table and never spells a path itself.
`tests/blender/properties/test_animated_settings.py` checks that every animatable row of the pure table has an
entry, every entry a row, and that every setting named exists.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import bpy

from ..io.blender.animation import settings as animation
from ..io.blender.animation.settings import EXTENT, POSITION, ROTATION, Held, NotHeld, Translated
from ..io.blender.tables import bullet
from ..io.omi import model
from . import convert, convert_build, library, object_physics, scene_physics, units
from .shape import SHAPE_TYPE_TO_OMI

ROOT = "omi_physics"  # the settings' attribute on objects and scenes (properties.register adds it)
_MOTION, _JOINT, _LIBRARY = f"{ROOT}.motion", f"{ROOT}.joint", f"{ROOT}.physics_materials"
_SHAPES = {part: f"{ROOT}.{part}.shape" for part in ("collider", "trigger")}

# Where a part's settings group lives: (datablock, RNA path of the group; `{}` is the item's index).
GROUPS: dict[str, tuple[str, tuple[str, ...]]] = {
    "motion": ("object", (_MOTION,)),
    "shape": ("object", tuple(_SHAPES.values())),
    "material": ("scene", (f"{_LIBRARY}[{{}}]",)),
    "limit": ("object", (f"{_JOINT}.limits[{{}}]",)),
    "drive": ("object", (f"{_JOINT}.drives[{{}}]",)),
    "joint": ("object", (_JOINT,)),
}

_JOINT_AXES = ("the joint's axes decide its sign, which bound it is and which settings limit holds it (a limit on "
               "linear and angular axes is two settings limits)")
_DRIVE_AXIS = "the drive's axis and the joint's direction (joint_nodes.reversed_settings) decide its sign"
_BOOLEAN = "a boolean: not animated by this add-on (named at export, refused at import)"

SETTINGS: dict[tuple[str, str], animation.Entry] = {
    ("motion", "mass"): Held("mass", off_when="infinite_mass"),
    ("motion", "center_of_mass"): Held("center_of_mass", POSITION, needs="use_center_of_mass"),
    ("motion", "inertia_diagonal"): Held("inertia_diagonal", EXTENT, off_when="infinite_inertia"),
    ("motion", "inertia_orientation"): Held("inertia_orientation", ROTATION),
    ("motion", "linear_velocity"): Held("linear_velocity", POSITION),
    ("motion", "angular_velocity"): Held("angular_velocity", POSITION),
    ("motion", "gravity_factor"): Held("gravity_factor"),
    ("motion", "isKinematic"): NotHeld(_BOOLEAN + "; the settings' motion type"),
    ("material", "static_friction"): Held("static_friction"),
    ("material", "dynamic_friction"): Held("dynamic_friction"),
    ("material", "restitution"): Held("restitution"),
    ("shape", "size"): Held("size", EXTENT, placed=True),  # a collider's or trigger's shape, in its object's frame
    ("shape", "radius"): Held("radius", placed=True),
    ("shape", "height"): Held("height", placed=True),
    ("shape", "radius_top"): Held("radius_top", placed=True),
    ("shape", "radius_bottom"): Held("radius_bottom", placed=True),
    ("shape", "size_x"): NotHeld("a KHR plane: the settings have no plane shape"),
    ("shape", "size_z"): NotHeld("a KHR plane: the settings have no plane shape"),
    ("shape", "double_sided"): NotHeld("a KHR plane: the settings have no plane shape"),
    ("limit", "min"): Translated(("min_linear", "min_angular", "max_linear", "max_angular"), _JOINT_AXES),
    ("limit", "max"): Translated(("max_linear", "max_angular", "min_linear", "min_angular"), _JOINT_AXES),
    ("limit", "stiffness"): Translated(("stiffness",), "absent is infinite (use_stiffness); " + _JOINT_AXES),
    ("limit", "damping"): Translated(("damping",), _JOINT_AXES),
    ("drive", "max_force"): Held("max_force", needs="use_max_force"),  # absent: unlimited
    ("drive", "position_target"): Translated(("position_target_linear", "position_target_angular"), _DRIVE_AXIS),
    ("drive", "velocity_target"): Translated(("velocity_target",), _DRIVE_AXIS),
    ("drive", "stiffness"): Held("stiffness"),  # a joint turned round keeps it (joint_nodes.reversed_settings)
    ("drive", "damping"): Held("damping"),
    ("joint", "enable_collision"): NotHeld(_BOOLEAN + "; the setting enable_collision"),
}

# Blender rigid-body properties that mirror a Held setting: the settings' mass is Blender's Rigid Body Mass once
# the body has a rigid body (properties/homes), Blender's floor aside. While the mirror holds the Blender mass of
# the setting's value, the setting's value is the one exported.
MIRRORS: dict[str, tuple[str, Callable[[float], float]]] = {"rigid_body.mass": (f"{_MOTION}.mass", bullet.blender_mass)}


class Access:
    """The conversions the animation import makes on the settings (`animation.SettingsAccess`)."""

    def settings(self, id_data: Any) -> Any:
        return scene_physics(id_data) if isinstance(id_data, bpy.types.Scene) else object_physics(id_data)

    def write_node(self, rest: model.NodePhysics, node: model.NodePhysics, obj: bpy.types.Object,
                   bl_scene: bpy.types.Scene, resolve_node: Callable[[int], Any]) -> None:
        """Write the parts of `node` that differ from `rest` into the object's settings (and its library
        material)."""
        settings = object_physics(obj)
        if node.motion is not None and node.motion != rest.motion:
            convert.apply_motion(node.motion, settings.motion)
        for name in ("collider", "trigger"):
            part, before = getattr(node, name), getattr(rest, name)
            if part is None or before is None:
                continue
            group = getattr(settings, name)
            if part.shape is not None and before.shape is not None and part.shape != before.shape \
                    and part.shape.type in model.PRIMITIVE_SHAPE_TYPES:
                convert.apply_shape(part.shape, group.shape, obj)
            material = getattr(part, "physics_material", None)
            if material is not None and material != before.physics_material:
                entry = library.find_material(bl_scene, group.physics_material)
                if entry is not None:
                    library.write_material(entry, material)
        if node.joint is not None and rest.joint is not None and node.joint != rest.joint:
            convert.apply_joint(node.joint, settings.joint, obj, resolve_node=resolve_node)
        if node.extensions != rest.extensions:
            units.apply_values(node.extensions, obj, resolve_node)  # an extension unit's value (a throttle)

    def own_material(self, bl_scene: bpy.types.Scene, users: list[bpy.types.Object]) -> None:
        """An animated physics material gets a library entry of its own. The still import shares one entry
        among equal materials (library.material_from_model): keys on it would animate every object using it,
        and the export would write one animated material for all of them."""
        names = {object_physics(obj).collider.physics_material for obj in users}
        if len(names) != 1:
            return
        [name] = names
        sharers = [obj for obj in bl_scene.objects if getattr(obj, ROOT, None) is not None
                   and object_physics(obj).use_collider and object_physics(obj).collider.physics_material == name]
        entry = library.find_material(bl_scene, name)
        if entry is None or all(obj in users for obj in sharers):
            return
        entries = library.scene_physics(bl_scene).physics_materials
        copied = entries.add()
        copied.name = library.unique_name((item.name for item in entries), name)
        library.write_material(copied, library.material_to_model(library.find_material(bl_scene, name)))
        for obj in users:
            object_physics(obj).collider.physics_material = copied.name

    def motion_group(self, _obj: bpy.types.Object) -> str:
        return _MOTION

    def shape_group(self, obj: bpy.types.Object, part: str, shape_type: str) -> str | None:
        group = getattr(object_physics(obj), part, None) if part in _SHAPES else None
        if group is None or group.is_compound or SHAPE_TYPE_TO_OMI.get(group.shape.shape_type) != shape_type:
            return None
        return _SHAPES[part]

    def drive_group(self, obj: bpy.types.Object, index: int) -> str | None:
        return f"{_JOINT}.drives[{index}]" if len(object_physics(obj).joint.drives) > index else None

    def material_group(self, bl_scene: bpy.types.Scene, users: list[bpy.types.Object]) -> str | None:
        names = {object_physics(obj).collider.physics_material for obj in users}
        if len(names) != 1:
            return None
        position = scene_physics(bl_scene).physics_materials.find(names.pop())
        return f"{_LIBRARY}[{position}]" if position >= 0 else None

    def physics_input(self, bl_scene: bpy.types.Scene) -> Callable[[bpy.types.Object], Any]:
        return convert_build.SettingsPhysics(bl_scene)


LAYOUT = animation.Layout(ROOT, GROUPS, SETTINGS, MIRRORS, Access())


def register() -> None:
    animation.register(LAYOUT)


def unregister() -> None:
    animation.unregister()
