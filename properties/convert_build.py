"""Settings -> what the rigid-body build is fed (`io/blender/builder/inputs`): model values, never PropertyGroups.

Sync to Blender (and the animation import's builds) convert an object's settings to the model first, with
the conversions the export uses (`convert`, `convert_joint`); the build then reads model values only, as it
does on import, where it is fed the document the import read.
"""

from __future__ import annotations

import bpy

from ..io.blender.builder.inputs import ObjectPhysics, Parts
from ..io.omi import model
from . import library, object_physics
from .convert import motion_to_model, shape_offset_matrix, shape_to_model, trigger_to_model
from .convert_joint import drive_to_model, limit_to_model
from .joint import OMIJointSettings


def settings_parts(obj: bpy.types.Object) -> Parts:
    """Which parts an object's settings enable (for walking the hierarchy without converting it)."""
    settings = object_physics(obj)
    collider = bool(settings.use_collider)
    return Parts(bool(settings.use_motion), collider, collider and not settings.collider.is_compound,
                 bool(settings.use_trigger), bool(settings.use_joint))


def joint_settings(joint_pg: OMIJointSettings) -> model.JointSettings:
    """A joint's limits (those without an axis left out, as the export does) and drives, in glTF axes."""
    limits = (limit_to_model(limit_pg) for limit_pg in joint_pg.limits)
    return model.JointSettings(limits=tuple(limit for limit in limits if limit is not None),
                               drives=tuple(drive_to_model(drive_pg) for drive_pg in joint_pg.drives))


class SettingsPhysics:
    """Objects' settings as the build's model values (a `PhysicsOf`), each object converted once.

    Library names the scene does not hold are reported (to `issues`) and read as no material or filter.
    """

    def __init__(self, bl_scene: bpy.types.Scene, issues: list[model.Issue] | None = None) -> None:
        self.scene = bl_scene
        self.issues = issues
        self._found: dict[bpy.types.Object, ObjectPhysics | None] = {}
        self._materials: dict[str, model.PhysicsMaterial | None] = {}
        self._filters: dict[str, model.CollisionFilter | None] = {}

    def __call__(self, obj: bpy.types.Object) -> ObjectPhysics | None:
        if obj not in self._found:
            self._found[obj] = self._convert(obj)
        return self._found[obj]

    def _warn(self, obj: bpy.types.Object, pointer: str, message: str) -> None:
        if self.issues is not None:
            self.issues.append(model.Issue(pointer, f"object {obj.name!r}: {message}"))

    def _material(self, obj: bpy.types.Object, name: str) -> model.PhysicsMaterial | None:
        if not name:
            return None
        if name not in self._materials:
            entry = library.find_material(self.scene, name)
            self._materials[name] = None if entry is None else library.material_to_model(entry)
        found = self._materials[name]
        if found is None:
            self._warn(obj, "/collider/physics_material",
                       f"physics material {name!r} is not in the scene library: default used")
        return found

    def _filter(self, obj: bpy.types.Object, name: str) -> model.CollisionFilter | None:
        if not name:
            return None
        if name not in self._filters:
            entry = library.find_filter(self.scene, name)
            self._filters[name] = None if entry is None else library.filter_to_model(entry)
        found = self._filters[name]
        if found is None:
            self._warn(obj, "/collider/collision_filter",
                       f"collision filter {name!r} is not in the scene library: collides with everything")
        return found

    def _convert(self, obj: bpy.types.Object) -> ObjectPhysics | None:
        settings = getattr(obj, "omi_physics", None)
        if settings is None or not settings.has_physics:
            return None
        collider = offset = None
        if settings.use_collider:
            pg = settings.collider
            shape = None if pg.is_compound else shape_to_model(pg.shape, obj)
            collider = model.Collider(shape, self._material(obj, pg.physics_material),
                                      self._filter(obj, pg.collision_filter))
            # a collision mesh object sits where it is: only a shape of the object itself has an offset
            primitive = shape is not None and shape.type in model.PRIMITIVE_SHAPE_TYPES
            on_object = shape is not None and (primitive or pg.shape.mesh_source == 'SELF')
            offset = shape_offset_matrix(pg.shape) if on_object else None
        joint = None
        if settings.use_joint:
            pg = settings.joint
            joint = model.Joint(joint_settings(pg), pg.connected_object, bool(pg.enable_collision))
        physics = model.NodePhysics(
            motion=motion_to_model(settings.motion) if settings.use_motion else None,
            collider=collider,
            trigger=trigger_to_model(settings.trigger, obj, self.scene) if settings.use_trigger else None,
            joint=joint,
        )
        return ObjectPhysics(physics, offset)
