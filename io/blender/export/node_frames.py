"""Where the extra glTF nodes of an export go: shape frames, scale compensation, joint attachment frames.

The glTF exporter writes each object's node with the object's own transform. A shape that sits off the
object's origin, a primitive shape under a scaled object, or a joint's attachment frame needs nodes of
its own below the object's node. This module decides their local transforms; it works in Blender axes
(mathutils matrices, world space) and converts one finished local transform to glTF TRS through
`axes.py` at the very end.

A primitive shape stays on a uniformly scaled frame: both specs scale a shape with its node (KHR says
so; OMI only discourages scaled shape nodes, for engines that cannot scale a sphere or capsule unevenly),
so an imported file's scaled collider node keeps its collider. An unevenly scaled frame's scale is baked
into the shape's dimensions and the shape goes on a new node whose global transform is rigid. Box and
cylinder (with even radial scale) stay exact; what cannot (a sphere or capsule scaled unevenly, a box
slanted by a rotation inside an uneven scale) is approximated and described in words. Convex and
triangle-mesh shapes follow any linear transform exactly, so they keep the frame as it is.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass

from mathutils import Matrix

from ...omi import model
from ..tables import axes

TOLERANCE = 1e-5  # relative; float32 PropertyGroup values and matrix products stay well inside it
MIN_SCALE = 1e-9


@dataclass(frozen=True)
class GltfTRS:
    """One node's local transform in glTF axes; None for a component at its identity value."""

    translation: tuple[float, float, float] | None
    rotation: tuple[float, float, float, float] | None  # x, y, z, w
    scale: tuple[float, float, float] | None


@dataclass(frozen=True)
class ShapePlacement:
    """How a shape is written: on `len(chain)` new nodes below the object's node (none: on the node itself)."""

    chain: tuple[Matrix, ...]
    shape: model.Shape
    approximation: str = ""  # what was approximated, in an artist's words; empty when exact

    def why_new_node(self, shape: model.Shape) -> str:
        """Why the shape (`shape`, as given) goes on new nodes (`chain` not empty)."""
        if self.shape != shape:
            return "its node is scaled unevenly, which not every engine can apply to a primitive shape, so it " \
                   "is written at its scaled size on an unscaled child"
        return "its shape is offset from the object"


def shape_node_name(obj_name: str, role: str) -> str:
    """The name of the node added for an object's collider or trigger (`role`)."""
    return f"{obj_name}.{role}"


def rigid(matrix: Matrix) -> Matrix:
    """The matrix without its scale (and without shear): location and rotation only."""
    location, rotation, _scale = matrix.decompose()
    return Matrix.LocRotScale(location, rotation, None)  # type: ignore[arg-type]  # the newest stubs' LocRotScale takes no Vector


def _close(a: Matrix, b: Matrix, size: float = 1.0) -> bool:
    tolerance = TOLERANCE * max(1.0, size)
    for row in range(4):
        row_a, row_b = a[row], b[row]  # each row read once: indexing a matrix makes a vector each time
        for col in range(4):
            if abs(row_a[col] - row_b[col]) > tolerance:
                return False
    return True


def is_trs(matrix: Matrix) -> bool:
    """True when a glTF node (translation, rotation, scale) can hold the matrix exactly."""
    location, rotation, scale = matrix.decompose()
    return _close(Matrix.LocRotScale(location, rotation, scale), matrix, location.length)  # type: ignore[arg-type]  # the newest stubs' LocRotScale takes no Vector


def is_rigid(matrix: Matrix) -> bool:
    """True when the matrix has no scale: unit, orthogonal axes."""
    return _close(rigid(matrix), matrix, matrix.translation.length)


def coincide(a: Matrix, b: Matrix) -> bool:
    """True when two frames are at the same place with the same orientation and scale."""
    return _close(a, b, max(a.translation.length, b.translation.length))


def child_chain(parent_world: Matrix, target_world: Matrix) -> tuple[Matrix, ...] | None:
    """Local matrices of the nodes to append below a node whose global transform is `parent_world`, so
    that the last node's global transform is `target_world`.

    One node when its TRS can hold the relative transform. Otherwise (an unevenly scaled parent and a
    target turned against its scale axes) two: the first undoes the parent's scale, the second is rigid.
    None when the parent is scaled to zero and nothing can be placed below it.
    """
    _location, _rotation, scale = parent_world.decompose()
    if min(abs(component) for component in scale[:]) < MIN_SCALE:
        return None
    local = parent_world.inverted_safe() @ target_world
    if is_trs(local):
        return (local,)
    unscale = Matrix.Diagonal((1.0 / scale[0], 1.0 / scale[1], 1.0 / scale[2], 1.0))
    unscaled_world = parent_world @ unscale
    return unscale, rigid(unscaled_world).inverted_safe() @ target_world


def _axis_lengths(frame: Matrix) -> tuple[tuple[float, float, float], bool]:
    """Lengths of the frame's three axes in Blender order, and whether the axes are orthogonal."""
    linear = frame.to_3x3()
    columns = [linear.col[index] for index in range(3)]  # type: ignore[index]  # the stubs' MatrixAccess has no []
    lengths = tuple(column.length for column in columns)
    orthogonal = True
    for first, second in ((0, 1), (0, 2), (1, 2)):
        denominator = lengths[first] * lengths[second]
        if denominator > 0.0 and abs(columns[first].dot(columns[second])) > TOLERANCE * denominator:
            orthogonal = False
    return (lengths[0], lengths[1], lengths[2]), orthogonal


