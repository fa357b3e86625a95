"""The builder of an extension unit whose node-level object holds its values itself (a vehicle body, a
seat, a spawn point): read, rules, write, losses, Object Model rows, canonical form and schema check from
one `NodeUnitSpec`. A unit adds what its Field tables cannot say (a node reference, a rule) as hooks.
No bpy here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..dialects import pointers, registry
from ..dialects.fields import Field
from ..json_types import MISSING, Issues, Where, join, pointer_text, report
from ..model import Issue, NodePhysics, PhysicsDocument, Shape, Vec3
from . import schema_check
from .common import (
    CARRIER,
    Findings,
    canonical_fields,
    legacy_revision,
    node_objects,
    parents,
    read_object,
    set_value,
    value_of,
    write_object,
)

LOSS_KIND = "khr_unit_cannot_hold"  # a dialect loss (`rulebook.is_dialect_loss`: "khr_"), said once per unit


@dataclass
class ReadContext:
    """What a unit's hooks may look at while a document is read: the document, the model read so far (units
    registered earlier included), the node tree, and the findings said once per kind."""

    gltf: Mapping[str, Any]
    doc: PhysicsDocument
    findings: Findings
    shapes: Sequence[Shape | None] = ()
    _tree: dict[int, int] | None = field(default=None, init=False, repr=False)

    @property
    def tree(self) -> dict[int, int]:
        """Child node index -> parent node index, made when a hook first asks (most documents hold no object
        of most units: a walk of every node each would be wasted)."""
        if self._tree is None:
            self._tree = parents(self.gltf)
        return self._tree


@dataclass(frozen=True)
class NodeUnitSpec:
    name: str  # the glTF extension name
    what: str  # how messages name one ("vehicle body")
    fields: tuple[Field, ...]
    make: Callable[..., Any]  # the value class: make(**field values, **special values, unknown=...)
    renames: Mapping[str, str] = field(default_factory=dict)  # legacy key -> current key
    required: tuple[str, ...] = ()  # keys the schema requires: without one the object is dropped
    read_special: Callable[[Mapping[str, Any], Where, ReadContext], dict[str, Any]] | None = None
    write_special: Callable[[Any, registry.Refs, Where, Issues], dict[str, Any]] | None = None
    check: Callable[[Any, int, Where, ReadContext], Any] | None = None  # rules: the value kept (None: dropped)
    canonical_special: Callable[[Any, Mapping[int, str]], dict[str, Any]] | None = None
    engine_loss: str = ""
    marks: Callable[[Any], list[tuple[Vec3, Vec3]]] | None = None  # the overlay's lines (`common.arrow`, `circle`)
    animated: bool = True  # its Field tables' numbers, vectors and bools are Object Model rows


def read_units(spec: NodeUnitSpec) -> Callable[[Mapping[str, Any], PhysicsDocument, Sequence[Shape | None]], None]:
    def read(gltf: Mapping[str, Any], doc: PhysicsDocument, shapes: Sequence[Shape | None]) -> None:
        context = ReadContext(gltf, doc, Findings(), shapes)
        for index, at, raw in node_objects(gltf, spec.name):
            value = read_value(spec, raw, at, context)
            if value is not None and spec.check is not None:
                value = spec.check(value, index, at, context)
            if value is not None:
                set_value(doc, index, spec.name, value)
        if context.findings.has(f"{spec.name}:legacy"):
            doc.revisions.add(legacy_revision(spec.name))
        context.findings.into(doc.issues)
    return read


def read_value(spec: NodeUnitSpec, raw: object, at: Where, context: ReadContext) -> Any:
    """One node object's value, or None (reported) when it cannot be kept."""
    issues = context.doc.issues
    read = read_object(spec.fields, raw, at, issues, spec.what, renames=spec.renames, findings=context.findings,
                       kind=f"{spec.name}:legacy")
    if read is None:
        return None
    values, unknown = read
    assert isinstance(raw, Mapping)
    missing = [key for key in spec.required if key not in raw]
    if missing:
        report(issues, join(at, missing[0]), f"{spec.what} has no {', '.join(missing)} (required); dropped")
        return None
    if spec.read_special is not None:
        values.update(spec.read_special(raw, at, context))
    return spec.make(**values, unknown=unknown)


def write_units(spec: NodeUnitSpec) -> Callable[[NodePhysics, registry.Refs, Where, Issues], Any]:
    def write(node: NodePhysics, refs: registry.Refs, at: Where, issues: Issues) -> Any:
        value = value_of(node, spec.name)
        if value is None:
            return MISSING
        where = join(at, "extensions", spec.name)
        out = spec.write_special(value, refs, where, issues) if spec.write_special is not None else {}
        return write_object(spec.fields, value, out) or _stated(spec)
    return write


def _stated(spec: NodeUnitSpec) -> dict[str, Any]:
    """An object of all defaults, stated: the first field's default, else an empty `extras` (Blender's exporter
    drops an empty object, and with it the extension; it keeps `extras`)."""
    for field_spec in spec.fields:
        if field_spec.kind in ("number", "bool") and field_spec.default is not None:
            return {field_spec.key: field_spec.default}
        if field_spec.kind == "vector" and field_spec.default is not None:
            return {field_spec.key: [float(number) for number in field_spec.default]}
    return {"extras": {}}


def losses(name: str, what: str) -> Callable[[NodePhysics, Where], list[Issue]]:
    """What another dialect's writer says of a node's value of this unit: it has no counterpart there."""
    def lost(node: NodePhysics, at: Where) -> list[Issue]:
        if value_of(node, name) is None:
            return []
        return [Issue(pointer_text(join(at, "extensions", name)), f"the {what} ({name}) has no counterpart in "
                      "this dialect: not written", "warning", LOSS_KIND)]
    return lost


def canonical(fields: tuple[Field, ...], special: Callable[[Any, Mapping[int, str]], dict[str, Any]] | None
              ) -> registry.Canonical:
    """A unit value's canonical form: its Field values, and what its special hook adds (both unit kinds)."""
    def form(value: Any, paths: Mapping[int, str]) -> Any:
        found = canonical_fields(fields, value)
        if special is not None:
            found.update(special(value, paths))
        return found
    return form


def unit(spec: NodeUnitSpec) -> registry.ExtensionUnit:
    """The registry's unit of a node-object extension, carried by the dialect that keeps unknown keys."""
    return registry.ExtensionUnit(
        spec.name, CARRIER, read_units(spec), write_node=write_units(spec),
        node_losses=losses(spec.name, spec.what),
        pointers=pointers.node_rows(spec.name, spec.fields, spec.name) if spec.animated else (),
        canonical=canonical(spec.fields, spec.canonical_special), schema_check=schema_check.checker(spec.name),
        engine_loss=spec.engine_loss,
        marks=spec.marks, legacy_keys=spec.renames)
