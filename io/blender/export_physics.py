"""One glTF export's OMI physics: read objects as the exporter gathers them, write their extensions.

The hooks in io/gltf_export.py call, in this order:
- `record(node, obj)` for every object node the exporter gathers;
- `write_scene(scene)` once a scene's nodes are all gathered but not yet indexed: derive each recorded
  object's physics (its OMI settings, or else its Blender rigid body / rigid body constraint), add the
  child nodes that shapes and joint frames need, and write node extensions with `io/omi/writer`. Node
  and mesh references are placeholders (`_NodeSlot`, `_MeshSlot`) because nothing has an index yet;
- `finish(gltf)` once the exporter has indexed every node and mesh: placeholders become indices, and the
  document-level arrays (shapes, physics materials, collision filters, joints) and extensionsUsed are set.

Why not the exporter's own ChildOfRootExtension and live node references: its deduplication compares
each new item with every earlier one (0.7 s for 5000 distinct shapes, as long as the whole export of
5000 simple objects), an index resolved during traversal goes stale when GPU instancing later removes
nodes, and two nodes referencing each other would recurse. Items are deduplicated here by their JSON.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import bpy
from mathutils import Matrix

from ...properties import convert, object_physics
from ..gc_pause import collector_paused
from ..omi import model, writer
from . import adopt, export_frames, export_joints, export_meshes, gltf_compat, rigid_body

# Collision-only meshes ride in their shape node's extension dict under this key so that the exporter's
# traversal gives them an index (and moves their data into the buffer); finish() removes the key.
_MESH_CARRIER_KEY = "__omi_physics_meshes__"
# The exporter drops empty dicts from its output, but `"collider": {}` (a collider with no shape of its
# own, grouping its children's colliders) means something. `extras` is the one member the exporter keeps
# as it is, and the schema allows it, so the marker is written as `{"extras": {}}` (see `_write`).
# The exporter also drops a shape's empty per-type object, which the schema requires (ERRATA): an
# all-defaults shape states one default value explicitly instead.
_EXPLICIT_DEFAULTS: dict[str, dict[str, Any]] = {
    "box": {"size": list(model.DEFAULT_BOX_SIZE)},
    "sphere": {"radius": model.DEFAULT_RADIUS},
    "capsule": {"height": model.DEFAULT_CAPSULE_HEIGHT},
    "cylinder": {"height": model.DEFAULT_CYLINDER_HEIGHT},
}
_KINDS = ("shapes", "physicsMaterials", "collisionFilters", "physicsJoints")


class _NodeSlot:
    """Stands for a node's index until the exporter has indexed its nodes."""

    __slots__ = ("node",)

    def __init__(self, node: Any) -> None:
        self.node = node


class _MeshSlot:
    """Stands for a mesh's index until the exporter has indexed its meshes."""

    __slots__ = ("mesh",)

    def __init__(self, mesh: Any) -> None:
        self.mesh = mesh


_NO_MESH = object()  # a mesh shape whose mesh could not be made: the writer then drops the shape


class _Items:
    """The document-level arrays, equal items stored once (found by a hash of their text, in O(1)).

    The writer builds every item of a kind with its keys in one fixed order, so `repr` is a canonical text
    of the item (floats print exactly; a mesh placeholder prints as its own identity).
    """

    def __init__(self) -> None:
        self.arrays: dict[str, list[dict]] = {kind: [] for kind in _KINDS}
        self._index: dict[tuple[str, str], int] = {}

    def ref(self, kind: str, item: dict) -> int:
        if kind == "shapes" and not item.get(item["type"]):
            item = {**item, item["type"]: dict(_EXPLICIT_DEFAULTS.get(item["type"], {}))}
        key = (kind, repr(item))
        index = self._index.get(key)
        if index is None:
            index = self._index[key] = len(self.arrays[kind])
            self.arrays[kind].append(item)
        return index


@dataclass
class _Derived:
    """An object's physics for export. The joint is placed apart (it needs frames of its own), so the
    body part of the export reads `physics` without its `joint`."""

    physics: model.NodePhysics
    collider_offset: Matrix | None = None
    trigger_offset: Matrix | None = None
    joint: model.Joint | None = None
    constraint: adopt.ConstraintJoint | None = None


