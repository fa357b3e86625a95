"""glTF JSON (any OMI physics revision) -> the data model: the OMI structure's reading functions.

Revisions read (names recorded in `PhysicsDocument.revisions`, see `rulebook.REV_*`):
- current: OMI_physics_body `motion`/`collider`/`trigger`, physics materials, collision filters,
  explicit compound triggers, tapered radii with mid-height capsules; OMI_physics_joint limits/drives;
- shapes without their per-type sub-object (defaults), or with the values on the shape itself;
- `rigid` (and `character`/`vehicle`) as a motion type;
- legacy OMI_physics_body `type` enum with node-level `OMI_physics_shape: {"shape": i}` children;
- legacy OMI_collider (`colliders`, `isTrigger`, `hull`, full-height capsules).

This module reads the document arrays and the nodes; the items (shapes, materials, filters, joint settings,
motion values) are read by `read/items.py` from the dialect tables, a body's parts by `read/bodies.py`, the
legacy structures by `read/legacy.py`. Extension names come from the dialect's tables, so another dialect
of the same structure (tests/unit/toy_dialect.py) reads with these functions and its own tables.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..checks import rulebook
from ..dialects.base import Dialect
from ..dialects.omi import LEGACY_COLLIDER_EXTENSION, LEGACY_COLLIDERS_KEY, LEGACY_JOINT_CONSTRAINTS_KEY
from ..json_keys import value_key
from ..json_types import MISSING, ROOT, get, join, obj_or_none
from ..model import PhysicsDocument, Shape, Unknown
from . import bodies, joints, known_generators, legacy, triggers
from .document import read_item_arrays, run
from .state import NodeState, ReadState, Spelling, document_array, node_extensions, revision

COLLIDER = LEGACY_COLLIDER_EXTENSION


def read(gltf: Mapping[str, Any], doc: PhysicsDocument, dialect: Dialect, tree_mended: bool) -> list[Shape | None]:
    """Fill `doc` from a document in the OMI structure (every revision), spelled by `dialect`'s tables; the
    document-level shapes as read."""
    gltf, assumed = known_generators.as_written(gltf)  # a known writer's own reading (asset.generator)
    doc.issues.extend(assumed)
    state = ReadState(gltf, doc, dialect, SPELLING, tree_mended)
    run(state)
    if assumed:
        doc.issues[:] = known_generators.without_explained(doc.issues, assumed)
    return state.shapes


def read_arrays(state: ReadState) -> None:
    dialect = state.dialect
    shape, joint = dialect.shape_extension, dialect.joint_extension
    read_item_arrays(state, {"shapes": shape, "physicsJoints": joint})
    joint_root = get(state.extensions, joint)
    if isinstance(joint_root, Mapping) and LEGACY_JOINT_CONSTRAINTS_KEY in joint_root \
            and "physicsJoints" not in joint_root:
        state.issues.append(rulebook.issue(join(ROOT, "extensions", joint, LEGACY_JOINT_CONSTRAINTS_KEY),
                                        f"the first {joint} revision (`constraints`) is not supported; ignored",
                                        "warning"))
    if COLLIDER in dialect.legacy_extensions:
        at, raw = document_array(state, COLLIDER, LEGACY_COLLIDERS_KEY)
        if raw:
            revision(state, rulebook.REV_COLLIDER, at)
        state.colliders = [legacy.read_legacy_collider(state, item, join(at, i)) for i, item in enumerate(raw)]
    read_document_unknown(state)


def read_document_unknown(state: ReadState) -> None:
    """The keys of the document-level extensions beside their arrays (`{"futureArray": [...]}`), kept."""
    dialect = state.dialect
    shape, joint = dialect.shape_extension, dialect.joint_extension
    homes = [(name, name) for name in dialect.extensions]
    homes += [(name, shape) for name in dialect.legacy_extensions]  # the legacy OMI_collider's go where shapes go
    for name, home in homes:
        content = get(state.extensions, name)
        if isinstance(content, Mapping):
            known = (*dialect.arrays_of(name), *((LEGACY_JOINT_CONSTRAINTS_KEY,) if name == joint else ()),
                     *((LEGACY_COLLIDERS_KEY,) if name == COLLIDER else ()))
            kept = state.items.kept((), content, join(ROOT, "extensions", name), f"{name} extension", known=known)
            if kept:
                earlier = state.doc.unknown.get(home)
                state.doc.unknown[home] = Unknown({**kept, **(earlier or {})}, kept.dialect) if earlier else kept


def read_node(state: ReadState, index: int, node_json: object) -> None:
    extensions = node_json.get("extensions", MISSING) if type(node_json) is dict else None
    if extensions is MISSING:
        return  # most nodes of a large file: nothing to read, nothing to report
    if type(extensions) is not dict:
        extensions = node_extensions(state, index, node_json)
    dialect = state.dialect
    body_name, shape = dialect.body_extension, dialect.shape_extension
    if dialect.joint_extension in extensions:
        state.joint_nodes.append(index)  # read once every body is known
    legacy_names = (shape, *dialect.legacy_extensions)
    if body_name not in extensions and not any(name in extensions for name in legacy_names):
        return
    body_json = extensions.get(body_name)
    if type(body_json) is dict and not any(name in extensions for name in legacy_names):
        read_body_once(state, index, body_json)
        return
    at = join(ROOT, "nodes", index, "extensions")
    body = obj_or_none(get(extensions, body_name), join(at, body_name), state.issues, body_name)
    if body is not None:
        read_body(state, index, body, join(at, body_name))
    legacy.read_legacy_node_shapes(state, index, extensions, at)


def read_body_once(state: ReadState, index: int, body: dict[str, Any]) -> None:
    """read_body, with each distinct body object read once: a large file repeats a few bodies (the same
    motion, a collider on the same shape) on many nodes. What a body reads depends only on its JSON and
    the document's arrays, so a body read without any finding is the same model values wherever it sits;
    a body with a finding is read at each node (its pointers differ), and a trigger always (its members
    are node indices)."""
    key = value_key(body) if "trigger" not in body and "type" not in body else None
    known = state.bodies_read.get(key) if key is not None else None
    if known is not None:
        state.nodes[index] = NodeState(known[0], known[1], body_unknown=known[2])
        return
    before = len(state.issues)
    read_body(state, index, body, join(ROOT, "nodes", index, "extensions", state.dialect.body_extension))
    if key is not None and len(state.issues) == before:
        built = state.nodes[index]
        state.bodies_read[key] = (built.motion, built.collider, built.body_unknown)


def read_body(state: ReadState, index: int, body: Mapping[str, Any], at: Any) -> None:
    current = [key for key in state.dialect.body_parts if key in body]
    if current:
        revision(state, state.dialect.body_extension, at)
        if "type" in body:
            state.issues.append(rulebook.issue(join(at, "type"), "legacy body `type` next to motion/collider/"
                                                              "trigger; ignored", "warning"))
    elif "type" in body:
        legacy.read_legacy_body(state, index, body, at)
        return
    bodies.read_parts(state, index, body, at)


SPELLING = Spelling(
    read_arrays=read_arrays,
    read_node=read_node,
    joint_json=joints.joint_json,
    read_motion=bodies.read_motion,
    read_collider=bodies.read_collider,
    read_trigger=triggers.read_trigger,
    shape_of=bodies.shape_of,
)
