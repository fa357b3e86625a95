"""The export benchmark's floor: what Blender's glTF exporter alone costs for carrying the physics the add-on
writes, with no work of the add-on's.

A stand-in user extension (this module, enabled in place of the add-on) replays one real export's physics
output: the nodes the add-on adds (joint frames, shape nodes), each node's extensions and the document's,
taken from a file the add-on wrote and rebuilt before each timed export (untimed). It adds the nodes after
the exporter's own and puts the extensions on, where the add-on first finishes them
(gather_gltf_extensions_hook), so the exporter converts, encodes and writes the same JSON: `Replay.check`
says so. floor - off is then what carrying that physics through the exporter's conversion passes costs. The
add-on itself takes its JSON past those passes (io/blender/export/late_json.py), so on - floor can be
negative: the add-on's floor is now the plain export plus its writing of that JSON. The stand-in's own
steps (one walk over the scene's nodes, one dict lookup per node) cost about a millisecond at 2,000 objects.

Collision-only meshes (a convex hull's welded points, written since f2bb772) are replayed as the add-on hands
them to the exporter: glTF meshes holding the written file's bytes, carried in the extensions of the first
node whose shape uses them while the exporter's traversal indexes them (gather_scene_hook), so that they get
the same indices, accessors and buffer bytes.
"""

from __future__ import annotations

import copy
import importlib
import json
import struct
from pathlib import Path
from typing import Any

import bpy

MODULE = __name__
_replaying: list[Replay] = []  # what the stand-in puts on the next export (at most one; see `enable`)


CARRIER_KEY = "__floor_meshes__"  # the extension key carrying replayed meshes through the exporter's traversal


def glb_json(path: Path) -> dict[str, Any]:
    """The JSON chunk of a .glb file."""
    data = path.read_bytes()
    length = struct.unpack_from("<I", data, 12)[0]
    return json.loads(data[20:20 + length])


def glb_binary(path: Path) -> bytes:
    """The binary chunk of a .glb file (b"" without one)."""
    data = path.read_bytes()
    length = struct.unpack_from("<I", data, 12)[0]
    start = 20 + length
    if len(data) < start + 8:
        return b""
    binary_length = struct.unpack_from("<I", data, start)[0]
    return data[start + 8:start + 8 + binary_length]


def _binary_data_class() -> Any:
    """The exporter's BinaryData (its module's name differs between Blender 4.2 and 5.0)."""
    for name in ("io_scene_gltf2.io.exp.binary_data", "io_scene_gltf2.io.exp.gltf2_io_binary_data"):
        try:
            return importlib.import_module(name).BinaryData
        except ImportError:
            continue
    raise ImportError("no BinaryData class in the glTF exporter")


def _used_meshes(node: dict[str, Any], document: dict[str, Any]) -> list[int]:
    """The glTF meshes a node's physics shapes use (OMI: through the document's shapes; KHR: its geometry)."""
    shapes = document.get("extensions", {}).get("OMI_physics_shape", {}).get("shapes", [])
    found = []
    extensions = node.get("extensions", {})
    for part in ("collider", "trigger"):
        omi = extensions.get("OMI_physics_body", {}).get(part, {})
        if isinstance(omi.get("shape"), int) and omi["shape"] < len(shapes):
            shape = shapes[omi["shape"]]
            mesh = shape.get(shape.get("type"), {}).get("mesh")
            if isinstance(mesh, int):
                found.append(mesh)
        khr = extensions.get("KHR_physics_rigid_bodies", {}).get(part, {}).get("geometry", {})
        if isinstance(khr.get("mesh"), int):
            found.append(khr["mesh"])
    return found


