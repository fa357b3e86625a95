"""Line geometry of collider shapes and joint frames, as numpy arrays: no GPU needed, so it is testable.

Every shape family has one unit template of line-segment vertices (pairs), placed for many shapes at
once with numpy: boxes scale their corners by the size; round shapes (sphere, capsule, cylinder) place
unit directions at the top or bottom radius and shift them to the top or bottom end. Mesh shapes draw
the edges of their mesh (the hull's edges for convex shapes).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

SEGMENTS = 24  # per full circle: a multiple of 4, so the rings reach the shape's extremes

ROLE_COLORS: dict[str, tuple[float, float, float, float]] = {
    'STATIC': (0.45, 0.62, 0.95, 1.0),
    'KINEMATIC': (1.0, 0.62, 0.18, 1.0),
    'DYNAMIC': (0.35, 0.92, 0.4, 1.0),
    'TRIGGER': (0.9, 0.38, 0.95, 1.0),
    'JOINT': (1.0, 0.95, 0.3, 1.0),
    'LIMIT': (0.3, 0.95, 0.95, 1.0),
    'RAGDOLL': (1.0, 0.45, 0.65, 1.0),  # a ragdoll bone and the body it follows (or rides)
    'GRAVITY': (0.95, 0.95, 0.95, 1.0),  # a gravity volume's arrows and its target
}
AXIS_COLORS = ((1.0, 0.25, 0.25, 1.0), (0.35, 1.0, 0.35, 1.0), (0.35, 0.55, 1.0, 1.0))


def _segments_of_polyline(points: np.ndarray, closed: bool) -> np.ndarray:
    """Consecutive points as line pairs (V, 3) -> (2 * edges, 3)."""
    end = points if not closed else np.vstack([points, points[:1]])
    return np.stack([end[:-1], end[1:]], axis=1).reshape(-1, points.shape[1])


def _circle(plane: str, count: int = SEGMENTS, start: float = 0.0, stop: float = 2 * math.pi,
            closed: bool = True) -> np.ndarray:
    angles = np.linspace(start, stop, count + (0 if closed else 1), endpoint=not closed)
    cos, sin, zero = np.cos(angles), np.sin(angles), np.zeros_like(angles)
    columns = {"XY": (cos, sin, zero), "XZ": (cos, zero, sin), "YZ": (zero, cos, sin)}[plane]
    return _segments_of_polyline(np.stack(columns, axis=1), closed)


def _box_template() -> np.ndarray:
    corners = np.array([(x, y, z) for x in (-0.5, 0.5) for y in (-0.5, 0.5) for z in (-0.5, 0.5)])
    edges = [(a, b) for a in range(8) for b in range(a + 1, 8) if bin(a ^ b).count("1") == 1]
    return corners[np.array(edges).ravel()]


@dataclass(frozen=True)
class RoundTemplate:
    """Unit directions, which end (1 top, 0 bottom) each vertex belongs to, as line pairs."""

    directions: np.ndarray
    top: np.ndarray


def _round_template(kind: str) -> RoundTemplate:
    parts: list[tuple[np.ndarray, np.ndarray]] = []
    if kind == "sphere":
        for plane in ("XY", "XZ", "YZ"):
            ring = _circle(plane)
            parts.append((ring, np.ones(len(ring), bool)))
    else:
        for top in (True, False):
            ring = _circle("XY")
            parts.append((ring, np.full(len(ring), top)))
        sides = np.array([(1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0)], float)
        side_lines = np.repeat(sides, 2, axis=0)
        parts.append((side_lines, np.tile([True, False], len(sides))))
        if kind == "capsule":
            for plane in ("XZ", "YZ"):
                upper = _circle(plane, SEGMENTS // 2, 0.0, math.pi, closed=False)
                lower = _circle(plane, SEGMENTS // 2, math.pi, 2 * math.pi, closed=False)
                parts.append((upper, np.ones(len(upper), bool)))
                parts.append((lower, np.zeros(len(lower), bool)))
    return RoundTemplate(np.vstack([p[0] for p in parts]), np.concatenate([p[1] for p in parts]))


BOX_TEMPLATE = _box_template()
ROUND_TEMPLATES = {kind: _round_template(kind) for kind in ("sphere", "capsule", "cylinder")}


def transform(matrices: np.ndarray, local: np.ndarray) -> np.ndarray:
    """(N, 4, 4) matrices applied to (N, V, 3) local points -> (N, V, 3) world points (float32)."""
    matrices = np.asarray(matrices, dtype=np.float32)
    world = np.matmul(np.asarray(local, dtype=np.float32), matrices[:, :3, :3].transpose(0, 2, 1))
    world += matrices[:, None, :3, 3]
    return world


def boxes(matrices: np.ndarray, sizes: np.ndarray) -> np.ndarray:
    """Line vertices of N boxes: (N * 24, 3)."""
    if not len(matrices):
        return np.empty((0, 3))
    return transform(matrices, BOX_TEMPLATE[None] * sizes[:, None, :]).reshape(-1, 3)


def rounds(kind: str, matrices: np.ndarray, radius_top: np.ndarray, radius_bottom: np.ndarray,
           half_height: np.ndarray) -> np.ndarray:
    """Line vertices of N spheres/capsules/cylinders standing along local Z."""
    if not len(matrices):
        return np.empty((0, 3))
    template = ROUND_TEMPLATES[kind]
    radius = np.where(template.top[None], radius_top[:, None], radius_bottom[:, None]).astype(np.float32)
    local = template.directions.astype(np.float32)[None] * radius[..., None]  # (N, V, 3)
    local[..., 2] += np.where(template.top, 1.0, -1.0).astype(np.float32)[None] * half_height[:, None]
    return transform(matrices, local).reshape(-1, 3)


def mesh_lines(matrix: np.ndarray, edge_vertices: np.ndarray) -> np.ndarray:
    """A mesh's edges (pairs of local points) placed by one matrix."""
    if not len(edge_vertices):
        return np.empty((0, 3))
    return transform(matrix[None], edge_vertices[None]).reshape(-1, 3)


