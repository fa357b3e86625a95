"""The `godot` export target: the OMI document, then changed into what Godot 4's own glTF importer builds
as the artist made it (Godot 4.6, modules/gltf/extensions/physics, checked in Godot by tests/godot).

What Godot does with a finished OMI file, and what this target changes for it:
- a node carrying OMI_physics_body (motion, collider or trigger) becomes a body or a CollisionShape3D and
  never gets the MeshInstance3D of its mesh: the mesh moves to a new child node named after the node
  (`mesh_moves`), which Godot makes into a MeshInstance3D; the import side folds it back (`mesh_children`);
- shapes are read the pre-2025 way (one `radius`, absent 0.5; a capsule's `height` is its full height,
  absent 2.0): capsules and cylinders are written that way, every size spelled out (`godot_shape`);
- a moving body's own scale is dropped by Godot's physics: it is baked into its shapes (scale_bake.py);
- joints, physics materials, collision filters, gravity (world, volumes, factors) and inertia orientations
  are ignored by Godot core, a collider below a node that is no body is made a StaticBody3D of its own, a
  tapered capsule or cylinder (a cone) gets one radius, and an animated physics value plays only where Godot
  has the property and the sampler is LINEAR or STEP (measured in Godot 4.6.3: a motion's mass, velocities,
  centre of mass and inertia and a box's size or a sphere's radius become tracks; a gravity factor does not,
  and a CUBICSPLINE sampler is rejected, so the form writes them LINEAR first, `channels.LINEAR`):
  each kind is said once, naming the objects (`_Kinds`).

Pure JSON in, JSON out: the exporter hands a view of its finished document (plain node dicts whose
`extensions` and the document's `extensions` are its own dicts), the CLI and the tests a parsed file.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ... import model
from ...checks import skin_joints
from ...dialects import registry
from ...dialects.gravity import GRAVITY
from ...dialects.omi import BODY_EXTENSION, JOINT_EXTENSION, OMI_SHAPE_FIELDS, SHAPE_EXTENSION
from ...json_types import array_index, get
from ...model import Issue
from .. import scale_bake
from ..form import Form, NewNode

NAME = "godot"
GODOT = "Godot 4"
PROJECT_NOTE = (f"{GODOT}'s default project damps every rigid body (linear and angular damp 0.1) and pulls at "
                "9.8 m/s^2; the file's bodies are undamped under 9.81 m/s^2, as in Blender: set Project Settings > "
                "Physics > 3D > Default Linear Damp and Default Angular Damp to 0 and Default Gravity to 9.81 "
                "to match")


@dataclass
class GodotForm:
    """What the target changed and found: nodes whose mesh goes to a child, and one issue per kind."""

    mesh_moves: list[int] = field(default_factory=list)
    node_changes: dict[int, dict[str, Any]] = field(default_factory=dict)  # key -> new value (None: removed)
    mesh_scales: dict[int, list[float]] = field(default_factory=dict)  # a moved mesh's child gets this scale
    part_moves: list[scale_bake.PartMove] = field(default_factory=list)  # mesh-shaped parts to a scaled child
    issues: list[Issue] = field(default_factory=list)


def _value(details: Mapping[str, Any], shape_type: str, key: str) -> Any:
    for spec in OMI_SHAPE_FIELDS[shape_type]:
        if spec.key == key:
            return details.get(key, spec.default)
    raise KeyError(key)


def godot_shape(shape: Mapping[str, Any]) -> tuple[dict[str, Any], str | None]:
    """The shape (current OMI form) in the form Godot 4.6 reads, with every size written, and why Godot's
    shape differs from the artist's (a tapered capsule or cylinder, a cone), or None."""
    shape_type = str(shape.get("type"))
    details = shape.get(shape_type)
    details = details if isinstance(details, Mapping) else {}
    if shape_type == "box":
        return {"type": "box", "box": {"size": [float(v) for v in _value(details, "box", "size")]}}, None
    if shape_type == "sphere":
        return {"type": "sphere", "sphere": {"radius": float(_value(details, "sphere", "radius"))}}, None
    if shape_type not in model.ROUND_SHAPE_TYPES:
        return dict(shape), None
    top = float(_value(details, shape_type, "radiusTop"))
    bottom = float(_value(details, shape_type, "radiusBottom"))
    height = float(_value(details, shape_type, "height"))
    radius = max(top, bottom)
    if shape_type == "capsule":
        height += top + bottom  # mid-height -> full height, the length kept when the radii differ
    loss = None
    if top != bottom:
        loss = (f"a {'cone' if min(top, bottom) == 0.0 else 'tapered ' + shape_type} (radii {bottom:g} and {top:g}) "
                f"is built as a {shape_type} of radius {radius:g}: Godot has one radius")
    return {"type": shape_type, shape_type: {"radius": radius, "height": height}}, loss


