"""Reading the legacy OMI revisions into the model: the body `type` enum with node-level OMI_physics_shape
children, and OMI_collider (`colliders`, `isTrigger`, `hull`, full-height capsules).

Only the structure is legacy here: values go through the current tables (`reader_items`). `LegacyReading`
is the part of the document reader (`reader._Reader`) that knows these forms; the state it shares with
the rest of the reader is declared on it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .. import model
from ..checks import rules
from ..dialects.base import LEGACY_BODY_MOTION_KEYS, LEGACY_INERTIA_TENSOR_KEY, LEGACY_IS_TRIGGER_KEY, OMI
from ..dialects.unknown_keys import FOREIGN
from ..json_types import Where, bool_or, describe, get, join, obj_or_none, report, vec_or
from ..model import NOTHING_UNKNOWN, Collider, Issue, Joint, Motion, Shape, Trigger, Unknown
from .items import ItemReader, inertia_diagonal

BODY = model.BODY_EXTENSION
SHAPE = model.SHAPE_EXTENSION
COLLIDER = model.LEGACY_COLLIDER_EXTENSION


@dataclass(slots=True)
class NodeState:
    """What one node says, while reading (frozen into NodePhysics at the end)."""

    motion: Motion | None = None
    collider: Collider | None = None
    trigger: Trigger | None = None
    joint: Joint | None = None
    # compound trigger still to resolve: explicit members (pointer, index) or implicit (`trigger: {}`)
    compound_members: list[tuple[Where, int]] | None = None
    implicit_compound: bool = False
    legacy_trigger_body: bool = False
    # (pointer, shape, is_trigger, the node-level reference object's kept keys)
    legacy_shapes: list[tuple[Where, Shape, bool, Unknown]] = field(default_factory=list)
    body_unknown: Unknown = NOTHING_UNKNOWN  # the body extension object's keys the model does not read
    trigger_unknown: Unknown = NOTHING_UNKNOWN  # the trigger's, kept until a compound trigger is resolved


class LegacyReading:
    """The legacy forms, as methods of the document reader."""

    issues: list[Issue]
    items: ItemReader
    nodes: dict[int, NodeState]
    nodes_json: list[Any]
    hierarchy: rules.Hierarchy
    shapes: list[Shape | None]
    colliders: list[tuple[Shape, bool] | None]

    def revision(self, name: str, at: Where) -> None:
        raise NotImplementedError

    def node(self, index: int) -> NodeState:
        return self.nodes.setdefault(index, NodeState())

    def resolve(self, value: object, items: list[Any], at: Where, what: str) -> Any:
        raise NotImplementedError

    # --- OMI_collider ----------------------------------------------------------------------------

    def read_legacy_collider(self, raw: object, at: Where) -> tuple[Shape, bool] | None:
        """An OMI_collider colliders[] entry: (shape, is_trigger)."""
        shape = self.items.read_shape(raw, at, legacy_collider=True)
        if shape is None:
            return None
        is_trigger = bool_or(get(raw, LEGACY_IS_TRIGGER_KEY), False, join(at, LEGACY_IS_TRIGGER_KEY), self.issues,
                             LEGACY_IS_TRIGGER_KEY)
        return shape, is_trigger

    def read_legacy_node_shapes(self, index: int, extensions: Mapping[str, Any], at: Where) -> None:
        """Node-level OMI_physics_shape {"shape": i} and OMI_collider {"collider": i}, attached later."""
        shape_ref = obj_or_none(get(extensions, SHAPE), join(at, SHAPE), self.issues, "node-level " + SHAPE)
        if shape_ref is not None:
            self.revision(rules.REV_BODY_TYPE, join(at, SHAPE))
            shape = self.resolve(get(shape_ref, "shape"), self.shapes, join(at, SHAPE, "shape"), "shape")
            if shape is not None:
                kept = self.items.kept((), shape_ref, join(at, SHAPE), "node-level " + SHAPE, known=("shape",))
                self.node(index).legacy_shapes.append((join(at, SHAPE), shape, False, kept))
            elif "shape" not in shape_ref:
                report(self.issues, join(at, SHAPE), "node-level OMI_physics_shape has no `shape`; ignored")
        collider_ref = obj_or_none(get(extensions, COLLIDER), join(at, COLLIDER), self.issues, COLLIDER)
        if collider_ref is not None:
            self.revision(rules.REV_COLLIDER, join(at, COLLIDER))
            entry = self.resolve(get(collider_ref, "collider"), self.colliders, join(at, COLLIDER, "collider"),
                                 "collider")
            if entry is not None:
                kept = self.items.kept((), collider_ref, join(at, COLLIDER), "node-level " + COLLIDER,
                                       known=("collider",))
                self.node(index).legacy_shapes.append((join(at, COLLIDER), entry[0], entry[1], kept))
            elif "collider" not in collider_ref:
                report(self.issues, join(at, COLLIDER), "node-level OMI_collider has no `collider`; ignored")

    # --- body `type` -----------------------------------------------------------------------------

    def read_legacy_body(self, index: int, body: Mapping[str, Any], at: Where) -> None:
        self.revision(rules.REV_BODY_TYPE, at)
        type_value = body["type"]
        if not isinstance(type_value, str) or type_value not in rules.LEGACY_BODY_TYPES:
            report(self.issues, join(at, "type"), f"unknown legacy body type {describe(type_value)}; body dropped")
            return
        motion_type, note = rules.LEGACY_BODY_TYPES[type_value]
        if note:
            self.issues.append(rules.issue(join(at, "type"), note, "info"))
        node = self.node(index)
        kept = self.items.kept((), body, at, "legacy body", known=("type", *LEGACY_BODY_MOTION_KEYS,
                                                                    LEGACY_INERTIA_TENSOR_KEY))
        if motion_type is None:  # a trigger body: its keys stay on the body object, which holds the trigger
            node.legacy_trigger_body = True
            node.body_unknown = kept
            return
        values = self.items.motion_values({key: body[key] for key in LEGACY_BODY_MOTION_KEYS if key in body}, at)
        if LEGACY_INERTIA_TENSOR_KEY in body:
            values["inertia_diagonal"] = self.inertia_tensor(body[LEGACY_INERTIA_TENSOR_KEY],
                                                             join(at, LEGACY_INERTIA_TENSOR_KEY))
        # carried where the current revision has room: extras/extensions stay on the body object, the keys
        # beside the motion values go into the motion object
        node.body_unknown = Unknown({key: value for key, value in kept.items() if key in FOREIGN}, kept.dialect)
        node.motion = Motion(motion_type, **values,
                             unknown=Unknown({key: value for key, value in kept.items() if key not in FOREIGN},
                                             kept.dialect))

    def inertia_tensor(self, raw: object, at: Where) -> model.Vec3:
        """The diagonal of a legacy 3x3 inertia tensor (9 numbers, flat or as 3 rows)."""
        rows: Any = raw if isinstance(raw, list | tuple) else None
        if rows is not None and len(rows) == 3 and all(isinstance(row, list | tuple) for row in rows):
            rows = [value for row in rows for value in row]
        numbers = vec_or(rows if rows is not None else raw, 9, None, at, self.issues, what=LEGACY_INERTIA_TENSOR_KEY)
        if numbers is None:
            return model.ZERO3
        return inertia_diagonal(numbers, at, self.issues)

    def legacy_body_of(self, index: int) -> int | None:
        """The nearest node (self included) carrying a legacy body `type`."""
        for candidate in self.hierarchy.ancestors_or_self(index):
            if self.has_legacy_type(candidate):
                return candidate
        return None

    def has_legacy_type(self, index: int) -> bool:
        node_json = self.nodes_json[index] if 0 <= index < len(self.nodes_json) else None
        body = get(get(node_json, "extensions"), BODY)
        return isinstance(body, Mapping) and "type" in body and not any(
            key in body for key in OMI.body_parts)

    def attach_legacy_shapes(self) -> None:
        """Node-level OMI_physics_shape / OMI_collider shapes become colliders or triggers."""
        for index in sorted(self.nodes):
            node = self.nodes[index]
            for at, shape, is_trigger, kept in node.legacy_shapes:  # the reference's kept keys: on the new part
                owner = self.legacy_body_of(index)
                under_trigger_body = owner is not None and owner in self.nodes and self.nodes[owner].legacy_trigger_body
                if is_trigger or under_trigger_body:
                    if node.trigger is not None:
                        report(self.issues, at, "node already has a trigger; legacy shape ignored", "warning")
                        continue
                    node.trigger = Trigger(shape, unknown=kept)
                elif node.collider is not None:
                    report(self.issues, at, "node already has a collider; legacy shape ignored", "warning")
                else:
                    node.collider = Collider(shape, unknown=kept)
