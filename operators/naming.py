"""Adopt collision meshes named for game engines: Unreal prefixes and Godot suffixes become OMI settings.

Unreal: `UBX_`, `USP_`, `UCP_`, `UCX_` + the render mesh's name (+ `_NN`) are box, sphere, capsule and
convex collision meshes of that render mesh. Godot: `-col`/`-convcol` give a mesh a trimesh/convex
collider of itself, `-colonly`/`-convcolonly` make the mesh collision-only (an empty shaped as a cube or
sphere becomes a box or sphere), and `-rigid` makes a dynamic body.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

import bpy
from bpy.props import EnumProperty
from mathutils import Vector

from ..properties import object_physics
from ..properties.shape import shape_extent
from .common import MESH_LIKE_TYPES, OperatorResult, in_object_mode, names, plural, scene_of, selected_objects
from .hierarchy import Descendants
from .shaping import collision_only, fit_primitive, part_settings, set_offset

_UNREAL_PREFIXES = {"UBX": 'BOX', "USP": 'SPHERE', "UCP": 'CAPSULE', "UCX": 'CONVEX'}
_UNREAL = re.compile(r"^(UBX|USP|UCP|UCX)_(.+)$")
# Longest first, so "-convcolonly" is not read as "-colonly" or "-col".
_GODOT_SUFFIXES = ("convcolonly", "colonly", "convcol", "col", "rigid")
_TRAILING_NUMBER = re.compile(r"[\d\s.]+$")  # Blender's ".001" duplicates, as Godot's importer strips them


@dataclass(frozen=True)
class NamingMatch:
    convention: str  # 'UNREAL' or 'GODOT'
    shape_type: str | None  # None: the name asks for a body, not a shape
    base_name: str  # the render object's name (Unreal) or the name without the suffix (Godot)
    collision_only: bool
    motion_type: str | None = None


def parse_name(name: str) -> NamingMatch | None:
    """What an engine's naming convention says about an object called `name`, or None."""
    match = _UNREAL.match(name)
    if match:
        return NamingMatch('UNREAL', _UNREAL_PREFIXES[match.group(1)], match.group(2), True)
    stripped = _TRAILING_NUMBER.sub("", name)
    lowered = stripped.lower()
    for suffix in _GODOT_SUFFIXES:
        for marker in ("-", "_", "$"):
            if lowered.endswith(marker + suffix):
                base = stripped[: -len(marker + suffix)]
                if suffix == "rigid":
                    return NamingMatch('GODOT', None, base, False, 'DYNAMIC')
                shape = 'CONVEX' if suffix.startswith("conv") else 'TRIMESH'
                return NamingMatch('GODOT', shape, base, suffix.endswith("only"), 'STATIC')
    return None


def unreal_render_names(base_name: str) -> list[str]:
    """Names the render mesh of an Unreal collision mesh may have: `Rock_01` may belong to `Rock`."""
    candidates = [base_name]
    numbered = re.match(r"^(.*)_\d+$", base_name)
    if numbered:
        candidates.append(numbered.group(1))
    return candidates


SCOPE_ITEMS = [
    ('SCENE', "Whole Scene", "Every object in the scene", 0),
    ('SELECTED', "Selected", "Only the selected objects", 1),
]