def _node_name(nodes: list[dict[str, Any]], index: int) -> str:
    name = nodes[index].get("name") if 0 <= index < len(nodes) else None
    return str(name) if name else f"node {index}"


def body_of(node: Mapping[str, Any]) -> Mapping[str, Any]:
    body = get(node.get("extensions"), BODY_EXTENSION)
    return body if isinstance(body, Mapping) else {}


def replaces(node: Mapping[str, Any]) -> bool:
    """Whether Godot's physics extension builds its own node for this glTF node (and drops its mesh)."""
    body = body_of(node)
    return any(part in body for part in ("motion", "collider", "trigger", "type"))


class _Kinds:
    """Objects per kind of ignored data, said once per kind."""

    def __init__(self) -> None:
        self.found: dict[str, list[str]] = {}

    def add(self, kind: str, name: str) -> None:
        names = self.found.setdefault(kind, [])
        if name not in names:
            names.append(name)

    def issues(self) -> list[Issue]:
        return [Issue("", f"{GODOT} ignores {kind}: {', '.join(repr(name) for name in names)}", kind="godot")
                for kind, names in self.found.items()]


def godot_form(document: dict[str, Any], *, omi_godot: bool = False) -> GodotForm:
    """Rewrite the document's shapes in place into Godot's form; say what moves and what Godot ignores
    (`omi_godot`: the reader has omi-godot, which builds the joints and the extension units).

    `document` is glTF JSON (nodes as dicts); the meshes of `mesh_moves` move as `form` says."""
    form = GodotForm()
    kinds = _Kinds()
    nodes: list[dict[str, Any]] = document.get("nodes") or []
    extensions = document.get("extensions") or {}
    shapes = (extensions.get(SHAPE_EXTENSION) or {}).get("shapes") or []
    users: dict[int, list[str]] = {}
    parents = {child: index for index, node in enumerate(nodes) for child in node.get("children") or []}
    bones = skin_joints.skin_joints(document)
    for index, node in enumerate(nodes):
        name = _node_name(nodes, index)
        body = body_of(node)
        if index in bones and isinstance(body.get("motion"), Mapping) \
                and body["motion"].get("type", "dynamic") == "dynamic":
            # measured with Godot 4.6.3: the RigidBody3D falls, its BoneAttachment3D and the skin stay
            kinds.add("bones following their bodies (a dynamic body on a skin joint becomes a RigidBody3D under "
                      "a BoneAttachment3D: it simulates, its bone and the skinned mesh stay)", name)
        if replaces(node) and node.get("mesh") is not None:
            form.mesh_moves.append(index)
        if JOINT_EXTENSION in (node.get("extensions") or {}) and not omi_godot:
            kinds.add("joints (they need the OMI add-on for Godot)", name)
        if GRAVITY in (node.get("extensions") or {}):
            kinds.add("gravity volumes", name)
        for unit in registry.extension_units():  # what Godot core ignores of each extension unit
            if unit.engine_loss and not omi_godot and unit.name in (node.get("extensions") or {}):
                kinds.add(unit.engine_loss, name)
        motion: Mapping[str, Any] = body["motion"] if isinstance(body.get("motion"), Mapping) else {}
        if motion.get("gravityFactor", model.DEFAULT_GRAVITY_FACTOR) != model.DEFAULT_GRAVITY_FACTOR:
            kinds.add("gravity factors", name)
        if "inertiaOrientation" in motion:
            kinds.add("inertia orientations (its inertia is about the node's axes)", name)
        for part_name in ("collider", "trigger"):
            part = body.get(part_name)
            if not isinstance(part, Mapping):
                continue
            if "physicsMaterial" in part:
                kinds.add("physics materials (friction and restitution are Godot's defaults)", name)
            if "collisionFilter" in part:
                kinds.add("collision filters (every layer and mask is 1)", name)
            shape = part.get("shape")
            if isinstance(shape, int):
                users.setdefault(shape, []).append(name)
            if part_name == "collider" and "motion" not in body and index in parents \
                    and "motion" not in body_of(nodes[parents[index]]) and _has_body_above(nodes, parents, index):
                kinds.add("colliders that are not direct children of their body (each becomes a StaticBody3D)",
                          name)
    for shape_index, shape in enumerate(shapes):
        if not isinstance(shape, dict):
            continue
        written, loss = godot_shape(shape)
        shape.clear()
        shape.update(written)
        if loss is not None:
            for name in users.get(shape_index, []):
                kinds.add(f"shapes it cannot hold: {loss}", name)
    if GRAVITY in extensions:
        kinds.add("world gravity (Godot's own project gravity applies)", "the scene")
    unbaked = _item_users(nodes)
    form.node_changes, form.mesh_scales, form.part_moves = scale_bake.bake(
        nodes, shapes, lambda loss, name: kinds.add(f"the scale of moving bodies, for {loss}", name))
    for kind, named in _animated(document, nodes, unbaked):
        kinds.add(kind, named)
    form.issues = kinds.issues()
    if any(body_of(node).get("motion", {}).get("type", "dynamic") == "dynamic" for node in nodes
           if isinstance(body_of(node).get("motion"), Mapping)):
        form.issues.append(Issue("", PROJECT_NOTE, "info", kind="godot"))
    return form


