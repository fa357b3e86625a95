"""The further dialects of one glTF export (`export_writer`): the gathered model values written in each other
dialect of the export target (`registry.Target.dialects`, in order), beside the home spelling or instead of it.

It runs when the exporter has indexed every node and mesh (`gltf` is the exporter's document: nodes with
`name` and `extensions`, `extensions`, `extensions_used`): each node's physics, as placed for the home
spelling less what was lost on the way (a joint or trigger whose nodes the exporter removed, an unusable
shape), is written with the dialect unit's own node writer behind its cache (`repeats.Repeats`), so every
dialect comes from one placement and one set of findings, without reading the home spelling back. What a
dialect cannot hold comes back as Issues. No dialect is named here: a registered dialect
(tests/unit/toy_dialect.py) is exported the same way.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from .. import model
from ..dialects import registry, unknown_keys
from ..read import reader
from ..units import node_unit
from . import repeats, writer
from .export_writer import home

ANIMATION_POINTER = "KHR_animation_pointer"


def home_names() -> tuple[str, ...]:
    """Every extension of the home spelling, its extension units' included (e.g. gravity)."""
    return registry.owned_names(home().name)


def write_dialect(gltf: Any, unit: registry.DialectUnit, physics: Iterable[tuple[int, model.NodePhysics]],
                  node_ref: Callable[[Any], Any], mesh_ref: Callable[[Any], Any], *, keep_home: bool,
                  separate: bool = True) -> list[model.Issue]:
    """Add `unit`'s spelling of the export's physics to `gltf`; remove the home spelling unless `keep_home`.

    `physics` is each node's physics as its home spelling was written (node index, model values with the
    export's placeholders, which `node_ref` / `mesh_ref` turn into indices). Returns what the dialect cannot
    hold (pointers into the written file). With animated physics the export keeps the home spelling here (its
    channels point into it) and calls `drop_home` once every channel has its twin (`animation.add_spelling`);
    called without `keep_home` on an animated export, the home spelling stays and a finding says so. Without
    `separate`, nodes with equal bodies share their JSON (nothing changes it afterwards unless animated).
    """
    issues: list[model.Issue] = []
    if not keep_home and ANIMATION_POINTER in (gltf.extensions_used or []):
        issues.append(model.Issue("/extensionsUsed", f"the physics animation points into the {home().name} "
                                                    f"extensions: the {home().name} physics is written too (an "
                                                    "export target with both)", "warning"))
        keep_home = True
    items = writer.ItemArrays(dialect=unit.tables)
    bodies = repeats.Repeats(unit, items.ref, node_ref, mesh_ref, repeats.SEPARATE if separate else repeats.SHARED)
    written: dict[int, dict[str, Any]] = {}
    shared: dict[tuple[str, model.Severity], list[str]] = {}  # the same loss on many nodes: one line naming them
    for index, part in sorted(physics, key=lambda entry: entry[0]):
        content, node_issues = bodies.content(f"/nodes/{index}", part)
        for found in node_issues:
            if found.kind == SHARED_LOSS:
                shared.setdefault((found.message, found.severity), []).append(_node_name(gltf, index))
        issues.extend(_named(gltf, index, [found for found in node_issues if found.kind != SHARED_LOSS]))
        if content:
            written[index] = content
    issues.extend(model.Issue("", f"{message} ({_listed(names)})", severity, SHARED_LOSS)
                  for (message, severity), names in shared.items())
    issues.extend(_document_not_written(gltf, unit))
    dropped = home_names()
    for index, node in enumerate(gltf.nodes or []):
        own = written.get(index)
        if own is None and keep_home:
            continue
        extensions = {name: value for name, value in (node.extensions or {}).items()
                      if keep_home or name not in dropped}
        if own is not None:
            extensions.update(own)
        node.extensions = extensions or None
    if gltf.extensions is None:
        gltf.extensions = {}
    document = items.by_extension()
    for name in unit.tables.extensions:
        if name in document:
            gltf.extensions[name] = document[name]
    on_nodes = {name for content in written.values() for name in content}
    used = [name for name in unit.tables.extensions if name in document or name in on_nodes]
    if not keep_home:
        drop_home(gltf)
    gltf.extensions_used.extend(name for name in used if name not in gltf.extensions_used)
    return issues