class OMI_OT_tag_from_names(bpy.types.Operator):
    """Turn collision meshes named the Unreal way (UBX_, USP_, UCP_, UCX_) or the Godot way (-col,
-colonly, -convcolonly, -rigid) into OMI colliders and bodies"""

    bl_idname = "omi.tag_from_names"
    bl_label = "Tag from Names"
    bl_options = {'REGISTER', 'UNDO'}

    scope: EnumProperty(name="Objects", items=SCOPE_ITEMS, default='SCENE')

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        if context.scene is None or not in_object_mode(context):
            cls.poll_message_set("Switch to Object Mode")
            return False
        return True

    def execute(self, context: bpy.types.Context) -> OperatorResult:
        objects = list(scene_of(context).objects) if self.scope == 'SCENE' else selected_objects(context)
        depsgraph = context.evaluated_depsgraph_get()
        parsed = [(obj, parse_name(obj.name)) for obj in objects]
        matches = [(obj, match) for obj, match in parsed if match is not None]
        tagged, bodies, failed = [], set(), []
        for obj, match in matches:
            try:
                body = self.adopt(context, obj, match, depsgraph)
            except ValueError:
                failed.append(obj)
                continue
            tagged.append(obj)
            if body is not None:
                bodies.add(body)
        if not matches:
            self.report({'INFO'}, "No object is named after an engine's collision convention")
            return {'CANCELLED'}
        self.report({'INFO'}, f"Tagged {plural(len(tagged), 'collision object')} and {plural(len(bodies), 'body')}")
        if failed:
            self.report({'WARNING'}, f"{names(failed)}: no geometry to fit a shape to")
        return {'FINISHED'}

    def adopt(self, context: bpy.types.Context, obj: bpy.types.Object, match: NamingMatch,
              depsgraph: bpy.types.Depsgraph) -> bpy.types.Object | None:
        """Apply one match; return the object that became (or already was) the body, if any."""
        if match.convention == 'UNREAL':
            return self.adopt_unreal(context, obj, match, depsgraph)
        settings = object_physics(obj)
        if match.shape_type is None:  # -rigid: a dynamic body; its own convex hull unless it has colliders
            settings.use_motion = True
            settings.motion.motion_type = 'DYNAMIC'
            has_collider = settings.use_collider or any(
                object_physics(child).use_collider for child in Descendants().of(obj))
            if not has_collider and obj.type in MESH_LIKE_TYPES:
                shape = part_settings(obj, 'COLLIDER').shape
                shape.shape_type = 'CONVEX'
                shape.mesh_source = 'SELF'
            return obj
        if obj.type == 'EMPTY':
            self.shape_from_empty(obj)
        elif obj.type in MESH_LIKE_TYPES:
            shape = part_settings(obj, 'COLLIDER').shape
            shape.shape_type = match.shape_type
            shape.mesh_source = 'SELF'
            set_offset(shape, Vector(), None)
        else:
            raise ValueError(obj.name)
        if match.collision_only and obj.type in MESH_LIKE_TYPES:
            collision_only(obj)
        if not settings.use_motion and not any(object_physics(p).use_motion for p in _ancestors(obj)):
            settings.use_motion = True
            settings.motion.motion_type = 'STATIC'
            return obj
        return None

    @staticmethod
    def shape_from_empty(obj: bpy.types.Object) -> None:
        """Godot's -colonly empties: a cube display is a box, a sphere display a sphere, sized as drawn."""
        shape = part_settings(obj, 'COLLIDER').shape
        size = obj.empty_display_size
        if obj.empty_display_type == 'SPHERE':
            shape.shape_type = 'SPHERE'
            shape.radius = size
        elif obj.empty_display_type == 'CUBE':
            shape.shape_type = 'BOX'
            shape.size = (2.0 * size,) * 3
        else:
            raise ValueError(obj.name)
        set_offset(shape, Vector(), None)

    def adopt_unreal(self, context: bpy.types.Context, obj: bpy.types.Object, match: NamingMatch,
                     depsgraph: bpy.types.Depsgraph) -> bpy.types.Object | None:
        if obj.type not in MESH_LIKE_TYPES or match.shape_type is None:  # Unreal prefixes always name a shape
            raise ValueError(obj.name)
        shape = part_settings(obj, 'COLLIDER').shape
        if match.shape_type == 'CONVEX':
            shape.shape_type = 'CONVEX'
            shape.mesh_source = 'SELF'
            set_offset(shape, Vector(), None)
        else:
            fitted = fit_primitive(obj, shape, match.shape_type, depsgraph)
            set_offset(shape, fitted.center, fitted.rotation, shape_extent(shape))
        collision_only(obj)
        render = next((scene_of(context).objects.get(name) for name in unreal_render_names(match.base_name)
                       if scene_of(context).objects.get(name) is not None), None)
        if render is None or render == obj:
            return None
        if obj.parent != render:  # colliders of a body live below it; keep the world placement
            world = obj.matrix_world.copy()
            obj.parent = render
            obj.matrix_parent_inverse = render.matrix_world.inverted_safe()
            obj.matrix_world = world
        render_settings = object_physics(render)
        if not render_settings.use_motion:
            render_settings.use_motion = True
            render_settings.motion.motion_type = 'STATIC'
        return render


def _ancestors(obj: bpy.types.Object) -> Iterator[bpy.types.Object]:
    parent = obj.parent
    while parent is not None:
        yield parent
        parent = parent.parent


CLASSES: tuple[type, ...] = (OMI_OT_tag_from_names,)
