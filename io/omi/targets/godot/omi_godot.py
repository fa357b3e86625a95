"""The `godot_omi` export target's form: the `godot` form, then the joints written the way omi-godot (the OMI
group's Godot 4 add-on, which Godot users install for joints; read at commit e421986) builds them right.

omi-godot picks a Godot joint class from a joint's limits and passes the limit values to Godot's own
parameters, which differ from the spec; each difference is a workaround here, said once in the export:
- a hinge becomes `HingeJoint3D` only when it turns about the joint's Z, a slider `SliderJoint3D` only
  along X (a hinge about X becomes a slider that cannot turn): the joint frame is turned (a cyclic swap of
  its axes, so no axis changes sign) and the limits and drives renamed with it (`_turn`);
- a limit's `stiffness` and `damping` reach Godot's unitless softness/bias and relaxation/damping, and the
  spec's rigid limit (no `stiffness`) arrives as infinity, which makes the pin, hinge and slider blow up:
  their limits are written with the values that give Godot's own defaults, a stiffer pin
  (`_GODOT_DEFAULTS`);
- Godot measures a hinge's angle the other way round and omi-godot copies `min`/`max` and the drive's
  targets, so a hinge's range and its motor's targets are written mirrored (a slider's travel is
  measured as the spec says).
Its generic joint (`Generic6DOFJoint3D`, every other combination) clamps the values itself and is left as
it is. It also reads the vehicle fields by their names from before the spec's 2026 rename (`maxForce`,
`current*Ratio`): those are written by the old names (`legacy_names`, with the animation pointers to them).
The joints then mean the workarounds to any other reader, and the old names are a legacy revision: a target
of its own, not the `godot` target's behaviour.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ...dialects.omi import BODY_EXTENSION, JOINT_EXTENSION
from ...model import Issue
from ..form import Form, FormPart, NewNode
from . import channels, engine_form

NAME = "godot_omi"
LABEL = "Godot 4 + omi-godot"
READER = "omi-godot"
# omi-godot's joint class -> (limit role -> (stiffness, damping) that give Godot's default parameters)
_GODOT_DEFAULTS: dict[str, dict[str, tuple[float, float]]] = {
    # PinJoint3D bias = the three linear stiffnesses / 6, damping = their mean: bias 0.9 and damping 1
    # (Godot's default bias 0.3 lets a swinging pendulum stretch the pin 9 cm; 0.99 with damping 2, what
    # omi-godot makes of a rigid limit, blows up)
    "pin": {"linear": (1.8, 1.0)},
    # HingeJoint3D limit softness = stiffness (default 0.9), relaxation = 1 / damping (default 1)
    "hinge": {"angular": (0.9, 1.0)},
    # SliderJoint3D limit and orthogonal softness = stiffness (default 1), damping = damping (default 1;
    # the angular limit's 0)
    "slider": {"linear": (1.0, 1.0), "angular": (1.0, 0.0), "orthogonal": (1.0, 1.0)},
}
# A cyclic swap of axes: new index = (old + shift) % 3; the frame turns by this quaternion (x, y, z, w).
_TURNS = {1: (-0.5, -0.5, -0.5, 0.5), 2: (0.5, 0.5, 0.5, 0.5)}


@dataclass
class NewFrame:
    """A node to append under `parent` (placed by `translation`, `rotation`, `scale`): it takes node
    `joint_of`'s joint, or is the connected frame of the joint on node `connected_for`."""

    parent: int
    name: str
    rotation: list[float]
    joint_of: int | None = None
    connected_for: int | None = None
    translation: list[float] | None = None
    scale: list[float] | None = None


@dataclass
class JointForm:
    """The node changes the joints need (the settings are rewritten in place) and what was changed."""

    rotations: dict[int, list[float]] = field(default_factory=dict)
    new_frames: list[NewFrame] = field(default_factory=list)
    issues: list[Issue] = field(default_factory=list)


def _fixed(limit: Mapping[str, Any] | None) -> bool:
    return limit is not None and limit.get("min") == 0.0 and limit.get("max") == 0.0


