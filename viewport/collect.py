"""Walk a scene's OMI settings into overlay lines: shapes coloured by role, joint frames with limits.

Pure data: it reads objects and returns numpy arrays; the GPU side (overlay.py) only uploads them.
Mesh shapes cache their edges per source object, dropped when that object's geometry changes.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

import bmesh
import bpy
import numpy as np
from mathutils import Euler, Matrix

from ..io.blender.bones import rig
from ..properties import object_physics
from ..properties.shape import PRIMITIVE_SHAPES, OMIShapeSettings
from . import geometry

JOINT_FRAME_SIZE = 0.3
LIMIT_RADIUS = 0.22


@dataclass
class MeshEdgeCache:
    """Local edge vertices of mesh shapes, keyed by (source object's session id, shape type)."""

    entries: dict[tuple[int, str], np.ndarray] = field(default_factory=dict)

    def edges(self, source: bpy.types.Object, shape_type: str, depsgraph: bpy.types.Depsgraph | None) -> np.ndarray:
        key = (source.session_uid, shape_type)
        if key not in self.entries:
            self.entries[key] = _mesh_edges(source, shape_type == 'CONVEX', depsgraph)
        return self.entries[key]

    def forget(self, session_uids: set[int]) -> None:
        """Drop the entries of these objects (one pass, however many objects changed)."""
        for key in [key for key in self.entries if key[0] in session_uids]:
            del self.entries[key]

    def clear(self) -> None:
        self.entries.clear()


def _mesh_edges(source: bpy.types.Object, hull: bool, depsgraph: bpy.types.Depsgraph | None) -> np.ndarray:
    evaluated = source.evaluated_get(depsgraph) if depsgraph is not None else source
    mesh = evaluated.to_mesh()
    try:
        if mesh is None or not len(mesh.vertices):
            return np.empty((0, 3), np.float32)
        coords = np.empty(len(mesh.vertices) * 3, np.float32)
        mesh.vertices.foreach_get("co", coords)
        coords = coords.reshape(-1, 3)
        if not hull:
            pairs = np.empty(len(mesh.edges) * 2, np.int64)
            mesh.edges.foreach_get("vertices", pairs)
            return coords[pairs]
    finally:
        evaluated.to_mesh_clear()
    bm = bmesh.new()
    try:
        for point in coords:
            bm.verts.new(point)
        # the stubs type the element list as an invariant list[BMVert | BMEdge | BMFace]
        result = bmesh.ops.convex_hull(bm, input=bm.verts[:], use_existing_faces=False)  # type: ignore[arg-type]  # see above
        edges = [e for e in result["geom"] if isinstance(e, bmesh.types.BMEdge)]
        return np.array([v.co[:] for e in edges for v in e.verts], np.float32).reshape(-1, 3)
    finally:
        bm.free()


def _role(obj: bpy.types.Object, cache: dict[int, str]) -> str:
    """STATIC/KINEMATIC/DYNAMIC from the nearest body at or above the object (memoised per walk)."""
    chain = []
    current: bpy.types.Object | None = obj
    role = 'STATIC'
    while current is not None:
        key = current.session_uid
        if key in cache:
            role = cache[key]
            break
        chain.append(key)
        settings = object_physics(current)
        if settings.use_motion:
            role = settings.motion.motion_type
            break
        current = current.parent
    for key in chain:
        cache[key] = role
    return role


def _shape_matrix(obj_matrix: Matrix, shape: OMIShapeSettings) -> Matrix:
    if not shape.use_offset:
        return obj_matrix
    return obj_matrix @ Matrix.LocRotScale(tuple(shape.offset_location), Euler(shape.offset_rotation), None)


def _add_joint(buffer: geometry.LineBuffer, obj: bpy.types.Object) -> None:
    joint = object_physics(obj).joint
    frame = obj.matrix_world.normalized()
    matrix = np.array(frame)
    tripod, colors = geometry.joint_frame(matrix, JOINT_FRAME_SIZE)
    buffer.add(tripod, colors)
    if joint.connected_object is not None:
        target = joint.connected_object.matrix_world.to_translation()
        buffer.add(np.array([frame.to_translation()[:], target[:]]), geometry.ROLE_COLORS['JOINT'])
    for limit in joint.limits:
        axes = limit.axes
        if len(axes) != 1 or not (limit.use_min and limit.use_max):
            continue
        suffix = "linear" if limit.kind == 'LINEAR' else "angular"
        low, high = getattr(limit, f"min_{suffix}"), getattr(limit, f"max_{suffix}")
        if low == high:
            continue  # a fixed axis: the tripod says it all
        if limit.kind == 'ANGULAR':
            lines = geometry.angular_limit_arc(matrix, axes[0], low, high, LIMIT_RADIUS)
        else:
            lines = geometry.linear_limit_segment(matrix, axes[0], low, high, JOINT_FRAME_SIZE * 0.2)
        buffer.add(lines, geometry.ROLE_COLORS['LIMIT'])


def _add_ragdoll(buffer: geometry.LineBuffer, armature: bpy.types.Object) -> int:
    """Each ragdoll bone over the armature, and a line from its head to the body it follows (io/blender/bones)."""
    parts = rig.parts_of(armature)
    pose = armature.pose
    assert pose is not None, "an armature object has its pose"
    for part in parts:
        pose_bone = pose.bones[part.bone]
        head = armature.matrix_world @ pose_bone.head
        tail = armature.matrix_world @ pose_bone.tail
        body = part.part.matrix_world.to_translation()
        buffer.add(np.array([head[:], tail[:], head[:], body[:]], np.float32), geometry.ROLE_COLORS['RAGDOLL'])
    return len(parts)


@dataclass
class OverlayLines:
    positions: np.ndarray  # (2 * segments, 3) float32, world space
    colors: np.ndarray  # (2 * segments, 4) float32
    shapes: int
    joints: int
    ragdoll_bones: int = 0


class _Walker:
    """Collects shapes grouped by (role, kind), so each group is placed by one numpy call."""

    def __init__(self, mesh_cache: MeshEdgeCache, depsgraph: bpy.types.Depsgraph | None) -> None:
        self.buffer = geometry.LineBuffer()
        self.mesh_cache = mesh_cache
        self.depsgraph = depsgraph
        self.roles: dict[int, str] = {}
        self.boxes: dict[str, tuple[list, list]] = {}
        self.rounds: dict[tuple[str, str], tuple[list, list]] = {}

    def add_shape(self, role: str, obj: bpy.types.Object, shape: OMIShapeSettings, matrix: Matrix) -> None:
        kind = shape.shape_type
        if kind == 'BOX':
            matrices, sizes = self.boxes.setdefault(role, ([], []))
            matrices.append(matrix)
            sizes.append(shape.size[:])
        elif kind in PRIMITIVE_SHAPES:  # the round ones: the box is above
            matrices, params = self.rounds.setdefault((role, kind.lower()), ([], []))
            matrices.append(matrix)
            if kind == 'SPHERE':
                params.append((shape.radius, shape.radius, 0.0))
            else:
                params.append((shape.radius_top, shape.radius_bottom, shape.height / 2.0))
        else:
            source = obj if shape.mesh_source == 'SELF' else shape.mesh_object
            if source is None or source.type not in {'MESH', 'CURVE', 'SURFACE', 'META', 'FONT'}:
                return
            edges = self.mesh_cache.edges(source, kind, self.depsgraph)
            self.buffer.add(geometry.mesh_lines(np.array(matrix), edges), geometry.ROLE_COLORS[role])

    def finish(self) -> tuple[np.ndarray, np.ndarray]:
        for role, (matrices, sizes) in self.boxes.items():
            self.buffer.add(geometry.boxes(np.array(matrices), np.array(sizes)), geometry.ROLE_COLORS[role])
        for (role, kind), (matrices, params) in self.rounds.items():
            values = np.array(params)
            self.buffer.add(geometry.rounds(kind, np.array(matrices), values[:, 0], values[:, 1], values[:, 2]),
                            geometry.ROLE_COLORS[role])
        return self.buffer.arrays()


def scene_lines(objects: Iterable[bpy.types.Object], mesh_cache: MeshEdgeCache | None = None,
                depsgraph: bpy.types.Depsgraph | None = None) -> OverlayLines:
    """Every collider, trigger and joint of `objects` as coloured world-space line pairs."""
    walker = _Walker(mesh_cache if mesh_cache is not None else MeshEdgeCache(), depsgraph)
    shapes = joints = ragdoll_bones = 0
    for obj in objects:
        if obj.type == 'ARMATURE':
            ragdoll_bones += _add_ragdoll(walker.buffer, obj)
        settings = object_physics(obj)
        use_collider = settings.use_collider and not settings.collider.is_compound
        use_trigger = settings.use_trigger and not settings.trigger.is_compound
        if not (use_collider or use_trigger or settings.use_joint):
            continue
        matrix_world = obj.matrix_world
        if use_collider:
            shape = settings.collider.shape
            walker.add_shape(_role(obj, walker.roles), obj, shape, _shape_matrix(matrix_world, shape))
            shapes += 1
        if use_trigger:
            shape = settings.trigger.shape
            walker.add_shape('TRIGGER', obj, shape, _shape_matrix(matrix_world, shape))
            shapes += 1
        if settings.use_joint:
            _add_joint(walker.buffer, obj)
            joints += 1
    positions, colors = walker.finish()
    return OverlayLines(positions, colors, shapes, joints, ragdoll_bones)
