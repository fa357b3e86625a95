"""What reading one glTF document holds while it runs, and the small steps every dialect's reading shares.

The reader is functions over one `ReadState` (no class hierarchy): `read/document.py` runs the steps in
order, the body, trigger, joint and legacy parts live in their own modules, and a dialect's structural
differences are the functions of its `Spelling` (OMI's in `read/omi.py` and `read/bodies.py`, KHR's in
`read/khr.py`). Every value is read through the dialect's tables, held by `ItemReader`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..checks import rulebook
from ..dialects.base import Dialect
from ..json_types import (
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
)
from ..model import (
    NOTHING_UNKNOWN,
    Collider,
    CollisionFilter,
    Issue,
    Joint,
    JointSettings,
    Motion,
    PhysicsDocument,
    PhysicsMaterial,
    Shape,
    Trigger,
    Unknown,
)
from .items import ItemReader


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


@dataclass(frozen=True)
class Spelling:
    """The reading functions where a dialect's structure differs from another's."""

    read_arrays: Callable[[ReadState], None]  # the document-level arrays into the state's item lists
    read_node: Callable[[ReadState, int, object], None]  # one node (joints are only noted, read later)
    joint_json: Callable[[ReadState, int], tuple[object, Where]]  # a joint node's joint object and pointer
    read_motion: Callable[[ReadState, object, Where], Motion | None]
    read_collider: Callable[[ReadState, object, Where], Collider | None]
    read_trigger: Callable[[ReadState, int, object, Where], None]
    shape_of: Callable[[ReadState, Mapping[str, Any], Where], tuple[Shape | None, object]]
    joint_what: str = ""  # how messages name a node's joint object ("": the dialect's joint extension)
    joint_placement_rules: bool = True  # a joint on its own node without a mesh (OMI), or anywhere (KHR)
    joint_revision: str = ""  # the revision a joint records ("": the dialect's joint extension)


class ReadState:
    """One document being read: the input, the items read so far, each node's parts, the findings."""

    def __init__(self, gltf: object, doc: PhysicsDocument, dialect: Dialect, spelling: Spelling,
                 tree_mended: bool = False) -> None:
        self.doc = doc
        self.issues = doc.issues
        self.dialect = dialect
        self.spelling = spelling
        if not isinstance(gltf, Mapping):
            report(self.issues, "", f"a glTF document must be an object, got {describe(gltf)}")
            gltf = {}
        self.gltf: Mapping[str, Any] = gltf
        self.nodes_json: list[Any] = list_or_none(get(gltf, "nodes"), "/nodes", self.issues, "nodes") or []
        self.items = ItemReader(self.issues, len(sequence_items(get(gltf, "meshes"))),
                                lambda name, at: revision(self, name, at), dialect)
        self._hierarchy = None if tree_mended else rulebook.Hierarchy(self.nodes_json, self.issues)
        self.nodes: dict[int, NodeState] = {}
        self.noted: set[str] = set()
        self.joint_nodes: list[int] = []  # nodes with a joint, in index order: read once every body is known
        # value_key of a body read without findings -> its motion, collider and kept keys
        self.bodies_read: dict[Any, tuple[Motion | None, Collider | None, Unknown]] = {}
        self.extensions: Mapping[str, Any] = obj_or_none(get(gltf, "extensions"), "/extensions", self.issues,
                                                         "extensions") or {}
        self.shapes: list[Shape | None] = []
        self.materials: list[PhysicsMaterial | None] = []
        self.filters: list[CollisionFilter | None] = []
        self.joint_settings: list[JointSettings | None] = []
        self.colliders: list[tuple[Shape, bool] | None] = []  # the legacy OMI_collider array
        self.current_node = -1  # the node being read (KHR's geometry node note)

    @property
    def hierarchy(self) -> rulebook.Hierarchy:
        """The node tree (made on first use when the caller mended it: its findings were the caller's)."""
        if self._hierarchy is None:
            self._hierarchy = rulebook.Hierarchy(self.nodes_json, [])
        return self._hierarchy


def revision(state: ReadState, name: str, at: Where) -> None:
    """Record a revision; legacy ones get one 'info' issue per file."""
    if name not in state.doc.revisions and name in rulebook.LEGACY_REVISION_NOTES:
        state.issues.append(rulebook.issue(at, rulebook.LEGACY_REVISION_NOTES[name], "info"))
    state.doc.revisions.add(name)


def once(state: ReadState, key: str, found: Issue) -> None:
    """Add a finding the first time `key` is met."""
    if key not in state.noted:
        state.noted.add(key)
        state.issues.append(found)


def node_state(state: ReadState, index: int) -> NodeState:
    """The reading state of a node, made on first use."""
    return state.nodes.setdefault(index, NodeState())


def resolve(state: ReadState, value: object, items: Sequence[Any], at: Where, what: str) -> Any:
    """The item an index refers to, or None (reported) if the index or the item is unusable."""
    index = index_or_none(value, len(items), at, state.issues, what)
    if index is None:
        return None
    if items[index] is None:
        report(state.issues, at, f"{what} {index} refers to an item that was dropped; dropped")
    return items[index]


def document_array(state: ReadState, extension: str, key: str) -> tuple[Where, list[Any]]:
    """A document-level array of an extension (empty ones noted, and missing ones the dialect's schema requires)."""
    at = join(ROOT, "extensions", extension)
    container = obj_or_none(get(state.extensions, extension), at, state.issues, extension)
    items = list_or_none(get(container, key), join(at, key), state.issues, key) if container is not None else None
    required = key in state.dialect.required_arrays or key == "colliders"
    if key in ("shapes", "physicsJoints", "colliders") and container is not None and (
            items == [] or (key not in container and required)):
        found = "empty" if items == [] else "missing"
        state.issues.append(rulebook.issue(join(at, key), f"{key} is {found} (the schema wants at least one)", "info"))
    return join(at, key), items or []


def node_extensions(state: ReadState, index: int, node_json: object) -> Mapping[str, Any]:
    """A node's `extensions` object ({} when absent or unusable, reported)."""
    if type(node_json) is not dict and not isinstance(node_json, Mapping):
        report(state.issues, join(ROOT, "nodes", index), f"node must be an object, got {describe(node_json)}; "
               "ignored")
        return {}
    return obj_or_none(get(node_json, "extensions"), join(ROOT, "nodes", index, "extensions"), state.issues,
                       "extensions") or {}
