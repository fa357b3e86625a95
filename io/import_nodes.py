"""OMI physics for the glTF importer: what the physics needs from the importer's data and objects.

Before the importer makes objects (`ImportPlan.prepare`), the glTF data is adjusted so that the importer
itself makes what the physics needs, with its own mesh code and naming:
- a convex or triangle-mesh shape needs its glTF mesh as a mesh object, even when no node shows it: a
  node without a mesh gets the shape's mesh (its object then holds the collision mesh and is marked as
  a shape mesh); a node with another mesh gets a new child node holding the shape's mesh;
- when Blender rigid bodies are wanted, every body or collider node without a mesh gets a one-triangle
  placeholder mesh, so the importer makes a mesh object (a Blender rigid body must be one); its data
  becomes the exact shape mesh afterwards. Export writes no mesh for these objects (shape meshes).
New nodes and meshes are appended, so the file's own indices keep their meaning.

After the importer made the objects (`ImportPlan.finish`), the settings are written to them with the
PropertyGroup conversion, and the Blender rigid bodies built from the document read (the same model values).
"""

from __future__ import annotations

import base64
import copy
import struct
import sys
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

import bpy

from ..properties import convert, convert_build, library, units
from .blender import import_repair
from .blender.bones import rig_import
from .blender.builder import built_values, inputs, plan, rigid_body, rigid_body_world, vehicle_preview
from .blender.tables import markers
from .omi import model
from .omi.read import reader

_PLACEHOLDER_POSITIONS = (0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0)
_FLOAT = 5126


def document_json(data: Any) -> dict:
    """The parts of the importer's parsed glTF the physics reader looks at, as plain JSON values."""
    document: dict[str, Any] = {"nodes": [import_repair.node_json(node, for_reader=True) for node in data.nodes or []],
                                "meshes": [{"name": mesh.name} for mesh in data.meshes or []]}
    if data.extensions is not None:
        document["extensions"] = data.extensions
    if data.extensions_used is not None:
        document["extensionsUsed"] = data.extensions_used
    generator = getattr(getattr(data, "asset", None), "generator", None)
    if isinstance(generator, str):  # read as a known writer meant its files (omi/read/known_generators.py)
        document["asset"] = {"generator": generator}
    return document


def _at_parent(node: Any) -> bool:
    """Whether a glTF node sits exactly on its parent (identity transform)."""
    identity = (node.translation in (None, [0, 0, 0]) and node.rotation in (None, [0, 0, 0, 1])
                and node.scale in (None, [1, 1, 1]))
    return identity and node.matrix in (None, [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])


def _shape_type(node: model.NodePhysics) -> str | None:
    return None if node.collider is None or node.collider.shape is None else node.collider.shape.type


def _collider_shape(found: inputs.ObjectPhysics | None) -> model.Shape | None:
    collider = None if found is None else found.physics.collider
    return None if collider is None else collider.shape


def _parents(nodes: list) -> dict[int, int]:
    """Child node index -> parent node index."""
    return {child: index for index, node in enumerate(nodes) for child in node.children or []
            if isinstance(child, int)}


def _bone_nodes(nodes: list, skins: list, parents: dict[int, int]) -> set[int]:
    """The nodes Blender's importer makes bones of: each skin's joints and every node between them and the
    skin's armature (their deepest common ancestor, or its parent when that is a joint). A bone holds no mesh,
    so a shape mesh given to one would go to an object the import cannot find by its node."""
    def chain(index: int) -> list[int]:
        found = [index]
        while found[-1] in parents and len(found) <= len(nodes):
            found.append(parents[found[-1]])
        return found

    bones: set[int] = set()
    for skin in skins:
        joints = [joint for joint in skin.joints or [] if isinstance(joint, int) and 0 <= joint < len(nodes)]
        if not joints:
            continue
        chains = [chain(joint) for joint in joints]
        common = [index for index in chains[0] if all(index in other for other in chains[1:])]
        armature = common[0] if common else None
        if armature in joints:
            armature = parents.get(armature)
        for path in chains:
            bones.update(path[:path.index(armature)] if armature in path else path)
    return bones