def _equal(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=TOLERANCE, abs_tol=MIN_SCALE)


def _baked_shape(shape: model.Shape, factors: tuple[float, float, float], orthogonal: bool) -> tuple[model.Shape, str]:
    """The shape with `factors` (per glTF shape axis) baked in, and what had to be approximated."""
    fx, fy, fz = factors
    slanted = "" if orthogonal else " and slanted by a rotation inside that scale"
    if shape.type == "box":
        size = (shape.size[0] * fx, shape.size[1] * fy, shape.size[2] * fz)
        note = "" if orthogonal else (f"the box is slanted by a rotation inside an uneven scale; exported as a "
                                      f"right-angled box with the same edge lengths ({_fmt(size)})")
        return dataclasses.replace(shape, size=size), note
    if shape.type == "sphere":
        radius = shape.radius * max(factors)
        note = "" if orthogonal and _equal(fx, fy) and _equal(fy, fz) else (
            f"the sphere is scaled unevenly{slanted}; exported as a sphere of radius {radius:.4g} that encloses it")
        return dataclasses.replace(shape, radius=radius), note
    radial = max(fx, fz)
    radius_top, radius_bottom = shape.radius_top * radial, shape.radius_bottom * radial
    if shape.type == "cylinder":
        height = shape.effective_height * fy
        note = "" if orthogonal and _equal(fx, fz) else (
            f"the cylinder is scaled unevenly across its axis{slanted}; exported with radius scaled by {radial:.4g}")
        return dataclasses.replace(shape, height=height, radius_top=radius_top, radius_bottom=radius_bottom), note
    # Capsule: keep the full length along the axis; the end caps stay hemispheres of the scaled radius.
    full_length = (shape.effective_height + shape.radius_top + shape.radius_bottom) * fy
    height = full_length - radius_top - radius_bottom
    note = ""
    if not (orthogonal and _equal(fx, fy) and _equal(fy, fz)):
        note = (f"the capsule is scaled unevenly{slanted}; exported with radius scaled by {radial:.4g} "
                f"and its full length kept")
    if height <= TOLERANCE * full_length:
        height = max(TOLERANCE * full_length, MIN_SCALE)
        note = (f"the capsule is scaled so much wider than long{slanted} that it became a ball; exported with the "
                f"shortest possible middle")
    return dataclasses.replace(shape, height=height, radius_top=radius_top, radius_bottom=radius_bottom), note


def _fmt(values: tuple[float, ...]) -> str:
    return " x ".join(f"{value:.4g}" for value in values)


def unscaled(frame: Matrix) -> bool:
    """Unit axes at right angles (checked in C): a shape on this frame is written as it is."""
    return frame.to_3x3().is_orthogonal


def place_shape(shape: model.Shape, node_world: Matrix, offset: Matrix | None) -> ShapePlacement | None:
    """Where and how to write `shape` (glTF-space, in its frame's local units) of an object whose node has
    the global transform `node_world`; `offset` is the shape's frame relative to the object, or None.

    None when the frame is scaled to zero (there is no volume to export).
    """
    frame = node_world @ offset if offset is not None else node_world
    on_frame = (offset,) if offset is not None else ()
    if unscaled(frame):  # the common, exact case
        return ShapePlacement(on_frame, shape)
    lengths, orthogonal = _axis_lengths(frame)
    if min(lengths) < MIN_SCALE:
        return None
    if shape.type in model.MESH_SHAPE_TYPES:
        return ShapePlacement(on_frame, shape)
    if orthogonal and _equal(lengths[0], lengths[1]) and _equal(lengths[1], lengths[2]):
        return ShapePlacement(on_frame, shape)  # a uniform scale: every engine scales any shape by it
    chain = child_chain(node_world, rigid(frame))
    if chain is None:
        return None
    blender_x, blender_y, blender_z = lengths
    baked, note = _baked_shape(shape, (blender_x, blender_z, blender_y), orthogonal)  # glTF x, y, z
    return ShapePlacement(chain, baked, note)


def _rounded(value: float, identity: float) -> float:
    """Values within float noise of the identity become the identity, as the glTF exporter does."""
    return identity if abs(value - identity) < 1e-6 else float(value) + 0.0


def trs_to_gltf(local: Matrix) -> GltfTRS:
    """A local transform in Blender axes as glTF TRS; components at their identity value are None."""
    location, rotation, scale = local.decompose()
    rotation.normalize()
    tx, ty, tz = axes.vec_to_gltf(location)
    translation = (_rounded(tx, 0.0), _rounded(ty, 0.0), _rounded(tz, 0.0))
    qx, qy, qz, qw = axes.quat_to_gltf(rotation)
    if qw < 0.0:
        qx, qy, qz, qw = -qx, -qy, -qz, -qw
    quaternion = (_rounded(qx, 0.0), _rounded(qy, 0.0), _rounded(qz, 0.0), _rounded(qw, 1.0))
    sx, sy, sz = axes.size_to_gltf(scale)
    sizes = (_rounded(sx, 1.0), _rounded(sy, 1.0), _rounded(sz, 1.0))
    return GltfTRS(
        translation=None if translation == (0.0, 0.0, 0.0) else translation,
        rotation=None if quaternion == (0.0, 0.0, 0.0, 1.0) else quaternion,
        scale=None if sizes == (1.0, 1.0, 1.0) else sizes,
    )