def surviving(written: Iterable[tuple[Any, model.NodePhysics]],
              node_index: Mapping[int, int]) -> list[tuple[int, model.NodePhysics]]:
    """(node index, physics) of each node the home spelling was written on (`ExportWriter.written_nodes`),
    less the parts it lost since (a joint or trigger whose nodes the exporter removed, an unusable shape)."""
    tables = home().tables
    physics = []
    for node, part in written:
        index = node_index.get(id(node))
        extensions = node.extensions or {}
        body = extensions.get(tables.body_extension) or {}
        motion = part.motion if "motion" in body else None
        collider = part.collider if "collider" in body else None
        trigger = part.trigger if "trigger" in body else None
        joint = part.joint if tables.joint_extension in extensions else None
        unknown = part.unknown if tables.body_extension in extensions else model.NOTHING_UNKNOWN
        unchanged = motion is part.motion and collider is part.collider and trigger is part.trigger \
            and joint is part.joint and unknown is part.unknown  # the common case: no new value to make
        kept = part if unchanged else model.NodePhysics(motion=motion, collider=collider, trigger=trigger,
                                                        joint=joint, unknown=unknown)
        if index is not None and not (kept.is_empty and not kept.unknown):
            physics.append((index, kept))
    return physics


SHARED_LOSS = node_unit.LOSS_KIND  # an extension unit the dialect cannot hold: said once, naming its objects


def _node_name(gltf: Any, index: int) -> str:
    nodes = gltf.nodes or []
    name = getattr(nodes[index], "name", None) if 0 <= index < len(nodes) else None
    return repr(name) if name else f"node {index}"


def _listed(names: list[str], shown: int = 5) -> str:
    more = f" and {len(names) - shown} more" if len(names) > shown else ""
    return ", ".join(names[:shown]) + more


def _named(gltf: Any, index: int, issues: list[model.Issue]) -> list[model.Issue]:
    """A node's findings said of the object it was made from (the exporter names a node after its object),
    with the pointer into the written file after it: the artist looks for the object."""
    nodes = gltf.nodes or []
    name = getattr(nodes[index], "name", None) if 0 <= index < len(nodes) else None
    if not name:
        return issues
    return [model.Issue(issue.pointer, f"object {name!r} ({issue.pointer}): {issue.message}", issue.severity)
            for issue in issues]


def _document_not_written(gltf: Any, unit: registry.DialectUnit) -> list[model.Issue]:
    """The keys a home document extension kept from an imported file (beside its arrays) have no place in the
    other dialect: each is named, as reading the home spelling back finds them. Only the document level is
    read."""
    source = home()
    names = home_names()
    document = {name: content for name, content in (gltf.extensions or {}).items()
                if name in names and isinstance(content, dict) and set(content) - set(source.tables.homes)}
    if not document:
        return []
    read = reader.read_document({"extensions": document}, source.name)
    return unknown_keys.document_not_written(read, unit.name)


def drop_home(gltf: Any) -> None:
    """Remove the home spelling from the export: node extensions, document extensions, extensionsUsed (an
    export without the home dialect whose animation channels all point into another spelling calls it after
    them)."""
    dropped = home_names()
    for node in gltf.nodes or []:
        if node.extensions and any(name in dropped for name in node.extensions):
            node.extensions = {name: value for name, value in node.extensions.items() if name not in dropped} \
                or None
    for name in dropped:
        (gltf.extensions or {}).pop(name, None)
    gltf.extensions_used[:] = [name for name in gltf.extensions_used if name not in dropped]
