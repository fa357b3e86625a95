"""Keys inside OMI objects that the model has no field for: kept, named, and written back (no bpy here).

A newer revision of the specs (or a vendor) may add keys: `motion.linearDamping`, `collider.isSensor`,
`box.margin`, a document-level array, `extras` on a shape, a drive mode 'servo'. A newer file must not lose
them in our hands: the reader calls `collect` for every object it reads, which keeps what the dialect's
Field tables (and the few keys an item reads itself) do not declare in the item's `model.Unknown`, and
names each with a warning saying so; the writers put them back (`fields.write_unknown`), the Blender
layer stores them with the settings. The tables are the one home of what is known: nothing here lists
keys. `read.reader.kept_key_findings` is the reader's findings of this kind (`validate`,
tests). `not_written` names what a
writer of another dialect cannot carry (KHR has its own namespaces).
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from ..json_types import Issues, Where, join, pointer_text
from ..model import NOTHING_UNKNOWN, Issue, NodePhysics, PhysicsDocument, Unknown
from .fields import Field

FOREIGN = ("extras", "extensions")  # glTF property members the model does not read inside OMI items
GLTF_MEMBER_TYPES: dict[str, tuple[type, str]] = {  # what glTF's schema wants of the members it defines
    "name": (str, "a string"), "extensions": (dict, "an object")}
KIND = "unknown_key"  # Issue.kind of the findings made here


def collect(fields: Iterable[Field], container: Mapping[str, Any], at: Where, issues: Issues, what: str, *,
            dialect: str, known: Iterable[str] = (), quiet: Iterable[str] = (),
            keep: bool = True) -> Unknown:
    """The keys of one JSON object that `fields` and `known` do not declare, and the file's spelling of each
    open "choice" value the table does not know (the reader reports that one, reading the Field's fallback).

    Each undeclared key gets a warning at its pointer, except those in `quiet` (glTF members the model
    simply does not read, e.g. a shape's `name`). A value JSON cannot write back (NaN, Infinity) is dropped,
    said so. Without `keep` (a dialect whose unknown keys the add-on does not carry yet: KHR) each is named as
    not kept, and nothing is returned.
    """
    declared = set(known)
    kept: dict[str, Any] = {}
    for spec in fields:
        declared.add(spec.key)
        value = container.get(spec.key)
        if spec.kind == "choice" and spec.open and isinstance(value, str) and value not in spec.choices:
            kept[spec.key] = value
    silent = set(quiet)
    for key, value in container.items():
        if key in declared or not isinstance(key, str):
            continue
        where = pointer_text(join(at, key))
        if not _writable(value):
            _add(issues, Issue(where, f"{what} key {key!r} holds a number JSON cannot write (NaN or Infinity): "
                                      "dropped, export leaves it out", "warning", KIND))
            continue
        wanted = GLTF_MEMBER_TYPES.get(key)
        if wanted is not None and not isinstance(value, wanted[0]):
            _add(issues, Issue(where, f"`{key}` of the {what} must be {wanted[1]} (glTF schema): dropped, export "
                                      "leaves it out", "warning", KIND))
            continue
        kept[key] = value
        if key in silent or (key == "extras" and value == {}):  # an empty extras holds nothing to lose: the
            continue  # add-on writes `"collider": {"extras": {}}` itself, as its grouping marker (export/parts.py)
        if not keep:
            message = f"{what} key {key!r} is not in the {dialect} revision this add-on reads, and is not kept: the " \
                      "add-on keeps unknown keys of OMI files only; export leaves it out"
        elif key in FOREIGN:
            message = f"`{key}` of the {what} is not read by the physics model: kept as it is, and export writes " \
                      "it back"
        else:
            message = f"{what} key {key!r} is not in the {dialect} revision this add-on reads: kept as it is, " \
                      "and export writes it back"
        _add(issues, Issue(where, message, "warning", KIND))
    return Unknown(kept, dialect) if kept and keep else NOTHING_UNKNOWN


def _add(issues: Issues, found: Issue) -> None:
    if issues is not None:
        issues.append(found)


def _writable(value: Any) -> bool:
    try:
        json.dumps(value, allow_nan=False)
    except (ValueError, TypeError):
        return False
    return not (isinstance(value, float) and not math.isfinite(value))


# --- another dialect ---------------------------------------------------------------------------------

def node_items(node: NodePhysics, at: Where = "") -> Iterator[tuple[Where, str, Unknown]]:
    """(pointer, what, kept keys) of every model item of one node that holds unknown keys, at the OMI
    spelling's pointers below the node's pointer `at`."""
    body = join(at, "extensions", "OMI_physics_body")
    if node.unknown:
        yield body, "body", node.unknown
    if node.motion is not None and node.motion.unknown:
        yield join(body, "motion"), "motion", node.motion.unknown
    for part, name in ((node.collider, "collider"), (node.trigger, "trigger")):
        if part is None:
            continue
        if part.unknown:
            yield join(body, name), name, part.unknown
        if part.shape is not None:
            for kept, what in ((part.shape.unknown, "shape"), (part.shape.type_unknown, "shape values")):
                if kept:
                    yield join(body, name, "shape"), f"{name} {what}", kept
        for item, key, what in ((getattr(part, "physics_material", None), "physicsMaterial", "physics material"),
                                (part.collision_filter, "collisionFilter", "collision filter")):
            if item is not None and item.unknown:
                yield join(body, name, key), f"{name} {what}", item.unknown
    if node.joint is not None:
        joint_at = join(at, "extensions", "OMI_physics_joint")
        settings = node.joint.settings
        for kept, where, what in ((node.joint.unknown, joint_at, "joint node"),
                                  (settings.unknown, join(joint_at, "joint"), "joint"),
                                  *((limit.unknown, join(joint_at, "joint", "limits", i), "joint limit")
                                    for i, limit in enumerate(settings.limits)),
                                  *((drive.unknown, join(joint_at, "joint", "drives", i), "joint drive")
                                    for i, drive in enumerate(settings.drives))):
            if kept:
                yield where, what, kept


def not_written(node: NodePhysics, dialect: str, at: Where = "") -> list[Issue]:
    """A warning per key of another dialect's unknown keys on one node, which `dialect` cannot hold."""
    return [Issue(pointer_text(where), f"{what} key {key!r} was kept from an {kept.dialect} file: {dialect} has "
                                       f"its own namespaces, so the {dialect} spelling leaves it out", "warning", KIND)
            for where, what, kept in node_items(node, at) if kept.dialect != dialect for key in kept]


def document_not_written(doc: PhysicsDocument, dialect: str) -> list[Issue]:
    """not_written for the document-level keys of the extensions of another dialect."""
    return [Issue(pointer_text(("extensions", name, key)), f"{name} key {key!r} was kept from an {kept.dialect} "
                                                           f"file: the {dialect} spelling leaves it out", "warning",
                  KIND)
            for name, kept in doc.unknown.items() if kept.dialect != dialect for key in kept]


def extension_names(kept: Iterable[Unknown]) -> set[str]:
    """The extension names used inside kept keys (`extensions` members, at any depth): a document that
    writes them back lists them in extensionsUsed."""
    names: set[str] = set()
    stack: list[Any] = [item.fresh() for item in kept if item]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            inner = value.get("extensions")
            if isinstance(inner, dict):
                names.update(name for name in inner if isinstance(name, str))
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
    return names
