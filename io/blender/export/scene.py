"""The physics of one scene's gathered objects, placed on glTF nodes (one `PhysicsExport.write_scene` call).

Each object's physics is derived (its OMI settings through the hook layer's reader, or its Blender rigid
body and constraint), shapes and joint frames get the child nodes they need, and each node's extensions
are handed as model values to the export's writer (`io/omi/write/export_writer.py`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from typing import Any

import bpy
from mathutils import Matrix

from ...omi import model
from ...omi.dialects import registry
from ...omi.unit_values import NO_UNIT_VALUES
from ..adopt import from_bodies, from_constraints
from ..animation.exports.sample import AnimationExport
from ..animation.exports.tracker import Tracker
from . import gltf_meshes, joint_nodes, node_frames
from .messages import Messages
from .options import Options
from .output import Gathered, Output
from .parts import NO_MESH, Carrier, Derived, SameValues, carried, object_node_ref


class SceneWrite:
    """Writes the physics of one scene's gathered objects (one `PhysicsExport.write_scene` call), through the
    helpers of the export session: what was asked (`options`), what goes into the document (`out`), the
    messages (`say`) and the animated values (`animation`)."""

    def __init__(self, options: Options, out: Output, say: Messages, animation: AnimationExport,  # noqa: PLR0917
                 gltf_scene: Any, bl_scene: bpy.types.Scene, records: list[tuple[Any, bpy.types.Object]]) -> None:
        self.options = options
        self.out = out
        self.say = say
        self.animation = animation
        self.bl_scene = bl_scene
        self.records = records
        self.parents: dict[int, Any] = {}
        self.objects_of: dict[int, bpy.types.Object] = {}
        self.nodes_of: dict[bpy.types.Object, Any] = {}
        self.carriers: dict[int, Carrier] = {}
        self.derived: dict[bpy.types.Object, Derived | None] = {}
        self.depsgraph = bpy.context.evaluated_depsgraph_get()
        self.bounds = from_bodies.Bounds(self.depsgraph)
        self._with_filter: bool | None = None  # the scene's bodies need collision filters (asked once)
        self._plain_parts: dict[tuple[int, int], model.NodePhysics] = {}  # (`parts.carried`)
        self.same = SameValues()  # shapes and colliders as placed, shared by the bodies that share a mesh
        self._strict: list[str] | None = None  # the target's dialects that want a body at both ends of a joint
        # a level's bodies repeat a few values: each written once (io/omi/write/repeats.py)
        self.repeats = out.writer.repeats(object_node_ref(self.nodes_of, out.node_slot))
        for root in gltf_scene.nodes or []:
            self._index_tree(root, None)

    def _index_tree(self, root: Any, parent: Any) -> None:
        stack = [(root, parent)]
        while stack:
            node, node_parent = stack.pop()
            self.parents[id(node)] = node_parent
            stack.extend((child, node) for child in node.children or [] if not isinstance(child, int))

    def run(self) -> None:
        """Each object's steps in turn; a failing step skips that object's physics and is said (`_failed`),
        never raised (each loop holds that boundary: no call per object and step for it)."""
        derived_of = self.derived
        for node, obj in self.records:
            self.objects_of[id(node)] = obj
            self.nodes_of.setdefault(obj, node)
            if obj not in derived_of:
                try:
                    derived_of[obj] = self._derive(obj)
                except Exception as error:  # the boundary: bad input must not stop the export
                    derived_of[obj] = None
                    self._failed(obj, error)
        joints = []
        for node, obj in self.records:
            if (derived := derived_of[obj]) is None:
                continue
            try:
                self._place_body(node, obj, derived)
            except Exception as error:  # the boundary
                self._failed(obj, error)
            if derived.joint is not None or derived.constraint is not None:
                joints.append((node, obj, derived))
        for node, obj, derived in joints:
            if self.nodes_of.get(obj) is node:
                try:
                    self._place_joint(node, obj, derived)
                except Exception as error:  # the boundary
                    self._failed(obj, error)
        for carrier in self.carriers.values():
            try:
                self._write(carrier)
            except Exception as error:  # the boundary
                self._failed(carrier.obj, error)
        self.out.keep_in_tree([carrier.node for carrier in self.carriers.values() if carrier.meshes], self.parents)

    def _failed(self, obj: bpy.types.Object, error: Exception) -> None:
        """A step of the object's failed: its physics is skipped, and said."""
        self.say.warn(f"{model.HOOK_FAILURE}object {obj.name!r}: its physics could not be exported ({error})")

    # --- deriving ----------------------------------------------------------------------------------

    def _derive(self, obj: bpy.types.Object, *, quiet: bool = False) -> Derived | None:
        """The object's physics for export; `quiet` (resampling an animation) reports nothing."""
        issues: list[model.Issue] = []
        options = self.options
        try:
            if options.tagged.is_tagged(obj):
                return options.tagged.derive(obj, self.bl_scene, issues)
            if not options.include_rigid_bodies:
                return None
            if self._with_filter is None:
                self._with_filter = options.filters_needed()
            body = from_bodies.rigid_body_physics(obj, self.depsgraph, issues, with_filter=self._with_filter,
                                                  bounds=self.bounds)
            constraint = None
            if obj.rigid_body_constraint is not None:
                constraint = from_constraints.constraint_joint(obj, issues)
            if body is None and constraint is None:
                return None
            return Derived(body or model.NodePhysics(), constraint=constraint)
        finally:
            if issues and not quiet:
                self.say.report(issues, obj)

    # --- bodies and shapes -------------------------------------------------------------------------

    def carrier(self, node: Any, obj: bpy.types.Object) -> Carrier:
        carrier = self.carriers.get(id(node))
        if carrier is None:
            carrier = self.carriers[id(node)] = Carrier(node, obj)
        return carrier

    def add_child(self, parent: Any, local: Matrix, name: str) -> Any:
        """A new node below `parent`, added to the document once the exporter has indexed its own
        (`Output.place_new_nodes`)."""
        child = self.out.new_node(name, local)
        self.out.new_nodes.append((parent, child))
        self.parents[id(child)] = parent
        return child

    def _place_body(self, node: Any, obj: bpy.types.Object, derived: Derived) -> None:
        physics = derived.physics
        if physics.unknown is not model.NOTHING_UNKNOWN and physics.unknown:  # (the common case without a call)
            self.carrier(node, obj).unknown = physics.unknown
        if physics.extensions is not NO_UNIT_VALUES and physics.extensions:
            self.carrier(node, obj).extensions = physics.extensions
        if physics.motion is not None:
            self.carrier(node, obj).motion = physics.motion
        if physics.collider is not None:
            self._place_part(node, obj, physics.collider, derived.collider_offset, "collider")
        gravity_node = node  # a volume goes with its trigger; elsewhere the writer names it as misplaced
        if physics.trigger is not None:
            target = self._place_part(node, obj, physics.trigger, derived.trigger_offset, "trigger")
            if target is not None:
                self.out.trigger_nodes.setdefault(obj, target)
                gravity_node = target
        if physics.gravity is not None:
            self.carrier(gravity_node, obj).gravity = physics.gravity

    def _place_part(self, node: Any, obj: bpy.types.Object, part: model.Collider | model.Trigger,
                    offset: Matrix | None, role: str) -> Any | None:
        """Put a collider or trigger (`role`) on the node that carries its shape; that node, None when the
        shape cannot be exported."""
        placed = self._place_shape(node, obj, part.shape, offset, role)
        if placed is None:
            return None
        target, shape = placed
        written = part if shape is part.shape else self.same.replaced(part, "shape", shape)
        setattr(self.carrier(target, obj), role, written)
        return target

    def _place_shape(self, node: Any, obj: bpy.types.Object, shape: model.Shape | None, offset: Matrix | None,
                     role: str) -> tuple[Any, model.Shape | None] | None:
        """(node that carries the shape, shape as written); None when it cannot be exported."""
        if shape is None:
            return node, None
        node_world = self.out.node_worlds.get(obj)
        if node_world is None:
            node_world = obj.matrix_world
            if offset is None and node_frames.unscaled(node_world):  # the common case (`place_shape`'s first)
                return node, self._meshed(shape, obj, node, node)  # as it is, on the object's own node
        else:  # the object's physics on another object's node (a ragdoll part): the shape measured from that node
            offset = node_world.inverted_safe() @ obj.matrix_world @ (offset if offset is not None else Matrix())
            offset = None if node_frames.coincide(offset, Matrix()) else offset
        placement = node_frames.place_shape(shape, node_world, offset)
        if placement is None:
            self.say.warn(f"object {obj.name!r}: it is scaled to zero, so its {role} has no volume; not exported")
            return None
        if placement.approximation:
            self.say.warn(f"object {obj.name!r}: {role} approximated: {placement.approximation}")
        target = node
        if placement.chain:  # a node the scene does not have: say why (the import predicted it for an imported file)
            name = node_frames.shape_node_name(obj.name, role)
            for position, local in enumerate(placement.chain):
                target = self.add_child(target, local,
                                        name if position == len(placement.chain) - 1 else f"{name}.unscaled")
            self.say.warn(f"object {obj.name!r}: its {role} is written on a new node {target.name!r}: "
                             f"{placement.why_new_node(shape)}", "info")
        return target, self._meshed(placement.shape, obj, node, target)

    def _meshed(self, shape: model.Shape, obj: bpy.types.Object, node: Any, target: Any) -> model.Shape:
        """The shape as written: a convex or triangle-mesh shape with its mesh's slot (`_shape_mesh`)."""
        if shape.type not in model.MESH_SHAPE_TYPES:
            return shape
        return self.same.replaced(shape, "mesh", self._shape_mesh(shape.mesh, obj, node, target,
                                                                  hull=shape.type == "convex"))

    def _shape_mesh(self, ref: model.MeshRef, obj: bpy.types.Object, node: Any, target: Any, *,
                    hull: bool = False) -> Any:
        """A mesh slot for a convex/trimesh shape of `obj` (whose node is `node`) carried by `target`."""
        source, evaluated = (ref.object, ref.evaluated) if isinstance(ref, from_bodies.RigidBodyMesh) else (ref, True)
        if not isinstance(source, gltf_meshes.OBJECT):
            return NO_MESH
        unmodified = evaluated or not any(modifier.show_viewport for modifier in source.modifiers)
        if target is node and source == obj and unmodified \
                and gltf_meshes.render_mesh_is_shape_mesh(node, source, self.options.settings, hull=hull):
            return self.out.mesh_slot(node.mesh)
        meshes = self.out.shape_meshes()
        mesh = meshes.mesh_for(gltf_meshes.MeshRequest(source, evaluated), self.depsgraph)
        if mesh is None:
            self.say.warn(f"object {obj.name!r}: the mesh {source.name!r} of its collision shape has no "
                             "triangles; shape not exported")
            return NO_MESH
        self.carrier(target, obj).meshes.extend(meshes.take_new())
        return self.out.mesh_slot(mesh)

    # --- joints ------------------------------------------------------------------------------------

    def _ancestors(self, node: Any) -> Iterable[Any]:
        while node is not None:
            yield node
            node = self.parents.get(id(node))

    def body_node(self, node: Any) -> Any | None:
        """The nearest node at or above `node` that is a body (has motion, or a collider)."""
        for ancestor in self._ancestors(node):
            carrier = self.carriers.get(id(ancestor))
            if carrier is not None and (carrier.motion is not None or carrier.collider is not None):
                return ancestor
        return None

    def body_of(self, obj: bpy.types.Object) -> bpy.types.Object | None:
        node = self.nodes_of.get(obj)
        body = None if node is None else self.body_node(node)
        return None if body is None else self.objects_of.get(id(body))

    def is_dynamic(self, obj: bpy.types.Object) -> bool:
        node = self.nodes_of.get(obj)
        for ancestor in self._ancestors(node):
            carrier = self.carriers.get(id(ancestor))
            if carrier is not None and carrier.motion is not None:
                return carrier.motion.type == "dynamic"
        return False

    def _owns_node(self, node: Any, obj: bpy.types.Object) -> bool:
        carrier = self.carriers.get(id(node))
        busy = carrier is not None and (carrier.motion or carrier.collider or carrier.trigger or carrier.joint)
        return node.mesh is None and node.camera is None and joint_nodes.owns_node(obj, bool(busy))

    def _place_joint(self, node: Any, obj: bpy.types.Object, derived: Derived) -> None:
        if derived.joint is not None:
            connected = derived.joint.connected_node
            plan = joint_nodes.plan_from_settings(obj, derived.joint, owns_node=self._owns_node(node, obj),
                                                    body_of=self.body_of)
        elif derived.constraint is not None:
            connected = derived.constraint.object2
            plan = joint_nodes.plan_from_constraint(obj, derived.constraint)
        else:
            return
        for end in (plan.joint_side.anchor, connected):
            if end not in self.nodes_of:
                self.say.warn(f"object {obj.name!r}: its joint is connected to {end.name!r}, which is not "
                                 "exported (selection, visibility or collection options); joint dropped")
                return
        plan = joint_nodes.oriented(plan, self.is_dynamic)
        frames = [self._joint_frame(plan, side, suffix)
                  for side, suffix in ((plan.joint_side, "joint"), (plan.connected_side, "connected"))]
        if frames[0] is None or frames[1] is None:
            self.say.warn(f"object {obj.name!r}: a body of its joint is scaled to zero; joint dropped")
            return
        joint_node, connected_node = frames
        self._warn_world_end(obj, plan, frames)
        if derived.joint is not None:
            self._warn_turned(plan)
        kept = derived.joint.unknown if derived.joint is not None else model.NOTHING_UNKNOWN  # the joint object's
        self.carrier(joint_node, obj).joint = model.Joint(plan.settings, self.out.node_slot(connected_node),
                                                          plan.enable_collision, kept)

    def _warn_turned(self, plan: joint_nodes.JointPlan) -> None:
        """The file measures angles from the connected frame as it starts; Blender from the starting pose, which
        the rigid body build makes up for only when the two frames start turned about one axis."""
        turn = joint_nodes.unexpressed_turn(plan)
        if turn is not None:
            self.say.warn(f"object {plan.source.name!r}: its joint's connected object "
                             f"{plan.connected_side.anchor.name!r} starts turned {turn:.1f} degrees against the joint "
                             "frame about more than one axis; the angular limits and drives are written as set, "
                             "measured from that turned frame, while Blender measures them from the starting pose")

    def _warn_world_end(self, obj: bpy.types.Object, plan: joint_nodes.JointPlan, frames: list[Any]) -> None:
        """OMI wants a body on both sides of a joint (`Dialect.joint_ends_in_bodies`); KHR allows a joint frame
        in no body (the fixed world frame), so an export in such dialects only says nothing."""
        if self._strict is None:
            self._strict = [name for name in self.options.dialects if registry.get(name).tables.joint_ends_in_bodies]
        strict = self._strict
        if not strict:
            return
        lenient = [name for name in self.options.dialects if name not in strict]
        spelling = f" (in the {', '.join(strict)} spelling; {', '.join(lenient)} holds it to the world)" \
            if lenient else ""
        for end, frame_node in zip((plan.joint_side.anchor, plan.connected_side.anchor), frames, strict=True):
            if self.body_node(frame_node) is None:
                self.say.warn(f"object {obj.name!r}: its joint end at {end.name!r} is not inside a physics "
                                 f"body; engines need a body on both sides{spelling}")

    def _joint_frame(self, plan: joint_nodes.JointPlan, side: joint_nodes.JointSide, suffix: str) -> Any | None:
        anchor_node = self.nodes_of[side.anchor]
        carrier = self.carriers.get(id(anchor_node))
        if side.reuse and not (suffix == "joint" and carrier is not None and carrier.joint is not None):
            return anchor_node
        chain = node_frames.child_chain(self.out.node_worlds.get(side.anchor) or side.anchor.matrix_world, side.frame)
        if chain is None:
            return None
        target = anchor_node
        name = joint_nodes.new_node_name(plan, suffix)
        for position, local in enumerate(chain):
            target = self.add_child(target, local, name if position == len(chain) - 1 else f"{name}.unscaled")
        if chain:  # a node the scene does not have: say why (the import predicted it for an imported file)
            self.say.warn(f"object {plan.source.name!r}: {joint_nodes.end_words(suffix)} is written on a new node "
                             f"{target.name!r} under {side.anchor.name!r}: "
                             f"{joint_nodes.why_new_node(plan, side)}", "info")
        return target

    # --- writing -----------------------------------------------------------------------------------

    def _descends(self, node: Any, ancestor: Any) -> bool:
        return any(candidate is ancestor for candidate in self._ancestors(node))

    def _members(self, carrier: Carrier) -> model.Trigger | None:
        """The compound trigger with its members as node slots; members not exported or not inside it left out."""
        trigger = carrier.trigger
        if trigger is None:
            return None
        slots = []
        for member in trigger.nodes:
            target = self.out.trigger_nodes.get(member)
            if target is None:
                self.say.warn(f"object {carrier.obj.name!r}: compound trigger member {member.name!r} is not "
                                 "exported or has no trigger shape; left out")
            elif not self._descends(target, carrier.node) or target is carrier.node:
                self.say.warn(f"object {carrier.obj.name!r}: compound trigger member {member.name!r} is not "
                                 "inside it in the exported hierarchy; left out")
            else:
                slots.append(self.out.node_slot(target))
        if not slots:
            self.say.warn(f"object {carrier.obj.name!r}: its compound trigger has no member left; not exported")
            return None
        return dataclasses.replace(trigger, nodes=tuple(slots))

    def _write(self, carrier: Carrier) -> None:
        trigger = carrier.trigger
        if trigger is not None and trigger.shape is None:
            trigger = self._members(carrier)
        part = carried(carrier, trigger, self._plain_parts)
        if part.is_empty:
            return
        tracker = self._track_animation(carrier, part)
        mark = self.say.mark()  # what writing the node finds is said here
        if tracker is None:
            self.out.gather(Gathered(carrier, part, self.repeats, None, None, mark))
            return
        node_ref = object_node_ref(self.nodes_of, self.out.node_slot)
        extensions, arrays = self.out.writer.preview(part, tracker.ref_into(tracker.refs), node_ref)
        self._guarded_animation(carrier, lambda: self.animation.written(tracker, extensions, arrays))  # as written
        self.out.gather(Gathered(carrier, part, self.repeats, tracker.ref_into(tracker.final_refs), node_ref, mark))

    # --- animation ---------------------------------------------------------------------------------

    def _track_animation(self, carrier: Carrier, part: model.NodePhysics) -> Tracker | None:
        """Keyframed physics of the carrier's object (io/blender/animation/exports/sample.py), or None."""
        animation = self.animation
        if not animation.animates(carrier.obj):
            return None
        return self._guarded_animation(carrier, lambda: animation.track(
            carrier.node, carrier.obj, self.nodes_of.get(carrier.obj), part,
            derive=lambda obj: self._derive(obj, quiet=True)))

    def _guarded_animation(self, carrier: Carrier, step: Callable[[], Any]) -> Any:
        """An animation step; a failure costs the object its animation, never its still physics."""
        try:
            return step()
        except Exception as error:  # the boundary: the still export goes on
            self.say.warn(f"{model.HOOK_FAILURE}object {carrier.obj.name!r}: its physics animation could not "
                             f"be exported ({type(error).__name__}: {error})")
            return None
