"""What every extension unit reads and writes the same way: its objects on nodes, the node tree it checks
placement in, legacy key names, findings said once per kind, and the rounding of the canonical form.

The units (one package each beside this module) declare their keys, defaults and bounds as `fields.Field`
tables and build their `registry.ExtensionUnit` with `node_unit` or `part_unit`; this module is what those
two builders share. No bpy here.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from dataclasses import replace
from typing import Any

from ..dialects.fields import Field, read_fields, write_fields, write_unknown
from ..dialects.omi import NAME as OMI_NAME
from ..dialects.unknown_keys import collect
from ..json_types import MISSING, ROOT, Issues, Where, describe, get, join, pointer_text, report, sequence_items
from ..model import Issue, NodePhysics, PhysicsDocument, Severity, Unknown, Vec3

SIGNIFICANT_DIGITS = 5  # the canonical form's rounding (as checks/canonical.py's)
LEGACY = ".legacy"  # PhysicsDocument.revisions holds <extension>.legacy for a unit read in its legacy names

CARRIER = OMI_NAME  # the dialect that carries the units, and spells the keys they keep


def legacy_revision(name: str) -> str:
    """The revision name of a unit's legacy key names (what `upgrade` rewrites)."""
    return f"{name}{LEGACY}"


def node_objects(gltf: Mapping[str, Any], name: str) -> Iterator[tuple[int, Where, Any]]:
    """(node index, pointer, object) of every node holding extension `name`."""
    for index, node in enumerate(sequence_items(get(gltf, "nodes"))):
        # every unit asks every node: a parsed node (a dict) is asked directly, without two calls of `get`
        extensions = node.get("extensions") if type(node) is dict else get(node, "extensions")
        raw = extensions.get(name, MISSING) if type(extensions) is dict else get(extensions, name)
        if raw is not MISSING:
            yield index, join(ROOT, "nodes", index, "extensions", name), raw


def parents(gltf: Mapping[str, Any]) -> dict[int, int]:
    """Child node index -> parent node index (the first parent listing it)."""
    found: dict[int, int] = {}
    for index, node in enumerate(sequence_items(get(gltf, "nodes"))):
        children = get(node, "children")
        for child in children if isinstance(children, list) else ():
            if isinstance(child, int) and not isinstance(child, bool) and child not in found and child != index:
                found[child] = index
    return found


def ancestors(tree: Mapping[int, int], index: int) -> Iterator[int]:
    """The ancestors of a node, nearest first (a cycle ends the walk)."""
    seen = {index}
    current = tree.get(index)
    while current is not None and current not in seen:
        yield current
        seen.add(current)
        current = tree.get(current)


def value_of(node: NodePhysics | None, name: str) -> Any:
    """A unit's value on a node, or None."""
    return None if node is None else node.extensions.get(name)


def set_value(doc: PhysicsDocument, index: int, name: str, value: Any) -> None:
    """Put a unit's value on node `index` (a node of unit values only is a NodePhysics too)."""
    physics = doc.nodes.get(index) or NodePhysics()
    doc.nodes[index] = replace(physics, extensions=physics.extensions.with_value(name, value))


class Findings:
    """Findings said once per kind: the first place, and how many more share it (an import of a hundred
    wheels with old key names gets one line)."""

    def __init__(self) -> None:
        self._kinds: dict[str, tuple[str, str, Severity, int]] = {}

    def add(self, kind: str, at: Where, message: str, severity: Severity = "warning") -> None:
        first = self._kinds.get(kind)
        self._kinds[kind] = (pointer_text(at), message, severity, 1) if first is None else \
            (first[0], first[1], first[2], first[3] + 1)

    def has(self, kind: str) -> bool:
        return kind in self._kinds

    def into(self, issues: list[Issue]) -> None:
        for kind, (where, message, severity, count) in self._kinds.items():
            more = f" ({count - 1} more like it)" if count > 1 else ""
            issues.append(Issue(where, f"{message}{more}", severity, kind))