def _has_body_above(nodes: list[dict[str, Any]], parents: Mapping[int, int], index: int) -> bool:
    owner, steps = parents.get(index), 0
    while owner is not None and steps <= len(nodes):
        if "motion" in body_of(nodes[owner]):
            return True
        owner, steps = parents.get(owner), steps + 1
    return False


# Animated values Godot 4.6.3 builds a track for (measured): every other physics pointer it drops. It plays a
# capsule's or cylinder's channels in its own form (one radius, a capsule's full height): the target rewrites
# them so (channels.round_shape_keys), and Godot's own `radius` pointers are among these.
_GODOT_PLAYS = frozenset({"motion/mass", "motion/linearVelocity", "motion/angularVelocity", "motion/centerOfMass",
                          "motion/inertiaDiagonal", "box/size", "sphere/radius", "capsule/radiusTop",
                          "capsule/radiusBottom", "capsule/radius", "capsule/height", "cylinder/height",
                          "cylinder/radiusTop", "cylinder/radiusBottom", "cylinder/radius"})
_ITEM_NAMES = {"shapes": "shape", "physicsMaterials": "physics material", "collisionFilters": "collision filter",
               "physicsJoints": "joint"}


_BAKED_SHAPE = ("animated sizes of shapes on scaled moving bodies (the body's scale is baked into a copy of its "
                "shape; the channel animates the original, which no body uses)")


