"""What one export puts into the glTF document, held until the exporter has indexed everything: node and mesh
placeholders, node extensions (some put on at once, most in `finish`), the document-level items, each node's
physics as written (for the KHR spelling) and the extensions kept inside unknown keys.

A helper the export session (`physics.PhysicsExport`) owns; the scene writing (`scene.SceneWrite`) and the
shared JSON (`shared_json`) write through it.
"""

from __future__ import annotations

from typing import Any

import bpy
from mathutils import Matrix

from ...omi import model
from ...omi.dialects import registry, unknown_keys
from ...omi.write import writer
from .. import gltf_compat
from . import gltf_meshes, node_frames
from .parts import MESH_CARRIER_KEY, Carrier, MeshSlot, NodeSlot


class Output:
    """The glTF output of one export's physics (see the module docstring)."""

    def __init__(self, dialects: tuple[str, ...]) -> None:
        self.dialects = dialects
        # Objects whose physics goes on another object's node (a ragdoll part on its bone's node, io/blender/bones):
        # that node's frame, which the object's shapes and joint frames are placed against.
        self.node_worlds: dict[bpy.types.Object, Matrix] = {}
        self.items = writer.ItemArrays(explicit_empty_shapes=True)  # the exporter drops empty dicts
        # Extensions still holding placeholders or a mesh carrier: (node, extension name, content, object name).
        self.pending: list[tuple[Any, str, dict, str]] = []
        # Node extensions put on the nodes in `finish` (see `attach`).
        self.late: list[tuple[Any, dict[str, dict]]] = []
        # Each node's physics as written in OMI, for the KHR spelling (only when KHR is exported).
        self.written_nodes: list[tuple[Any, model.NodePhysics]] = []
        self.node_extensions_used: set[str] = set()
        self.kept_extensions: set[str] = set()  # extension names inside kept unknown keys (extensionsUsed)
        self.trigger_nodes: dict[bpy.types.Object, Any] = {}
        self.some_node: Any = None  # any node of the exporter's: its module makes new nodes
        self._gltf_io: Any = None
        self._meshes: gltf_meshes.ShapeMeshes | None = None
        self._mesh_slots: dict[int, MeshSlot] = {}
        self._node_slots: dict[int, NodeSlot] = {}

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

    def new_node(self, name: str, local: Matrix) -> Any:
        trs = node_frames.trs_to_gltf(local)
        return self._gltf_io.Node(
            camera=None, children=[], extensions={}, extras=None, matrix=None, mesh=None, name=name,
            rotation=None if trs.rotation is None else list(trs.rotation),
            scale=None if trs.scale is None else list(trs.scale), skin=None,
            translation=None if trs.translation is None else list(trs.translation), weights=None,
        )

    def attach(self, carrier: Carrier, extensions: dict[str, dict]) -> None:
        """Put node-level extensions on the node as plain JSON dicts (extensionsUsed is completed in `finish`),
        remembering those that hold placeholders.

        Only a node whose dict carries collision-only meshes gets them now: the exporter's traversal must
        meet those meshes to index them. The others are put on in `finish`, after that traversal, which
        would otherwise walk every value of every body only to give it back unchanged.
        """
        for name, content in extensions.items():
            self.node_extensions_used.add(name)
            trigger = content.get("trigger")
            if name == writer.JOINT or MESH_CARRIER_KEY in content or (trigger is not None and "nodes" in trigger) \
                    or any(isinstance(value, NodeSlot) for value in content.values()):  # a unit's node reference
                self.pending.append((carrier.node, name, content, carrier.obj.name))
        if carrier.meshes:
            put(carrier.node, extensions)
        else:
            self.late.append((carrier.node, extensions))

    def written(self, node: Any, part: model.NodePhysics) -> None:
        """Remember a node's physics as written in the home dialect, for the target's other spellings in `finish`."""
        if any(name != registry.default().name for name in self.dialects):
            self.written_nodes.append((node, part))

    def note_kept(self, part: model.NodePhysics) -> None:
        """Remember the extensions used inside an object's kept unknown keys (they go into extensionsUsed)."""
        for _where, _what, kept in unknown_keys.node_items(part):
            self.kept_extensions |= unknown_keys.extension_names((kept,))

    def ref(self, kind: str, item: dict, *, unique: bool = False) -> int:
        """The index of a document-level item (equal items stored once); `unique` (an animated item) gets an
        entry of its own that no other item shares."""
        if unique:
            self.items.arrays[kind].append(writer.explicit_shape(item) if kind == "shapes" else item)
            return len(self.items.arrays[kind]) - 1
        return self.items.ref(kind, item)

    @property
    def items_arrays(self) -> dict[str, list[dict]]:
        return self.items.arrays

    def forget(self) -> None:
        """Drop what only finishing needed (before the exporter converts the whole document: a lower peak)."""
        self.late, self.pending, self.written_nodes = [], [], []
        self._node_slots.clear()


def put(node: Any, extensions: dict[str, dict]) -> None:
    if node.extensions is None:
        node.extensions = {}
    node.extensions.update(extensions)
