"""Files from writers known to mean something else than the spec's reading of what they write.

A file names its writer in `asset.generator`. Where a known writer's JSON means one thing and the spec's
reading of the same JSON another, the file is read as its writer meant: its JSON is put in the spec's form
first (a copy; the file is not changed) and each assumption is said as a note where it applies.

- `omi_physics` (the PyPI engine, https://pypi.org/project/omi-physics/, measured with 0.4.0, whose
  `omi_gltf` module writes the extension blocks): a capsule is `height` (the mid-height, between the
  hemisphere centres) and one `radius`, which the spec's reading (ERRATA) takes for the old full-height form;
  a body's joint is `OMI_physics_body.joint` ({joint, connectedNode, enableCollision}) on the body's own
  node, where the spec has a node-level `OMI_physics_joint`; a limit writes both `linearAxes` and
  `angularAxes`, one of them empty.

A document in the layout an engine target of this add-on writes (its registry `Target.recognise`) is read
as that target meant it too (`Target.as_written`): the `godot` target's capsules are Godot's.

No bpy here.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from typing import Any

from ..dialects import registry
from ..dialects.omi import BODY_EXTENSION, JOINT_EXTENSION, SHAPE_EXTENSION
from ..json_types import get, pointer
from ..model import Issue

KIND = "known_writer"  # Issue.kind of the notes made here (KIND.capsule, KIND.limits, KIND.joint)
Adapt = Callable[[dict[str, Any], str], list[Issue]]


def generator(gltf: Mapping[str, Any]) -> str:
    value = get(get(gltf, "asset"), "generator")
    return value if isinstance(value, str) else ""


def _omi_physics(document: dict[str, Any], writer: str) -> list[Issue]:
    """Put an omi_physics file in the spec's form (in place, on a copy); the assumptions made."""
    said: list[Issue] = []

    def assume(at: str, key: str, message: str) -> None:
        said.append(Issue(at, f"asset.generator is {writer!r}: {message}", "info", f"{KIND}.{key}"))

    shapes = get(get(get(document, "extensions"), SHAPE_EXTENSION), "shapes")
    for index, shape in enumerate(shapes if isinstance(shapes, list) else []):
        capsule = get(shape, "capsule")
        if isinstance(capsule, dict) and "radius" in capsule and not {"radiusTop", "radiusBottom"} & set(capsule):
            radius = capsule.pop("radius")
            capsule["radiusTop"] = capsule["radiusBottom"] = radius
            assume(pointer("extensions", SHAPE_EXTENSION, "shapes", index, "capsule"), "capsule",
                   "its capsule `height` is the mid-height and `radius` both radii (read so, not as the old "
                   "full-height capsule)")
    joints = get(get(get(document, "extensions"), JOINT_EXTENSION), "physicsJoints")
    for index, settings in enumerate(joints if isinstance(joints, list) else []):
        limits = get(settings, "limits")
        for position, limit in enumerate(limits if isinstance(limits, list) else []):
            if not isinstance(limit, dict):
                continue
            for key in ("linearAxes", "angularAxes"):
                if limit.get(key) == [] and len(limit) > 1:
                    del limit[key]
                    assume(pointer("extensions", JOINT_EXTENSION, "physicsJoints", index, "limits", position,
                                   key), "limits", "an empty `linearAxes` or `angularAxes` in a limit means none "
                                                   "of that kind (read as absent)")
    nodes = document.get("nodes")
    for index, node in enumerate(nodes if isinstance(nodes, list) else []):
        extensions = get(node, "extensions")
        body = get(extensions, BODY_EXTENSION)
        attach = get(body, "joint")
        if not isinstance(attach, dict) or JOINT_EXTENSION in extensions:
            continue
        del body["joint"]
        extensions[JOINT_EXTENSION] = {key: value for key, value in attach.items()
                                             if key not in ("joint", "connectedNode") or value != -1}
        assume(pointer("nodes", index, "extensions", BODY_EXTENSION, "joint"), "joint",
               "a body's `joint` is its node's joint (OMI_physics_joint on the body's own node, the joint frame "
               "being the body's)")
    if any(found.kind == f"{KIND}.joint" for found in said):
        used = document.get("extensionsUsed")
        if isinstance(used, list) and JOINT_EXTENSION not in used:
            used.append(JOINT_EXTENSION)
    return said


WRITERS: tuple[tuple[str, Adapt], ...] = (("omi_physics", _omi_physics),)


def as_written(gltf: Mapping[str, Any]) -> tuple[Mapping[str, Any], list[Issue]]:
    """The document in the spec's form as its writer meant it, and the assumptions made (notes); the document
    itself and no assumptions when its writer (or target layout) is none of the known ones."""
    name = generator(gltf)
    for prefix, adapt in WRITERS:
        if name == prefix or name.startswith(f"{prefix} "):
            document = copy.deepcopy(dict(gltf))
            return document, adapt(document, name)
    for target in registry.targets():  # an engine target's layout, written by this add-on on purpose
        if target.as_written is not None and target.recognise is not None and target.recognise(gltf):
            document = copy.deepcopy(dict(gltf))
            return document, target.as_written(document)
    return gltf, []


def explained(issues: list[Issue]) -> set[str]:
    """The pointers whose tolerated-form warnings (the schema's, the placement rule's) a known writer's
    reading explains: each note's place, a limit's (for its axis lists), and where a body's joint was read
    (the node's OMI_physics_joint, which the file does not have)."""
    places: set[str] = set()
    for note in issues:
        if not note.kind.startswith(KIND):
            continue
        places.add(note.pointer)
        if note.kind == f"{KIND}.limits":
            places.add(note.pointer.rsplit("/", 1)[0])
        if note.kind == f"{KIND}.joint":
            places.add(note.pointer.replace(f"{BODY_EXTENSION}/joint", JOINT_EXTENSION))
    return places


def without_explained(found: list[Issue], assumed: list[Issue]) -> list[Issue]:
    """The findings less the warnings that the writer's own reading explains (its notes say it instead)."""
    places = explained(assumed)
    return [item for item in found if item.severity != "warning" or item.pointer not in places]
