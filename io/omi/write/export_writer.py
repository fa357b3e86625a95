"""The glTF export's one physics writer: the model values the export gathered, written in every dialect of
its target, behind one cache per dialect (`Repeats`) and one set of document-level arrays each.

The export (io/blender/export) gathers model values only and hands them here. The registry's default
dialect (`registry.default()`) is written first, once every scene is gathered, node by node in the order
gathered (so its document-level arrays keep that order); the animation samples its channels in that
spelling and checks them against `preview`, the same writing of one node, while the export gathers. Its
node and mesh references are placeholders (`NodeSlot`, `MeshSlot`) until the exporter has indexed
everything, when `resolve` turns them into indices. Then every other dialect of the target is written from
the same values (`export_dialects`), and the default spelling stays or goes as the target says. No JSON key
is spelled outside io/omi.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from .. import model
from ..dialects import registry, unknown_keys
from . import writer
from .repeats import OWN_OBJECTS, Repeats


class NodeSlot:
    """Stands for a node's index until the exporter has indexed its nodes."""

    __slots__ = ("node",)

    def __init__(self, node: Any) -> None:
        self.node = node


class MeshSlot(str):
    """Stands for a mesh's index until the exporter has indexed its meshes: a text unique to the mesh, so
    the shapes holding it stay JSON for the writer's deduplication (`writer.ItemArrays`)."""

    mesh: Any

    def __new__(cls, number: int, mesh: Any) -> MeshSlot:
        slot = super().__new__(cls, f"mesh placeholder {number}")
        slot.mesh = mesh
        return slot


Ref = Callable[[str, dict[str, Any]], int]  # (document-level array, item) -> its index


def node_ref(value: Any) -> Any:
    return value if isinstance(value, NodeSlot) else None


def mesh_ref(value: Any) -> Any:
    return value if isinstance(value, MeshSlot) else None


def home() -> registry.DialectUnit:
    """The dialect written as the export gathers (its animation speaks it): the registry's default."""
    return registry.default()