def _classify(settings: Mapping[str, Any]) -> tuple[str, int]:
    """omi-godot's class for these limits once turned ('pin', 'hinge', 'slider', 'generic') and the
    joint's working axis (0-2) before the turn."""
    linear: dict[int, Mapping[str, Any]] = {}
    angular: dict[int, Mapping[str, Any]] = {}
    for limit in settings.get("limits") or []:
        if isinstance(limit, Mapping):
            for axis in limit.get("linearAxes") or []:
                linear[axis] = limit
            for axis in limit.get("angularAxes") or []:
                angular[axis] = limit
    drives = [drive for drive in settings.get("drives") or [] if isinstance(drive, Mapping)]
    if all(_fixed(linear.get(axis)) for axis in range(3)):
        if not angular and not drives:
            return "pin", 2
        free = [axis for axis in range(3) if not _fixed(angular.get(axis))]
        if len(free) == 1 and all(drive.get("type") == "angular" and drive.get("axis") == free[0] for drive in drives):
            return "hinge", free[0]
    for axis in range(3):
        others = [other for other in range(3) if other != axis]
        if not drives and all(_fixed(linear.get(other)) and _fixed(angular.get(other)) for other in others) \
                and not (_fixed(linear.get(axis)) and _fixed(angular.get(axis))):
            return "slider", axis
    return "generic", 0


def _role(kind: str, limit: Mapping[str, Any], axis: int) -> str | None:
    """Which of omi-godot's parameters a limit feeds (after the turn), None: one it does not read."""
    linear = bool(limit.get("linearAxes"))
    axes = limit.get("linearAxes") if linear else limit.get("angularAxes")
    if kind == "pin":
        return "linear" if linear else None
    if kind == "hinge":
        return "angular" if not linear and axis in (axes or []) else None
    if axis in (axes or []):
        return "linear" if linear else "angular"
    return "orthogonal"


def _turn(settings: dict[str, Any], shift: int) -> None:
    for limit in settings.get("limits") or []:
        for key in ("linearAxes", "angularAxes"):
            if key in limit:
                limit[key] = sorted((axis + shift) % 3 for axis in limit[key])
    for drive in settings.get("drives") or []:
        if isinstance(drive.get("axis"), int):
            drive["axis"] = (drive["axis"] + shift) % 3


def rewrite_settings(settings: dict[str, Any], found: set[str]) -> tuple[str, int]:
    """One joint settings object into omi-godot's form, in place; (its class, the frame's turn 0-2).
    `found` collects the workarounds used."""
    kind, axis = _classify(settings)
    if kind == "generic":
        return kind, 0
    wanted = 2 if kind in ("hinge", "pin") else 0
    shift = (wanted - axis) % 3
    if shift:
        _turn(settings, shift)
        found.add("turn")
    if kind == "hinge":
        for drive in settings.get("drives") or []:
            for key in ("velocityTarget", "positionTarget"):
                if isinstance(drive.get(key), (int, float)) and drive[key]:
                    drive[key] = -drive[key]
                    found.add("mirror")
    for limit in settings.get("limits") or []:
        role = _role(kind, limit, wanted)
        if role is None:
            continue
        if "stiffness" in limit:
            found.add("springs")
        limit["stiffness"], damping = _GODOT_DEFAULTS[kind][role]
        if damping:
            limit["damping"] = damping
        else:
            limit.pop("damping", None)
        found.add("stiffness")
        if role == "angular" and ("min" in limit or "max" in limit) and not _fixed(limit):
            low, high = limit.get("min", -math.inf), limit.get("max", math.inf)
            limit.pop("min", None)
            limit.pop("max", None)
            if math.isfinite(high):
                limit["min"] = -high
            if math.isfinite(low):
                limit["max"] = -low
            if low != -high:
                found.add("mirror")
    return kind, shift


_MESSAGES = {
    "turn": "hinges and sliders on a turned joint frame (omi-godot makes a hinge only about the joint's Z and a "
            "slider only along its X; the limits and drives are renamed with the frame)",
    "stiffness": "Godot's own softness and damping on pin, hinge and slider limits (omi-godot passes a limit's "
                 "stiffness and damping to Godot's unitless parameters, and a rigid limit as infinity, which "
                 "makes those joints blow up)",
    "unturned": "joints whose frame could not be turned (a node at the scene's root, or with a matrix or an "
                "uneven scale, that holds more than the joint): omi-godot builds its generic joint",
    "springs": "pin, hinge and slider limits with a spring written rigid (omi-godot cannot pass a stiffness in "
               "N/m to those joints)",
    "mirror": "hinge ranges and motor targets mirrored (Godot measures a hinge's angle the other way round; "
              "omi-godot copies min, max and the targets)",
}