def _animated(document: Mapping[str, Any], nodes: list[dict[str, Any]],
              unbaked: Mapping[tuple[str, int], list[str]]) -> list[tuple[str, str]]:
    """(kind, 'object: value') of each animated physics value Godot 4.6 drops: one it has no property for,
    one keyed CUBICSPLINE (its importer rejects the sampler), or a shape's whose users all took a scaled copy
    (`unbaked`: the users before the scales were baked)."""
    found = []
    users = _item_users(nodes)
    for animation in document.get("animations") or []:
        samplers = (animation.get("samplers") if isinstance(animation, Mapping) else None) or []
        for channel in (animation.get("channels") if isinstance(animation, Mapping) else None) or []:
            target = channel.get("target") if isinstance(channel, Mapping) else None
            pointer = ((target or {}).get("extensions") or {}).get("KHR_animation_pointer", {}).get("pointer")
            if not isinstance(pointer, str) or "/OMI_physics" not in pointer:
                continue
            parts = pointer.split("/")
            item = array_index(parts[4]) if len(parts) > 5 and parts[3] == "shapes" else None
            if item is not None and ("shapes", item) in unbaked and ("shapes", item) not in users:
                found.append((_BAKED_SHAPE, f"{', '.join(unbaked[('shapes', item)])}: shape {'/'.join(parts[5:])}"))
                continue
            named, value = _named_value(pointer, nodes, users)
            index = channel.get("sampler")
            sampler = samplers[index] if type(index) is int and 0 <= index < len(samplers) else {}
            if isinstance(sampler, Mapping) and sampler.get("interpolation") == "CUBICSPLINE":
                found.append(("physics channels keyed CUBICSPLINE (its importer rejects them; LINEAR and STEP play)",
                              f"{named}: {value}"))
            elif "/".join(pointer.split("/")[-2:]) not in _GODOT_PLAYS:
                found.append(("animated physics values it has no property for", f"{named}: {value}"))
    return found


def _item_users(nodes: list[dict[str, Any]]) -> dict[tuple[str, int], list[str]]:
    """(document array, index) -> the names of the nodes that use that item."""
    users: dict[tuple[str, int], list[str]] = {}
    for index, node in enumerate(nodes):
        extensions = node.get("extensions") or {}
        uses = []
        body = body_of(node)
        for part in (body.get("collider"), body.get("trigger")):
            if isinstance(part, Mapping):
                uses += [("shapes", part.get("shape")), ("physicsMaterials", part.get("physicsMaterial")),
                         ("collisionFilters", part.get("collisionFilter"))]
        joint = extensions.get(JOINT_EXTENSION)
        if isinstance(joint, Mapping):
            uses.append(("physicsJoints", joint.get("joint")))
        for array, item in uses:
            if isinstance(item, int) and not isinstance(item, bool):
                names = users.setdefault((array, item), [])
                if _node_name(nodes, index) not in names:
                    names.append(_node_name(nodes, index))
    return users


def _named_value(pointer: str, nodes: list[dict[str, Any]],
                 users: Mapping[tuple[str, int], list[str]]) -> tuple[str, str]:
    """The objects the artist knows an animated value by, and the value: a node's own (`nodes/N/...`) or a
    document-level item's (a shape, material, filter or joint), named by the nodes that use the item."""
    parts = pointer.split("/")
    if len(parts) > 3 and parts[1] == "nodes":
        index = array_index(parts[2])
        name = _node_name(nodes, index) if index is not None else pointer
        return name, "/".join(parts[5:] if len(parts) > 5 else parts[3:])
    if len(parts) > 5 and parts[1] == "extensions" and parts[3] in _ITEM_NAMES:
        item = array_index(parts[4])
        names = users.get((parts[3], item), []) if item is not None else []
        what = f"{_ITEM_NAMES[parts[3]]} {'/'.join(parts[5:])}"
        return (", ".join(names) if names else f"{_ITEM_NAMES[parts[3]]} {parts[4]}"), what
    return pointer, pointer


def form(document: dict[str, Any], *, omi_godot: bool = False) -> Form:
    """The target's form of a written OMI document (its shapes rewritten in place): node keys changed; each
    moved node's mesh (with its skin and morph weights) to a new last child named after the node, at the
    node's origin (scaled by the node's baked scale); mesh-shaped parts to scaled children."""
    found = godot_form(document, omi_godot=omi_godot)
    nodes: list[dict[str, Any]] = document.get("nodes") or []
    new = [NewNode(index, nodes[index].get("name"), scale=found.mesh_scales.get(index), takes_mesh=True)
           for index in found.mesh_moves]
    return Form(found.node_changes, new + scale_bake.part_nodes(nodes, found.part_moves), found.issues)
