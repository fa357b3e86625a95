"""Reading a body extension's parts in the OMI structure: motion, collider and trigger, and the keys kept.

Functions over the reading state (`read/state.py`). `read_parts` reaches the parts through the dialect's
`Spelling`, so a dialect that spells one part apart (KHR's motion, its collider `geometry`) reuses the rest.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..json_types import Where, get, join, obj_or_none
from ..model import Collider, Motion, Shape
from .state import ReadState, node_state, resolve


def read_parts(state: ReadState, index: int, body: Mapping[str, Any], at: Where) -> None:
    """motion, collider and trigger of one node's body extension, and its other keys (kept)."""
    node = node_state(state, index)
    node.body_unknown = state.items.kept((), body, at, "body", known=(*state.dialect.body_parts, "type"))
    spelling = state.spelling
    if "motion" in body:
        node.motion = spelling.read_motion(state, body["motion"], join(at, "motion"))
    if "collider" in body:
        node.collider = spelling.read_collider(state, body["collider"], join(at, "collider"))
    if "trigger" in body:
        spelling.read_trigger(state, index, body["trigger"], join(at, "trigger"))


def read_motion(state: ReadState, raw: object, at: Where) -> Motion | None:
    motion = obj_or_none(raw, at, state.issues, "motion")
    if motion is None:
        return None
    return Motion(state.items.motion_type(motion, at), **state.items.motion_values(motion, at),
                  unknown=state.items.motion_unknown(motion, at))


def read_collider(state: ReadState, raw: object, at: Where) -> Collider | None:
    collider = obj_or_none(raw, at, state.issues, "collider")
    if collider is None:
        return None
    shape, _raw = state.spelling.shape_of(state, collider, at)
    material = resolve(state, get(collider, "physicsMaterial"), state.materials, join(at, "physicsMaterial"),
                       "physicsMaterial")
    collision_filter = resolve(state, get(collider, "collisionFilter"), state.filters, join(at, "collisionFilter"),
                               "collisionFilter")
    return Collider(shape, material, collision_filter,
                    state.items.kept(state.dialect.collider_fields, collider, at, "collider"))


def shape_of(state: ReadState, container: Mapping[str, Any], at: Where) -> tuple[Shape | None, object]:
    """The shape a collider or trigger refers to (None if absent or unusable), and the raw reference."""
    raw = get(container, "shape")
    return resolve(state, raw, state.shapes, join(at, "shape"), "shape"), raw