def _name(nodes: list[dict[str, Any]], index: int) -> str:
    name = nodes[index].get("name")
    return str(name) if name else f"node {index}"


def _quat_mul(a: list[float], b: tuple[float, ...]) -> list[float]:
    ax, ay, az, aw = a
    bx, by, bz, bw = b
    return [aw * bx + ax * bw + ay * bz - az * by, aw * by - ax * bz + ay * bw + az * bx,
            aw * bz + ax * by - ay * bx + az * bw, aw * bw - ax * bx - ay * by - az * bz]


def _plain(node: Mapping[str, Any], index: int, animated: set[int], only: str | None) -> bool:
    """A node that only places a frame (turning it moves nothing else): no mesh, children, matrix or uneven
    scale, not animated, no extension but `only`."""
    scale = node.get("scale") or [1.0, 1.0, 1.0]
    extensions = set(node.get("extensions") or {})
    return (index not in animated and not node.get("children") and node.get("mesh") is None
            and not node.get("matrix") and max(scale) - min(scale) < 1e-9
            and extensions <= ({only} if only else set()) and not any(node.get(key) is not None
                                                                      for key in ("camera", "skin")))


def joint_form(document: Mapping[str, Any]) -> JointForm:
    """Rewrite the document's joint settings in place into omi-godot's form; the frames to turn."""
    form = JointForm()
    nodes: list[dict[str, Any]] = list(document.get("nodes") or [])
    settings_list = ((document.get("extensions") or {}).get(JOINT_EXTENSION) or {}).get("physicsJoints") or []
    animated = {(channel.get("target") or {}).get("node") for animation in document.get("animations") or []
                for channel in animation.get("channels") or [] if isinstance(channel, Mapping)}
    animated_nodes = {index for index in animated if isinstance(index, int)}
    plans: dict[int, tuple[int, set[str]]] = {}
    for index, settings in enumerate(settings_list):
        if isinstance(settings, dict):
            used: set[str] = set()
            plans[index] = (rewrite_settings(settings, used)[1], used)
    joints = [(index, node["extensions"][JOINT_EXTENSION]) for index, node in enumerate(nodes)
              if isinstance((node.get("extensions") or {}).get(JOINT_EXTENSION), dict)]
    connected_users: dict[int, int] = {}
    for _, joint in joints:
        other = joint.get("connectedNode")
        if isinstance(other, int):
            connected_users[other] = connected_users.get(other, 0) + 1
    names: dict[str, list[str]] = {}
    for index, joint in joints:
        settings_index = joint.get("joint")
        if not isinstance(settings_index, int) or settings_index not in plans:
            continue
        shift, used = plans[settings_index]
        for workaround in used:
            names.setdefault(workaround, []).append(_name(nodes, index))
        if shift and not _turn_frames(form, nodes, index, joint.get("connectedNode"), turn=_TURNS[shift],
                                      animated=animated_nodes, connected_users=connected_users):
            names.setdefault("unturned", []).append(_name(nodes, index))
    form.issues = [Issue("", f"{LABEL}: {_MESSAGES[kind]}: {', '.join(repr(name) for name in names[kind])}",
                         "warning" if kind == "unturned" else "info", kind="godot")
                   for kind in _MESSAGES if kind in names]
    return form


