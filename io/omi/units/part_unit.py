"""The builder of an extension unit of vehicle parts: a document-level array of parameter objects
(`wheels`, `thrusters`, `hoverThrusters`) and, on each part's node, an object naming its entry by index.

The model is index-free: each node holds its part's parameters (the unit's value); the writer deduplicates
equal parameters back into the array. A part must sit below a vehicle body (the body unit's value on an
ancestor); one that does not is kept and said once. No bpy here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..dialects import pointers, registry
from ..dialects.fields import Field
from ..json_types import MISSING, ROOT, Issues, Where, describe, get, int_or, join, report
from ..model import PhysicsDocument, Shape, Unknown, Vec3
from . import schema_check
from .common import (
    CARRIER,
    Findings,
    ancestors,
    legacy_revision,
    node_objects,
    read_object,
    set_value,
    value_of,
    write_object,
)
from .node_unit import ReadContext, canonical, losses


@dataclass(frozen=True)
class PartUnitSpec:
    name: str  # the glTF extension name
    what: str  # "wheel"
    array: str  # the document-level array ("wheels")
    node_key: str  # the node object's index key ("wheel")
    fields: tuple[Field, ...]  # of one array entry
    make: Callable[..., Any]  # the value class: make(**values, unknown=..., node_unknown=...)
    vehicle: str  # the extension whose node must be an ancestor (the vehicle body)
    renames: Mapping[str, str] = field(default_factory=dict)  # legacy key -> current key
    required: tuple[str, ...] = ()  # keys an entry must have: without one it is read with the field's default
    read_special: Callable[[Mapping[str, Any], Where, ReadContext], dict[str, Any]] | None = None
    write_special: Callable[[Any, registry.Refs, Where, Issues], dict[str, Any]] | None = None
    canonical_special: Callable[[Any, Mapping[int, str]], dict[str, Any]] | None = None
    engine_loss: str = ""
    marks: Callable[[Any], list[tuple[Vec3, Vec3]]] | None = None  # the overlay's lines (`common.arrow`, `circle`)


def read_units(spec: PartUnitSpec) -> Callable[[Mapping[str, Any], PhysicsDocument, Sequence[Shape | None]], None]:
    def read(gltf: Mapping[str, Any], doc: PhysicsDocument, shapes: Sequence[Shape | None]) -> None:
        context = ReadContext(gltf, doc, Findings(), shapes)
        entries = _entries(spec, gltf, context)
        used: set[int] = set()
        for index, at, raw in node_objects(gltf, spec.name):
            if not isinstance(raw, Mapping):
                report(doc.issues, at, f"{spec.name} must be an object, got {describe(raw)}; dropped")
                continue
            where = join(at, spec.node_key)
            position = int_or(get(raw, spec.node_key), None, where, doc.issues, minimum=0,
                              maximum=len(entries) - 1, what=f"{spec.what} index")
            if position is None:
                if get(raw, spec.node_key) is MISSING:
                    report(doc.issues, where, f"{spec.what} node has no `{spec.node_key}` (required); dropped")
                continue
            entry = entries[position]
            if entry is None:
                report(doc.issues, where, f"{spec.what} {position} was dropped; the node's {spec.what} too")
                continue
            used.add(position)
            node_unknown = _node_unknown(raw, spec, at, doc)
            set_value(doc, index, spec.name, spec.make(**{**entry, "node_unknown": node_unknown}))
            if not any(value_of(doc.nodes.get(above), spec.vehicle) is not None
                       for above in ancestors(context.tree, index)):
                context.findings.add(f"{spec.name}:placement", at, f"{spec.what} is not below a vehicle body "
                                     f"({spec.vehicle}): engines give it no vehicle to move; kept as it is")
        for position, entry in enumerate(entries):
            if entry is not None and position not in used:
                context.findings.add(f"{spec.name}:unused", join(ROOT, "extensions", spec.name, spec.array, position),
                                     f"{spec.what} {position} is used by no node: not kept (export writes the "
                                     f"{spec.what}s of nodes only)")
        _document_unknown(spec, gltf, doc)
        if context.findings.has(f"{spec.name}:legacy"):
            doc.revisions.add(legacy_revision(spec.name))
        context.findings.into(doc.issues)
    return read


def _entries(spec: PartUnitSpec, gltf: Mapping[str, Any], context: ReadContext) -> list[dict[str, Any] | None]:
    """Each array entry's values (None: unusable, reported)."""
    content = get(get(gltf, "extensions"), spec.name)
    at = join(ROOT, "extensions", spec.name, spec.array)
    items = get(content, spec.array)
    if items is MISSING:
        return []
    if not isinstance(items, list):
        report(context.doc.issues, at, f"{spec.array} must be an array, got {describe(items)}; ignored")
        return []
    entries: list[dict[str, Any] | None] = []
    for position, item in enumerate(items):
        item_at = join(at, position)
        read = read_object(spec.fields, item, item_at, context.doc.issues, spec.what, renames=spec.renames,
                           findings=context.findings, kind=f"{spec.name}:legacy")
        if read is None:
            entries.append(None)
            continue
        values, unknown = read
        assert isinstance(item, Mapping)
        for key in spec.required:
            if key not in item:
                context.findings.add(f"{spec.name}:required:{key}", join(item_at, key), f"{spec.what} has no `{key}` "
                                     "(required): read as its smallest value, 0; export writes it", "error")
        if spec.read_special is not None:
            values.update(spec.read_special(item, item_at, context))
        entries.append({**values, "unknown": unknown})
    return entries


