"""OMI_physics_gravity as an extension unit: its tables, and reading and writing its two parts.

The extension has a document-level part (the world gravity, always directional) and a node-level part (a
gravity volume on a base trigger node: `type` says which way gravity points inside the trigger's shapes,
`priority`/`replace`/`stop` how overlapping volumes combine). Its keys, defaults and bounds are declared here
once, in the `fields.Field` form the other dialect tables use; the reader, the writer, the canonical form, the
Object Model pointers and the Blender settings read these tables.

Reading works on the model the body reader made (`read_gravity`): a volume is kept only on a node whose
physics is a base trigger (a trigger, no motion, no collider, not a member of a compound trigger), since the
spec allows one gravity per trigger body. Writing is `world_json` / `volume_json`. KHR has no gravity:
`khr_losses` names what a KHR writer drops. No bpy here.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from .. import model
from ..json_types import MISSING, ROOT, Issues, Where, describe, get, int_or, join, pointer_text, report
from ..model import GravityVolume, Issue, NodePhysics, PhysicsDocument, Shape, Unknown, WorldGravity
from . import omi
from .fields import Field, read_fields, write_fields, write_unknown
from .unknown_keys import collect

GRAVITY = "OMI_physics_gravity"  # world gravity (document) and gravity volumes (trigger nodes)
WORLD_AT: Where = join(ROOT, "extensions", GRAVITY)  # the world gravity: the document-level object
DIALECT = omi.NAME  # the dialect that carries it, and spells the keys it keeps (registered in builtin)
NORMAL_TOLERANCE = 1e-3  # |direction| may differ from 1 by this much before it is reported (float32 files)

_GRAVITY = Field("gravity", "gravity", what="gravity")  # required, no default: always written
_DIRECTION = Field("direction", "direction", "vector", model.DEFAULT_GRAVITY_DIRECTION, size=3, what="direction")
_UNIT_DISTANCE = Field("unit_distance", "unitDistance", default=model.DEFAULT_UNIT_DISTANCE, minimum=0.0,
                       what="unitDistance")
_RADIUS = Field("radius", "radius", default=model.DEFAULT_GRAVITY_RADIUS, minimum=0.0, what="radius")

WORLD_FIELDS: tuple[Field, ...] = (_GRAVITY, _DIRECTION)

VOLUME_FIELDS: tuple[Field, ...] = (
    Field("type", "type", "special", choices=model.GRAVITY_TYPES),  # required
    _GRAVITY,
    Field("priority", "priority", "special", 0),  # an integer (the schema says number, the text integer)
    Field("replace", "replace", "bool", False),
    Field("stop", "stop", "bool", False),
)

TYPE_FIELDS: Mapping[str, tuple[Field, ...]] = {  # the per-type sub-object, `{type: {...}}`
    "directional": (_DIRECTION,),
    "point": (_UNIT_DISTANCE,),
    "disc": (_RADIUS, _UNIT_DISTANCE),
    "torus": (_RADIUS, _UNIT_DISTANCE),
    "line": (Field("points", "points", "special", ()), _UNIT_DISTANCE),  # required: 3n numbers, n >= 2
    "shaped": (Field("shape", "shape", "special"), _UNIT_DISTANCE),  # required: an OMI_physics_shape index
}
ANIMATED_TYPES: tuple[str, ...] = ("directional", "point", "disc", "torus", "line")  # shaped's shape is not


# --- rules ------------------------------------------------------------------------------------------

def direction_issue(direction: Sequence[float], at: Where) -> Issue | None:
    """A direction that is not normalised (the spec says it should be): used as given, reported."""
    length = math.sqrt(sum(value * value for value in direction))
    if abs(length - 1.0) <= NORMAL_TOLERANCE:
        return None
    return Issue(_text(at), f"gravity direction has length {length:g}, not 1 (the spec wants it normalised); "
                            "read as given, so the strength is scaled by it" if length else
                 "gravity direction is [0, 0, 0]: no gravity along it", "warning")


def points_issue(points: Sequence[float], at: Where) -> Issue | None:
    """Line points must be a multiple of 3 numbers and at least 6 (two points)."""
    if len(points) >= 6 and len(points) % 3 == 0:
        return None
    return Issue(_text(at), f"line gravity points has {len(points)} numbers: it needs a multiple of 3 and at least "
                            "6 (two points); the volume has no effect", "error")


def placement_issue(physics: NodePhysics | None, is_member: bool, at: Where) -> Issue | None:
    """Why a node cannot carry a gravity volume, or None: it must be a base trigger (spec)."""
    if physics is None or physics.trigger is None:
        return Issue(_text(at), "OMI_physics_gravity on a node that is not a trigger body; dropped", "error")
    if physics.motion is not None or physics.collider is not None:
        return Issue(_text(at), "OMI_physics_gravity on a trigger that also has motion or a collider (it must be a "
                                "base trigger); dropped", "error")
    if is_member:
        return Issue(_text(at), "OMI_physics_gravity on a member of a compound trigger (only the compound's own "
                                "node may carry it); dropped", "error")
    return None


def _text(at: Where) -> str:
    return pointer_text(at)


# --- reading ----------------------------------------------------------------------------------------

def read_world(content: object, at: Where, issues: Issues) -> WorldGravity | None:
    """The document-level gravity, or None (reported) when unusable."""
    if not isinstance(content, Mapping):
        report(issues, at, f"{GRAVITY} must be an object, got {describe(content)}; ignored")
        return None
    values = read_fields(WORLD_FIELDS, content, at, issues)
    if values["gravity"] is None:
        report(issues, join(at, "gravity"), "world gravity has no `gravity` (required); ignored")
        return None
    _add(issues, direction_issue(values["direction"], join(at, "direction")))
    return WorldGravity(**values, unknown=collect(WORLD_FIELDS, content, at, issues, "world gravity", dialect=DIALECT))


def read_volume(content: object, at: Where, issues: Issues, shapes: Sequence[Shape | None]) -> GravityVolume | None:
    """One node's gravity volume, or None (reported) when unusable; `shapes` resolves a shaped volume's shape."""
    if not isinstance(content, Mapping):
        report(issues, at, f"{GRAVITY} must be an object, got {describe(content)}; dropped")
        return None
    gravity_type = get(content, "type")
    if gravity_type not in model.GRAVITY_TYPES:
        missing = gravity_type is MISSING
        report(issues, join(at, "type"), "gravity has no type (required); dropped" if missing else
               f"gravity type {describe(gravity_type)} is not one of {', '.join(model.GRAVITY_TYPES)}; dropped")
        return None
    values = read_fields(VOLUME_FIELDS, content, at, issues)
    if values["gravity"] is None:
        report(issues, join(at, "gravity"), "gravity volume has no `gravity` (required); dropped")
        return None
    values["priority"] = int_or(get(content, "priority"), 0, join(at, "priority"), issues, what="priority")
    unknown = collect(VOLUME_FIELDS, content, at, issues, "gravity", dialect=DIALECT, known=model.GRAVITY_TYPES)
    details_at = join(at, gravity_type)
    details = get(content, gravity_type)
    if details is MISSING:
        details = {}
        issues_note = Issue(_text(details_at), f"gravity has no `{gravity_type}` sub-object (the schema wants it): "
                                               "all defaults", "warning")
        _add(issues, issues_note)
    elif not isinstance(details, Mapping):
        report(issues, details_at, f"`{gravity_type}` must be an object, got {describe(details)}; all defaults")
        details = {}
    fields = TYPE_FIELDS[gravity_type]
    values.update(read_fields(fields, details, details_at, issues))
    if gravity_type == "directional":
        _add(issues, direction_issue(values["direction"], join(details_at, "direction")))
    if gravity_type == "line":
        values["points"] = _points(get(details, "points"), join(details_at, "points"), issues)
        if points_issue(values["points"], details_at) is not None:
            return None  # named above; a line needs two points, and no writer could write it back
    if gravity_type == "shaped":
        values["shape"] = _shape(get(details, "shape"), join(details_at, "shape"), issues, shapes)
        if values["shape"] is None:
            return None  # named above; without its shape the volume pulls nowhere
    kept = collect(fields, details, details_at, issues, f"{gravity_type} gravity", dialect=DIALECT)
    type_unknown = Unknown({gravity_type: dict(kept)}, DIALECT) if kept else model.NOTHING_UNKNOWN
    return GravityVolume(gravity_type, **values, unknown=unknown, type_unknown=type_unknown)


def _points(value: object, at: Where, issues: Issues) -> tuple[float, ...]:
    if value is MISSING:
        report(issues, at, "line gravity has no points (required); gravity volume dropped")
        return ()
    if not isinstance(value, list) or not all(isinstance(item, int | float) and not isinstance(item, bool)
                                              and math.isfinite(item) for item in value):
        report(issues, at, f"line gravity points must be an array of finite numbers, got {describe(value)}; "
                           "gravity volume dropped")
        return ()
    points = tuple(float(item) for item in value)
    _add(issues, points_issue(points, at))
    return points


def _shape(value: object, at: Where, issues: Issues, shapes: Sequence[Shape | None]) -> Shape | None:
    if value is MISSING or value == -1:
        report(issues, at, "shaped gravity has no shape (required); gravity volume dropped")
        return None
    index = int_or(value, None, at, issues, minimum=0, maximum=len(shapes) - 1, what="shaped gravity shape")
    if index is None:
        return None
    if shapes[index] is None:
        report(issues, at, f"shaped gravity shape {index} was dropped; gravity volume dropped")
    return shapes[index]


def _add(issues: Issues, found: Issue | None) -> None:
    if found is not None and issues is not None:
        issues.append(found)


def read_gravity(gltf: Mapping[str, Any], doc: PhysicsDocument, shapes: Sequence[Shape | None]) -> None:
    """Put the document's world gravity and its nodes' gravity volumes into `doc`, whose bodies are read.

    A volume on a node that is not a base trigger is dropped (reported); `shapes` is the document's
    OMI_physics_shape array as read (for shaped gravity)."""
    extensions = get(gltf, "extensions")
    content = get(extensions, GRAVITY)
    if content is not MISSING:
        doc.gravity = read_world(content, WORLD_AT, doc.issues)
    nodes = get(gltf, "nodes")
    if not isinstance(nodes, list):
        return
    members = {member for physics in doc.nodes.values() if physics.trigger is not None
               for member in physics.trigger.nodes}
    for index, node in enumerate(nodes):
        raw = get(get(node, "extensions"), GRAVITY)
        if raw is MISSING:
            continue
        at = join(ROOT, "nodes", index, "extensions", GRAVITY)
        volume = read_volume(raw, at, doc.issues, shapes)
        if volume is None:
            continue
        physics = doc.nodes.get(index)
        misplaced = placement_issue(physics, index in members, at)
        if misplaced is not None or physics is None:
            _add(doc.issues, misplaced)
            continue
        doc.nodes[index] = replace(physics, gravity=volume)
    if (doc.gravity is not None or any(p.gravity for p in doc.nodes.values())) and GRAVITY not in \
            (get(gltf, "extensionsUsed") if isinstance(get(gltf, "extensionsUsed"), list) else []):
        doc.issues.append(Issue("/extensionsUsed", f"{GRAVITY} is used but not listed in extensionsUsed"))


# --- writing ----------------------------------------------------------------------------------------

def world_json(world: WorldGravity) -> dict[str, Any]:
    """The document-level object; `gravity` is always written (required)."""
    out = write_fields(WORLD_FIELDS, world, {})
    out.setdefault("gravity", 0.0)  # a non-finite model value: the schema needs a number
    return write_unknown(WORLD_FIELDS, world, out, DIALECT)


def volume_json(volume: GravityVolume, ref: Callable[[str, dict[str, Any]], Any],
                shape_ref: Callable[[Shape], tuple[bool, Any]], at: Where = "",
                issues: Issues = None) -> dict[str, Any] | None:
    """The node-level object, or None (reported) when the schema could not take it (a line without two points,
    a shaped volume without a usable shape). The per-type sub-object is always written (the schema requires
    it), stating its first default when all are defaults (Blender's exporter drops `{}`). `shape_ref(shape)`
    gives (usable, index) for a shaped volume's shape."""
    gravity_type = volume.type if volume.type in model.GRAVITY_TYPES else "directional"
    details_at = join(at, gravity_type)
    out: dict[str, Any] = {"type": gravity_type}
    out = write_fields(VOLUME_FIELDS, volume, out)
    out.setdefault("gravity", 0.0)  # a non-finite model value: the schema needs a number
    if volume.priority:
        out["priority"] = int(volume.priority)
    details = write_fields(TYPE_FIELDS[gravity_type], volume, {})
    if gravity_type == "line":
        if points_issue(volume.points, details_at) is not None:
            report(issues, join(details_at, "points"), f"line gravity needs at least two points (a multiple of 3 "
                   f"numbers, at least 6), has {len(volume.points)} numbers; gravity volume not written")
            return None
        details["points"] = [float(value) for value in volume.points]
    if gravity_type == "shaped":
        usable, index = shape_ref(volume.shape) if volume.shape is not None else (False, None)
        if not usable:
            report(issues, join(details_at, "shape"), "shaped gravity has no usable shape; gravity volume not "
                   "written")
            return None
        details["shape"] = index
    kept = volume.type_unknown.fresh().get(gravity_type) if volume.type_unknown.dialect == DIALECT else None
    for key, value in (kept or {}).items():
        details.setdefault(key, value)
    if not details:
        first = TYPE_FIELDS[gravity_type][0]
        details[first.key] = list(first.default) if first.kind == "vector" else float(first.default)
    out[gravity_type] = details
    return write_unknown(VOLUME_FIELDS, volume, out, DIALECT)


def node_json(node: NodePhysics, ref: Callable[[str, dict[str, Any]], Any],
              shape_ref: Callable[[Shape], tuple[bool, Any]], at: Where = "", issues: Issues = None) -> Any:
    """A node's OMI_physics_gravity object, or MISSING: none, or (reported) not on a base trigger."""
    if node.gravity is None:
        return MISSING
    gravity_at = join(at, "extensions", GRAVITY)
    misplaced = placement_issue(node, False, gravity_at)
    if misplaced is not None:
        report(issues, misplaced.pointer, misplaced.message.replace("dropped", "not written"))
        return MISSING
    written = volume_json(node.gravity, ref, shape_ref, gravity_at, issues)
    return MISSING if written is None else written


def khr_losses(node: NodePhysics, at: Where) -> list[Issue]:
    """What a KHR writer drops of a node's gravity (KHR has no gravity)."""
    if node.gravity is None:
        return []
    return [Issue(_text(join(at, "extensions", GRAVITY)), f"KHR cannot hold {node.gravity.type} gravity volumes "
                  f"(gravity {node.gravity.gravity:g}): dropped, the trigger stays a plain trigger", "warning",
                  "khr_cannot_hold")]


def khr_world_loss(doc: PhysicsDocument) -> list[Issue]:
    if doc.gravity is None:
        return []
    return [Issue(f"/extensions/{GRAVITY}", f"KHR cannot hold the world gravity ({doc.gravity.gravity:g} along "
                  f"{list(doc.gravity.direction)}): dropped; engines use their own default", "warning",
                  "khr_cannot_hold")]


def write_world(doc: PhysicsDocument, out: dict[str, Any], dialect: str, issues: Issues = None) -> tuple[str, ...]:
    """Write the document's world gravity into `out` (OMI), or name it as lost (KHR); the extensions written."""
    if doc.gravity is None:
        return ()
    if dialect != DIALECT:
        if issues is not None:
            issues.extend(khr_world_loss(doc))
        return ()
    extensions = out.get("extensions")
    if not isinstance(extensions, dict):
        extensions = out["extensions"] = {}
    extensions[GRAVITY] = world_json(doc.gravity)
    return (GRAVITY,)
