"""The smallest ball enclosing a point set (Fit Sphere, and the capsule and cylinder fits), in plain Python
and numpy: no bpy here.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import combinations

import numpy as np

Point = Sequence[float]  # three floats
Ball = tuple[tuple[float, float, float], float]  # center, squared radius
_MAX_PIVOTS = 1000  # a safety net: the pivoting ends after a few dozen steps at most
# Balls are (center, squared radius); points are 3-sequences of floats. The small solvers run on the
# support set only (at most five points), so plain float arithmetic beats numpy's per-call overhead.


def _sub(a: Point, b: Point) -> tuple[float, float, float]:
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2])


def _dot(a: Point, b: Point) -> float:
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


def _cross(a: Point, b: Point) -> tuple[float, float, float]:
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def _ball_of_two(a: Point, b: Point) -> Ball:
    center = ((a[0] + b[0]) / 2.0, (a[1] + b[1]) / 2.0, (a[2] + b[2]) / 2.0)
    delta = _sub(a, center)
    return center, _dot(delta, delta)


def _ball_of_three(a: Point, b: Point, c: Point) -> Ball:
    """The smallest ball with a, b and c on its boundary: their circumcircle (in their plane)."""
    ab, ac = _sub(b, a), _sub(c, a)
    normal = _cross(ab, ac)
    denominator = 2.0 * _dot(normal, normal)
    ab2, ac2 = _dot(ab, ab), _dot(ac, ac)
    if denominator <= 1e-18 * max(ab2, ac2, 1e-300) ** 2:
        # Collinear: the two farthest apart span the ball.
        return max((_ball_of_two(a, b), _ball_of_two(a, c), _ball_of_two(b, c)), key=lambda ball: ball[1])
    u, v = _cross(normal, ab), _cross(ac, normal)
    offset = tuple((ac2 * u[i] + ab2 * v[i]) / denominator for i in range(3))
    return (a[0] + offset[0], a[1] + offset[1], a[2] + offset[2]), _dot(offset, offset)


def _ball_of_four(a: Point, b: Point, c: Point, d: Point) -> Ball | None:
    """The circumsphere of four points, or None when they are (nearly) coplanar."""
    rows = (_sub(b, a), _sub(c, a), _sub(d, a))
    cofactors = (_cross(rows[1], rows[2]), _cross(rows[2], rows[0]), _cross(rows[0], rows[1]))
    determinant = _dot(rows[0], cofactors[0])
    largest = max(abs(x) for row in rows for x in row)
    if abs(determinant) <= 1e-12 * max(largest, 1e-300) ** 3:
        return None
    # Solve rows @ offset = rhs by Cramer's rule: offset = sum(rhs_i * cofactor_i) / determinant.
    rhs = tuple(0.5 * _dot(row, row) for row in rows)
    offset = tuple(sum(rhs[k] * cofactors[k][i] for k in range(3)) / determinant for i in range(3))
    return (a[0] + offset[0], a[1] + offset[1], a[2] + offset[2]), _dot(offset, offset)


def _ball_through(point: Point, support: list[Point], tolerance: float) -> tuple[list[Point], Ball] | None:
    """(support, ball) of the smallest ball holding `support` and `point` with `point` on its boundary.

    `point` lies outside the smallest ball of `support` (at most four points), so it is on the boundary
    of the new smallest ball, whose support is `point` plus one to three of the old support points:
    every such ball is a candidate, and the smallest one that holds them all wins.
    """
    candidates = [([point, *others], _ball_of_two(point, *others)) for others in combinations(support, 1)]
    candidates += [([point, *others], _ball_of_three(point, *others)) for others in combinations(support, 2)]
    for others in combinations(support, 3):
        ball = _ball_of_four(point, *others)
        if ball is not None:
            candidates.append(([point, *others], ball))
    candidates.sort(key=lambda candidate: candidate[1][1])
    for members, (center, radius_squared) in candidates:
        limit = math.sqrt(radius_squared) + tolerance
        if all(math.dist(center, other) <= limit for other in support):
            return members, (center, radius_squared)
    return None


def min_enclosing_ball(points: np.ndarray) -> tuple[np.ndarray, float]:
    """Smallest ball containing `points` ((N, 3); coplanar points give their smallest circle's ball).

    Pivoting, as in Gaertner's miniball: keep the support set (at most four points) of the smallest ball
    of the points seen so far; the point farthest from its centre (one vectorised pass over all points)
    joins it when outside, and the support of the new smallest ball is found among the few subsets that
    contain that point. The radius grows at every step, so this ends, exactly, after a few passes. A final
    pass grows the radius to cover every point, so the ball always encloses the input even where rounding
    picked a degenerate support set.
    """
    points = np.asarray(points, dtype=np.float64)
    tolerance = 1e-9 * (1.0 + float(np.abs(points).max()))
    first = int(np.argmax(((points - points[0]) ** 2).sum(axis=1)))
    second = int(np.argmax(((points - points[first]) ** 2).sum(axis=1)))
    support: list[Point] = [tuple(points[first].tolist()), tuple(points[second].tolist())]
    center, radius_squared = _ball_of_two(*support)
    for _step in range(_MAX_PIVOTS):
        distances = ((points - center) ** 2).sum(axis=1)
        farthest = int(np.argmax(distances))
        if math.sqrt(float(distances[farthest])) <= math.sqrt(radius_squared) + tolerance:
            break
        grown = _ball_through(tuple(points[farthest].tolist()), support, tolerance)
        if grown is None or grown[1][1] <= radius_squared:  # rounding left no progress to make
            break
        support, (center, radius_squared) = grown
    center_array = np.asarray(center, dtype=np.float64)
    radius = float(np.sqrt(((points - center_array) ** 2).sum(axis=1).max()))
    return center_array, radius
