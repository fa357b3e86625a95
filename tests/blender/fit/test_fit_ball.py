"""The smallest enclosing ball on the point sets where pivoting could go wrong: flat, collinear,
duplicated, cospherical and far from the origin. Checked against every ball spanned by 2-4 points."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest


@pytest.fixture
def fit(omi):
    return omi("io.blender.fit_ball")


def smallest_spanned_ball(points: np.ndarray, fit) -> float:
    """Radius of the smallest ball spanned by 2, 3 or 4 of the points that holds them all."""
    balls = [fit._ball_of_two(*pair) for pair in itertools.combinations(points, 2)]
    balls += [fit._ball_of_three(*triple) for triple in itertools.combinations(points, 3)]
    balls += [ball for quad in itertools.combinations(points, 4) if (ball := fit._ball_of_four(*quad)) is not None]
    tolerance = 1e-9 * (1.0 + abs(points).max())
    radii = [math.sqrt(r2) for center, r2 in balls
             if np.linalg.norm(points - np.asarray(center), axis=1).max() <= math.sqrt(r2) + tolerance]
    return min(radii)


def point_set(kind: str, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    points = rng.normal(size=(10, 3)) * (3.0, 1.0, 0.2)
    if kind == "flat":
        points[:, 2] = 0.0
    elif kind == "collinear":
        points = rng.normal(size=(10, 1)) * (1.0, -2.0, 0.5)
    elif kind == "duplicates":
        points = np.repeat(np.round(points[:4]), 3, axis=0)
    elif kind == "cospherical":
        points /= np.linalg.norm(points, axis=1)[:, None]
    elif kind == "far":
        points += (1e4, -2e4, 5e3)
    return points


@pytest.mark.parametrize("kind", ["spread", "flat", "collinear", "duplicates", "cospherical", "far"])
@pytest.mark.parametrize("seed", range(3))
def test_min_enclosing_ball_on_hard_sets(fit, kind, seed):
    points = point_set(kind, seed)
    center, radius = fit.min_enclosing_ball(points)
    assert np.linalg.norm(points - center, axis=1).max() <= radius  # encloses, with no tolerance at all
    assert radius == pytest.approx(smallest_spanned_ball(points, fit), rel=1e-7)


def test_min_enclosing_ball_of_one_point(fit):
    center, radius = fit.min_enclosing_ball(np.array([[1.0, 2.0, 3.0]] * 3))
    assert radius == 0.0
    assert np.allclose(center, (1.0, 2.0, 3.0))