class ExportWriter:
    """The physics JSON of one export (see the module text)."""

    def __init__(self, dialects: tuple[str, ...]) -> None:
        self.dialects = dialects
        self.home = home()
        self.respelled = any(name != self.home.name for name in dialects)  # a further dialect is written
        # The exporter drops empty dicts, which the schema needs in shapes: written stated (`ItemArrays`)
        self.items = writer.ItemArrays(explicit_empty_shapes=True, dialect=self.home.tables)
        # Extensions still holding placeholders: (node, extension name, content, object name).
        self.pending: list[tuple[Any, str, dict[str, Any], str]] = []
        # Each node's physics as written in the home dialect, for the target's other spellings.
        self.written_nodes: list[tuple[Any, model.NodePhysics]] = []
        self.node_extensions_used: set[str] = set()
        self.kept_extensions: set[str] = set()  # extension names inside kept unknown keys (extensionsUsed)

    def repeats(self, node_ref: Callable[[Any], Any]) -> Repeats:
        """A cache of the home spelling's repeated values (one per scene); `node_ref` places a node or an
        object an extension unit refers to."""
        return Repeats(self.home, self.ref, node_ref, mesh_ref, OWN_OBJECTS, written=self.note_kept)

    def ref(self, kind: str, item: dict[str, Any], *, unique: bool = False) -> int:
        """The index of a document-level item (equal items stored once); `unique` (an animated item) gets an
        entry of its own that no other item shares."""
        if unique:
            self.items.arrays[kind].append(writer.explicit_shape(item, self.home.tables)
                                           if kind == "shapes" else item)
            return len(self.items.arrays[kind]) - 1
        return self.items.ref(kind, item)

    def preview(self, part: model.NodePhysics, ref_of: Callable[[Callable[..., int]], Ref],
                node_ref: Callable[[Any], Any]) -> tuple[dict[str, dict[str, Any]], dict[str, list[dict[str, Any]]]]:
        """One node's home extensions as `node` will write them with `ref_of(self.ref)`, its items in arrays of
        their own, as the document will hold them: what the animation checks its channels against while the
        export gathers (the document's spelling is written once everything is gathered). Nothing is kept."""
        arrays: dict[str, list[dict[str, Any]]] = {kind: [] for kind in self.items.arrays}

        def own(kind: str, item: dict[str, Any], *, unique: bool = False) -> int:  # the signature of `ref`
            arrays[kind].append(writer.explicit_shape(item, self.home.tables) if kind == "shapes" else item)
            return len(arrays[kind]) - 1

        extensions = self.home.write_node(part, ref_of(own), node_ref, mesh_ref, [], dialect=self.home.tables)
        return extensions, arrays

    def note_kept(self, part: model.NodePhysics) -> None:
        """Remember the extensions used inside an object's kept unknown keys (they go into extensionsUsed)."""
        for _where, _what, kept in unknown_keys.node_items(part):
            self.kept_extensions |= unknown_keys.extension_names((kept,))

    def node(self, part: model.NodePhysics, cache: Repeats, ref: Callable[..., int] | None = None,
             node_ref: Callable[[Any], Any] = node_ref) -> tuple[dict[str, dict[str, Any]], list[model.Issue]]:
        """One node's home extensions and what writing them found (said of its object); `ref` (an animated
        node's) is written with, and nothing is remembered."""
        if ref is None:
            return cache.content("", part)
        self.note_kept(part)
        issues: list[model.Issue] = []
        return self.home.write_node(part, ref, node_ref, mesh_ref, issues, dialect=self.home.tables), issues

    def placed(self, node: Any, obj_name: str, part: model.NodePhysics, extensions: dict[str, dict[str, Any]]) -> None:
        """A node's home extensions are final: an empty collider gets its marker, placeholders are noted."""
        body = extensions.get(self.home.tables.body_extension)
        if body is not None and body.get("collider") == {}:
            # "collider": {} (a collider grouping its children's) means something, but the exporter drops
            # empty dicts; `extras` is the one member it keeps as it is, and the schema allows it
            body["collider"] = {"extras": {}}
        joint = self.home.tables.joint_extension
        for name, content in extensions.items():
            self.node_extensions_used.add(name)
            trigger = content.get("trigger")
            if name == joint or (trigger is not None and "nodes" in trigger) or _holds_slot(content):
                self.pending.append((node, name, content, obj_name))
        if self.respelled:
            self.written_nodes.append((node, part))

    def resolve(self, node_index: Mapping[int, int], mesh_index: Mapping[int, int],
                warn: Callable[[str], None]) -> list[tuple[Any, str]]:
        """Placeholders become the exporter's indices (`node_index`/`mesh_index`: id of its node or mesh ->
        index); what lost its node or mesh is said and left out. Returns the (node, extension) pairs to take
        off their nodes (a joint whose connected node the exporter removed)."""
        dropped = []
        joint = self.home.tables.joint_extension
        for node, name, content, obj_name in self.pending:
            if name == joint:
                index = node_index.get(id(content["connectedNode"].node))
                if index is None:
                    warn(f"object {obj_name!r}: the joint's connected node was removed by the exporter; "
                         "joint dropped")
                    dropped.append((node, name))
                else:
                    content["connectedNode"] = index
            else:
                self._unit_slots(name, content, node_index, obj_name, warn)
            trigger = content.get("trigger") if name == self.home.tables.body_extension else None
            if trigger and "nodes" in trigger:
                members = [node_index.get(id(slot.node)) for slot in trigger["nodes"]]
                trigger["nodes"] = [index for index in members if index is not None]
                if len(trigger["nodes"]) < len(members):
                    warn(f"object {obj_name!r}: compound trigger members were removed by the exporter")
                if not trigger["nodes"]:
                    del content["trigger"]
        for shape in self.items.arrays["shapes"]:
            details = shape[shape["type"]]
            slot = details.get("mesh")
            if isinstance(slot, MeshSlot):
                index = mesh_index.get(id(slot.mesh))
                if index is None:
                    warn(f"a {shape['type']} shape lost its mesh in the exporter; written without one")
                    del details["mesh"]
                else:
                    details["mesh"] = index
        return dropped

    @staticmethod
    def _unit_slots(name: str, content: dict[str, Any], node_index: Mapping[int, int], obj_name: str,
                    warn: Callable[[str], None]) -> None:
        """An extension unit's node references (e.g. a pilot seat) become indices; one whose node the exporter
        removed is left out, said."""
        for key, value in list(content.items()):
            if isinstance(value, NodeSlot):
                index = node_index.get(id(value.node))
                if index is None:
                    warn(f"object {obj_name!r}: {name} {key} names a node the exporter removed; left out")
                    del content[key]
                else:
                    content[key] = index

    def document(self, stored: Mapping[str, model.Unknown],
                 issues: list[model.Issue]) -> dict[str, dict[str, list[dict[str, Any]]]]:
        """The home spelling's document-level extensions: the arrays and the keys kept from imported files
        (`stored`: by extension name)."""
        placed = self.items.by_extension()  # the writer's placement: which extension holds which array
        for name, kept in stored.items():
            if name in self.home.tables.extensions:
                content = placed.setdefault(name, {})
                writer.put_document_unknown(content, name, kept, self.home.tables, issues=issues)
                self.kept_extensions |= unknown_keys.extension_names((kept,))
                if not content:
                    del placed[name]
        return placed

    def document_units(self, doc: model.PhysicsDocument, extensions: dict[str, Any],
                       issues: list[model.Issue]) -> tuple[str, ...]:
        """The extension units' document-level parts of `doc` (a world gravity) into the document's `extensions`
        where a dialect of the target carries the unit, else what the target cannot hold of them, named; the
        extensions written."""
        out = {"extensions": extensions}
        used: list[str] = []
        for unit in registry.extension_units():
            if unit.dialect in self.dialects and unit.write_document is not None:
                used.extend(unit.write_document(doc, out, issues))
            elif unit.dialect not in self.dialects and unit.document_losses is not None:
                issues.extend(unit.document_losses(doc))
        return tuple(used)

    def used(self, placed: Iterable[str]) -> list[str]:
        """extensionsUsed's physics names: the document's, the nodes', then those inside kept keys (which the
        other dialects drop with the home spelling)."""
        kept_names = sorted(self.kept_extensions) if self.home.name in self.dialects else []
        return list(dict.fromkeys((*placed, *sorted(self.node_extensions_used), *kept_names)))

    def forget(self) -> None:
        """Drop what only finishing needed."""
        self.pending, self.written_nodes = [], []


def dialect_names() -> tuple[str, ...]:
    """Every extension name a registered dialect reads and writes itself (its extension units' aside)."""
    return tuple(dict.fromkeys(name for dialect in registry.names() for name in registry.get(dialect).owns))


def _holds_slot(content: dict[str, Any]) -> bool:
    """Whether a value of the extension object is a node reference (a unit's); a loop, not a generator: this
    runs for every node written."""
    for value in content.values():  # noqa: SIM110  # see the docstring
        if isinstance(value, NodeSlot):
            return True
    return False
