"""The registry of what the add-on reads and writes: dialects, export targets and extension units.

Reader, writer, validate, convert, the command line's `--to`/`--dialect` choices and the export dialog's
target list iterate this registry; no other module spells a dialect's name. Three kinds of unit plug in:

- `DialectUnit`: one JSON spelling of the model (`OMI`, `KHR`): its tables (`base.Dialect`, declared in
  the dialect's own module, e.g. `dialects/khr.py`) and the few functions where its structure differs:
  `read` fills a `PhysicsDocument` from a glTF document, `write_node` builds one node's extensions (the
  writer deduplicates the document-level items it hands to `ref`), `schema_check` checks a written file.
  `owns` (from its tables) lists every extension name it reads, legacy revisions included: `for_extensions` and
  `document_dialect` recognise a document by them, and rewriting the dialect removes them all.
- `Target`: one choice of the export dialog and of the CLI's `--dialect`: the dialects it writes, in
  order, then its `form`: what it changes in the written document, step by step (`form.Form`: an engine
  target, e.g. a Godot target = the OMI dialect + what Godot's importer reads differently), run by one
  applier on JSON (`write/target_form.py`) and one on the Blender exporter's document; and an optional
  `recognise` for the import side (a document this target wrote), whose forms `as_written` reads as the
  target meant them. `number` is the export dialog's stable enum number (stored in .blend files: never
  reuse one).
- `ExtensionUnit`: an extension carried by one dialect (`OMI_physics_gravity`, the vehicle, seat and spawn
  point units of `io/omi/units`). `read` runs after any dialect's reading, with the document-level shapes
  that dialect read when it is the carrying one (else none); `write_node` gives a node's object of the
  extension (or MISSING), called by the carrying dialect's node writer with `Refs` that place a shape, a
  document-level item, a node or a mesh; `arrays` are the document-level arrays the extension object holds
  (the writer deduplicates what `write_node` hands to `refs.item` into them); `write_document` writes
  any other document-level part and returns the names it wrote (extensionsUsed). Another dialect's writers
  name what they cannot hold through `node_losses` and `document_losses`, an engine target through
  `engine_loss`. `pointers` are its Object Model rows, `canonical` its part of the canonical form,
  `schema_check` checks a written file against its own schemas.

A new unit is one module that builds its value and calls `register`; the built-in dialects and targets are
registered by `dialects/builtin.py`, the extension units by `units.register_all()` (one line each; a test
module registers its own, see tests/unit/toy_dialect.py). This module imports no unit, so any module may
import it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..json_types import Issues, Where, sequence_items
from ..json_types import get as get_value
from ..model import Issue, MeshRef, NodePhysics, NodeRef, PhysicsDocument, Shape
from ..targets.form import ChannelRewrite, FormPart, LinearSamplers, plays_cubic
from .base import Dialect

Ref = Callable[[str, dict[str, Any]], Any]  # (document-level array, item) -> what stands for its index
Unbake = Callable[[Any, Any, list[float]], None]  # see Target.unbake_parts


class NodeWriter(Protocol):
    """One node's extensions in a dialect ({extension name: object}, {} for none); see `write.writer`."""

    def __call__(self, node: NodePhysics, ref: Ref, node_ref: Callable[[NodeRef], Any],
                 mesh_ref: Callable[[MeshRef], Any], issues: list[Issue] | None = None, *,
                 at: str = "", dialect: Dialect) -> dict[str, dict[str, Any]]: ...


class Reader(Protocol):
    """Fill `doc` from a glTF document in one dialect (never raises on bad input: each problem is an Issue);
    returns the document-level shapes as read (extension units refer to them by index)."""

    def __call__(self, gltf: Mapping[str, Any], doc: PhysicsDocument, dialect: Dialect,
                 tree_mended: bool) -> Sequence[Shape | None]: ...  # the document-level shapes read


# (document, OMI spec folder or None, legacy revisions tolerated) -> the schema's findings
SchemaCheck = Callable[[Any, str | None, bool], list[Issue]]


@dataclass(frozen=True)
class DialectUnit:
    """A dialect: its tables and the functions where its structure differs."""

    tables: Dialect
    read: Reader
    write_node: NodeWriter
    schema_check: SchemaCheck | None = None
    default: bool = False  # read when a document holds several dialects (or none), written when none is asked

    @property
    def name(self) -> str:
        return self.tables.name

    @property
    def owns(self) -> tuple[str, ...]:
        """Every extension name it reads, legacy ones included (`Dialect.owns`)."""
        return self.tables.owns


