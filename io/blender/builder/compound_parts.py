"""Compound bodies whose colliders differ in collision filter or physics material.

A Blender rigid body has one set of collision collections, one friction and one bounciness, and a compound
parent's children take part only as shapes: Bullet filters and combines per rigid body, so a child's own
collections or surface are never read. The build uses the first filter and material by name for the whole
body. When the filters differ, that changes what collides (a part that should pass through the ground may
rest on it, or the reverse): a warning, shown without -v, names the body and the filters. Differing
materials only change how the body slides and bounces: named once in the build's note.
"""

from __future__ import annotations

from ...omi import model
from .plan import PlannedBody
from .report import Report

MIXED_MATERIALS = "different physics materials within one body (the first by name is used for all)"


def _name(value: model.CollisionFilter | model.PhysicsMaterial | None) -> str:
    return "" if value is None else (value.name or "(unnamed)")


def name_mixed_surfaces(body: PlannedBody, report: Report) -> None:
    """Warn when the body's colliders carry different filters; note differing materials."""
    filters = {shape.filter for shape in body.shapes}
    if len(filters) > 1:
        names = sorted(_name(found) or "none" for found in filters)
        used = min(filters, key=_name)
        report.warn(body.owner, "/collider/collision_filter",
                    f"its colliders have different collision filters ({', '.join(names)}); a Blender rigid body "
                    f"has one, so the whole body collides as {_name(used) or 'unfiltered'}: parts filtered "
                    "otherwise collide differently than the file says")
    if len({shape.material for shape in body.shapes}) > 1:
        report.cannot(MIXED_MATERIALS, body.owner)
