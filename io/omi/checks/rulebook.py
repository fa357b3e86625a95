"""The reader's rulebook: the rules the OMI specs state beyond JSON types and ranges, each yielding `Issue`s
with the pointer of the offending value.

Severity: 'error' when the value is unusable and dropped, 'warning' when it is kept but approximated or
non-portable, 'info' for a legacy revision read into the current one. Type and range checks live in
`json_types`; the reader calls both while it reads, so what is reported is exactly what is dropped.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import cached_property

from .. import model
from ..dialects.omi import LEGACY_COLLIDER_EXTENSION
from ..json_types import Where, join, pointer_text
from ..model import Issue, Severity, Shape
from . import gltf_structure

# --- revisions an importer meets (names recorded in PhysicsDocument.revisions) --------------------

REV_COLLIDER = LEGACY_COLLIDER_EXTENSION
REV_BODY_TYPE = "OMI_physics_body.type"
REV_FLAT_SHAPE = "OMI_physics_shape.flat"
REV_FULL_HEIGHT_CAPSULE = "OMI_physics_shape.capsule_full_height"

LEGACY_REVISION_NOTES = {
    REV_COLLIDER: "legacy OMI_collider revision: colliders read as OMI_physics_body colliders and triggers",
    REV_BODY_TYPE: "legacy OMI_physics_body revision with a body `type` enum and node-level OMI_physics_shape: "
                   "read as motion/collider/trigger",
    REV_FLAT_SHAPE: "legacy OMI_physics_shape revision with shape values on the shape itself (no per-type "
                    "sub-object): read as the current form",
}

LEGACY_BODY_TYPES: dict[str, tuple[model.MotionType | None, str]] = {  # legacy body type -> (motion type or None
    # for a trigger body, note)
    "static": ("static", ""),
    "kinematic": ("kinematic", ""),
    "character": ("kinematic", "body type 'character' read as kinematic"),
    "rigid": ("dynamic", "body type 'rigid' is now 'dynamic'"),
    "vehicle": ("dynamic", "body type 'vehicle' read as dynamic"),
    "dynamic": ("dynamic", ""),
    "trigger": (None, ""),
}

MOTION_TYPE_ALIASES: dict[str, tuple[model.MotionType, str]] = {  # motion types of intermediate revisions
    "rigid": ("dynamic", "motion type 'rigid' is now 'dynamic'"),
    "character": ("kinematic", "motion type 'character' read as kinematic"),
    "vehicle": ("dynamic", "motion type 'vehicle' read as dynamic"),
}


def issue(at: Where, message: str, severity: Severity = "error") -> Issue:
    return Issue(pointer_text(at), message, severity)


# --- node hierarchy --------------------------------------------------------------------------------

class Hierarchy:
    """Parent/children of glTF nodes, made safe: each node keeps at most one parent and no cycles.

    Broken `children` entries (not an index, out of range, a second parent, a cycle) are ignored with a
    warning, so walking up or down always ends.
    """

    def __init__(self, nodes: Sequence[object], issues: list[Issue]) -> None:
        self.count = len(nodes)
        self.links, dropped = gltf_structure.node_tree(nodes)  # the same links Blender's import keeps
        issues.extend(Issue(found.pointer, found.as_repaired(), "warning") for found in dropped)

    @cached_property
    def parent(self) -> dict[int, int]:
        """child -> parent (made on first use: a file without triggers or joints never asks)."""
        return {child: owner for child, (owner, _position) in self.links.items()}

    @cached_property
    def children(self) -> dict[int, list[int]]:
        """parent -> children, in children order."""
        children: dict[int, list[int]] = {}
        for child, (owner, _position) in sorted(self.links.items(), key=lambda link: link[1]):
            children.setdefault(owner, []).append(child)
        return children

    def ancestors(self, index: int) -> Iterator[int]:
        """Parent, grandparent, ... up to the root."""
        current = self.parent.get(index)
        while current is not None:
            yield current
            current = self.parent.get(current)

    def ancestors_or_self(self, index: int) -> Iterator[int]:
        yield index
        yield from self.ancestors(index)

    def is_descendant(self, index: int, ancestor: int) -> bool:
        return index != ancestor and ancestor in self.ancestors(index)

    def descendants(self, index: int) -> Iterator[int]:
        """Depth-first, in children order."""
        stack = list(reversed(self.children.get(index, [])))
        while stack:
            current = stack.pop()
            yield current
            stack.extend(reversed(self.children.get(current, [])))


# --- findings: one builder, one table of messages -------------------------------------------------
# name -> (message template, severity). `note(at, name, **values)` fills the template; the reader, the
# writer and the rules below make their findings with it, so a message is written once.

NOTES: dict[str, tuple[str, Severity]] = {
    # shapes
    "mesh_missing": ("{shape_type} shape has no mesh (missing or -1); it has no geometry", "warning"),
    "full_height_capsule": ("capsule in the old full-height form (radius {radius:g}, height {height:g}): read as "
                            "mid-height {mid_height:g} with radiusTop = radiusBottom = {radius:g}", "warning"),
    "capsule_too_short": ("old full-height capsule shorter than its diameter (radius {radius:g}, height "
                          "{height:g}): read as a sphere", "warning"),
    "radius_ignored": ("`radius` is ignored where radiusTop/radiusBottom are given", "warning"),
    "unknown_shape_type": ("unknown shape type {value}; shape dropped", "error"),
    "hull_renamed": ("shape type 'hull' is now 'convex'", "info"),
    "shape_without_details": ("shape has no `{shape_type}` sub-object: all defaults (the schema wants it written, "
                              "even empty)", "info"),
    # bodies
    "motion_without_type": ("motion has no type; read as dynamic", "warning"),
    "unknown_motion_type": ("unknown motion type {value}; read as {fallback} (the schema allows no other type, so "
                            "it is not kept)", "error"),
    "inertia_off_diagonal": ("inertiaTensor has non-zero off-diagonal terms; only the diagonal is kept", "warning"),
    "empty_trigger": ("trigger has neither shape nor nodes (`trigger: {{}}`): read as a compound trigger made of "
                      "its descendant triggers; this message is given once per file", "warning"),
    "trigger_without_members": ("trigger has neither a shape nor any descendant trigger to group; dropped", "error"),
    # joints
    "joint_without": ("joint node has no {missing}; joint dropped", "error"),
    "joint_minus_one": ("joint -1 is not a joint settings index; joint dropped", "error"),
    "connected_minus_one": ("connectedNode -1 is not a node; joint dropped", "error"),
    "joint_to_itself": ("joint is connected to its own node; joint dropped", "error"),
    "joint_does_nothing": ("joint settings have no limits and no drives; the joint does nothing", "warning"),
    "limit_both_kinds": ("limit on both linear and angular axes: read as one, written as two (the schema allows "
                         "one kind per limit)", "info"),
    "unknown_drive_value": ("drive {key} {value} is not one of {known} (other extensions may define it; not "
                            "portable): read as {fallback}; the file's value is kept and written back unless the "
                            "setting is changed", "warning"),
    "unknown_drive_value_as_is": ("drive {key} {value} is not one of {known} (other extensions may define it; not "
                                  "portable): `convert` keeps it as is; Blender's settings hold only these, so an "
                                  "import reads it as {kept} and its export writes that", "warning"),
    "drive_gain_without_target": ("drive {gain} without a usable {target} (the schema pairs them): read as 0",
                                  "warning"),
    "connected_node_outside_body": ("connectedNode {node} is not inside any physics body; it acts as static",
                                    "warning"),
    # KHR values the model holds differently (reader_khr, writer_khr)
    "khr_mass_absent": ("KHR motion has no mass (the engine computes it); the model has no 'computed mass': read "
                        "as {mass:g} kg", "info"),
    # KHR's text makes 0 mean infinite, its schema says exclusiveMinimum 0: the text holds (one rule, one message)
    "khr_infinite_mass": ("mass 0 means infinite mass in KHR (its text; the schema's exclusiveMinimum is read as "
                          "allowing it): pushed by nothing", "info"),
    "khr_infinite_inertia": ("an inertiaDiagonal component of 0 means infinite inertia in KHR (its text; the "
                             "schema's exclusiveMinimum is read as allowing it): no turning about that axis", "info"),
    "khr_computed_unwritten": ("{what} is left to the engine (KHR's absent key), which {dialect} cannot say: left "
                               "out, so its readers use {instead}", "info"),
    "khr_infinite_unwritten": ("{what}: infinite (KHR's 0), which {dialect} cannot spell: left out, so the file "
                               "reads {instead}", "warning"),
    "khr_shape_without_geometry": ("`shape` on the collider itself (the README's first example): read as "
                                   "geometry.shape", "info"),
    "khr_geometry_node_transform": ("geometry node {node} has a transform of its own: its mesh is read as if "
                                    "placed at the collider's node (the transform is not kept)", "warning"),
    "khr_geometry_node_children": ("the children of geometry node {node} are not part of the geometry (only its "
                                   "own mesh is read)", "warning"),
    "khr_plane": ("plane shape read as a thin box {size_x:g} x {thickness:g} x {size_z:g} (Blender has no plane): "
                  "its top face lies {half:g} above the plane{sides}", "warning"),
    "khr_connected_to_fixed_frame": ("connectedNode {node} is in no body: the joint holds to the fixed reference "
                                     "frame there (static)", "info"),
    "degenerate_shape": ("{shape_type} with radiusTop and radiusBottom both 0 has no volume (the spec prohibits "
                         "degenerate shapes); shape dropped", "error"),
    "trigger_needs_geometry": ("trigger has neither geometry nor nodes (`{{}}` is invalid in KHR); dropped", "error"),
    "khr_cannot_hold": ("KHR cannot hold {what}: {outcome}", "warning"),
    "khr_omitted": ("{what}: {outcome}", "info"),
}


# A drive's gain that only means something with its target; KHR's schema requires each with the other.
DRIVE_GAIN_PAIRS = (("positionTarget", "stiffness"), ("velocityTarget", "damping"))


def note(at: Where, name: str, **values: object) -> Issue:
    """The finding `name` of NOTES at `at`, its template filled with `values`."""
    template, severity = NOTES[name]
    return Issue(pointer_text(at), template.format(**values), severity, name)


DIALECT_LOSS_PREFIX = "khr_"  # NOTES entries about a value one dialect cannot hold


def is_dialect_loss(found: Issue) -> bool:
    """A finding that says a value changes meaning between OMI and KHR (not a plain re-spelling)."""
    return found.kind.startswith(DIALECT_LOSS_PREFIX) and found.severity != "info"


# --- rules ------------------------------------------------------------------------------------------

def degenerate(shape: Shape) -> bool:
    """A capsule or cylinder whose radii are both zero has no volume (KHR_implicit_shapes prohibits it)."""
    return shape.type in model.ROUND_SHAPE_TYPES and shape.radius_top == 0.0 and shape.radius_bottom == 0.0


def filter_masks(at: Where, collide_with: Sequence[str], not_collide_with: Sequence[str]) -> Issue | None:
    """collideWithSystems and notCollideWithSystems are mutually exclusive (README.trigger.md)."""
    if collide_with and not_collide_with:
        return issue(at, "collision filter sets both collideWithSystems and notCollideWithSystems; "
                         "the filter is invalid and dropped")
    return issue(at, "collision filter lists both collideWithSystems and notCollideWithSystems (one empty); "
                     "the empty one is ignored", "warning")


def compound_member(at: Where, member: int, owner: int, is_descendant: bool, has_trigger: bool) -> Issue | None:
    """A compound trigger's `nodes` item must be a descendant with its own trigger shape."""
    if member == owner:
        return issue(at, f"compound trigger lists its own node {member}; dropped")
    if not is_descendant:
        return issue(at, f"compound trigger member {member} is not a descendant of node {owner}; dropped")
    if not has_trigger:
        return issue(at, f"compound trigger member {member} has no trigger shape; dropped")
    return None


# joints-------------------------------------------------------------------------------------

def limit_rules(at: Where, linear: Sequence[int], angular: Sequence[int], low: float | None,
                high: float | None) -> Issue | None:
    """The README's rules for one limit; any of them makes the limit useless (dropped)."""
    if not linear and not angular:
        return issue(at, "limit has no linearAxes and no angularAxes; dropped")
    if low is None and high is None:
        return issue(at, "limit has neither min nor max; dropped")
    if low is not None and high is not None and low > high:
        return issue(join(at, "min"), f"limit min {low:g} is greater than max {high:g}; limit dropped")
    return None


def joint_node(at: Where, has_body_ancestor: bool, has_own_body: bool, has_mesh: bool) -> list[Issue]:
    """Placement rules of a joint node (README: its own node, below a body)."""
    found = []
    if not has_body_ancestor:
        found.append(issue(at, "joint node has no physics body ancestor (OMI wants one); it holds to the world "
                                "there (static)", "warning"))
    if has_own_body or has_mesh:
        what = " and ".join(name for name, present in (("a physics body", has_own_body), ("a mesh", has_mesh))
                            if present)
        found.append(issue(at, f"joint node also has {what}; a joint should be on its own node", "warning"))
    return found
