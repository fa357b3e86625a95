"""Whether a joint's Blender constraint reads back as the joint's settings, so that an edit of it in
Blender's Rigid Body Constraint panel can be taken back into them.

It does when the build made one constraint at the joint's frame for it and the connected body starts
there (Blender measures limits from the starting pose, so the build shifts them by any other start, and
a joint may become several constraints): then the adopt's reading (`adopt/from_constraints`) is the
build's mapping run backwards. Checked right after the build, on what it wrote.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import bpy

from ...omi import model
from ..adopt import from_constraints

_PLACES = 5  # float32 limits within 1e-5 (metres, radians)


def _plain(value: Any) -> Any:
    if isinstance(value, float):
        return round(value, _PLACES) + 0.0
    if isinstance(value, tuple | list):
        return tuple(_plain(item) for item in value)
    return value


def _items(items: tuple[Any, ...]) -> list[tuple[Any, ...]]:
    rows = [_plain(tuple(getattr(item, f.name) for f in dataclasses.fields(item) if f.name != "unknown"))
            for item in items]
    return sorted(rows, key=repr)


def reads_back(empty: bpy.types.Object, settings: model.JointSettings) -> bool:
    """Whether the constraint on `empty` reads back as these joint settings."""
    joint = from_constraints.constraint_joint(empty, None)
    if joint is None:
        return False
    return _items(joint.settings.limits) == _items(settings.limits) \
        and _items(joint.settings.drives) == _items(settings.drives)
