"""Scene libraries of physics materials and collision filters: add, presets, remove, rename.

Objects refer to library entries by name, so removing or renaming an entry updates every reference.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import bpy
from bpy.props import BoolProperty, EnumProperty, StringProperty

from ..properties import library, object_physics, scene_physics
from ..properties.session import authoring_state
from .common import OperatorResult, plural, remove_active, scene_of, uses

KIND_ITEMS = [
    ('MATERIAL', "Physics Material", "", 0),
    ('FILTER', "Collision Filter", "", 1),
]
_COLLECTIONS = {'MATERIAL': "physics_materials", 'FILTER': "collision_filters"}
_DEFAULT_NAMES = {'MATERIAL': library.DEFAULT_MATERIAL_NAME, 'FILTER': library.DEFAULT_FILTER_NAME}
_PRESET_ITEMS: dict[str, list[tuple]] = {
    'MATERIAL': [(name, name, f"Friction and bounce of {name.lower()}", index)
                 for index, name in enumerate(library.MATERIAL_PRESETS)],
    'FILTER': [(name, name, f"The common {name.lower()} layer", index)
               for index, name in enumerate(library.FILTER_PRESETS)],
}


def _preset_items(self: bpy.types.Operator, _context: bpy.types.Context | None) -> list[tuple]:
    return _PRESET_ITEMS.get(getattr(self, "kind", 'MATERIAL'), _PRESET_ITEMS['MATERIAL'])


def _entries(scene: bpy.types.Scene, kind: str) -> Any:  # the kind's CollectionProperty (add, remove)
    return getattr(scene_physics(scene), _COLLECTIONS[kind])


def _set_active(scene: bpy.types.Scene, kind: str, index: int) -> None:
    setattr(scene_physics(scene), f"{_COLLECTIONS[kind]}_active_index", index)


def _active_index(scene: bpy.types.Scene, kind: str) -> int:
    return getattr(scene_physics(scene), f"{_COLLECTIONS[kind]}_active_index")


def rename_references(objects: Iterable[bpy.types.Object], kind: str, old: str, new: str) -> int:
    """Point every collider/trigger that used library entry `old` to `new` ('' clears); return the count."""
    count = 0
    for obj in objects:
        settings = object_physics(obj)
        parts = [settings.collider] if kind == 'MATERIAL' else [settings.collider, settings.trigger]
        attribute = "physics_material" if kind == 'MATERIAL' else "collision_filter"
        for part in parts:
            if getattr(part, attribute) == old:
                setattr(part, attribute, new)
                count += 1
    return count


def _scene_objects(scene: bpy.types.Scene) -> Iterable[bpy.types.Object]:
    return scene.objects


class _LibraryOperator:
    kind: EnumProperty(name="Library", items=KIND_ITEMS, default='MATERIAL', options={'HIDDEN'})

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        return context.scene is not None


class OMI_OT_library_add(_LibraryOperator, bpy.types.Operator):
    """Add an entry with default values to the scene's library"""

    bl_idname = "omi.library_add"
    bl_label = "Add Library Entry"
    bl_options = {'REGISTER', 'UNDO'}

    def execute(self, context: bpy.types.Context) -> OperatorResult:
        entries = _entries(scene_of(context), self.kind)
        entry = entries.add()
        entry.name = library.unique_name((e.name for e in entries if e != entry), _DEFAULT_NAMES[self.kind])
        _set_active(scene_of(context), self.kind, len(entries) - 1)
        self.report({'INFO'}, f"Added {entry.name}")
        return {'FINISHED'}


class OMI_OT_material_new(bpy.types.Operator):
    """Add a new physics material to the scene's library (a copy of the collider's current one, if any) and
    use it for this collider"""

    bl_idname = "omi.material_new"
    bl_label = "New Physics Material"
    bl_options = {'REGISTER', 'UNDO'}

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        obj = context.object
        if obj is None or context.scene is None or not object_physics(obj).use_collider:
            cls.poll_message_set("The active object has no collider")
            return False
        return True

    def execute(self, context: bpy.types.Context) -> OperatorResult:
        obj = context.object
        assert obj is not None, "poll: an active object with a collider"
        collider = object_physics(obj).collider
        entries = _entries(scene_of(context), 'MATERIAL')
        current = entries.get(collider.physics_material)
        entry = entries.add()
        if current is not None:
            for prop in current.bl_rna.properties:
                if prop.identifier not in {"rna_type", "name"} and not prop.is_readonly:
                    setattr(entry, prop.identifier, getattr(current, prop.identifier))
        base = current.name if current is not None else _DEFAULT_NAMES['MATERIAL']
        entry.name = library.unique_name((e.name for e in entries if e != entry), base)
        collider.physics_material = entry.name
        _set_active(scene_of(context), 'MATERIAL', len(entries) - 1)
        self.report({'INFO'}, f"{obj.name} uses the new physics material {entry.name}")
        return {'FINISHED'}


class OMI_OT_library_add_preset(_LibraryOperator, bpy.types.Operator):
    """Add a ready-made entry (ice, rubber, metal, wood; common collision layers)"""

    bl_idname = "omi.library_add_preset"
    bl_label = "Add Preset"
    bl_options = {'REGISTER', 'UNDO'}
    bl_property = "preset"

    preset: EnumProperty(name="Preset", items=_preset_items)

    def execute(self, context: bpy.types.Context) -> OperatorResult:
        if self.kind == 'MATERIAL':
            name = library.material_from_model(scene_of(context), library.MATERIAL_PRESETS[self.preset])
        else:
            name = library.filter_from_model(scene_of(context), library.FILTER_PRESETS[self.preset])
        entries = _entries(scene_of(context), self.kind)
        _set_active(scene_of(context), self.kind, entries.find(name))
        self.report({'INFO'}, f"Library entry {name} holds the {self.preset} preset")
        return {'FINISHED'}


