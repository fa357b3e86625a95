"""Reading triggers: a node's trigger of either dialect, and the compound triggers resolved once every node is read.

`TriggerReading` is the part of the document reader (`reader._Reader`) that reads a trigger (one shape, or
explicit `nodes` members, or `trigger: {}` grouping the descendants' shape triggers) and resolves the compound
ones against the node tree. The state it shares with the rest of the reader is declared on it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..checks import rules
from ..json_types import MISSING, ROOT, Where, get, int_or, join, list_or_none, obj_or_none, report
from ..model import CollisionFilter, Issue, Shape, Trigger
from .items import ItemReader
from .legacy import NodeState


class TriggerReading:
    """Triggers, as methods of the document reader."""

    issues: list[Issue]
    items: ItemReader
    nodes: dict[int, NodeState]
    nodes_json: list[Any]
    hierarchy: rules.Hierarchy
    filters: list[CollisionFilter | None]
    body_extension: str

    def node(self, index: int) -> NodeState:
        raise NotImplementedError

    def once(self, key: str, found: Issue) -> None:
        raise NotImplementedError

    def resolve(self, value: object, items: Any, at: Where, what: str) -> Any:
        raise NotImplementedError

    def shape_of(self, container: Mapping[str, Any], at: Where) -> tuple[Shape | None, object]:
        raise NotImplementedError

    def read_trigger(self, index: int, raw: object, at: Where) -> None:
        trigger = obj_or_none(raw, at, self.issues, "trigger")
        if trigger is None:
            return
        node = self.node(index)
        node.trigger_unknown = self.items.kept(self.items.dialect.trigger_fields, trigger, at, "trigger")
        members_value = get(trigger, "nodes")
        shape, shape_value = self.shape_of(trigger, at)
        collision_filter = self.resolve(get(trigger, "collisionFilter"), self.filters, join(at, "collisionFilter"),
                                        "collisionFilter")
        if shape is not None:
            if members_value is not MISSING:
                report(self.issues, join(at, "nodes"), "trigger has both a shape and nodes; nodes dropped")
            node.trigger = Trigger(shape, (), collision_filter, node.trigger_unknown)
            return
        if shape_value is not MISSING and shape_value != -1:
            return  # its shape was unusable (reported): no trigger
        members = list_or_none(members_value, join(at, "nodes"), self.issues, "trigger nodes")
        if members_value is not MISSING and members is None:
            return  # `nodes` was not an array (reported): no trigger
        if collision_filter is not None:
            report(self.issues, join(at, "collisionFilter"), "a compound trigger cannot carry a collisionFilter "
                   "(schema); dropped")
        if not members:
            if members is not None:
                report(self.issues, join(at, "nodes"), "trigger nodes is empty; read as if absent", "warning")
            node.implicit_compound = True
            return
        node.compound_members = []
        for position, member in enumerate(members):
            member_at = join(at, "nodes", position)
            member_index = int_or(member, None, member_at, self.issues, minimum=0, what="trigger nodes item")
            if member_index is None:
                continue
            if any(kept == member_index for _ptr, kept in node.compound_members):
                report(self.issues, member_at, f"trigger nodes item {member_index} is repeated; kept once", "warning")
                continue
            node.compound_members.append((member_at, member_index))

    # --- compound triggers -------------------------------------------------------------------------

    def has_shape_trigger(self, index: int) -> bool:
        built = self.nodes.get(index)
        return built is not None and built.trigger is not None and built.trigger.shape is not None

    def resolve_compound_triggers(self) -> None:
        for index in sorted(self.nodes):
            node = self.nodes[index]
            if node.compound_members is None and not node.implicit_compound and not node.legacy_trigger_body:
                continue  # most nodes
            body_at = join(ROOT, "nodes", index, "extensions", self.body_extension)
            if node.compound_members is not None:
                kept = []
                for at, member in node.compound_members:
                    in_range = member < len(self.nodes_json)
                    if not in_range:
                        report(self.issues, at, f"compound trigger member {member} is not a node; dropped")
                        continue
                    found = rules.compound_member(at, member, index, self.hierarchy.is_descendant(member, index),
                                                  self.has_shape_trigger(member))
                    if found is not None:
                        self.issues.append(found)
                    else:
                        kept.append(member)
                if kept:
                    node.trigger = Trigger(None, tuple(kept), unknown=node.trigger_unknown)
                else:
                    self.issues.append(rules.note(join(body_at, "trigger"), "trigger_without_members"))
            elif node.implicit_compound:
                self.once("empty-trigger", rules.note(join(body_at, "trigger"), "empty_trigger"))
                self.group_descendant_triggers(index, join(body_at, "trigger"))
            elif node.legacy_trigger_body:
                if node.trigger is not None:
                    continue  # the trigger body carries its own shape: its children stand alone
                self.group_descendant_triggers(index, join(body_at, "type"))

    def group_descendant_triggers(self, index: int, at: Where) -> None:
        """A compound trigger made of the descendant shape triggers that belong to this node."""
        members = [member for member in self.own_descendants(index) if self.has_shape_trigger(member)]
        if members:
            self.nodes[index].trigger = Trigger(None, tuple(members), unknown=self.nodes[index].trigger_unknown)
        else:
            self.issues.append(rules.note(at, "trigger_without_members"))

    def own_descendants(self, index: int) -> list[int]:
        """Descendants, not entering independent bodies (motion) or other compound triggers."""
        found = []
        stack = list(reversed(self.hierarchy.children.get(index, [])))
        while stack:
            current = stack.pop()
            built = self.nodes.get(current)
            if built is not None and (built.motion is not None or built.compound_members is not None
                                      or built.implicit_compound or built.legacy_trigger_body):
                continue
            found.append(current)
            stack.extend(reversed(self.hierarchy.children.get(current, [])))
        return found