def _turn_frames(form: JointForm, nodes: list[dict[str, Any]], index: int, other: Any, *, turn: tuple[float, ...],
                 animated: set[int], connected_users: Mapping[int, int]) -> bool:
    """Turn the joint's frame and its connected frame: in place where the node only places the frame; else
    the joint goes to a new node beside it (under a body: a child, since omi-godot finds the joint's body
    only from a joint directly below it) and the connected frame to a new child. False: not turned."""
    node = nodes[index]
    rotation = _quat_mul(list(node.get("rotation") or [0.0, 0.0, 0.0, 1.0]), turn)
    parents = {child: parent for parent, holder in enumerate(nodes) for child in holder.get("children") or []}
    scale = list(node.get("scale") or [1.0, 1.0, 1.0])
    if _plain(node, index, animated, JOINT_EXTENSION):
        form.rotations[index] = rotation
    elif "motion" in ((node.get("extensions") or {}).get(BODY_EXTENSION) or {}):
        form.new_frames.append(NewFrame(index, f"{_name(nodes, index)}.omi-godot", list(turn), joint_of=index))
    elif index in parents and not node.get("matrix") and max(scale) - min(scale) < 1e-9:
        form.new_frames.append(NewFrame(parents[index], f"{_name(nodes, index)}.omi-godot", rotation,
                                        joint_of=index, translation=list(node.get("translation") or [0.0] * 3),
                                        scale=scale))
    else:
        return False
    if not isinstance(other, int) or not 0 <= other < len(nodes):
        return True
    if connected_users.get(other) == 1 and _plain(nodes[other], other, animated, None):
        form.rotations[other] = _quat_mul(list(nodes[other].get("rotation") or [0.0, 0.0, 0.0, 1.0]), turn)
    else:
        form.new_frames.append(NewFrame(other, f"{_name(nodes, other)}.omi-godot", list(turn), connected_for=index))
    return True


def joint_step(document: dict[str, Any]) -> Form:
    """The joints' step of the target's form (settings rewritten in place): frames turned in place, or new
    frame nodes (a moved joint goes with its frame, a new connected frame becomes its joint's connected node)."""
    found = joint_form(document)
    nodes: list[dict[str, Any]] = document.get("nodes") or []
    changes = {index: {"rotation": rotation} for index, rotation in found.rotations.items()}
    new = [NewNode(frame.parent, frame.name, frame.rotation, frame.translation, frame.scale,
                   takes_extension=(frame.joint_of, JOINT_EXTENSION) if frame.joint_of is not None else None,
                   referenced_by=(nodes[frame.connected_for]["extensions"][JOINT_EXTENSION], "connectedNode")
                   if frame.connected_for is not None else None)
           for frame in found.new_frames]
    return Form(changes, new, found.issues)


Renames = tuple[tuple[str, str, dict[str, str]], ...]  # (extension, document array, {legacy: current key})


def legacy_names(document: Mapping[str, Any], renames: Renames) -> list[Issue]:
    """Write the renamed vehicle keys by their legacy names, in place (document-level arrays and the
    animation pointers into them); one message naming the keys."""
    extensions = document.get("extensions") or {}
    written: list[str] = []
    for extension, array, table in renames:
        for entry in (extensions.get(extension) or {}).get(array) or []:
            if not isinstance(entry, dict):
                continue
            for legacy, current in table.items():
                if current in entry:
                    entry[legacy] = entry.pop(current)
                    if f"{current} -> {legacy}" not in written:
                        written.append(f"{current} -> {legacy}")
    for animation in document.get("animations") or []:
        for channel in animation.get("channels") or []:
            holder = ((channel.get("target") or {}).get("extensions") or {}).get("KHR_animation_pointer")
            if isinstance(holder, dict) and isinstance(holder.get("pointer"), str):
                holder["pointer"] = _legacy_pointer(holder["pointer"], renames)
    if not written:
        return []
    return [Issue("", f"{LABEL}: vehicle fields by their names from before the 2026 rename, which {READER} reads: "
                      f"{', '.join(written)}", "info", kind="godot")]


def _legacy_pointer(pointer: str, renames: Renames) -> str:
    for extension, array, table in renames:
        prefix = f"/extensions/{extension}/{array}/"
        if pointer.startswith(prefix):
            head, _, key = pointer.rpartition("/")
            legacy = next((old for old, new in table.items() if new == key), None)
            return f"{head}/{legacy}" if legacy else pointer
    return pointer


def steps(renames: Callable[[], Renames]) -> tuple[FormPart, ...]:
    """The target's form: the `godot` form for a reader with omi-godot, the joints in omi-godot's form, then
    the vehicle keys omi-godot reads by their legacy names (`renames()`: the registered units', when run)."""
    return (channels.LINEAR, channels.ROUND_CHANNELS, lambda document: engine_form.form(document, omi_godot=True),
            joint_step,
            lambda document: Form(issues=legacy_names(document, renames())))
