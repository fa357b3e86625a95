"""Values that would change silently between Blender and a file, found so that each is named (no bpy here).

Two places lose values without a word unless asked:
- writing: a value the dialect cannot hold (out of its bounds, not finite, an enum spelling it does not
  know) is left out by `fields.json_value`, so the file reads the default instead: a box with one side
  0 becomes the 1 m cube, a drive mode 'servo' becomes 'force'. `unwritten` names each such value of a
  node, with what the file will read instead; the writer reports them with its other findings.
- storing in Blender: PropertyGroup floats are float32, so a file's 1e39 becomes 3.4e38 (or inf) and
  1e-46 becomes 0. `beyond_float32` names each model value that float32 cannot hold; the import and
  `validate` report them.
"""

from __future__ import annotations

import math
import struct
from collections.abc import Iterator
from typing import Any

from ..dialects import gravity
from ..dialects.base import Dialect
from ..dialects.fields import Field, json_value
from ..dialects.omi import OMI
from ..json_types import MISSING, Where, describe, join, pointer_text
from ..model import Issue, NodePhysics, PhysicsDocument, Shape
from . import rulebook

FLOAT32_MAX = struct.unpack("<f", struct.pack("<I", 0x7F7FFFFF))[0]
INT32_LIMIT = 2 ** 31  # Blender's IntProperty holds -2**31 .. 2**31 - 1
FLOAT32_MIN_NORMAL = 2.0 ** -126  # from here to FLOAT32_MAX a float32 holds every number (rounded), never 0


def _parts(node: NodePhysics, dialect: Dialect, at: Where) -> Iterator[tuple[tuple[Field, ...], Any, Where]]:
    """(fields, model item, pointer) of every item a node's extensions write."""
    body = join(at, "extensions", dialect.body_extension) if at else ""
    if node.motion is not None:
        yield dialect.motion_fields, node.motion, join(body, "motion")
    for part, name in ((node.collider, "collider"), (node.trigger, "trigger")):
        if part is None:
            continue
        yield from _shape_part(part.shape, dialect, join(body, name, "shape"))
        material = getattr(part, "physics_material", None)
        if material is not None:
            yield dialect.material_fields, material, join(body, name, "physicsMaterial")
    if node.joint is not None:
        joint_at = join(at, "extensions", dialect.joint_extension, "joint") if at else ""
        settings = node.joint.settings
        yield dialect.joint_settings_fields, settings, joint_at
        for position, limit in enumerate(settings.limits):
            yield dialect.limit_fields, limit, join(joint_at, "limits", position)
        for position, drive in enumerate(settings.drives):
            yield dialect.drive_fields, drive, join(joint_at, "drives", position)


def _shape_part(shape: Shape | None, dialect: Dialect, at: Where) -> Iterator[tuple[tuple[Field, ...], Any, Where]]:
    if shape is not None and shape.type in dialect.shape_fields:
        yield dialect.shape_fields[shape.type], shape, at


def _shown(value: Any) -> str:
    """A value as messages quote it: numbers short, vectors as JSON arrays."""
    if isinstance(value, tuple | list):
        return "[" + ", ".join(_shown(item) for item in value) + "]"
    if isinstance(value, float):
        return f"{value:g}"
    return describe(value)


def _why(spec: Field, value: Any) -> str:
    numbers = list(value) if isinstance(value, tuple | list) else [value]
    if spec.choices:
        return f"not one of {', '.join(spec.choices)}"
    if not all(isinstance(number, int | float) and math.isfinite(number) for number in numbers):
        return "not a finite number"
    if spec.exclusive_minimum is not None:
        return f"must be greater than {spec.exclusive_minimum:g}"
    return f"must be at least {spec.minimum:g}"


def unwritten(node: NodePhysics, dialect: Dialect = OMI, at: Where = "") -> list[Issue]:
    """Each value of the node that the dialect would leave out although it is not the default."""
    issues = []
    for fields, item, where in _parts(node, dialect, at):
        for spec in fields:
            if spec.kind not in ("number", "vector", "choice"):
                continue
            value = getattr(item, spec.attr, None)
            if value is None or json_value(spec, value) is not MISSING or _same(value, spec.default) \
                    or (spec.zero_is_infinite and _infinite(value)):
                continue
            instead = "the default" if spec.default is None else _shown(spec.default)
            if _infinite(value):
                what = spec.label if spec.kind == "number" else f"{spec.label} {_shown(value)}"
                issues.append(rulebook.note(pointer_text(join(where, spec.key)), "khr_infinite_unwritten", what=what,
                                         dialect=dialect.name, instead=instead))
                continue
            issues.append(Issue(pointer_text(join(where, spec.key)), f"{spec.label} {_shown(value)} cannot be "
                                f"written ({_why(spec, value)}): left out, so the file reads {instead}",
                                "warning"))
    return issues


