"""Reading triggers: a node's trigger of either dialect, and the compound triggers resolved once every node is read.

Functions over the reading state (`read/state.py`): a trigger (one shape, or explicit `nodes` members, or
`trigger: {}` grouping the descendants' shape triggers), and the compound ones resolved against the node
tree. The shape comes through the dialect's `Spelling.shape_of`.
"""

from __future__ import annotations

from ..checks import rulebook
from ..json_types import MISSING, ROOT, Where, get, int_or, join, list_or_none, obj_or_none, report
from ..model import Trigger
from .state import ReadState, node_state, once, resolve


def read_trigger(state: ReadState, index: int, raw: object, at: Where) -> None:
    trigger = obj_or_none(raw, at, state.issues, "trigger")
    if trigger is None:
        return
    node = node_state(state, index)
    node.trigger_unknown = state.items.kept(state.items.dialect.trigger_fields, trigger, at, "trigger")
    members_value = get(trigger, "nodes")
    shape, shape_value = state.spelling.shape_of(state, trigger, at)
    collision_filter = resolve(state, get(trigger, "collisionFilter"), state.filters, join(at, "collisionFilter"),
                                    "collisionFilter")
    if shape is not None:
        if members_value is not MISSING:
            report(state.issues, join(at, "nodes"), "trigger has both a shape and nodes; nodes dropped")
        node.trigger = Trigger(shape, (), collision_filter, node.trigger_unknown)
        return
    if shape_value is not MISSING and shape_value != -1:
        return  # its shape was unusable (reported): no trigger
    members = list_or_none(members_value, join(at, "nodes"), state.issues, "trigger nodes")
    if members_value is not MISSING and members is None:
        return  # `nodes` was not an array (reported): no trigger
    if collision_filter is not None:
        report(state.issues, join(at, "collisionFilter"), "a compound trigger cannot carry a collisionFilter "
               "(schema); dropped")
    if not members:
        if members is not None:
            report(state.issues, join(at, "nodes"), "trigger nodes is empty; read as if absent", "warning")
        node.implicit_compound = True
        return
    node.compound_members = []
    for position, member in enumerate(members):
        member_at = join(at, "nodes", position)
        member_index = int_or(member, None, member_at, state.issues, minimum=0, what="trigger nodes item")
        if member_index is None:
            continue
        if any(kept == member_index for _ptr, kept in node.compound_members):
            report(state.issues, member_at, f"trigger nodes item {member_index} is repeated; kept once", "warning")
            continue
        node.compound_members.append((member_at, member_index))


# --- compound triggers -------------------------------------------------------------------------


def has_shape_trigger(state: ReadState, index: int) -> bool:
    built = state.nodes.get(index)
    return built is not None and built.trigger is not None and built.trigger.shape is not None


def resolve_compound_triggers(state: ReadState) -> None:
    for index in sorted(state.nodes):
        node = state.nodes[index]
        if node.compound_members is None and not node.implicit_compound and not node.legacy_trigger_body:
            continue  # most nodes
        body_at = join(ROOT, "nodes", index, "extensions", state.dialect.body_extension)
        if node.compound_members is not None:
            kept = []
            for at, member in node.compound_members:
                in_range = member < len(state.nodes_json)
                if not in_range:
                    report(state.issues, at, f"compound trigger member {member} is not a node; dropped")
                    continue
                found = rulebook.compound_member(at, member, index, state.hierarchy.is_descendant(member, index),
                                              has_shape_trigger(state, member))
                if found is not None:
                    state.issues.append(found)
                else:
                    kept.append(member)
            if kept:
                node.trigger = Trigger(None, tuple(kept), unknown=node.trigger_unknown)
            else:
                state.issues.append(rulebook.note(join(body_at, "trigger"), "trigger_without_members"))
        elif node.implicit_compound:
            once(state, "empty-trigger", rulebook.note(join(body_at, "trigger"), "empty_trigger"))
            group_descendant_triggers(state, index, join(body_at, "trigger"))
        elif node.legacy_trigger_body:
            if node.trigger is not None:
                continue  # the trigger body carries its own shape: its children stand alone
            group_descendant_triggers(state, index, join(body_at, "type"))


def group_descendant_triggers(state: ReadState, index: int, at: Where) -> None:
    """A compound trigger made of the descendant shape triggers that belong to this node."""
    members = [member for member in own_descendants(state, index) if has_shape_trigger(state, member)]
    if members:
        state.nodes[index].trigger = Trigger(None, tuple(members), unknown=state.nodes[index].trigger_unknown)
    else:
        state.issues.append(rulebook.note(at, "trigger_without_members"))


def own_descendants(state: ReadState, index: int) -> list[int]:
    """Descendants, not entering independent bodies (motion) or other compound triggers."""
    found = []
    stack = list(reversed(state.hierarchy.children.get(index, [])))
    while stack:
        current = stack.pop()
        built = state.nodes.get(current)
        if built is not None and (built.motion is not None or built.compound_members is not None
                                  or built.implicit_compound or built.legacy_trigger_body):
            continue
        found.append(current)
        stack.extend(reversed(state.hierarchy.children.get(current, [])))
    return found