def _node_unknown(raw: Mapping[str, Any], spec: PartUnitSpec, at: Where, doc: PhysicsDocument) -> Unknown:
    from ..dialects.unknown_keys import collect  # noqa: PLC0415 - beside the one use
    return collect((), raw, at, doc.issues, f"{spec.what} node", dialect=CARRIER, known=(spec.node_key,))


def _document_unknown(spec: PartUnitSpec, gltf: Mapping[str, Any], doc: PhysicsDocument) -> None:
    """The document-level object's keys beside its array, kept in `doc.unknown` to be written back."""
    content = get(get(gltf, "extensions"), spec.name)
    if isinstance(content, Mapping):
        kept = {key: value for key, value in content.items() if key != spec.array}
        if kept:
            doc.unknown[spec.name] = Unknown(kept, CARRIER)


def write_units(spec: PartUnitSpec) -> Callable[[Any, registry.Refs, Where, Issues], Any]:
    def write(node: Any, refs: registry.Refs, at: Where, issues: Issues) -> Any:
        value = value_of(node, spec.name)
        if value is None:
            return MISSING
        where = join(at, "extensions", spec.name)
        entry = spec.write_special(value, refs, where, issues) if spec.write_special is not None else {}
        for key in spec.required:  # required and without a default: written even at its smallest value
            entry.setdefault(key, 0.0)
        entry = write_object(spec.fields, value, entry)
        out: dict[str, Any] = {spec.node_key: refs.item(spec.array, entry)}
        kept = value.node_unknown.fresh() if value.node_unknown.dialect == CARRIER else {}
        for key, item in kept.items():
            out.setdefault(key, item)
        return out
    return write


def unit(spec: PartUnitSpec) -> registry.ExtensionUnit:
    return registry.ExtensionUnit(
        spec.name, CARRIER, read_units(spec), write_node=write_units(spec),
        node_losses=losses(spec.name, spec.what), arrays=(spec.array,),
        pointers=pointers.item_rows(spec.name, spec.array, spec.fields, spec.name),
        canonical=canonical(spec.fields, spec.canonical_special), schema_check=schema_check.checker(spec.name),
        engine_loss=spec.engine_loss,
        marks=spec.marks, legacy_keys=spec.renames)


