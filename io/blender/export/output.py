"""What one export puts into the glTF document, held until the exporter has indexed everything: node and mesh
placeholders, the nodes the physics adds, the model values gathered for each node, and the physics writer
(`io/omi/write/export_writer`) that writes them all once everything is gathered (`write_gathered`).

A helper the export session (`physics.PhysicsExport`) owns; the scene writing (`scene.SceneWrite`) writes
through it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import bpy
from mathutils import Matrix

from ...omi import model
from ...omi.write.export_writer import ExportWriter, MeshSlot, NodeSlot, Ref
from ...omi.write.repeats import Repeats
from .. import gltf_compat
from . import gltf_meshes, node_frames
from .messages import Messages
from .parts import MESH_CARRIER_KEY, Carrier


@dataclass(slots=True)
class Gathered:
    """One node's model values as the scene writing gathered them, to be written with the others."""

    carrier: Carrier
    part: model.NodePhysics
    cache: Repeats  # its scene's cache of repeated values
    ref_of: Callable[[Callable[..., int]], Ref] | None  # an animated node's items (`Tracker.ref_into`)
    node_ref: Callable[[Any], Any] | None  # an animated node's: places a node or an object a unit refers to
    mark: int  # where in the messages its findings go (`Messages.mark`)


class Output:
    """The glTF output of one export's physics (see the module docstring)."""

    def __init__(self, dialects: tuple[str, ...]) -> None:
        self.writer = ExportWriter(dialects)  # every dialect of the target, from the model values placed here
        # Objects whose physics goes on another object's node (a ragdoll part on its bone's node, io/blender/bones):
        # that node's frame, which the object's shapes and joint frames are placed against.
        self.node_worlds: dict[bpy.types.Object, Matrix] = {}
        # Node extensions put on the nodes in `finish` (see `attach`).
        self.late: list[tuple[Any, dict[str, dict]]] = []
        self.carriers: list[Any] = []  # nodes whose extensions carry collision-only meshes (`attach`)
        self.trigger_nodes: dict[bpy.types.Object, Any] = {}
        # Nodes the physics adds (shape and joint frames), (parent, node) in the order made: added to the
        # document after the exporter's own nodes (`place_new_nodes`), unless kept in its tree (`keep_in_tree`).
        self.new_nodes: list[tuple[Any, Any]] = []
        self.gathered: list[Gathered] = []  # written by `write_gathered`, in the order gathered
        self.some_node: Any = None  # any node of the exporter's: its module makes new nodes
        self._gltf_io: Any = None
        self._meshes: gltf_meshes.ShapeMeshes | None = None
        self._mesh_slots: dict[int, MeshSlot] = {}
        self._node_slots: dict[int, NodeSlot] = {}
        self._carrying: set[int] = set()  # ids of the `carriers`

    def meet(self, node: Any) -> None:
        """The first node the exporter gathered: what new nodes and meshes are made like."""
        if self._gltf_io is None:
            self.some_node = node
            self._gltf_io = gltf_compat.gltf_io(node)

    def node_slot(self, node: Any) -> NodeSlot:
        slot = self._node_slots.get(id(node))
        if slot is None:
            slot = self._node_slots[id(node)] = NodeSlot(node)
        return slot

    def mesh_slot(self, mesh: Any) -> MeshSlot:
        slot = self._mesh_slots.get(id(mesh))
        if slot is None:
            slot = self._mesh_slots[id(mesh)] = MeshSlot(len(self._mesh_slots), mesh)
        return slot

    def shape_meshes(self) -> gltf_meshes.ShapeMeshes:
        if self._meshes is None:
            self._meshes = gltf_meshes.ShapeMeshes(self.some_node)
        return self._meshes

    def new_node(self, name: str | None, local: Matrix) -> Any:
        trs = node_frames.trs_to_gltf(local)
        return self._gltf_io.Node(
            camera=None, children=[], extensions={}, extras=None, matrix=None, mesh=None, name=name,
            rotation=None if trs.rotation is None else list(trs.rotation),
            scale=None if trs.scale is None else list(trs.scale), skin=None,
            translation=None if trs.translation is None else list(trs.translation), weights=None,
        )

    def keep_in_tree(self, mesh_carriers: Iterable[Any], parents: dict[int, Any]) -> None:
        """New nodes carrying collision-only meshes go into the exporter's tree now, with their new ancestors
        (`parents`: node id -> parent node), each as a child of its parent: the exporter's traversal must meet
        those meshes to index them."""
        new = {id(node) for _parent, node in self.new_nodes}
        kept: set[int] = set()
        for carrier_node in mesh_carriers:
            node = carrier_node
            while node is not None and id(node) in new and id(node) not in kept:
                kept.add(id(node))
                node = parents.get(id(node))
        if not kept:
            return
        later = []
        for parent, node in self.new_nodes:
            if id(node) in kept:
                parent.children = [*(parent.children or []), node]
            else:
                later.append((parent, node))
        self.new_nodes = later

    def place_new_nodes(self, gltf: Any) -> tuple[int, dict[int, int]]:
        """Append the new nodes to the exporter's indexed nodes, each in its parent's children; the index of
        the first, and every node's index by the node's id. A node whose parent the exporter removed goes
        with it.

        They come after the exporter's traversal, which would otherwise give each an index by searching the
        node list (a cost growing with the scene for every node), and its conversion passes (see late_json)."""
        first = len(gltf.nodes)
        index_of = {id(node): index for index, node in enumerate(gltf.nodes)}
        for parent, node in self.new_nodes:
            parent_index = index_of.get(id(parent))
            if parent_index is None:
                continue
            index_of[id(node)] = len(gltf.nodes)
            gltf.nodes.append(node)
            parent.children = [*(parent.children or []), len(gltf.nodes) - 1]
        self.new_nodes = []
        return first, index_of

    def gather(self, entry: Gathered) -> None:
        """A node's model values, written with the others by `write_gathered`. A node carrying collision-only
        meshes gets them now: the exporter's traversal must meet them to index them (`finish` takes them off)."""
        self.gathered.append(entry)
        carrier = entry.carrier
        if carrier.meshes and (entry.part.collider is not None or entry.part.trigger is not None):
            if carrier.node.extensions is None:
                carrier.node.extensions = {}
            carrier.node.extensions[MESH_CARRIER_KEY] = list(carrier.meshes)
            self.carriers.append(carrier.node)
            self._carrying.add(id(carrier.node))

    def write_gathered(self, say: Messages) -> None:
        """Write every gathered node's home extensions, in the order gathered (so the document-level arrays are
        in that order), saying what writing found where it was gathered. A node carrying meshes gets them
        before the exporter's traversal, the others in `finish`, after it (which would otherwise walk every
        value of every body only to give it back unchanged)."""
        gathered, self.gathered = self.gathered, []
        said = 0
        for entry in gathered:
            carrier, part = entry.carrier, entry.part
            try:
                extensions, issues = self.writer.node(part, entry.cache) \
                    if entry.ref_of is None or entry.node_ref is None else \
                    self.writer.node(part, entry.cache, entry.ref_of(self.writer.ref), entry.node_ref)
            except Exception as error:  # the boundary: bad input must not stop the export
                failure = f"{model.HOOK_FAILURE}object {carrier.obj.name!r}: its physics could not be exported " \
                          f"({error})"
                said += say.insert(entry.mark + said, [model.Issue("", failure)])
                continue
            if issues:
                said += say.insert(entry.mark + said, issues, carrier.obj)
            if entry.ref_of is None and not extensions:
                continue
            self.writer.placed(carrier.node, carrier.obj.name, part, extensions)
            if id(carrier.node) in self._carrying:
                put(carrier.node, extensions)
            else:
                self.late.append((carrier.node, extensions))

    def forget(self) -> None:
        """Drop what only finishing needed (before the exporter converts the whole document: a lower peak)."""
        self.late, self.carriers, self.gathered = [], [], []
        self.writer.forget()
        self._node_slots.clear()


def put(node: Any, extensions: dict[str, dict]) -> None:
    if node.extensions is None:
        node.extensions = {}
    node.extensions.update(extensions)
