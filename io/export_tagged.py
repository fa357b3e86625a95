"""The objects' OMI settings as the export reads them: the hook layer's side of `export_parts.SettingsReader`.

io/blender places and writes model values and reads no PropertyGroups; this module turns the settings
into those values (with `properties/convert`), as the Sync operators do.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import bpy

from ..properties import convert, object_physics, scene_physics
from . import kept_extensions
from .blender.export.parts import Derived
from .omi import model
from .omi.dialects import builtin, registry  # noqa: F401 - builtin: the built-in units registered

SETTINGS_NAME = "omi_physics"  # the objects' settings pointer (properties/__init__.py registers it)


def _nothing_stored(group: Any) -> bool:
    """True when none of the object's OMI settings (`group`: as stored, or None) was ever set: Blender stores
    a PropertyGroup's values only once set (reading one stores its empty groups), so every setting is at its
    default, which tags nothing and keeps nothing. A few microseconds, against tens for reading the settings
    of a level's every object."""
    return group is None or not len(group) or _only_empty_groups(group)  # (an empty group: most objects)


def _only_empty_groups(group: Any) -> bool:
    return all(hasattr(value, "keys") and _only_empty_groups(value) for value in group.values())


class TaggedSettings:
    """The export options of a scene and the OMI settings of its objects."""

    def __init__(self, bl_scene: bpy.types.Scene) -> None:
        options = scene_physics(bl_scene)
        self.export_physics = bool(options.export_physics)
        self.export_rigid_bodies = bool(options.export_rigid_bodies)
        choice = str(getattr(options, "export_dialect", ""))  # the export dialog's target (registry.targets)
        target = next((known for known in registry.targets() if known.name == choice), registry.targets()[0])
        self.export_dialects = target.dialects
        self.export_target = target.name  # its form: io/blender/export/target_form.py
        # `_nothing_stored` of each object asked about, once per export: the kept keys and the tag both ask
        self._unset: dict[bpy.types.Object, bool] = {}
        self._ours_only: set[bpy.types.Object] = set()  # of those, the objects storing no other registered property

    def _nothing_stored(self, obj: bpy.types.Object) -> bool:
        unset = self._unset.get(obj)
        if unset is None:
            # where its registered properties are: Blender 5.0+ keeps them apart (None when none was ever set)
            system = getattr(obj, "bl_system_properties_get", None)
            holder: Any = system() if system is not None else obj
            group = holder.get(SETTINGS_NAME) if holder is not None else None
            if holder is None or (group is not None and len(holder.keys()) == 1):  # nothing else there
                self._ours_only.add(obj)
            unset = self._unset[obj] = _nothing_stored(group)
        return unset

    def holds_no_peers(self, obj: bpy.types.Object) -> bool:
        """True when the object stores no other add-on's settings (nothing but its OMI settings, if any: seen
        in the same look as `_nothing_stored`), which the export then need not look for."""
        self._nothing_stored(obj)
        return obj in self._ours_only

    def is_tagged(self, obj: bpy.types.Object) -> bool:
        return not self._nothing_stored(obj) and convert.is_tagged(obj)

    @staticmethod
    def left_out_by_the_exporter(objects: Iterable[bpy.types.Object], export_settings: dict) -> list[str]:
        """A message for each camera or light with OMI settings that the exporter's own options leave out
        (its physics would vanish without a word)."""
        options = {'CAMERA': ("gltf_cameras", "Cameras"), 'LIGHT': ("gltf_lights", "Punctual Lights")}
        found = []
        for obj in objects:
            option = options.get(obj.type)
            if option is not None and not export_settings.get(option[0], True) and convert.is_tagged(obj):
                found.append(f"object {obj.name!r}: its physics is not exported, because the exporter leaves "
                             f"out {obj.type.lower()}s (turn on Include > {option[1]})")
        return found

    def kept_extensions(self, obj: bpy.types.Object) -> dict[str, Any]:
        """The node extensions kept verbatim from an imported file (io/kept_extensions.py)."""
        return {} if self._nothing_stored(obj) else kept_extensions.of_object(obj)

    @staticmethod
    def kept_document_extensions(bl_scene: bpy.types.Scene) -> dict[str, Any]:
        return kept_extensions.kept_document(bl_scene)

    @staticmethod
    def document_unknown(bl_scene: bpy.types.Scene) -> dict[str, model.Unknown]:
        return convert.document_unknown(bl_scene)

    @staticmethod
    def derive(obj: bpy.types.Object, bl_scene: bpy.types.Scene, issues: list[model.Issue]) -> Derived:
        physics = convert.node_from_object(obj, issues, bl_scene)
        settings = object_physics(obj)
        collider_offset = trigger_offset = None
        if physics.collider is not None and physics.collider.shape is not None:
            collider_offset = convert.shape_offset_matrix(settings.collider.shape)
        if physics.trigger is not None and physics.trigger.shape is not None:
            trigger_offset = convert.shape_offset_matrix(settings.trigger.shape)
        return Derived(physics, collider_offset, trigger_offset, physics.joint)

    def collision_mesh_objects(self, objects: Iterable[bpy.types.Object]) -> set[bpy.types.Object]:
        """Untagged objects that a tagged object's convex/trimesh shape uses as its collision mesh."""
        used: set[bpy.types.Object] = set()
        for obj in objects:
            if self._nothing_stored(obj):  # first: reading the settings would store their empty groups
                continue  # (the answer is remembered: the export asks it again)
            settings = getattr(obj, "omi_physics", None)
            if settings is None:
                continue
            parts = (settings.collider if settings.use_collider else None,  # only read what is enabled: this
                     settings.trigger if settings.use_trigger else None)   # runs over every object of the file
            for part in parts:
                if part is not None and not part.is_compound and part.shape.mesh_source == 'OBJECT':
                    mesh_object = part.shape.mesh_object
                    if mesh_object is not None and mesh_object is not obj:
                        used.add(mesh_object)
        return {obj for obj in used if not convert.is_tagged(obj)}
