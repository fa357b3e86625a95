"""What an export or Validate says about physics the file cannot carry as the artist set it up: another
add-on's settings not adopted yet, and Blender's rigid-body damping (in neither OMI nor KHR). One line per kind
of finding, naming the first few objects, however big the scene."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable

import bpy

from ...omi import model
from ...omi.named import first_few, plural
from ..tables import markers
from . import peer_props

ADOPT_HINT = "Adopt Physics Settings (sidebar > Physics) turns them into this add-on's settings"


def unadopted(objects: Iterable[bpy.types.Object],
              holds_no_peers: Callable[[bpy.types.Object], bool] | None = None) -> list[peer_props.PeerSettings]:
    """Objects with another add-on's physics settings that Adopt has not turned into ours (`peer_props.found`)."""
    return [found for found in peer_props.found(objects, holds_no_peers) if not markers.is_adopted(found.obj)]


_generation = 0
_counted: dict[tuple[str, int, int], Counter[str]] = {}


def invalidate(*_args: object) -> None:
    """Count again at the next `waiting` (handlers pass the scene and depsgraph, unused)."""
    global _generation  # noqa: PLW0603  # a counter bumped by Adopt, file load, undo and redo: no Blender data held
    _generation += 1
    _counted.clear()


def waiting(scene: bpy.types.Scene) -> Counter[str]:
    """How many objects of the scene carry each other add-on's settings, not adopted yet. Counting reads every
    object's stored properties, so the count is kept until objects are added or removed (append) or
    `invalidate` runs."""
    key = (scene.name_full, len(bpy.data.objects), _generation)
    counted = _counted.get(key)
    if counted is None:
        _counted.clear()
        counted = _counted[key] = Counter(found.peer for found in unadopted(scene.objects))
    return counted


def damped(objects: Iterable[bpy.types.Object]) -> list[tuple[bpy.types.Object, float, float]]:
    """Dynamic bodies whose Blender rigid body damps them, with the damping (translation, rotation): Blender
    plays it, no glTF holds it."""
    result = []
    for obj in objects:
        rigid = obj.rigid_body
        if rigid is None or rigid.type != 'ACTIVE' or rigid.kinematic or not rigid.enabled:
            continue
        linear, angular = rigid.linear_damping, rigid.angular_damping
        if linear != 0.0 or angular != 0.0:
            result.append((obj, linear, angular))
    return result


def findings(objects: Iterable[bpy.types.Object],
             holds_no_peers: Callable[[bpy.types.Object], bool] | None = None) -> list[model.Issue]:
    """The export's lines (warnings: the file differs from what the artist set up or played); `holds_no_peers`
    as for `peer_props.found`."""
    objects = list(objects)
    issues = []
    by_peer: dict[str, list[str]] = {}
    for found in unadopted(objects, holds_no_peers):
        by_peer.setdefault(found.peer, []).append(found.obj.name)
    for peer, names in by_peer.items():
        issues.append(model.Issue("", f"{plural(len(names), 'object')} carry {peer} physics settings that were "
                                      f"not adopted, so the file does not hold them: {first_few(names)}; "
                                      f"{ADOPT_HINT}"))
    bodies = [obj.name for obj, _linear, _angular in damped(objects)]
    if bodies:
        issues.append(model.Issue("", f"Blender damping is not in glTF, engines use their own: "
                                      f"{plural(len(bodies), 'body')} damped in Blender ({first_few(bodies)})"))
    return issues