def said_once(issues: list[Issue], kind: str) -> list[Issue]:
    """`issues` with those of `kind` that share a message said once: at the first pointer, with a count."""
    counts: dict[str, int] = {}
    for found in issues:
        if found.kind == kind:
            counts[found.message] = counts.get(found.message, 0) + 1
    kept, seen = [], set()
    for found in issues:
        if found.kind != kind:
            kept.append(found)
        elif found.message not in seen:
            seen.add(found.message)
            more = counts[found.message] - 1
            text = f"{found.message} (and {more} more node{'s' if more > 1 else ''})" if more else found.message
            kept.append(Issue(found.pointer, text, found.severity, kind))
    return kept


def read_object(fields: tuple[Field, ...], content: object, at: Where, issues: Issues, what: str, *,
                renames: Mapping[str, str], findings: Findings, kind: str) -> tuple[dict[str, Any], Unknown] | None:
    """The model values of one extension object (its special fields left to the unit) and its kept unknown keys;
    None (reported) when it is no object. Legacy key names (`renames`: old -> current) are read as the current
    ones, said once per `kind`."""
    if not isinstance(content, Mapping):
        report(issues, at, f"{what} must be an object, got {describe(content)}; dropped")
        return None
    current = dict(content)
    old = [key for key in renames if key in current]
    for key in old:
        value = current.pop(key)
        current.setdefault(renames[key], value)
    if old:
        findings.add(kind, at, f"{what} uses the names from before the 2026 rename ({', '.join(old)}): read as "
                               f"{', '.join(renames[key] for key in old)}; export writes the current names")
    values = read_fields(fields, current, at, issues)
    return values, collect(fields, current, at, issues, what, dialect=CARRIER)


def write_object(fields: tuple[Field, ...], value: object, out: dict[str, Any]) -> dict[str, Any]:
    """The JSON of a unit's value: its fields (defaults left out) and its kept unknown keys."""
    return write_unknown(fields, value, write_fields(fields, value, out), CARRIER)


def rounded(value: Any) -> Any:
    """Numbers to SIGNIFICANT_DIGITS (tuples as lists), for the canonical form."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, int | float):
        number = float(f"{value:.{SIGNIFICANT_DIGITS}g}")
        return 0.0 if number == 0.0 else number
    if isinstance(value, tuple | list):
        return [rounded(item) for item in value]
    return value


def canonical_fields(fields: tuple[Field, ...], value: object) -> dict[str, Any]:
    """Every non-special field of a value by its JSON key, rounded (defaults stated: absent means them)."""
    return {spec.key: rounded(getattr(value, spec.attr)) for spec in fields if spec.kind != "special"}


# --- the overlay's marks (line segments in the node's frame, glTF axes) ------------------------------------

Segment = tuple[Vec3, Vec3]


def arrow(start: Vec3, direction: Vec3, length: float) -> list[Segment]:
    """A line from `start` along a unit axis `direction` (x, y or z) with a two-stroke head."""
    end = tuple(s + d * length for s, d in zip(start, direction, strict=True))
    side = (0.0, 1.0, 0.0) if abs(direction[1]) < 0.5 else (1.0, 0.0, 0.0)
    back = tuple(e - d * length * 0.3 for e, d in zip(end, direction, strict=True))
    heads = [tuple(b + sign * k * length * 0.2 for b, k in zip(back, side, strict=True)) for sign in (1.0, -1.0)]
    return [(start, _vec(end)), (_vec(end), _vec(heads[0])), (_vec(end), _vec(heads[1]))]


def circle(center: Vec3, radius: float, first: int, second: int, steps: int = 24) -> list[Segment]:
    """A circle in the plane of two axes (0 x, 1 y, 2 z) around `center`."""
    points = []
    for step in range(steps + 1):
        angle = 2 * math.pi * step / steps
        point = list(center)
        point[first] += radius * math.cos(angle)
        point[second] += radius * math.sin(angle)
        points.append(_vec(point))
    return [(points[i], points[i + 1]) for i in range(steps)]


def _vec(values: Any) -> Vec3:
    x, y, z = values
    return (float(x), float(y), float(z))