def left_to_engine(doc: PhysicsDocument, dialect: Dialect) -> list[Issue]:
    """Each value a dynamic motion leaves to the engine (None: KHR's absent centre of mass) that `dialect`
    cannot leave out without meaning its default (OMI reads the origin). `convert` names them: the file said
    it; Blender's settings say it of every new body, so the export does not repeat it for each."""
    issues = []
    for index, node in sorted(doc.nodes.items()):
        if node.motion is None or node.motion.type != "dynamic":
            continue
        at = join("/nodes", index, "extensions", dialect.body_extension, "motion")
        for spec in dialect.motion_fields:
            if spec.kind == "vector" and spec.default is not None and getattr(node.motion, spec.attr, 0) is None:
                issues.append(rulebook.note(pointer_text(join(at, spec.key)), "khr_computed_unwritten", what=spec.label,
                                         dialect=dialect.name, instead=_shown(spec.default)))
    return issues


def _infinite(value: Any) -> bool:
    """Whether a model value is (or holds) math.inf, which a `zero_is_infinite` field writes as 0."""
    numbers = value if isinstance(value, tuple | list) else (value,)
    return any(isinstance(number, float) and math.isinf(number) and number > 0 for number in numbers)


def _same(value: Any, default: Any) -> bool:
    if isinstance(value, tuple | list) and isinstance(default, tuple | list):
        return tuple(value) == tuple(default)
    return bool(value == default)


def beyond_float32(node: NodePhysics, dialect: Dialect = OMI, at: Where = "") -> list[Issue]:
    """Each finite number of the node that Blender's float32 settings cannot hold (too big, or so small
    that it becomes 0)."""
    return [found for fields, item, where in _parts(node, dialect, at) for found in _item_beyond(fields, item, where)]


def _item_beyond(fields: tuple[Field, ...], item: Any, where: Where) -> list[Issue]:
    issues = []
    for spec in fields:
        if spec.kind not in ("number", "vector", "infinity"):
            continue
        value = getattr(item, spec.attr, None)
        numbers = value if isinstance(value, tuple | list) else (value,)
        for number in numbers:
            if type(number) is float and (FLOAT32_MIN_NORMAL <= abs(number) <= FLOAT32_MAX or number == 0.0):
                continue  # the common case, without packing
            if not isinstance(number, int | float) or isinstance(number, bool) or not math.isfinite(number):
                continue
            stored = _as_float32(number)
            if stored is not None and (stored == 0.0) == (number == 0.0):
                continue
            becomes = f"{math.copysign(FLOAT32_MAX, number):.7g} (float32's largest)" if stored is None else "0"
            moved = "; a kinematic body with it is not moved" if spec.key.endswith("Velocity") else ""
            issues.append(Issue(pointer_text(join(where, spec.key)), f"{spec.label} {_shown(value)} is beyond "
                                f"float32, which Blender stores: it becomes {becomes}{moved}", "warning"))
            break
    return issues


def gravity_losses(doc: PhysicsDocument) -> list[Issue]:
    """What Blender's gravity settings cannot hold: the world gravity's and the volumes' numbers beyond
    float32, and volume priorities beyond a 32-bit integer (the nearest one is kept)."""
    issues = []
    if doc.gravity is not None:
        issues += _item_beyond(gravity.WORLD_FIELDS, doc.gravity, ("extensions", gravity.GRAVITY))
    for index, node in sorted(doc.nodes.items()):
        volume = node.gravity
        if volume is None or not isinstance(index, int):
            continue
        at: Where = ("nodes", index, "extensions", gravity.GRAVITY)
        issues += _item_beyond(gravity.VOLUME_FIELDS, volume, at)
        issues += _item_beyond(gravity.TYPE_FIELDS.get(volume.type, ()), volume, join(at, volume.type))
        if not -INT32_LIMIT <= volume.priority < INT32_LIMIT:
            kept = -INT32_LIMIT if volume.priority < 0 else INT32_LIMIT - 1
            issues.append(Issue(pointer_text(join(at, "priority")), f"priority {volume.priority} is beyond a 32-bit "
                                f"integer, which Blender stores: it becomes {kept}", "warning"))
    return issues


def _as_float32(number: float) -> float | None:
    """The float32 nearest to the number; None when it is beyond float32's range."""
    try:
        return float(struct.unpack("<f", struct.pack("<f", number))[0])
    except OverflowError:
        return None


def document_losses(doc: PhysicsDocument) -> list[Issue]:
    """What Blender's settings cannot hold of a read document (beyond_float32), at the nodes' pointers.
    An enum value the spec does not know is named once, by the reader, with what Blender keeps of it.
    The reader gives nodes of equal physics one shared (immutable) value: one found without losses is not
    checked again."""
    issues: list[Issue] = []
    lossless: set[int] = set()  # ids of node values checked without a finding
    for index, node in sorted(doc.nodes.items()):
        if not isinstance(index, int) or id(node) in lossless:
            continue
        found = beyond_float32(node, at=("nodes", index))
        if found:
            issues += found
        else:
            lossless.add(id(node))
    return issues + gravity_losses(doc)


def document_beyond_float32(doc: PhysicsDocument) -> list[Issue]:
    """beyond_float32 for every node of a read document, at the nodes' pointers."""
    return [found for index, node in sorted(doc.nodes.items()) if isinstance(index, int)
            for found in beyond_float32(node, at=("nodes", index))]