@dataclass(frozen=True)
class Target:
    """One export choice: dialects written in order, then its form (what it changes in the written document)."""

    name: str  # the stable identifier (export dialog enum item, CLI value in any case)
    number: int  # the export dialog's stable enum number
    label: str
    description: str
    dialects: tuple[str, ...]
    # what it changes after writing its dialects: its samplers, its channel rewrites, then its steps (`form.Form`)
    form: tuple[FormPart, ...] = ()
    recognise: Callable[[Mapping[str, Any]], bool] | None = None  # import side: a document written for it
    as_written: Callable[[dict[str, Any]], list[Issue]] | None = None  # import side: a recognised document's
    # ^ engine forms put in the spec's form (in place, on a copy), with what was assumed (notes)
    # the import side of a layout it writes: body node -> the child it moved the node's render mesh to, as
    # found in a document ({} when not its layout); the import folds them back (io/mesh_child_fold.py)
    mesh_children: Callable[[Mapping[str, Any]], Mapping[int, int]] | None = None
    # ... and of a body scale its form bakes into the body's shapes (the scale then on the mesh child):
    # (document extensions, the body node's extensions, the scale) -> its shapes at that scale again, in place
    unbake_parts: Unbake | None = None

    @property
    def cubic_channels(self) -> bool:
        """Whether its engine plays CUBICSPLINE samplers on physics channels (else they are written LINEAR)."""
        return plays_cubic(self.form)


ShapeRef = Callable[[Shape], tuple[bool, Any]]  # a shape -> (usable, what stands for its index)


@dataclass(frozen=True)
class Refs:
    """What a node writer hands an extension unit: what stands for the index of a document-level item
    (`item(array, json)`), of a shape (`shape(shape)` -> (usable, index)), of a node and of a mesh."""

    item: Ref
    shape: ShapeRef
    node: Callable[[NodeRef], Any]
    mesh: Callable[[MeshRef], Any]


# (document, node index -> name path) -> the unit's document-level or node-level part of the canonical form
Canonical = Callable[[Any, Mapping[int, str]], Any]


@dataclass(frozen=True)
class ExtensionUnit:
    """An extension carried by one dialect's reader and writer (document-level and/or node-level)."""

    name: str  # the glTF extension name
    dialect: str  # the dialect unit that carries it
    read: Callable[[Mapping[str, Any], PhysicsDocument, Sequence[Shape | None]], None]
    write_node: Callable[[NodePhysics, Refs, Where, Issues], Any] | None = None  # MISSING: none
    write_document: Callable[[PhysicsDocument, dict[str, Any], Issues], tuple[str, ...]] | None = None
    node_losses: Callable[[NodePhysics, Where], list[Issue]] | None = None  # what another dialect drops
    document_losses: Callable[[PhysicsDocument], list[Issue]] | None = None
    arrays: tuple[str, ...] = ()  # document-level arrays of the extension object, filled through `Refs.item`
    pointers: tuple[Any, ...] = ()  # its Object Model rows (`pointers.PointerTemplate`; that module imports this)
    canonical: Canonical | None = None  # a node's value in the canonical form (None: not compared)
    schema_check: Callable[[Any], list[Issue]] | None = None  # a written document against its schemas
    engine_loss: str = ""  # what an engine target's core ignores of it, e.g. "seats"; "" when it reads it
    legacy_keys: Mapping[str, str] = field(default_factory=dict)  # a legacy revision's key -> the current key
    # ^ of its node objects and array items: read with a warning; an engine target whose reader is older
    #   (omi-godot) may write them back (invert it)
    marks: Callable[[Any], list[tuple[tuple[float, float, float], tuple[float, float, float]]]] | None = None
    # ^ a node value's line segments in the node's frame (glTF axes), drawn by the viewport's overlay


_DIALECTS: dict[str, DialectUnit] = {}
_TARGETS: dict[str, Target] = {}
_EXTENSIONS: dict[str, ExtensionUnit] = {}


def register(unit: DialectUnit | Target | ExtensionUnit) -> None:
    """Add a unit (again: replaced, so a module reloaded in tests registers cleanly)."""
    if isinstance(unit, DialectUnit):
        _DIALECTS[unit.name] = unit
    elif isinstance(unit, Target):
        kinds = [0 if isinstance(part, LinearSamplers) else 1 if isinstance(part, ChannelRewrite) else 2
                 for part in unit.form]
        if kinds != sorted(kinds):
            raise ValueError(f"target {unit.name}: its samplers' interpolation, then its channel rewrites come "
                             "before its steps (the export rewrites the sampled channels before the document's "
                             "steps run)")
        taken = {target.number: name for name, target in _TARGETS.items() if name != unit.name}
        if unit.number in taken:
            raise ValueError(f"target number {unit.number} is taken by {taken[unit.number]}")
        _TARGETS[unit.name] = unit
    else:
        _EXTENSIONS[unit.name] = unit