@dataclass
class _Carrier:
    """What one glTF node will carry, and which object it speaks for."""

    node: Any
    obj: bpy.types.Object
    motion: model.Motion | None = None
    collider: model.Collider | None = None
    trigger: model.Trigger | None = None
    joint: model.Joint | None = None
    meshes: list[Any] = field(default_factory=list)


class PhysicsExport:
    """The physics part of one glTF export (created by the export user extension)."""

    def __init__(self, export_settings: dict, bl_scene: bpy.types.Scene) -> None:
        self.settings = export_settings
        options = bl_scene.omi_physics
        self.enabled = bool(options.export_physics)
        self.include_rigid_bodies = bool(options.export_rigid_bodies)
        self._scene = bl_scene
        self._records: list[tuple[Any, bpy.types.Object]] = []
        self._items = _Items()
        # Extensions still holding placeholders or a mesh carrier: (node, extension name, content, object name).
        self._pending: list[tuple[Any, str, dict, str]] = []
        self._node_extensions_used: set[str] = set()
        self._meshes: export_meshes.ShapeMeshes | None = None
        self._mesh_slots: dict[int, _MeshSlot] = {}
        self._node_slots: dict[int, _NodeSlot] = {}
        self._trigger_nodes: dict[bpy.types.Object, Any] = {}
        self._filters: bool | None = None
        self._collision_meshes: set[bpy.types.Object] | None = None
        self._gltf_io: Any = None
        self._some_node: Any = None
        if self.enabled and not export_settings.get("gltf_yup", True):
            self.warn("physics needs the '+Y Up' export option (glTF is Y-up); physics was not exported")
            self.enabled = False
        if self.enabled and export_settings.get("gltf_flatten_obj_hierarchy"):
            self.warn("'Flatten Object Hierarchy' takes colliders out of their bodies and joint frames out of "
                      "theirs; compound bodies, compound triggers and joints will not work in the file")

    # --- messages ----------------------------------------------------------------------------------

    def warn(self, message: str, severity: str = "warning") -> None:
        log = self.settings.get("log")
        text = f"{model.LOG_PREFIX}{message}"
        if log is None:
            return
        if severity == "info":
            log.info(text)
        else:
            log.warning(text, popup=True)

    def report(self, issues: Iterable[model.Issue], obj: bpy.types.Object | None = None) -> None:
        for issue in issues:
            message = issue.message
            if obj is not None and not message.startswith("object "):
                message = f"object {obj.name!r}: {message}"
            self.warn(message, "info" if issue.severity == "info" else "warning")

    # --- gathering ---------------------------------------------------------------------------------

    @staticmethod
    def drop_generated(vtree: Any) -> None:
        """Objects the add-on generated for Blender's simulation (rigid_body.GENERATED) never become nodes."""
        for vnode in vtree.nodes.values():
            obj = getattr(vnode, "blender_object", None)
            if obj is not None and rigid_body.is_generated(obj):
                vnode.keep_tag = False

    def hides_render_mesh(self, obj: bpy.types.Object | None) -> bool:
        """True when the object's mesh is not visible geometry: a physics shape stand-in made by the importer
        (rigid_body.SHAPE_MESH), or an untagged object used as another object's collision mesh."""
        if obj is None:
            return False
        if rigid_body.is_shape_mesh(obj):
            return True
        if not self.enabled:
            return False
        if self._collision_meshes is None:
            self._collision_meshes = _collision_mesh_objects(bpy.data.objects)
        return obj in self._collision_meshes

    def record(self, node: Any, obj: bpy.types.Object | None) -> None:
        if self.enabled and obj is not None:
            self._records.append((node, obj))

    def write_scene(self, gltf_scene: Any, bl_scene: bpy.types.Scene) -> None:
        """Write the physics of every object gathered for this scene (nodes are still live objects)."""
        records, self._records = self._records, []
        if not self.enabled or not records:
            return
        if self._gltf_io is None:
            self._some_node = records[0][0]
            self._gltf_io = gltf_compat.gltf_io(records[0][0])
        with collector_paused():
            _SceneWrite(self, gltf_scene, bl_scene, records).run()

    # --- finishing ---------------------------------------------------------------------------------

    def finish(self, gltf: Any) -> None:
        """Turn placeholders into indices and write the document-level arrays and extensionsUsed."""
        if not self.enabled:
            return
        node_index = {id(node): index for index, node in enumerate(gltf.nodes)}
        mesh_index = {id(mesh): index for index, mesh in enumerate(gltf.meshes)}
        for node, name, content, obj_name in self._pending:
            content.pop(_MESH_CARRIER_KEY, None)
            if name == writer.JOINT:
                index = node_index.get(id(content["connectedNode"].node))
                if index is None:
                    self.warn(f"object {obj_name!r}: the joint's connected node was removed by the exporter; "
                              "joint dropped")
                    node.extensions.pop(name, None)
                else:
                    content["connectedNode"] = index
            trigger = content.get("trigger") if name == writer.BODY else None
            if trigger and "nodes" in trigger:
                members = [node_index.get(id(slot.node)) for slot in trigger["nodes"]]
                trigger["nodes"] = [index for index in members if index is not None]
                if len(trigger["nodes"]) < len(members):
                    self.warn(f"object {obj_name!r}: compound trigger members were removed by the exporter")
                if not trigger["nodes"]:
                    del content["trigger"]
        for shape in self._items.arrays["shapes"]:
            details = shape[shape["type"]]
            slot = details.get("mesh")
            if isinstance(slot, _MeshSlot):
                index = mesh_index.get(id(slot.mesh))
                if index is None:
                    self.warn(f"a {shape['type']} shape lost its mesh in the exporter; written without one")
                    del details["mesh"]
                else:
                    details["mesh"] = index
        self._write_document(gltf)

    def _write_document(self, gltf: Any) -> None:
        arrays = self._items.arrays
        if gltf.extensions is None:
            gltf.extensions = {}
        used = []
        if arrays["shapes"]:
            gltf.extensions[writer.SHAPE] = {"shapes": arrays["shapes"]}
            used.append(writer.SHAPE)
        body = {kind: arrays[kind] for kind in ("physicsMaterials", "collisionFilters") if arrays[kind]}
        if body:
            gltf.extensions[writer.BODY] = body
            used.append(writer.BODY)
        if arrays["physicsJoints"]:
            gltf.extensions[writer.JOINT] = {"physicsJoints": arrays["physicsJoints"]}
            used.append(writer.JOINT)
        for name in (*used, *sorted(self._node_extensions_used)):
            if name not in gltf.extensions_used:
                gltf.extensions_used.append(name)

    # --- shared helpers for _SceneWrite --------------------------------------------------------------

    def filters_needed(self) -> bool:
        if self._filters is None:
            self._filters = adopt.filters_needed(self._scene)
        return self._filters

    def node_slot(self, node: Any) -> _NodeSlot:
        slot = self._node_slots.get(id(node))
        if slot is None:
            slot = self._node_slots[id(node)] = _NodeSlot(node)
        return slot

    def mesh_slot(self, mesh: Any) -> _MeshSlot:
        slot = self._mesh_slots.get(id(mesh))
        if slot is None:
            slot = self._mesh_slots[id(mesh)] = _MeshSlot(mesh)
        return slot

    def shape_meshes(self) -> export_meshes.ShapeMeshes:
        if self._meshes is None:
            self._meshes = export_meshes.ShapeMeshes(self._some_node)
        return self._meshes

    def new_node(self, name: str, local: Matrix) -> Any:
        trs = export_frames.trs_to_gltf(local)
        return self._gltf_io.Node(
            camera=None, children=[], extensions={}, extras=None, matrix=None, mesh=None, name=name,
            rotation=None if trs.rotation is None else list(trs.rotation),
            scale=None if trs.scale is None else list(trs.scale), skin=None,
            translation=None if trs.translation is None else list(trs.translation), weights=None,
        )

    def attach(self, carrier: _Carrier, extensions: dict[str, dict]) -> None:
        """Put node-level extensions on the node as plain JSON dicts (the exporter traverses and writes them
        as they are; extensionsUsed is completed in `finish`), remembering those that hold placeholders."""
        node = carrier.node
        if node.extensions is None:
            node.extensions = {}
        for name, content in extensions.items():
            node.extensions[name] = content
            self._node_extensions_used.add(name)
            trigger = content.get("trigger")
            if name == writer.JOINT or _MESH_CARRIER_KEY in content or (trigger is not None and "nodes" in trigger):
                self._pending.append((node, name, content, carrier.obj.name))

    @property
    def items(self) -> _Items:
        return self._items

    @property
    def trigger_nodes(self) -> dict[bpy.types.Object, Any]:
        return self._trigger_nodes