def joint_frame(matrix: np.ndarray, size: float) -> tuple[np.ndarray, np.ndarray]:
    """An axis tripod (X red, Y green, Z blue) of length `size`: (6, 3) vertices and (6, 4) colours."""
    local = np.array([(0, 0, 0), (size, 0, 0), (0, 0, 0), (0, size, 0), (0, 0, 0), (0, 0, size)], float)
    colors = np.repeat(np.array(AXIS_COLORS), 2, axis=0)
    return mesh_lines(matrix, local), colors


def angular_limit_arc(matrix: np.ndarray, axis: int, low: float, high: float, radius: float) -> np.ndarray:
    """The allowed swing around a local axis, as an arc from `low` to `high` plus its two end spokes."""
    count = max(2, int(SEGMENTS * abs(high - low) / (2 * math.pi)) + 1)
    angles = np.linspace(low, high, count + 1)
    u, v = [(1, 2), (2, 0), (0, 1)][axis]  # rotating around `axis` turns u towards v
    points = np.zeros((len(angles), 3))
    points[:, u] = np.cos(angles) * radius
    points[:, v] = np.sin(angles) * radius
    arc = _segments_of_polyline(points, closed=False)
    spokes = np.array([(0, 0, 0), points[0], (0, 0, 0), points[-1]])
    return mesh_lines(matrix, np.vstack([arc, spokes]))


def linear_limit_segment(matrix: np.ndarray, axis: int, low: float, high: float, tick: float) -> np.ndarray:
    """The allowed travel along a local axis, with a tick across each end."""
    across = (axis + 1) % 3
    local = []
    for value in (low, high):
        point = np.zeros(3)
        point[axis] = value
        a, b = point.copy(), point.copy()
        a[across] -= tick
        b[across] += tick
        local += [a, b]
    start, end = np.zeros(3), np.zeros(3)
    start[axis], end[axis] = low, high
    local += [start, end]
    return mesh_lines(matrix, np.array(local))


@dataclass
class LineBuffer:
    """Growing lists of line vertices with one colour per chunk, joined once at the end."""

    positions: list[np.ndarray] = field(default_factory=list)
    colors: list[np.ndarray] = field(default_factory=list)

    def add(self, vertices: np.ndarray, color: tuple[float, float, float, float] | np.ndarray) -> None:
        if len(vertices):
            self.positions.append(np.asarray(vertices, dtype=np.float32))
            color = np.asarray(color, dtype=np.float32)
            self.colors.append(np.broadcast_to(color, (len(vertices), 4)) if color.ndim == 1 else color)

    def arrays(self) -> tuple[np.ndarray, np.ndarray]:
        if not self.positions:
            return np.empty((0, 3), np.float32), np.empty((0, 4), np.float32)
        return np.concatenate(self.positions), np.concatenate(self.colors).astype(np.float32, copy=False)