def _shape_meshes(node: model.NodePhysics) -> list[int]:
    """The glTF mesh indices the node's convex/trimesh shapes use, collider first."""
    found = []
    for part in (node.collider, node.trigger):
        shape = part.shape if part is not None else None
        if shape is not None and shape.type in model.MESH_SHAPE_TYPES and isinstance(shape.mesh, int) \
                and shape.mesh not in found:
            found.append(shape.mesh)
    return found


class ImportPlan:
    """One import's physics: the document read before the objects exist, finished once they do."""

    def __init__(self, doc: model.PhysicsDocument, build_rigid_bodies: bool) -> None:
        self.doc = doc
        self.build_rigid_bodies = build_rigid_bodies
        self.placeholders: set[int] = set()  # nodes given the placeholder mesh
        self.own_shape_mesh: set[int] = set()  # nodes given their shape's mesh (collision-only mesh objects)
        self.collision_nodes: dict[tuple[int, int], int] = {}  # (node, mesh) -> new child node holding the mesh
        self._placeholder_mesh: bpy.types.Mesh | None = None
        self._objects: dict[int, bpy.types.Object] | None = None
        self._child_node: Any = None  # a parsed glTF node of a name and a mesh (`_add_child`)

    @classmethod
    def read(cls, gltf: Any, build_rigid_bodies: bool) -> ImportPlan:
        # the before-hook's structure repair has checked and mended the node tree (import_repair.repair)
        return cls(reader.read_document(document_json(gltf.data), tree_mended=True), build_rigid_bodies)

    # --- before the importer creates objects -----------------------------------------------------------

    def prepare(self, gltf: Any) -> None:
        """Adjust the importer's data so its objects can carry the physics (see the module docstring)."""
        data = gltf.data
        nodes = data.nodes or []
        mesh_count = len(data.meshes or [])
        parents = _parents(nodes)  # before any node is added
        bones = _bone_nodes(nodes, data.skins or [], parents)
        carried = self._carried_by_their_body(nodes, parents)
        placeholder = None
        for index, node in self.doc.nodes.items():
            if not 0 <= index < len(nodes):
                continue
            gltf_node = nodes[index]
            plain = index not in bones and gltf_node.camera is None and \
                "KHR_lights_punctual" not in (gltf_node.extensions or {})
            for mesh in _shape_meshes(node):
                if not 0 <= mesh < mesh_count or (gltf_node.mesh == mesh and index not in bones):
                    continue  # a bone's own mesh goes to an object of the importer's: the shape gets a child
                if gltf_node.mesh is None and plain:
                    gltf_node.mesh = mesh
                    self.own_shape_mesh.add(index)
                else:
                    self.collision_nodes[(index, mesh)] = self._add_child(data, gltf_node, mesh)
            shaped = node.collider is not None and node.collider.shape is not None
            needs_mesh = node.motion is not None or (shaped and index not in carried)
            if self.build_rigid_bodies and needs_mesh and gltf_node.mesh is None and plain:
                if placeholder is None:
                    placeholder = self._add_placeholder_mesh(data)
                gltf_node.mesh = placeholder
                self.placeholders.add(index)

    def _carried_by_their_body(self, nodes: list, parents: dict[int, int]) -> set[int]:
        """Collider nodes whose shape their body's own object will carry: the body's only collider, on a
        node that sits exactly on the body. They need no mesh object of their own."""
        colliders: dict[int, list[int]] = {}
        for index, node in self.doc.nodes.items():
            if node.collider is None or node.collider.shape is None:
                continue
            if node.motion is not None:  # the body's own shape
                colliders.setdefault(index, []).append(index)
                continue
            owner, path = parents.get(index), [index]
            while owner is not None and (owner not in self.doc.nodes or self.doc.nodes[owner].motion is None):
                path.append(owner)
                owner = parents.get(owner) if len(path) <= len(nodes) else None  # a broken file's cycle ends here
            if owner is not None:
                colliders.setdefault(owner, []).append(index)
                if not all(_at_parent(nodes[step]) for step in path):
                    colliders[owner].append(-1)  # off the body's origin: the body is a compound
        return {members[0] for owner, members in colliders.items() if len(members) == 1 and members[0] != owner
                and _shape_type(self.doc.nodes[members[0]]) in model.PRIMITIVE_SHAPE_TYPES}

    def _add_child(self, data: Any, parent: Any, mesh: int) -> int:
        if self._child_node is None:  # the importer's generic parsing, once: each child is a copy
            self._child_node = sys.modules[type(data).__module__].Node.from_dict({"name": "", "mesh": 0})
        child = copy.copy(self._child_node)
        child.name = f"{parent.name or 'Node'} collision mesh"
        child.mesh = mesh
        data.nodes.append(child)
        index = len(data.nodes) - 1
        parent.children = [*(parent.children or []), index]
        return index

    @staticmethod
    def _add_placeholder_mesh(data: Any) -> int:
        """A one-triangle glTF mesh (its buffer inline), for the importer to make mesh objects with."""
        gltf_io = sys.modules[type(data).__module__]
        payload = struct.pack("<9f", *_PLACEHOLDER_POSITIONS)
        uri = "data:application/octet-stream;base64," + base64.b64encode(payload).decode("ascii")
        data.buffers = [*(data.buffers or []), gltf_io.Buffer.from_dict({"byteLength": len(payload), "uri": uri})]
        data.buffer_views = [*(data.buffer_views or []), gltf_io.BufferView.from_dict(
            {"buffer": len(data.buffers) - 1, "byteLength": len(payload)})]
        data.accessors = [*(data.accessors or []), gltf_io.Accessor.from_dict(
            {"bufferView": len(data.buffer_views) - 1, "componentType": _FLOAT, "count": 3, "type": "VEC3",
             "min": [0.0, 0.0, 0.0], "max": [1.0, 1.0, 0.0]})]
        data.meshes = [*(data.meshes or []), gltf_io.Mesh.from_dict(
            {"name": "OMI placeholder", "primitives": [{"attributes": {"POSITION": len(data.accessors) - 1}}]})]
        return len(data.meshes) - 1

    # --- after the importer created the objects ---------------------------------------------------------

    def objects(self, gltf: Any) -> dict[int, bpy.types.Object]:
        """glTF node index -> the object the importer made for it (bones and skipped nodes are absent); asked
        once the importer made its objects, and kept (each later hook asks again)."""
        if self._objects is None:
            self._objects = {}
            for index, vnode in gltf.vnodes.items():
                obj = getattr(vnode, "blender_object", None)
                if isinstance(index, int) and obj is not None:
                    self._objects[index] = obj
        return self._objects

    def finish(self, gltf: Any, bl_scene: bpy.types.Scene, issues: list[model.Issue]) -> list[bpy.types.Object]:
        """Write the settings into the objects, then build the Blender rigid bodies; the objects written."""
        objects = self.objects(gltf)
        self._mark_shape_meshes(objects)
        convert.apply_document_unknown(self.doc, bl_scene)  # the document-level keys kept for export
        bone_parts = rig_import.add_parts(gltf, self.doc, objects, [*self.doc.nodes, *self.collision_nodes.values()],
                                          issues)  # physics on bones gets objects of its own
        written: dict[int, bpy.types.Object] = {}
        with library.remembering():  # the same few materials and filters on many nodes
            for index, node in self.doc.nodes.items():
                obj = objects.get(index)
                if obj is None:
                    issues.append(model.Issue(f"/nodes/{index}", "node has no Blender object (a bone, or not in the "
                                                                 "imported scene): its physics is not imported"))
                    continue
                try:
                    convert.apply_node_to_object(node, obj, scene=bl_scene, resolve_node=objects.get,
                                                 resolve_mesh=self._mesh_resolver(index, objects), issues=issues)
                except Exception as error:  # one bad node must not cost the others their settings
                    issues.append(model.Issue(f"/nodes/{index}", f"object {obj.name!r}: settings not written "
                                                                 f"({type(error).__name__}: {error})", "error"))
                    continue
                written[index] = obj
        for index, obj in written.items():  # a trigger's volume: wire, not rendered, over the scene it detects in
            node = self.doc.nodes[index]
            if node.trigger is not None and node.motion is None and node.collider is None and obj.type == 'MESH':
                markers.show_as_volume(obj)
        built = {obj: self._build_input(index, objects) for index, obj in written.items()}
        # Bodies get their mesh from the build; the other stand-ins show their own shape.
        plan.refresh_shape_meshes((obj, _collider_shape(built.get(obj))) for index in self.placeholders
                                  if (obj := objects.get(index)) is not None and self.doc.nodes[index].motion is None)
        try:
            if self.build_rigid_bodies:
                # the build is fed the document read (objects from elsewhere: their settings as model values)
                others = convert_build.SettingsPhysics(bl_scene)
                rigid_body.build_rigid_bodies(bl_scene, built, lambda obj: built[obj] if obj in built else others(obj),
                                              issues, fresh=True)
                issues.extend(vehicle_preview.preview_vehicles(
                    bl_scene, {obj: self.doc.nodes[index].extensions for index, obj in written.items()},
                    units.settings_path))
            rig_import.tie_parts(bone_parts)  # with or without rigid bodies: the rig is what the export reads
        finally:
            self._drop_placeholder_mesh()
        built_values.mark_in_step(written.values())  # nothing left for the live link (no rigid bodies: asked so)
        rigid_body_world.tuck_away(bl_scene, self._shape_helpers(objects))
        return list(written.values())

    def _shape_helpers(self, objects: Mapping[int, bpy.types.Object]) -> list[bpy.types.Object]:
        """The shape-mesh objects the import made for shape nodes under another object (an offset or scaled
        collider, a collision mesh beside a visible one): wire helpers, kept out of the artist's way. A body's
        own object and a collider with no parent are what the artist works on: they stay in view."""
        helpers = []
        for index in (*self.placeholders, *self.own_shape_mesh, *self.collision_nodes.values()):
            obj, node = objects.get(index), self.doc.nodes.get(index)
            if obj is not None and obj.parent is not None and markers.is_shape_mesh(obj) \
                    and (node is None or node.motion is None):
                helpers.append(obj)
        return helpers

    def _build_input(self, index: int, objects: Mapping[int, bpy.types.Object]) -> inputs.ObjectPhysics:
        """A node's physics as read, its references resolved to the objects the import made."""
        node = self.doc.nodes[index]
        collider, joint = node.collider, node.joint
        if collider is not None and collider.shape is not None and collider.shape.type in model.MESH_SHAPE_TYPES:
            mesh = collider.shape.mesh
            holder = None if mesh is None else self._mesh_resolver(index, objects)(mesh)
            collider = replace(collider, shape=replace(collider.shape, mesh=holder))
        if joint is not None:
            connected = joint.connected_node
            joint = replace(joint, connected_node=objects.get(connected) if isinstance(connected, int) else None)
        if collider is node.collider and joint is node.joint:  # nothing to resolve: the node as read (immutable)
            return inputs.ObjectPhysics(node)
        return inputs.ObjectPhysics(replace(node, collider=collider, joint=joint))

    def _mark_shape_meshes(self, objects: Mapping[int, bpy.types.Object]) -> None:
        for index in self.placeholders:
            obj = objects.get(index)
            if obj is not None and isinstance(obj.data, bpy.types.Mesh):
                self._placeholder_mesh = obj.data
                markers.mark_shape_mesh(obj)
        for index in (*self.own_shape_mesh, *self.collision_nodes.values()):
            obj = objects.get(index)
            if obj is not None and obj.type == 'MESH':
                markers.mark_shape_mesh(obj)

    def _drop_placeholder_mesh(self) -> None:
        mesh = self._placeholder_mesh
        if mesh is not None and mesh.users == 0:
            # Nothing uses it, so nothing needs unlinking: unlinking would scan every ID of the file.
            bpy.data.meshes.remove(mesh, do_unlink=False)

    def _mesh_resolver(self, index: int,
                       objects: Mapping[int, bpy.types.Object]) -> Callable[[model.MeshRef], bpy.types.Object | None]:
        """The node's convex/trimesh mesh references -> the objects holding those meshes."""

        def resolve(mesh: model.MeshRef) -> bpy.types.Object | None:
            child = self.collision_nodes.get((index, mesh))
            if child is not None:
                return objects.get(child)
            return objects.get(index)  # the node holds the mesh itself (its own, or given above)

        return resolve

    def node_name(self, gltf: Any, index: int) -> str | None:
        nodes = gltf.data.nodes or []
        return nodes[index].name if 0 <= index < len(nodes) else None
