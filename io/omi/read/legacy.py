"""Reading the legacy OMI revisions into the model: the body `type` enum with node-level OMI_physics_shape
children, and OMI_collider (`colliders`, `isTrigger`, `hull`, full-height capsules).

Only the structure is legacy here: values go through the current tables (`read/items.py`). Functions over
the reading state (`read/state.py`); the shape extension's name comes from the dialect read.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .. import model
from ..checks import rulebook
from ..dialects.omi import (
    LEGACY_BODY_MOTION_KEYS,
    LEGACY_COLLIDER_EXTENSION,
    LEGACY_INERTIA_TENSOR_KEY,
    LEGACY_IS_TRIGGER_KEY,
)
from ..dialects.unknown_keys import FOREIGN
from ..json_types import Where, bool_or, describe, get, join, obj_or_none, report, vec_or
from ..model import Collider, Motion, Shape, Trigger, Unknown
from .items import inertia_diagonal
from .state import ReadState, node_state, resolve, revision

COLLIDER = LEGACY_COLLIDER_EXTENSION


# --- OMI_collider ---------------------------------------------------------------------------------


def read_legacy_collider(state: ReadState, raw: object, at: Where) -> tuple[Shape, bool] | None:
    """An OMI_collider colliders[] entry: (shape, is_trigger)."""
    shape = state.items.read_shape(raw, at, legacy_collider=True)
    if shape is None:
        return None
    is_trigger = bool_or(get(raw, LEGACY_IS_TRIGGER_KEY), False, join(at, LEGACY_IS_TRIGGER_KEY), state.issues,
                         LEGACY_IS_TRIGGER_KEY)
    return shape, is_trigger


def read_legacy_node_shapes(state: ReadState, index: int, extensions: Mapping[str, Any], at: Where) -> None:
    """Node-level OMI_physics_shape {"shape": i} and OMI_collider {"collider": i}, attached later."""
    name = state.dialect.shape_extension
    shape_ref = obj_or_none(get(extensions, name), join(at, name), state.issues, "node-level " + name)
    if shape_ref is not None:
        revision(state, rulebook.REV_BODY_TYPE, join(at, name))
        shape = resolve(state, get(shape_ref, "shape"), state.shapes, join(at, name, "shape"), "shape")
        if shape is not None:
            kept = state.items.kept((), shape_ref, join(at, name), "node-level " + name, known=("shape",))
            node_state(state, index).legacy_shapes.append((join(at, name), shape, False, kept))
        elif "shape" not in shape_ref:
            report(state.issues, join(at, name), f"node-level {name} has no `shape`; ignored")
    collider_ref = obj_or_none(get(extensions, COLLIDER), join(at, COLLIDER), state.issues, COLLIDER)
    if collider_ref is not None:
        revision(state, rulebook.REV_COLLIDER, join(at, COLLIDER))
        entry = resolve(state, get(collider_ref, "collider"), state.colliders, join(at, COLLIDER, "collider"),
                        "collider")
        if entry is not None:
            kept = state.items.kept((), collider_ref, join(at, COLLIDER), "node-level " + COLLIDER,
                                    known=("collider",))
            node_state(state, index).legacy_shapes.append((join(at, COLLIDER), entry[0], entry[1], kept))
        elif "collider" not in collider_ref:
            report(state.issues, join(at, COLLIDER), "node-level OMI_collider has no `collider`; ignored")


# --- body `type` -----------------------------------------------------------------------------


def read_legacy_body(state: ReadState, index: int, body: Mapping[str, Any], at: Where) -> None:
    revision(state, rulebook.REV_BODY_TYPE, at)
    type_value = body["type"]
    if not isinstance(type_value, str) or type_value not in rulebook.LEGACY_BODY_TYPES:
        report(state.issues, join(at, "type"), f"unknown legacy body type {describe(type_value)}; body dropped")
        return
    motion_type, note = rulebook.LEGACY_BODY_TYPES[type_value]
    if note:
        state.issues.append(rulebook.issue(join(at, "type"), note, "info"))
    node = node_state(state, index)
    kept = state.items.kept((), body, at, "legacy body", known=("type", *LEGACY_BODY_MOTION_KEYS,
                                                                LEGACY_INERTIA_TENSOR_KEY))
    if motion_type is None:  # a trigger body: its keys stay on the body object, which holds the trigger
        node.legacy_trigger_body = True
        node.body_unknown = kept
        return
    values = state.items.motion_values({key: body[key] for key in LEGACY_BODY_MOTION_KEYS if key in body}, at)
    if LEGACY_INERTIA_TENSOR_KEY in body:
        values["inertia_diagonal"] = inertia_tensor(state, body[LEGACY_INERTIA_TENSOR_KEY],
                                                         join(at, LEGACY_INERTIA_TENSOR_KEY))
    # carried where the current revision has room: extras/extensions stay on the body object, the keys
    # beside the motion values go into the motion object
    node.body_unknown = Unknown({key: value for key, value in kept.items() if key in FOREIGN}, kept.dialect)
    node.motion = Motion(motion_type, **values,
                         unknown=Unknown({key: value for key, value in kept.items() if key not in FOREIGN},
                                         kept.dialect))


def inertia_tensor(state: ReadState, raw: object, at: Where) -> model.Vec3:
    """The diagonal of a legacy 3x3 inertia tensor (9 numbers, flat or as 3 rows)."""
    rows: Any = raw if isinstance(raw, list | tuple) else None
    if rows is not None and len(rows) == 3 and all(isinstance(row, list | tuple) for row in rows):
        rows = [value for row in rows for value in row]
    numbers = vec_or(rows if rows is not None else raw, 9, None, at, state.issues, what=LEGACY_INERTIA_TENSOR_KEY)
    if numbers is None:
        return model.ZERO3
    return inertia_diagonal(numbers, at, state.issues)


def legacy_body_of(state: ReadState, index: int) -> int | None:
    """The nearest node (self included) carrying a legacy body `type`."""
    for candidate in state.hierarchy.ancestors_or_self(index):
        if has_legacy_type(state, candidate):
            return candidate
    return None


def has_legacy_type(state: ReadState, index: int) -> bool:
    node_json = state.nodes_json[index] if 0 <= index < len(state.nodes_json) else None
    body = get(get(node_json, "extensions"), state.dialect.body_extension)
    return isinstance(body, Mapping) and "type" in body and not any(
        key in body for key in state.dialect.body_parts)


def attach_legacy_shapes(state: ReadState) -> None:
    """Node-level OMI_physics_shape / OMI_collider shapes become colliders or triggers."""
    for index in sorted(state.nodes):
        node = state.nodes[index]
        for at, shape, is_trigger, kept in node.legacy_shapes:  # the reference's kept keys: on the new part
            owner = legacy_body_of(state, index)
            under_trigger_body = owner is not None and owner in state.nodes and state.nodes[owner].legacy_trigger_body
            if is_trigger or under_trigger_body:
                if node.trigger is not None:
                    report(state.issues, at, "node already has a trigger; legacy shape ignored", "warning")
                    continue
                node.trigger = Trigger(shape, unknown=kept)
            elif node.collider is not None:
                report(state.issues, at, "node already has a collider; legacy shape ignored", "warning")
            else:
                node.collider = Collider(shape, unknown=kept)
