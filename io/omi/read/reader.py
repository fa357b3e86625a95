"""glTF JSON (any OMI physics revision) -> the data model.

Revisions read (names recorded in `PhysicsDocument.revisions`, see `rules.REV_*`):
- current: OMI_physics_body `motion`/`collider`/`trigger`, physics materials, collision filters,
  explicit compound triggers, tapered radii with mid-height capsules; OMI_physics_joint limits/drives;
- shapes without their per-type sub-object (defaults), or with the values on the shape itself;
- `rigid` (and `character`/`vehicle`) as a motion type;
- legacy OMI_physics_body `type` enum with node-level `OMI_physics_shape: {"shape": i}` children;
- legacy OMI_collider (`colliders`, `isTrigger`, `hull`, full-height capsules).

This module reads the document and the nodes; the items (shapes, materials, filters, joint settings,
motion values) are read by `reader_items` from the dialect tables, the legacy structures by
`reader_legacy`. Everything invalid is dropped with an Issue and everything valid is kept.
`read_document` never raises: the input is narrowed through `json_types` and checked with `rules`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .. import model
from ..checks import rules
from ..dialects import gravity, pointers
from ..dialects.base import (
    LEGACY_COLLIDERS_KEY,
    LEGACY_JOINT_CONSTRAINTS_KEY,
    OMI,
    dialects_used,
    document_dialect,
)
from ..json_types import (
    MISSING,
    ROOT,
    Where,
    describe,
    get,
    index_or_none,
    join,
    list_or_none,
    obj_or_none,
    report,
    sequence_items,
    value_key,
)
from ..model import Collider, Issue, Motion, NodePhysics, PhysicsDocument, Shape, Unknown
from . import mixed, writers
from .items import ItemReader
from .joints import JointReading
from .legacy import LegacyReading, NodeState
from .triggers import TriggerReading

BODY = model.BODY_EXTENSION
SHAPE = model.SHAPE_EXTENSION
JOINT = model.JOINT_EXTENSION
COLLIDER = model.LEGACY_COLLIDER_EXTENSION

INTERNAL_ERROR = "internal reader error"


def read_document(gltf: Mapping[str, Any], dialect: str | None = None, *, tree_mended: bool = False) -> PhysicsDocument:
    """The physics of a glTF document (already parsed JSON), with every problem as an Issue.

    dialect: "OMI" or "KHR"; None reads the one the document uses (OMI when it has both, noted).
    tree_mended: the node tree has been checked and mended already (`gltf_structure`, the import's repair,
    which reported each link it dropped): the reader's own hierarchy is made only when a rule needs it.
    """
    if dialect is None and dialects_used(gltf) == {"OMI", "KHR"}:
        return mixed.read_both(gltf, lambda one, name: read_document(one, name, tree_mended=tree_mended), "OMI", "KHR")
    doc = PhysicsDocument()
    try:
        if dialect is None:
            dialect = document_dialect(gltf)
        if dialect == "KHR":
            from .khr import KhrReader  # noqa: PLC0415 - read.khr builds on this module

            KhrReader(gltf, doc, tree_mended).read()
            gravity.read_gravity(gltf, doc, ())  # KHR has no gravity of its own; its triggers may carry OMI's
        else:
            gltf, assumed = writers.as_written(gltf)  # a known writer's own reading (asset.generator)
            doc.issues.extend(assumed)
            reading = _Reader(gltf, doc, tree_mended)
            reading.read()
            if assumed:
                doc.issues[:] = writers.without_explained(doc.issues, assumed)
            gravity.read_gravity(reading.gltf, doc, reading.shapes)
    except Exception as error:  # last resort: a reader bug must not break an import
        doc.nodes.clear()
        doc.warn("", f"{INTERNAL_ERROR} ({type(error).__name__}: {error}); physics not read", "error")
    return doc


def validate(gltf: Mapping[str, Any]) -> list[Issue]:
    """Every rule violation in a glTF document: the issues of reading it, and of its animation channels that
    target physics values (KHR_animation_pointer, `pointers.check_animation`)."""
    return read_document(gltf).issues + pointers.check_animation(gltf)


class _Reader(LegacyReading, JointReading, TriggerReading):
    """The OMI reader (every revision). `reader_khr.KhrReader` reuses it, overriding what KHR spells apart."""

    body_extension = BODY  # the node-level extension that holds motion, collider and trigger
    joint_what = JOINT  # how messages name a node's joint object
    joint_placement_rules = True  # OMI: a joint on its own node, without a mesh
    def __init__(self, gltf: object, doc: PhysicsDocument, tree_mended: bool = False) -> None:
        self.doc = doc
        self.issues = doc.issues
        if not isinstance(gltf, Mapping):
            report(self.issues, "", f"a glTF document must be an object, got {describe(gltf)}")
            gltf = {}
        self.gltf: Mapping[str, Any] = gltf
        self.nodes_json = list_or_none(get(gltf, "nodes"), "/nodes", self.issues, "nodes") or []
        self.items = ItemReader(self.issues, len(sequence_items(get(gltf, "meshes"))), self.revision)
        self._hierarchy = None if tree_mended else rules.Hierarchy(self.nodes_json, self.issues)
        self.nodes: dict[int, NodeState] = {}
        self.noted: set[str] = set()
        self.joint_nodes: list[int] = []  # nodes with an OMI_physics_joint key, in index order
        # value_key of a body read without findings -> its motion, collider and kept keys
        self.bodies_read: dict[Any, tuple[Motion | None, Collider | None, Unknown]] = {}
        self.extensions = obj_or_none(get(gltf, "extensions"), "/extensions", self.issues, "extensions") or {}

    @property
    def hierarchy(self) -> rules.Hierarchy:  # type: ignore[override]
        """The node tree (made on first use when the caller mended it: its findings were the caller's)."""
        if self._hierarchy is None:
            self._hierarchy = rules.Hierarchy(self.nodes_json, [])
        return self._hierarchy

    # --- bookkeeping -----------------------------------------------------------------------------

    def revision(self, name: str, at: Where) -> None:
        """Record a revision; legacy ones get one 'info' issue per file."""
        if name not in self.doc.revisions and name in rules.LEGACY_REVISION_NOTES:
            self.issues.append(rules.issue(at, rules.LEGACY_REVISION_NOTES[name], "info"))
        self.doc.revisions.add(name)

    def once(self, key: str, found: Issue) -> None:
        if key not in self.noted:
            self.noted.add(key)
            self.issues.append(found)

    # --- top level -------------------------------------------------------------------------------

    def read(self) -> None:
        self.read_document_arrays()
        for index, node_json in enumerate(self.nodes_json):
            self.read_node(index, node_json)
        self.attach_legacy_shapes()
        self.resolve_compound_triggers()
        for index in self.joint_nodes:
            self.read_joint(index, *self.joint_json(index))
        self.check_extensions_used()
        self.doc.revisions |= self.items.revisions_seen
        alike: dict[tuple[int, int, int], NodePhysics] = {}  # nodes of equal parts share one (immutable) value
        for index in sorted(self.nodes):
            built = self.nodes[index]
            if built.trigger is None and built.joint is None:
                parts = (id(built.motion), id(built.collider), id(built.body_unknown))
                physics = alike.get(parts)
                if physics is None:
                    physics = alike[parts] = NodePhysics(built.motion, built.collider, unknown=built.body_unknown)
            else:
                physics = NodePhysics(built.motion, built.collider, built.trigger, built.joint, built.body_unknown)
            if not physics.is_empty or physics.unknown:  # a body of kept keys only is kept too
                self.doc.nodes[index] = physics

    def document_array(self, extension: str, key: str) -> tuple[Where, list[Any]]:
        at = join(ROOT, "extensions", extension)
        container = obj_or_none(get(self.extensions, extension), at, self.issues, extension)
        items = list_or_none(get(container, key), join(at, key), self.issues, key) if container is not None else None
        if key in ("shapes", "physicsJoints", "colliders") and container is not None and (
                items == [] or key not in container):
            found = "empty" if items == [] else "missing"
            self.issues.append(rules.issue(join(at, key), f"{key} is {found} (the schema wants at least one)", "info"))
        return join(at, key), items or []

    def read_document_arrays(self) -> None:
        at, raw = self.document_array(SHAPE, "shapes")
        if raw:
            self.revision(rules.REV_SHAPE, at)
        self.shapes = [self.items.read_shape(item, join(at, i)) for i, item in enumerate(raw)]
        at, raw = self.document_array(BODY, "physicsMaterials")
        self.materials = [self.items.read_material(item, join(at, i)) for i, item in enumerate(raw)]
        at, raw = self.document_array(BODY, "collisionFilters")
        self.filters = [self.items.read_filter(item, join(at, i)) for i, item in enumerate(raw)]
        at, raw = self.document_array(JOINT, "physicsJoints")
        if raw:
            self.revision(rules.REV_JOINT, at)
        self.joint_settings = [self.items.read_joint_settings(item, join(at, i)) for i, item in enumerate(raw)]
        joint_root = get(self.extensions, JOINT)
        if isinstance(joint_root, Mapping) and "constraints" in joint_root and "physicsJoints" not in joint_root:
            self.issues.append(rules.issue(join(ROOT, "extensions", JOINT, "constraints"),
                                           "the first OMI_physics_joint revision (`constraints`) is not supported; "
                                           "ignored", "warning"))
        at, raw = self.document_array(COLLIDER, "colliders")
        if raw:
            self.revision(rules.REV_COLLIDER, at)
        self.colliders = [self.read_legacy_collider(item, join(at, i)) for i, item in enumerate(raw)]
        self.read_document_unknown()

    def read_document_unknown(self) -> None:
        """The keys of the document-level extensions beside their arrays (`{"futureArray": [...]}`), kept."""
        for name, home in ((SHAPE, SHAPE), (BODY, BODY), (JOINT, JOINT), (COLLIDER, SHAPE)):
            content = get(self.extensions, name)
            if isinstance(content, Mapping):  # the legacy OMI_collider's go where its shapes go
                known = (*OMI.arrays_of(name), *((LEGACY_JOINT_CONSTRAINTS_KEY,) if name == JOINT else ()),
                         *((LEGACY_COLLIDERS_KEY,) if name == COLLIDER else ()))
                kept = self.items.kept((), content, join(ROOT, "extensions", name), f"{name} extension", known=known)
                if kept:
                    earlier = self.doc.unknown.get(home)
                    self.doc.unknown[home] = Unknown({**kept, **(earlier or {})}, kept.dialect) if earlier else kept

    def resolve(self, value: object, items: Sequence[Any], at: Where, what: str) -> Any:
        """The item an index refers to, or None (reported) if the index or the item is unusable."""
        index = index_or_none(value, len(items), at, self.issues, what)
        if index is None:
            return None
        if items[index] is None:
            report(self.issues, at, f"{what} {index} refers to an item that was dropped; dropped")
        return items[index]

    # --- nodes ---------------------------------------------------------------------------------------

    def node_extensions(self, index: int, node_json: object) -> Mapping[str, Any]:
        if type(node_json) is not dict and not isinstance(node_json, Mapping):
            report(self.issues, join(ROOT, "nodes", index), f"node must be an object, got {describe(node_json)}; "
                   "ignored")
            return {}
        return obj_or_none(get(node_json, "extensions"), join(ROOT, "nodes", index, "extensions"), self.issues,
                           "extensions") or {}

    def read_node(self, index: int, node_json: object) -> None:
        extensions = node_json.get("extensions", MISSING) if type(node_json) is dict else None
        if extensions is MISSING:
            return  # most nodes of a large file: nothing to read, nothing to report
        if type(extensions) is not dict:
            extensions = self.node_extensions(index, node_json)
        if JOINT in extensions:
            self.joint_nodes.append(index)  # read once every body is known
        if BODY not in extensions and SHAPE not in extensions and COLLIDER not in extensions:
            return
        body_json = extensions.get(BODY)
        if type(body_json) is dict and SHAPE not in extensions and COLLIDER not in extensions:
            self.read_body_once(index, body_json)
            return
        at = join(ROOT, "nodes", index, "extensions")
        body = obj_or_none(get(extensions, BODY), join(at, BODY), self.issues, BODY)
        if body is not None:
            self.read_body(index, body, join(at, BODY))
        self.read_legacy_node_shapes(index, extensions, at)

    def read_body_once(self, index: int, body: dict[str, Any]) -> None:
        """read_body, with each distinct body object read once: a large file repeats a few bodies (the same
        motion, a collider on the same shape) on many nodes. What a body reads depends only on its JSON and
        the document's arrays, so a body read without any finding is the same model values wherever it sits;
        a body with a finding is read at each node (its pointers differ), and a trigger always (its members
        are node indices)."""
        key = value_key(body) if "trigger" not in body and "type" not in body else None
        known = self.bodies_read.get(key) if key is not None else None
        if known is not None:
            self.nodes[index] = NodeState(known[0], known[1], body_unknown=known[2])
            return
        before = len(self.issues)
        self.read_body(index, body, join(ROOT, "nodes", index, "extensions", BODY))
        if key is not None and len(self.issues) == before:
            built = self.nodes[index]
            self.bodies_read[key] = (built.motion, built.collider, built.body_unknown)

    def read_body(self, index: int, body: Mapping[str, Any], at: Where) -> None:
        current = [key for key in OMI.body_parts if key in body]
        if current:
            self.revision(rules.REV_BODY, at)
            if "type" in body:
                self.issues.append(rules.issue(join(at, "type"), "legacy body `type` next to motion/collider/"
                                                                 "trigger; ignored", "warning"))
        elif "type" in body:
            self.read_legacy_body(index, body, at)
            return
        self.read_parts(index, body, at)

    def read_parts(self, index: int, body: Mapping[str, Any], at: Where) -> None:
        """motion, collider and trigger of one node's body extension, and its other keys (kept)."""
        node = self.node(index)
        node.body_unknown = self.items.kept((), body, at, "body", known=(*self.items.dialect.body_parts, "type"))
        if "motion" in body:
            node.motion = self.read_motion(body["motion"], join(at, "motion"))
        if "collider" in body:
            node.collider = self.read_collider(body["collider"], join(at, "collider"))
        if "trigger" in body:
            self.read_trigger(index, body["trigger"], join(at, "trigger"))

    def read_motion(self, raw: object, at: Where) -> Motion | None:
        motion = obj_or_none(raw, at, self.issues, "motion")
        if motion is None:
            return None
        return Motion(self.items.motion_type(motion, at), **self.items.motion_values(motion, at),
                      unknown=self.items.motion_unknown(motion, at))

    def read_collider(self, raw: object, at: Where) -> Collider | None:
        collider = obj_or_none(raw, at, self.issues, "collider")
        if collider is None:
            return None
        shape, _raw = self.shape_of(collider, at)
        material = self.resolve(get(collider, "physicsMaterial"), self.materials, join(at, "physicsMaterial"),
                                "physicsMaterial")
        collision_filter = self.resolve(get(collider, "collisionFilter"), self.filters, join(at, "collisionFilter"),
                                        "collisionFilter")
        return Collider(shape, material, collision_filter,
                        self.items.kept(self.items.dialect.collider_fields, collider, at, "collider"))

    def shape_of(self, container: Mapping[str, Any], at: Where) -> tuple[Shape | None, object]:
        """The shape a collider or trigger refers to (None if absent or unusable), and the raw reference."""
        raw = get(container, "shape")
        return self.resolve(raw, self.shapes, join(at, "shape"), "shape"), raw

    def extensions_read(self) -> set[str]:
        """The extensions this reader found content of (each is a revision name too)."""
        return {name for name in (BODY, JOINT, SHAPE) if name in self.doc.revisions}

    def check_extensions_used(self) -> None:
        listed = get(self.gltf, "extensionsUsed")
        names = set(listed) if isinstance(listed, list | tuple) and all(isinstance(n, str) for n in listed) else set()
        for name in sorted(self.extensions_read() - names):
            self.issues.append(rules.issue("/extensionsUsed", f"{name} is used but not listed in extensionsUsed",
                                           "warning"))
