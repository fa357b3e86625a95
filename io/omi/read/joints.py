"""Reading joints: the node-level joint of either dialect, resolved once every body is known.

`JointReading` is the part of the document reader (`reader._Reader`) that reads a joint node's settings
reference and connected node and checks the placement rules (`rules.joint_node`, the NOTES joint entries).
The state it shares with the rest of the reader is declared on it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .. import model
from ..checks import rules
from ..json_types import MISSING, ROOT, Where, bool_or, get, index_or_none, join, obj_or_none
from ..model import Issue, Joint, JointSettings, NodePhysics
from .items import ItemReader
from .legacy import NodeState

JOINT = model.JOINT_EXTENSION


class JointReading:
    """Joints, as methods of the document reader."""

    issues: list[Issue]
    nodes: dict[int, NodeState]
    nodes_json: list[Any]
    hierarchy: rules.Hierarchy
    joint_settings: list[JointSettings | None]
    joint_what: str
    joint_placement_rules: bool
    items: ItemReader

    def revision(self, name: str, at: Where) -> None:
        raise NotImplementedError

    def node(self, index: int) -> NodeState:
        raise NotImplementedError

    def resolve(self, value: object, items: Any, at: Where, what: str) -> Any:
        raise NotImplementedError

    def in_body(self, index: int) -> bool:
        """Whether the node is part of a body: itself or an ancestor has a motion or a collider."""
        for candidate in self.hierarchy.ancestors_or_self(index):
            built = self.nodes.get(candidate)
            if built is not None and (built.motion is not None or built.collider is not None):
                return True
        return False

    def joint_json(self, index: int) -> tuple[object, Where]:
        """A joint node's joint object and its pointer."""
        return get(get(self.nodes_json[index], "extensions"), JOINT), join(ROOT, "nodes", index, "extensions", JOINT)

    def read_joint(self, index: int, raw: object, at: Where) -> None:
        node_json = self.nodes_json[index]
        joint = obj_or_none(raw, at, self.issues, self.joint_what)
        if joint is None:
            return
        self.revision(rules.REV_JOINT, at)
        settings_value, connected_value = get(joint, "joint"), get(joint, "connectedNode")
        if settings_value is MISSING or connected_value is MISSING:
            missing = " and ".join(key for key, value in (("joint", settings_value), ("connectedNode", connected_value))
                                   if value is MISSING)
            self.issues.append(rules.note(at, "joint_without", missing=missing))
            return
        settings = self.resolve(settings_value, self.joint_settings, join(at, "joint"), "joint")
        if settings is None and settings_value == -1:
            self.issues.append(rules.note(join(at, "joint"), "joint_minus_one"))
        connected = index_or_none(connected_value, len(self.nodes_json), join(at, "connectedNode"), self.issues,
                                  "connectedNode")
        if connected is None and connected_value == -1:
            self.issues.append(rules.note(join(at, "connectedNode"), "connected_minus_one"))
        if connected == index:
            self.issues.append(rules.note(join(at, "connectedNode"), "joint_to_itself"))
            connected = None
        if settings is None or connected is None:
            return
        enable_collision = bool_or(get(joint, "enableCollision"), False, join(at, "enableCollision"), self.issues,
                                   "enableCollision")
        built = self.nodes.get(index)
        has_own_body = built is not None and not NodePhysics(built.motion, built.collider, built.trigger).is_empty
        has_mesh = isinstance(node_json, Mapping) and "mesh" in node_json
        in_body, outside_note = self.in_body(index), "connected_node_outside_body"
        if not self.joint_placement_rules:  # KHR: a frame outside every body is the fixed reference frame
            has_own_body = has_mesh = False
            in_body, outside_note = True, "khr_connected_to_fixed_frame"
        self.issues.extend(rules.joint_node(at, in_body, has_own_body, has_mesh))
        if not self.in_body(connected):
            self.issues.append(rules.note(join(at, "connectedNode"), outside_note, node=connected))
        kept = self.items.kept(self.items.dialect.joint_fields, joint, at, "joint node")
        self.node(index).joint = Joint(settings, connected, enable_collision, kept)