class Replay:
    """One export's physics output: what a file with the add-on holds beyond the same file without it."""

    def __init__(self, physics: dict[str, Any], plain: dict[str, Any], binary: bytes = b"") -> None:
        self.physics = physics
        self.binary = binary
        nodes = physics.get("nodes", [])
        plain_names = {node.get("name") for node in plain.get("nodes", [])}
        # collision-only meshes: mesh index -> the first of the exporter's own nodes whose shape uses it
        plain_meshes = {mesh.get("name") for mesh in plain.get("meshes", [])}
        added_meshes = [index for index, mesh in enumerate(physics.get("meshes", []))
                        if mesh.get("name") not in plain_meshes]
        self.mesh_carriers: dict[str, list[int]] = {}
        for mesh in added_meshes:
            carrier = next((node["name"] for node in nodes if node.get("name") in plain_names
                            and mesh in _used_meshes(node, physics)), None)
            if carrier is None:
                raise RuntimeError(f"the floor cannot replay mesh {mesh}: no node of the exporter's own uses it")
            self.mesh_carriers.setdefault(carrier, []).append(mesh)
        added = sorted(index for index, node in enumerate(nodes) if node.get("name") not in plain_names)
        parent_of = {child: node["name"] for node in nodes for child in node.get("children", ())}
        # (parent name, added node's JSON without children or extensions), in the file's order: the add-on
        # appends them after the exporter's own nodes
        self.added: list[tuple[str, dict[str, Any], list[str]]] = [
            (parent_of[index], {key: value for key, value in nodes[index].items()
                                if key not in ("children", "extensions")}, []) for index in added]
        self.node_extensions = {node["name"]: node["extensions"] for node in nodes if node.get("extensions")}
        self.node_names = sorted({name for extensions in self.node_extensions.values() for name in extensions
                                  if name.startswith(("OMI_physics", "KHR_physics", "KHR_implicit"))})
        plain_extensions = plain.get("extensions", {})
        self.document = {name: content for name, content in physics.get("extensions", {}).items()
                         if name not in plain_extensions}
        self.used = [name for name in physics.get("extensionsUsed", []) if name not in plain.get("extensionsUsed", [])]
        self._fresh: tuple[dict[str, Any], dict[str, Any], dict[str, Any]] | None = None
        self._meshes: dict[str, list[Any]] = {}

    def prepare(self) -> None:
        """Build this export's objects before it is timed (the exporter changes what it is given)."""
        gltf_io = importlib.import_module("io_scene_gltf2.io.com.gltf2_io")
        made = {entry["name"]: gltf_io.Node(
            camera=None, children=[], extensions={}, extras=None, matrix=None, mesh=None, name=entry["name"],
            rotation=_floats(entry.get("rotation")), scale=_floats(entry.get("scale")), skin=None,
            translation=_floats(entry.get("translation")), weights=None) for _parent, entry, _children in self.added}
        self._fresh = made, copy.deepcopy(self.node_extensions), copy.deepcopy(self.document)
        self._meshes = {carrier: [self._mesh(gltf_io, index) for index in meshes]
                        for carrier, meshes in self.mesh_carriers.items()}

    def _mesh(self, gltf_io: Any, index: int) -> Any:
        """The written file's mesh `index` as the exporter's objects, its accessors holding the file's bytes."""
        binary_data = _binary_data_class()

        def accessor(number: int | None) -> Any:
            if number is None:
                return None
            entry = self.physics["accessors"][number]
            view = self.physics["bufferViews"][entry["bufferView"]]
            start = view.get("byteOffset", 0)
            data = binary_data(self.binary[start:start + view["byteLength"]], view.get("target"))
            return gltf_io.Accessor(buffer_view=data, byte_offset=None, component_type=entry["componentType"],
                                    count=entry["count"], extensions=None, extras=None,
                                    max=_floats(entry.get("max")), min=_floats(entry.get("min")), name=None,
                                    normalized=None, sparse=None, type=entry["type"])

        mesh = self.physics["meshes"][index]
        primitives = [gltf_io.MeshPrimitive(
            attributes={name: accessor(number) for name, number in primitive["attributes"].items()},
            extensions=None, extras=None, indices=accessor(primitive.get("indices")), material=None,
            mode=primitive.get("mode"), targets=None) for primitive in mesh["primitives"]]
        return gltf_io.Mesh(extensions=None, extras=None, name=mesh.get("name"), primitives=primitives, weights=None)

    def carry_meshes(self, scene: Any) -> None:
        """Put the collision-only meshes on their carrier nodes, for the exporter's traversal to index them."""
        pending = list(scene.nodes or [])
        while pending and self._meshes:
            node = pending.pop()
            meshes = self._meshes.pop(node.name, None)
            if meshes is not None:
                node.extensions = {**(node.extensions or {}), CARRIER_KEY: meshes}
            pending.extend(child for child in node.children or [] if not isinstance(child, int))

    def add_nodes(self, gltf: Any) -> None:
        """The added nodes after the exporter's own, each in its parent's children (as the add-on adds them)."""
        made = self._fresh[0]
        index_of = {node.name: index for index, node in enumerate(gltf.nodes)}
        for parent_name, entry, _children in self.added:
            parent = gltf.nodes[index_of[parent_name]]
            index_of[entry["name"]] = len(gltf.nodes)
            gltf.nodes.append(made[entry["name"]])
            parent.children = [*(parent.children or []), len(gltf.nodes) - 1]

    def finish(self, gltf: Any) -> None:
        self.add_nodes(gltf)
        _made, node_extensions, document = self._fresh
        for node in gltf.nodes:
            extensions = node_extensions.get(node.name)
            if extensions is not None:
                node.extensions = extensions
            elif node.extensions and CARRIER_KEY in node.extensions:
                node.extensions = {key: value for key, value in node.extensions.items() if key != CARRIER_KEY}
        if gltf.extensions is None:
            gltf.extensions = {}
        gltf.extensions.update(document)
        gltf.extensions_used.extend(self.used)

    def check(self, path: Path) -> None:
        """The stand-in must have written the add-on's JSON, or the floor measures something else."""
        if glb_json(path) != self.physics:
            raise RuntimeError("the floor's stand-in extension wrote other JSON than the add-on")


def _floats(values: list[float] | None) -> list[float] | None:
    """A vector read back from the file as the exporter holds it (it writes 1.0 as 1; 4.2 wants floats)."""
    return None if values is None else [float(value) for value in values]


class glTF2ExportUserExtension:
    """Replays what `enable` gave it (see the module text)."""

    def gather_scene_hook(self, gltf_scene: Any, _blender_scene: Any, _export_settings: dict) -> None:
        for replay in _replaying:
            replay.carry_meshes(gltf_scene)

    def gather_gltf_extensions_hook(self, gltf: Any, _export_settings: dict) -> None:
        for replay in _replaying:
            replay.finish(gltf)

    def passthrough_extension_data(self, passthrough: list, _gltf: Any, _export_settings: dict) -> None:
        """Blender 5.2+: the replayed JSON is a written file's, already what the exporter's clean-up makes of
        it, so the stand-in asks for what the add-on asks for (the floor stays the lowest reachable)."""
        for replay in _replaying:
            passthrough.extend(name for name in replay.document if name not in passthrough)
            passthrough.extend(name for name in replay.node_names if name not in passthrough)


def enable(replay: Replay) -> None:
    """Make the stand-in an enabled add-on for the exporter (which looks for its class in the modules of the
    enabled add-ons) and give it its replay, prepared."""
    replay.prepare()
    _replaying[:] = [replay]
    if MODULE not in bpy.context.preferences.addons:
        bpy.context.preferences.addons.new().module = MODULE


def disable() -> None:
    _replaying.clear()
    addon = bpy.context.preferences.addons.get(MODULE)
    if addon is not None:
        bpy.context.preferences.addons.remove(addon)
