"""glTF meshes for convex and triangle-mesh shapes: one triangle primitive, positions and indices only.

The shape's geometry is the source object's mesh in the source's own local coordinates, placed in the
shape's frame (the object, moved by the shape offset); the source object's transform does not matter.
That is how the viewport overlay draws it, so the file holds what the artist sees.

A shape uses the rendered mesh of its own node when that mesh already is what the shape needs (one
triangle primitive, modifiers applied, nothing that moves the vertices at load time; for a convex hull, no
vertex split for rendering: a flat-shaded tetrahedron renders with 12, and engines cap a hull's points).
Otherwise a collision-only mesh is built from the object's evaluated mesh (or its base mesh, for a Blender
rigid body set to "Base"). A collision-only mesh is referenced by the shape only, never by a node, so it is not
rendered. Equal requests share one mesh.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import bpy
import numpy as np

from .. import gltf_compat

FLOAT = 5126
UNSIGNED_SHORT = 5123
UNSIGNED_INT = 5125
ARRAY_BUFFER = 34962
ELEMENT_ARRAY_BUFFER = 34963
TRIANGLES = 4

MESH = bpy.types.Mesh  # looked up once: `bpy.types` finds a type anew on each access (about a microsecond)
OBJECT = bpy.types.Object

# Blender (x, y, z) -> glTF (x, z, -y), as a matrix acting on column vectors (same map as axes.vec_to_gltf).
_TO_GLTF = np.array(((1.0, 0.0, 0.0), (0.0, 0.0, 1.0), (0.0, -1.0, 0.0)))


@dataclass(frozen=True)
class MeshRequest:
    """The mesh a shape needs: whose geometry, and with or without modifiers."""

    source: bpy.types.Object
    evaluated: bool = True  # modifiers applied; False: the base mesh (a Blender rigid body's "Base" source)


def render_mesh_is_shape_mesh(gltf_node: Any, source: bpy.types.Object, export_settings: dict, *,
                              hull: bool = False) -> bool:
    """True when the mesh the exporter wrote on this object's own node can serve as its shape mesh (for a
    `hull`, only with no more points than the mesh has)."""
    mesh = getattr(gltf_node, "mesh", None)
    if mesh is None or getattr(gltf_node, "skin", None) is not None:
        return False
    if export_settings.get("gltf_draco_mesh_compression"):
        return False  # physics readers should not need a Draco decoder
    primitives = getattr(mesh, "primitives", None) or []
    if len(primitives) != 1 or primitives[0].mode not in (None, TRIANGLES):
        return False
    if "POSITION" not in (primitives[0].attributes or {}):
        return False
    data = source.data
    if getattr(data, "shape_keys", None) is not None:
        return False  # the file holds the basis; the evaluated shape may differ
    has_modifiers = bool(source.modifiers) and any(modifier.show_viewport for modifier in source.modifiers)
    if hull and not has_modifiers and isinstance(data, MESH):
        count = getattr(primitives[0].attributes["POSITION"], "count", None)
        if isinstance(count, int) and count > len(data.vertices):
            return False  # split per face or seam for rendering: the shape gets its welded points only
    return not has_modifiers or bool(export_settings.get("gltf_apply"))


class ShapeMeshes:
    """Builds and remembers the collision-only meshes of one export."""

    def __init__(self, gltf_node: Any) -> None:
        """`gltf_node`: any node the exporter made; its module holds the glTF classes to build with."""
        self._io = gltf_compat.gltf_io(gltf_node)
        self._binary_data = gltf_compat.binary_data_class(gltf_compat.package_root(gltf_node))
        self._built: dict[tuple, Any] = {}
        self.new_meshes: list[Any] = []  # built since the last `take_new`, still to be handed to the exporter

    def mesh_for(self, request: MeshRequest, depsgraph: bpy.types.Depsgraph) -> Any | None:
        """A glTF mesh of the request (shared with equal requests), or None when it has no triangle."""
        source = request.source
        modified = request.evaluated and (len(source.modifiers) > 0 or source.type != 'MESH')
        data = source.data  # None only on an empty, which the exporter sends evaluated
        key = (source.as_pointer() if modified or data is None else data.as_pointer(), modified)
        if key in self._built:
            return self._built[key]
        triangles = _triangles(source, request.evaluated, depsgraph)
        mesh = None if triangles is None else self._gltf_mesh(source.name, *triangles)
        self._built[key] = mesh
        if mesh is not None:
            self.new_meshes.append(mesh)
        return mesh

    def take_new(self) -> list[Any]:
        meshes, self.new_meshes = self.new_meshes, []
        return meshes

    def _gltf_mesh(self, name: str, positions: np.ndarray, indices: np.ndarray) -> Any:
        points = positions @ _TO_GLTF.T
        used, remapped = np.unique(indices, return_inverse=True)  # loose vertices would change a hull
        points = points[used].astype(np.float32)
        index_type, index_format = (UNSIGNED_SHORT, np.uint16) if len(used) < 65536 else (UNSIGNED_INT, np.uint32)
        gltf = self._io
        position_accessor = gltf.Accessor(
            buffer_view=self._binary_data(points.tobytes(), ARRAY_BUFFER), byte_offset=None,
            component_type=FLOAT, count=len(points), extensions=None, extras=None,
            max=[float(value) for value in points.max(axis=0)], min=[float(value) for value in points.min(axis=0)],
            name=None, normalized=None, sparse=None, type="VEC3",
        )
        index_accessor = gltf.Accessor(
            buffer_view=self._binary_data(remapped.astype(index_format).tobytes(), ELEMENT_ARRAY_BUFFER),
            byte_offset=None, component_type=index_type, count=len(remapped), extensions=None, extras=None,
            max=None, min=None, name=None, normalized=None, sparse=None, type="SCALAR",
        )
        primitive = gltf.MeshPrimitive(attributes={"POSITION": position_accessor}, extensions=None, extras=None,
                                       indices=index_accessor, material=None, mode=None, targets=None)
        return gltf.Mesh(extensions=None, extras=None, name=f"{name} collision", primitives=[primitive],
                         weights=None)


def _triangles(source: bpy.types.Object, evaluated: bool,
               depsgraph: bpy.types.Depsgraph) -> tuple[np.ndarray, np.ndarray] | None:
    """Vertex positions (object space, Blender axes) and triangle vertex indices of the source's mesh."""
    owner = source.evaluated_get(depsgraph) if evaluated else None
    try:
        if owner is not None:
            mesh = owner.to_mesh()
        elif isinstance(source.data, MESH):
            mesh = source.data
        else:
            owner = source.evaluated_get(depsgraph)
            mesh = owner.to_mesh()
        if mesh is None:
            return None
        mesh.calc_loop_triangles()
        positions = np.empty(len(mesh.vertices) * 3, dtype=np.float32)
        mesh.vertices.foreach_get("co", positions)
        indices = np.empty(len(mesh.loop_triangles) * 3, dtype=np.int32)
        mesh.loop_triangles.foreach_get("vertices", indices)
    finally:
        if owner is not None:
            owner.to_mesh_clear()
    if len(indices) == 0:
        return None
    return positions.reshape(-1, 3).astype(np.float64), indices
