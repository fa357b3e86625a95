"""The order of reading one document, shared by every dialect: arrays, nodes, then what needs every node.

`run` takes a prepared `ReadState` (its dialect's tables and `Spelling`) and leaves the model in its
`PhysicsDocument`: document arrays, each node, the legacy node-level shapes, the compound triggers, the
joints (once every body is known), the extensionsUsed check, then each node's parts frozen.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from ..checks import rulebook
from ..json_types import Where, get, join
from ..model import NodePhysics
from .joints import read_joint
from .legacy import attach_legacy_shapes
from .state import ReadState, document_array, revision
from .triggers import resolve_compound_triggers

T = TypeVar("T")


def run(state: ReadState) -> None:
    spelling = state.spelling
    spelling.read_arrays(state)
    for index, node_json in enumerate(state.nodes_json):
        spelling.read_node(state, index, node_json)
    attach_legacy_shapes(state)
    resolve_compound_triggers(state)
    for index in state.joint_nodes:
        read_joint(state, index, *spelling.joint_json(state, index))
    check_extensions_used(state)
    state.doc.revisions |= state.items.revisions_seen
    freeze(state)


def read_item_arrays(state: ReadState, revision_of: Mapping[str, str]) -> None:
    """The document-level arrays (shapes, materials, filters, joint settings), each read from the extension the
    dialect's `homes` put it in; `revision_of` names the revision a non-empty array shows (by array key)."""
    items = state.items
    state.shapes = _item_array(state, "shapes", items.read_shape, revision_of)
    state.materials = _item_array(state, "physicsMaterials", items.read_material, revision_of)
    state.filters = _item_array(state, "collisionFilters", items.read_filter, revision_of)
    state.joint_settings = _item_array(state, "physicsJoints", items.read_joint_settings, revision_of)


def _item_array(state: ReadState, key: str, read_item: Callable[[Any, Where], T],
                revision_of: Mapping[str, str]) -> list[T]:
    at, raw = document_array(state, state.dialect.homes[key], key)
    if raw and key in revision_of:
        revision(state, revision_of[key], at)
    return [read_item(item, join(at, i)) for i, item in enumerate(raw)]


def freeze(state: ReadState) -> None:
    """Each node's parts into the document; nodes of equal parts share one (immutable) value."""
    alike: dict[tuple[int, int, int], NodePhysics] = {}
    for index in sorted(state.nodes):
        built = state.nodes[index]
        if built.trigger is None and built.joint is None:
            parts = (id(built.motion), id(built.collider), id(built.body_unknown))
            physics = alike.get(parts)
            if physics is None:
                physics = alike[parts] = NodePhysics(built.motion, built.collider, unknown=built.body_unknown)
        else:
            physics = NodePhysics(built.motion, built.collider, built.trigger, built.joint, built.body_unknown)
        if not physics.is_empty or physics.unknown:  # a body of kept keys only is kept too
            state.doc.nodes[index] = physics


def check_extensions_used(state: ReadState) -> None:
    """A warning for each extension the document has content of but does not list in extensionsUsed."""
    listed = get(state.gltf, "extensionsUsed")
    names = set(listed) if isinstance(listed, list | tuple) and all(isinstance(n, str) for n in listed) else set()
    found = {name for name in state.dialect.extensions if name in state.doc.revisions}  # each is a revision too
    for name in sorted(found - names):
        state.issues.append(rulebook.issue("/extensionsUsed", f"{name} is used but not listed in extensionsUsed",
                                        "warning"))