def unregister(name: str) -> None:
    """Remove a unit of any kind by name (tests)."""
    for table in (_DIALECTS, _TARGETS, _EXTENSIONS):
        table.pop(name, None)


def get(name: str) -> DialectUnit:
    """The dialect unit named `name` (ValueError naming the known ones otherwise)."""
    unit = _DIALECTS.get(name)
    if unit is None:
        raise ValueError(f"unknown dialect {name!r}; dialects are {', '.join(names())}")
    return unit


def names() -> tuple[str, ...]:
    """The dialect names, in registration order."""
    return tuple(_DIALECTS)


def default() -> DialectUnit:
    """The dialect read from a document of several (or none) and written when none is asked."""
    return next((unit for unit in _DIALECTS.values() if unit.default), next(iter(_DIALECTS.values())))


def kept_keys_dialect() -> str:
    """The dialect whose unknown keys are kept and written back (its tables' `keeps_unknown`): the spelling of
    the keys Blender's settings store."""
    return next((unit.name for unit in _DIALECTS.values() if unit.tables.keeps_unknown), default().name)


def target(name: str) -> Target:
    """The export target named `name` (any case), ValueError otherwise."""
    for known in _TARGETS.values():
        if known.name.lower() == name.lower():
            return known
    raise ValueError(f"unknown export target {name!r}; targets are {', '.join(target_names())}")


def targets() -> tuple[Target, ...]:
    """The export targets, by enum number."""
    return tuple(sorted(_TARGETS.values(), key=lambda known: known.number))


def target_names() -> tuple[str, ...]:
    return tuple(known.name for known in targets())


def extensions_of(dialect: str) -> tuple[ExtensionUnit, ...]:
    """The extension units a dialect's reader and writer carry."""
    return tuple(unit for unit in _EXTENSIONS.values() if unit.dialect == dialect)


def extension_units() -> tuple[ExtensionUnit, ...]:
    """Every extension unit, in registration order."""
    return tuple(_EXTENSIONS.values())


def extension_unit(name: str) -> ExtensionUnit | None:
    return _EXTENSIONS.get(name)


def unit_pointers() -> tuple[Any, ...]:
    """Every extension unit's Object Model rows."""
    return tuple(row for unit in _EXTENSIONS.values() for row in unit.pointers)


def array_homes(dialect: str) -> dict[str, str]:
    """Document-level array -> the extension unit (of `dialect`) whose object holds it."""
    return {array: unit.name for unit in extensions_of(dialect) for array in unit.arrays}


def unit_schema_errors(document: Any, dialect: str) -> list[Issue]:
    """The findings of the schema checks of `dialect`'s extension units."""
    return [found for unit in extensions_of(dialect) if unit.schema_check is not None
            for found in unit.schema_check(document)]


def owned_names(dialect: str) -> tuple[str, ...]:
    """Every extension name a dialect owns, its extension units' included (removed when it is rewritten)."""
    unit = get(dialect)
    return (*unit.owns, *(extra.name for extra in extensions_of(dialect)))


def dialect_of(extension: str) -> DialectUnit:
    """The dialect that owns an extension name (its extension units' included), else the default."""
    return next(iter(for_extensions((extension,))), default())


def for_extensions(extension_names: Iterable[str]) -> tuple[DialectUnit, ...]:
    """The dialects owning any of these extension names, in registration order."""
    found = set(extension_names)
    return tuple(unit for unit in _DIALECTS.values() if found.intersection(owned_names(unit.name)))


# --- which dialect a document speaks ---------------------------------------------------------------

def dialects_used(gltf: object) -> set[str]:
    """The names of the dialects whose extensions a document holds (document level or on nodes)."""
    found = set(_names(get_value(gltf, "extensions")))
    for node in sequence_items(get_value(gltf, "nodes")):
        extensions = node.get("extensions") if type(node) is dict else get_value(node, "extensions")
        if type(extensions) is dict:  # one call per node: a large file has many
            found.update(extensions)
        elif extensions is not None:
            found.update(_names(extensions))
    return {unit.name for unit in for_extensions(name for name in found if isinstance(name, str))}


def _names(extensions: object) -> list[str]:
    return [name for name in extensions if isinstance(name, str)] if isinstance(extensions, Mapping) else []


def read_order() -> tuple[str, ...]:
    """The dialect names, the default first: the order a document holding several is read in."""
    first = default().name
    return (first, *(name for name in _DIALECTS if name != first))


def document_dialect(gltf: object) -> str:
    """The one dialect to read a document in: the one it holds, else the default (a document holding
    several is read in each by `read.mixed`)."""
    used = dialects_used(gltf)
    return next(iter(used)) if len(used) == 1 else default().name
