"""Reading joints: the node-level joint of either dialect, resolved once every body is known.

Functions over the reading state (`read/state.py`): a joint node's settings reference and connected node,
and the placement rules (`rulebook.joint_node`, the NOTES joint entries), which the dialect's `Spelling` turns
off where its joints may sit anywhere (KHR).
"""

from __future__ import annotations

from collections.abc import Mapping

from ..checks import rulebook
from ..json_types import MISSING, ROOT, Where, bool_or, get, index_or_none, join, obj_or_none
from ..model import Joint, NodePhysics
from .state import ReadState, node_state, resolve, revision


def in_body(state: ReadState, index: int) -> bool:
    """Whether the node is part of a body: itself or an ancestor has a motion or a collider."""
    for candidate in state.hierarchy.ancestors_or_self(index):
        built = state.nodes.get(candidate)
        if built is not None and (built.motion is not None or built.collider is not None):
            return True
    return False


def joint_json(state: ReadState, index: int) -> tuple[object, Where]:
    """A joint node's joint object and its pointer (the OMI structure: an extension of its own)."""
    joint = state.dialect.joint_extension
    return get(get(state.nodes_json[index], "extensions"), joint), join(ROOT, "nodes", index, "extensions", joint)


def read_joint(state: ReadState, index: int, raw: object, at: Where) -> None:
    node_json = state.nodes_json[index]
    joint = obj_or_none(raw, at, state.issues, (state.spelling.joint_what or state.dialect.joint_extension))
    if joint is None:
        return
    revision(state, state.spelling.joint_revision or state.dialect.joint_extension, at)
    settings_value, connected_value = get(joint, "joint"), get(joint, "connectedNode")
    if settings_value is MISSING or connected_value is MISSING:
        missing = " and ".join(key for key, value in (("joint", settings_value), ("connectedNode", connected_value))
                               if value is MISSING)
        state.issues.append(rulebook.note(at, "joint_without", missing=missing))
        return
    settings = resolve(state, settings_value, state.joint_settings, join(at, "joint"), "joint")
    if settings is None and settings_value == -1:
        state.issues.append(rulebook.note(join(at, "joint"), "joint_minus_one"))
    connected = index_or_none(connected_value, len(state.nodes_json), join(at, "connectedNode"), state.issues,
                              "connectedNode")
    if connected is None and connected_value == -1:
        state.issues.append(rulebook.note(join(at, "connectedNode"), "connected_minus_one"))
    if connected == index:
        state.issues.append(rulebook.note(join(at, "connectedNode"), "joint_to_itself"))
        connected = None
    if settings is None or connected is None:
        return
    enable_collision = bool_or(get(joint, "enableCollision"), False, join(at, "enableCollision"), state.issues,
                               "enableCollision")
    built = state.nodes.get(index)
    has_own_body = built is not None and not NodePhysics(built.motion, built.collider, built.trigger).is_empty
    has_mesh = isinstance(node_json, Mapping) and "mesh" in node_json
    inside_body, outside_note = in_body(state, index), "connected_node_outside_body"
    if not state.spelling.joint_placement_rules:  # KHR: a frame outside every body is the fixed reference frame
        has_own_body = has_mesh = False
        inside_body, outside_note = True, "khr_connected_to_fixed_frame"
    state.issues.extend(rulebook.joint_node(at, inside_body, has_own_body, has_mesh))
    if not in_body(state, connected):
        state.issues.append(rulebook.note(join(at, "connectedNode"), outside_note, node=connected))
    kept = state.items.kept(state.items.dialect.joint_fields, joint, at, "joint node")
    node_state(state, index).joint = Joint(settings, connected, enable_collision, kept)