class OMI_OT_library_remove(_LibraryOperator, bpy.types.Operator):
    """Remove the active library entry; objects that used it fall back to the default"""

    bl_idname = "omi.library_remove"
    bl_label = "Remove Library Entry"
    bl_options = {'REGISTER', 'UNDO'}

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        if context.scene is None:
            return False
        settings = scene_physics(scene_of(context))
        return bool(len(settings.physics_materials) or len(settings.collision_filters))

    def execute(self, context: bpy.types.Context) -> OperatorResult:
        entries = _entries(scene_of(context), self.kind)
        index = _active_index(scene_of(context), self.kind)
        if not 0 <= index < len(entries):
            self.report({'WARNING'}, "No library entry is selected")
            return {'CANCELLED'}
        name = entries[index].name
        users = rename_references(_scene_objects(scene_of(context)), self.kind, name, "")
        entries.remove(index)
        _set_active(scene_of(context), self.kind, min(index, len(entries) - 1))
        self.report({'INFO'}, f"Removed {name}; {plural(users, 'shape')} now {uses(users)} the default")
        return {'FINISHED'}


class OMI_OT_library_rename(_LibraryOperator, bpy.types.Operator):
    """Rename the active library entry and every reference to it"""

    bl_idname = "omi.library_rename"
    bl_label = "Rename Library Entry"
    bl_options = {'REGISTER', 'UNDO'}

    new_name: StringProperty(name="Name", description="The entry's new name")

    def invoke(self, context: bpy.types.Context, _event: bpy.types.Event) -> OperatorResult:
        entries = _entries(scene_of(context), self.kind)
        index = _active_index(scene_of(context), self.kind)
        if 0 <= index < len(entries):
            self.new_name = entries[index].name
        window_manager = context.window_manager
        assert window_manager is not None, "Blender has its window manager"
        return window_manager.invoke_props_dialog(self)

    def execute(self, context: bpy.types.Context) -> OperatorResult:
        entries = _entries(scene_of(context), self.kind)
        index = _active_index(scene_of(context), self.kind)
        if not 0 <= index < len(entries):
            self.report({'WARNING'}, "No library entry is selected")
            return {'CANCELLED'}
        entry = entries[index]
        old = entry.name
        wanted = self.new_name.strip()
        if not wanted:
            self.report({'WARNING'}, "A library entry needs a name")
            return {'CANCELLED'}
        if wanted == old:
            return {'CANCELLED'}
        new = library.unique_name((e.name for e in entries if e != entry), wanted)
        entry.name = new
        users = rename_references(_scene_objects(scene_of(context)), self.kind, old, new)
        self.report({'INFO'}, f"Renamed {old} to {new} ({plural(users, 'reference')} updated)")
        return {'FINISHED'}


class _ActiveFilterOperator:
    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        settings = scene_physics(scene_of(context)) if context.scene else None
        return settings is not None and 0 <= settings.collision_filters_active_index < len(settings.collision_filters)


class OMI_OT_filter_system_add(_ActiveFilterOperator, bpy.types.Operator):
    """Add a collision system (layer) name to the active filter"""

    bl_idname = "omi.filter_system_add"
    bl_label = "Add Collision System"
    bl_options = {'REGISTER', 'UNDO'}

    listed: BoolProperty(name="Mask", description="Add to the collide-with list instead of the membership")
    system: StringProperty(name="System", default="Default")

    def execute(self, context: bpy.types.Context) -> OperatorResult:
        settings = scene_physics(scene_of(context))
        collision_filter = settings.collision_filters[settings.collision_filters_active_index]
        systems = collision_filter.listed_systems if self.listed else collision_filter.collision_systems
        item = systems.add()
        item.name = library.unique_name((s.name for s in systems if s != item), self.system or "Default")
        item.use = True
        state = authoring_state(context)
        setattr(state, "listed_system_index" if self.listed else "member_system_index", len(systems) - 1)
        return {'FINISHED'}


class OMI_OT_filter_system_remove(_ActiveFilterOperator, bpy.types.Operator):
    """Remove the active collision system name from the active filter"""

    bl_idname = "omi.filter_system_remove"
    bl_label = "Remove Collision System"
    bl_options = {'REGISTER', 'UNDO'}

    listed: BoolProperty(name="Mask", description="Remove from the collide-with list instead of the membership")

    def execute(self, context: bpy.types.Context) -> OperatorResult:
        settings = scene_physics(scene_of(context))
        collision_filter = settings.collision_filters[settings.collision_filters_active_index]
        systems = collision_filter.listed_systems if self.listed else collision_filter.collision_systems
        state = authoring_state(context)
        index_name = "listed_system_index" if self.listed else "member_system_index"
        return {'FINISHED'} if remove_active(systems, state, index_name) else {'CANCELLED'}


CLASSES: tuple[type, ...] = (
    OMI_OT_material_new,
    OMI_OT_library_add, OMI_OT_library_add_preset, OMI_OT_library_remove, OMI_OT_library_rename,
    OMI_OT_filter_system_add, OMI_OT_filter_system_remove,
)