def _collision_mesh_objects(objects: Iterable[bpy.types.Object]) -> set[bpy.types.Object]:
    """Untagged objects that a tagged object's convex/trimesh shape uses as its collision mesh."""
    used: set[bpy.types.Object] = set()
    for obj in objects:
        settings = getattr(obj, "omi_physics", None)
        if settings is None:
            continue
        for enabled, part in ((settings.use_collider, settings.collider), (settings.use_trigger, settings.trigger)):
            if enabled and not part.is_compound and part.shape.mesh_source == 'OBJECT':
                mesh_object = part.shape.mesh_object
                if mesh_object is not None and mesh_object is not obj:
                    used.add(mesh_object)
    return {obj for obj in used if not convert.is_tagged(obj)}


class _SceneWrite:
    """Writes the physics of one scene's gathered objects (one `PhysicsExport.write_scene` call)."""

    def __init__(self, export: PhysicsExport, gltf_scene: Any, bl_scene: bpy.types.Scene,
                 records: list[tuple[Any, bpy.types.Object]]) -> None:
        self.export = export
        self.bl_scene = bl_scene
        self.records = records
        self.parents: dict[int, Any] = {}
        self.objects_of: dict[int, bpy.types.Object] = {}
        self.nodes_of: dict[bpy.types.Object, Any] = {}
        self.carriers: dict[int, _Carrier] = {}
        self.derived: dict[bpy.types.Object, _Derived | None] = {}
        self.depsgraph = bpy.context.evaluated_depsgraph_get()
        for root in gltf_scene.nodes or []:
            self._index_tree(root, None)

    def _index_tree(self, root: Any, parent: Any) -> None:
        stack = [(root, parent)]
        while stack:
            node, node_parent = stack.pop()
            self.parents[id(node)] = node_parent
            stack.extend((child, node) for child in node.children or [] if not isinstance(child, int))

    def run(self) -> None:
        for node, obj in self.records:
            self.objects_of[id(node)] = obj
            self.nodes_of.setdefault(obj, node)
            if obj not in self.derived:
                self.derived[obj] = self._guarded(obj, self._derive, obj)
        for node, obj in self.records:
            derived = self.derived[obj]
            if derived is not None:
                self._guarded(obj, self._place_body, node, obj, derived)
        for node, obj in self.records:
            derived = self.derived[obj]
            if derived is not None and (derived.joint is not None or derived.constraint is not None) \
                    and self.nodes_of.get(obj) is node:
                self._guarded(obj, self._place_joint, node, obj, derived)
        for carrier in self.carriers.values():
            self._guarded(carrier.obj, self._write, carrier)

    def _guarded(self, obj: bpy.types.Object, function, *args) -> Any:
        """Run one object's step; a failure skips that object's physics and is reported, never raised."""
        try:
            return function(*args)
        except Exception as error:  # the boundary: bad input must not stop the export
            self.export.warn(f"{model.HOOK_FAILURE}object {obj.name!r}: its physics could not be exported ({error})")
            return None

    # --- deriving ----------------------------------------------------------------------------------

    def _derive(self, obj: bpy.types.Object) -> _Derived | None:
        issues: list[model.Issue] = []
        try:
            if convert.is_tagged(obj):
                return self._derive_tagged(obj, self.bl_scene, issues)
            if not self.export.include_rigid_bodies:
                return None
            body = None
            if obj.rigid_body is not None:
                body = adopt.rigid_body_physics(obj, self.depsgraph, issues, with_filter=self.export.filters_needed())
            constraint = adopt.constraint_joint(obj, issues) if obj.rigid_body_constraint is not None else None
            if body is None and constraint is None:
                return None
            return _Derived(body or model.NodePhysics(), constraint=constraint)
        finally:
            self.export.report(issues, obj)

    @staticmethod
    def _derive_tagged(obj: bpy.types.Object, bl_scene: bpy.types.Scene, issues: list[model.Issue]) -> _Derived:
        physics = convert.node_from_object(obj, issues, bl_scene)
        settings = object_physics(obj)
        collider_offset = trigger_offset = None
        if physics.collider is not None and physics.collider.shape is not None:
            collider_offset = convert.shape_offset_matrix(settings.collider.shape)
        if physics.trigger is not None and physics.trigger.shape is not None:
            trigger_offset = convert.shape_offset_matrix(settings.trigger.shape)
        return _Derived(physics, collider_offset, trigger_offset, physics.joint)

    # --- bodies and shapes -------------------------------------------------------------------------

    def carrier(self, node: Any, obj: bpy.types.Object) -> _Carrier:
        carrier = self.carriers.get(id(node))
        if carrier is None:
            carrier = self.carriers[id(node)] = _Carrier(node, obj)
        return carrier

    def add_child(self, parent: Any, local: Matrix, name: str) -> Any:
        child = self.export.new_node(name, local)
        if parent.children is None:
            parent.children = []
        parent.children.append(child)
        self.parents[id(child)] = parent
        return child

    def _place_body(self, node: Any, obj: bpy.types.Object, derived: _Derived) -> None:
        physics = derived.physics
        if physics.motion is not None:
            self.carrier(node, obj).motion = physics.motion
        if physics.collider is not None:
            self._place_part(node, obj, physics.collider, derived.collider_offset, "collider")
        if physics.trigger is not None:
            target = self._place_part(node, obj, physics.trigger, derived.trigger_offset, "trigger")
            if target is not None:
                self.export.trigger_nodes.setdefault(obj, target)

    def _place_part(self, node: Any, obj: bpy.types.Object, part: model.Collider | model.Trigger,
                    offset: Matrix | None, role: str) -> Any | None:
        """Put a collider or trigger (`role`) on the node that carries its shape; that node, None when the
        shape cannot be exported."""
        placed = self._place_shape(node, obj, part.shape, offset, role)
        if placed is None:
            return None
        target, shape = placed
        written = part if shape is part.shape else dataclasses.replace(part, shape=shape)
        setattr(self.carrier(target, obj), role, written)
        return target

    def _place_shape(self, node: Any, obj: bpy.types.Object, shape: model.Shape | None, offset: Matrix | None,
                     role: str) -> tuple[Any, model.Shape | None] | None:
        """(node that carries the shape, shape as written); None when it cannot be exported."""
        if shape is None:
            return node, None
        placement = export_frames.place_shape(shape, obj.matrix_world, offset)
        if placement is None:
            self.export.warn(f"object {obj.name!r}: it is scaled to zero, so its {role} has no volume; not exported")
            return None
        if placement.approximation:
            self.export.warn(f"object {obj.name!r}: {role} approximated: {placement.approximation}")
        target = node
        for position, local in enumerate(placement.chain):
            last = position == len(placement.chain) - 1
            target = self.add_child(target, local, f"{obj.name}.{role}" if last else f"{obj.name}.{role}.unscaled")
        written = placement.shape
        if written.type in model.MESH_SHAPE_TYPES:
            written = dataclasses.replace(written, mesh=self._shape_mesh(written.mesh, obj, node, target))
        return target, written

    def _shape_mesh(self, ref: model.MeshRef, obj: bpy.types.Object, node: Any, target: Any) -> Any:
        """A mesh slot for a convex/trimesh shape of `obj` (whose node is `node`) carried by `target`."""
        source, evaluated = (ref.object, ref.evaluated) if isinstance(ref, adopt.RigidBodyMesh) else (ref, True)
        if not isinstance(source, bpy.types.Object):
            return _NO_MESH
        unmodified = evaluated or not any(modifier.show_viewport for modifier in source.modifiers)
        if target is node and source == obj and unmodified \
                and export_meshes.render_mesh_is_shape_mesh(node, source, self.export.settings):
            return self.export.mesh_slot(node.mesh)
        meshes = self.export.shape_meshes()
        mesh = meshes.mesh_for(export_meshes.MeshRequest(source, evaluated), self.depsgraph)
        if mesh is None:
            self.export.warn(f"object {obj.name!r}: the mesh {source.name!r} of its collision shape has no "
                             "triangles; shape not exported")
            return _NO_MESH
        self.carrier(target, obj).meshes.extend(meshes.take_new())
        return self.export.mesh_slot(mesh)

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
        return node.mesh is None and node.camera is None and not busy and obj.type == 'EMPTY'

    def _place_joint(self, node: Any, obj: bpy.types.Object, derived: _Derived) -> None:
        if derived.joint is not None:
            connected = derived.joint.connected_node
            plan = export_joints.plan_from_settings(obj, derived.joint, owns_node=self._owns_node(node, obj),
                                                    body_of=self.body_of)
        else:
            connected = derived.constraint.object2
            plan = export_joints.plan_from_constraint(obj, derived.constraint)
        for end in (plan.joint_side.anchor, connected):
            if end not in self.nodes_of:
                self.export.warn(f"object {obj.name!r}: its joint is connected to {end.name!r}, which is not "
                                 "exported (selection, visibility or collection options); joint dropped")
                return
        plan = export_joints.oriented(plan, self.is_dynamic)
        frames = [self._joint_frame(plan, side, suffix)
                  for side, suffix in ((plan.joint_side, "joint"), (plan.connected_side, "connected"))]
        if frames[0] is None or frames[1] is None:
            self.export.warn(f"object {obj.name!r}: a body of its joint is scaled to zero; joint dropped")
            return
        joint_node, connected_node = frames
        for end, frame_node in ((plan.joint_side.anchor, joint_node), (plan.connected_side.anchor, connected_node)):
            if self.body_node(frame_node) is None:
                self.export.warn(f"object {obj.name!r}: its joint end at {end.name!r} is not inside a physics "
                                 "body; engines need a body on both sides")
        self.carrier(joint_node, obj).joint = model.Joint(plan.settings, self.export.node_slot(connected_node),
                                                          plan.enable_collision)

    def _joint_frame(self, plan: export_joints.JointPlan, side: export_joints.JointSide, suffix: str) -> Any | None:
        anchor_node = self.nodes_of[side.anchor]
        carrier = self.carriers.get(id(anchor_node))
        if side.reuse and not (suffix == "joint" and carrier is not None and carrier.joint is not None):
            return anchor_node
        chain = export_frames.child_chain(side.anchor.matrix_world, plan.frame)
        if chain is None:
            return None
        target = anchor_node
        for position, local in enumerate(chain):
            last = position == len(chain) - 1
            name = f"{plan.source.name}.{suffix}" if last else f"{plan.source.name}.{suffix}.unscaled"
            target = self.add_child(target, local, name)
        return target

    # --- writing -----------------------------------------------------------------------------------

    def _descends(self, node: Any, ancestor: Any) -> bool:
        return any(candidate is ancestor for candidate in self._ancestors(node))

    def _members(self, carrier: _Carrier) -> model.Trigger | None:
        """The compound trigger with its members as node slots; members not exported or not inside it left out."""
        trigger = carrier.trigger
        slots = []
        for member in trigger.nodes:
            target = self.export.trigger_nodes.get(member)
            if target is None:
                self.export.warn(f"object {carrier.obj.name!r}: compound trigger member {member.name!r} is not "
                                 "exported or has no trigger shape; left out")
            elif not self._descends(target, carrier.node) or target is carrier.node:
                self.export.warn(f"object {carrier.obj.name!r}: compound trigger member {member.name!r} is not "
                                 "inside it in the exported hierarchy; left out")
            else:
                slots.append(self.export.node_slot(target))
        if not slots:
            self.export.warn(f"object {carrier.obj.name!r}: its compound trigger has no member left; not exported")
            return None
        return dataclasses.replace(trigger, nodes=tuple(slots))

    def _write(self, carrier: _Carrier) -> None:
        trigger = carrier.trigger
        if trigger is not None and trigger.shape is None:
            trigger = self._members(carrier)
        part = model.NodePhysics(motion=carrier.motion, collider=carrier.collider, trigger=trigger,
                                 joint=carrier.joint)
        if part.is_empty:
            return
        issues: list[model.Issue] = []
        extensions = writer.node_extensions(part, self.export.items.ref, _node_ref, _mesh_ref, issues)
        self.export.report(issues, carrier.obj)
        body = extensions.get(writer.BODY)
        if body is not None:
            if body.get("collider") == {}:
                body["collider"] = {"extras": {}}
            if carrier.meshes:
                body[_MESH_CARRIER_KEY] = list(carrier.meshes)
        self.export.attach(carrier, extensions)


def _node_ref(value: Any) -> Any:
    return value if isinstance(value, _NodeSlot) else None


def _mesh_ref(value: Any) -> Any:
    return value if isinstance(value, _MeshSlot) else None
