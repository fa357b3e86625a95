"""Keys inside OMI objects that this add-on's model has no place for, named before they are lost.

A newer revision of the specs (or a vendor) may add keys: `motion.linearDamping`, `collider.isSensor`,
`box.margin`, a document-level array, `extras` on a shape. The reader skips what it does not know, so an
import followed by an export would drop them without a word; `check` names each (no bpy here), and
`validate` and the import report them. Keys of the current OMI revision only: legacy forms are the
reader's and `upgrade`'s business.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from .dialects import OMI
from .fields import Field, keys
from .json_types import pointer
from .model import BODY_EXTENSION, JOINT_EXTENSION, SHAPE_EXTENSION, Issue

FOREIGN = ("extras", "extensions")  # glTF property members the model does not keep inside OMI items


def _known(fields: Iterable[Field], *more: str) -> frozenset[str]:
    return frozenset((*keys(fields), *more))


SHAPE_KEYS = frozenset(("type", "name", *OMI.shape_fields))
LEGACY_SHAPE_KEYS = {"capsule": ("radius",), "cylinder": ("radius",)}  # read (or noted) by the reader
MATERIAL_KEYS = _known(OMI.material_fields)
FILTER_KEYS = _known(OMI.filter_fields)
SETTINGS_KEYS = _known(OMI.joint_settings_fields)
LIMIT_KEYS = _known(OMI.limit_fields)
DRIVE_KEYS = _known(OMI.drive_fields)
MOTION_KEYS = _known(OMI.motion_fields)
COLLIDER_KEYS = _known(OMI.collider_fields)
TRIGGER_KEYS = _known(OMI.trigger_fields)
JOINT_KEYS = _known(OMI.joint_fields)
DOCUMENT_KEYS = {SHAPE_EXTENSION: frozenset(("shapes", *FOREIGN)),
                 BODY_EXTENSION: frozenset(("physicsMaterials", "collisionFilters", *FOREIGN)),
                 JOINT_EXTENSION: frozenset(("physicsJoints", *FOREIGN))}
BODY_KEYS = frozenset(OMI.body_parts)


def check(document: Any) -> list[Issue]:
    """A warning for every key of an OMI object (current revision) that import and export would drop."""
    if not isinstance(document, dict):
        return []
    return list(_document(document)) + [found for index, node in enumerate(_list(document.get("nodes")))
                                        for found in _node(index, node)]


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _unknown(item: Any, known: frozenset[str], tokens: tuple[str | int, ...], what: str) -> Iterator[Issue]:
    if not isinstance(item, dict):
        return
    for key in item:
        if key in known:
            continue
        if key in FOREIGN:
            message = f"`{key}` of the {what} is not kept by the import (the physics model has no place for it): " \
                      "export leaves it out"
        else:
            message = f"{what} key {key!r} is not in the OMI revision this add-on reads: the import skips it " \
                      "and export leaves it out"
        yield Issue(pointer(*tokens, key), message, "warning")


def _document(document: dict[str, Any]) -> Iterator[Issue]:
    extensions = document.get("extensions")
    if not isinstance(extensions, dict):
        return
    for name, known in DOCUMENT_KEYS.items():
        content = extensions.get(name)
        yield from _unknown(content, known, ("extensions", name), f"{name} extension")
        if not isinstance(content, dict):
            continue
        for position, shape in enumerate(_list(content.get("shapes"))):
            at = ("extensions", name, "shapes", position)
            shape_type = shape.get("type") if isinstance(shape, dict) else None
            if not isinstance(shape_type, str) or shape_type not in OMI.shape_fields or shape_type not in shape:
                continue  # an unknown type is the reader's finding; a flat (legacy) shape is read by the reader
            yield from _unknown(shape, SHAPE_KEYS, at, "shape")
            details = _known(OMI.shape_fields[shape_type], *LEGACY_SHAPE_KEYS.get(shape_type, ()))
            yield from _unknown(shape.get(shape_type), details, (*at, shape_type), shape_type)
        for array, known_keys, what in (("physicsMaterials", MATERIAL_KEYS, "physics material"),
                                        ("collisionFilters", FILTER_KEYS, "collision filter")):
            for position, item in enumerate(_list(content.get(array))):
                yield from _unknown(item, known_keys, ("extensions", name, array, position), what)
        for position, settings in enumerate(_list(content.get("physicsJoints"))):
            at = ("extensions", name, "physicsJoints", position)
            yield from _unknown(settings, SETTINGS_KEYS, at, "joint")
            if isinstance(settings, dict):
                for part, known_keys, what in (("limits", LIMIT_KEYS, "joint limit"), ("drives", DRIVE_KEYS,
                                                                                        "joint drive")):
                    for index, item in enumerate(_list(settings.get(part))):
                        yield from _unknown(item, known_keys, (*at, part, index), what)


def _node(index: int, node: Any) -> Iterator[Issue]:
    extensions = node.get("extensions") if isinstance(node, dict) else None
    if not isinstance(extensions, dict):
        return
    body = extensions.get(BODY_EXTENSION)
    if isinstance(body, dict) and "type" not in body:  # the legacy `type` form is the reader's
        at = ("nodes", index, "extensions", BODY_EXTENSION)
        yield from _unknown(body, frozenset((*BODY_KEYS, *FOREIGN)), at, "body")
        for part, known_keys in (("motion", MOTION_KEYS), ("collider", COLLIDER_KEYS), ("trigger", TRIGGER_KEYS)):
            yield from _unknown(body.get(part), known_keys, (*at, part), part)
    joint = extensions.get(JOINT_EXTENSION)
    yield from _unknown(joint, frozenset((*JOINT_KEYS, *FOREIGN)), ("nodes", index, "extensions", JOINT_EXTENSION),
                        "joint node")
