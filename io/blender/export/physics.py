"""One glTF export's OMI physics: read objects as the exporter gathers them, write their extensions.

The hooks in io/gltf_export.py call, in this order:
- `record(node, obj)` for every object node the exporter gathers;
- `write_scene(scene)` once a scene's nodes are all gathered but not yet indexed: derive each recorded
  object's physics (its OMI settings, or else its Blender rigid body / rigid body constraint), add the
  child nodes that shapes and joint frames need, and gather the model values for each node;
- `attach_animation(animations)` once every scene is gathered: the export's writer
  (`io/omi/write/export_writer.py`) writes the gathered values in the home dialect, in the order gathered,
  and the sampled channels join the animations. Node and mesh references are placeholders (`NodeSlot`,
  `MeshSlot`) because nothing has an index yet;
- `finish(gltf)` once the exporter has indexed every node and mesh: placeholders become indices, and the
  document-level arrays (shapes, physics materials, collision filters, joints) and extensionsUsed are set.

Why not the exporter's own ChildOfRootExtension and live node references: its deduplication compares
each new item with every earlier one (0.7 s for 5000 distinct shapes, as long as the whole export of
5000 simple objects), an index resolved during traversal goes stale when GPU instancing later removes
nodes, and two nodes referencing each other would recurse. Items are deduplicated by
the writer's `ItemArrays` (by their JSON). The objects' physics are placed by `export_scene`.
"""

from __future__ import annotations

from collections.abc import Iterable
from contextlib import nullcontext
from typing import Any

import bpy
from mathutils import Matrix

from ...omi import model
from ...omi.dialects import registry
from ...omi.write import export_dialects, export_writer
from ...omi.write.export_writer import MeshSlot, NodeSlot
from .. import gltf_compat
from ..adopt import peer_findings
from ..animation import static_values
from ..animation.exports.sample import AnimationExport, Placement
from ..gc_pause import collector_paused
from ..gravity import scene_gravity
from ..tables import markers
from . import exporter_form, joint_nodes, late_json, node_frames, target_form
from .messages import Messages
from .options import Options
from .output import Output, put
from .parts import MESH_CARRIER_KEY, SettingsReader
from .scene import SceneWrite


class PhysicsExport:
    """The physics part of one glTF export (created by the export user extension)."""

    def __init__(self, export_settings: dict, bl_scene: bpy.types.Scene, tagged: SettingsReader) -> None:
        self.settings = export_settings
        self.tagged = tagged
        self.enabled = bool(tagged.export_physics)
        self.dialects: tuple[str, ...] = tuple(getattr(tagged, "export_dialects", (export_writer.home().name,)))
        chosen = str(getattr(tagged, "export_target", export_writer.home().name))
        # the registered target: its form (target_form), how its engine plays animation
        self.target = next((known for known in registry.targets() if known.name.lower() == chosen.lower()), None)
        self._scene = bl_scene
        self._records: list[tuple[Any, bpy.types.Object]] = []
        self._kept_of = getattr(tagged, "kept_extensions", None)
        self._kept: list[tuple[Any, dict[str, Any]]] = []
        # The session's helpers, one job each: what was asked, what goes into the document, the messages, the
        # animated values.
        self.options = Options(export_settings, tagged, self.dialects, bool(tagged.export_rigid_bodies), bl_scene)
        self.output = Output(self.dialects)
        self.messages = Messages(export_settings)
        self.animation = AnimationExport(export_settings, bl_scene, self.warn, placement=Placement(
            node_frames.place_shape, joint_nodes.reversed_settings),
            cubic=self.target is None or self.target.cubic_channels)
        self._collision_meshes: set[bpy.types.Object] | None = None
        self._detached: late_json.Detached | None = None  # the physics JSON, written into the encoded document
        self._package_root = ""
        self._first_new_node = 0  # the index of the first node the physics added (they come last)
        if self.enabled and not export_settings.get("gltf_yup", True):
            self.warn("physics needs the '+Y Up' export option (glTF is Y-up); physics was not exported")
            self.enabled = False
        if self.enabled and export_settings.get("gltf_flatten_obj_hierarchy"):
            self.warn("'Flatten Object Hierarchy' takes colliders out of their bodies and joint frames out of "
                      "theirs; compound bodies, compound triggers and joints will not work in the file")

    # --- messages ----------------------------------------------------------------------------------

    def warn(self, message: str, severity: str = "warning") -> None:
        self.messages.warn(message, severity)

    def report(self, issues: Iterable[model.Issue], obj: bpy.types.Object | None = None) -> None:
        self.messages.report(issues, obj)

    # --- gathering ---------------------------------------------------------------------------------

    @staticmethod
    def drop_generated(vtree: Any) -> bool:
        """Objects the add-on generated for Blender's simulation (markers.GENERATED) never become nodes.
        Returns whether an object of the tree is a physics shape stand-in (markers.SHAPE_MESH), found in the
        same pass (`hides_any_render_mesh`); an object holding no custom property is neither."""
        shape_meshes = False
        for vnode in vtree.nodes.values():
            obj = getattr(vnode, "blender_object", None)
            if obj is None or not obj.keys():
                continue
            if markers.is_generated(obj):
                vnode.keep_tag = False
            if markers.is_shape_mesh(obj):
                shape_meshes = True
        return shape_meshes

    def hides_any_render_mesh(self, shape_meshes: bool) -> bool:
        """Whether `hides_render_mesh` can say True for an object of the export's tree (`shape_meshes`: one is
        a shape stand-in, as `drop_generated` found). When it cannot, the export hook drops its per-object
        mesh check (one Python call per object the exporter gathers)."""
        if shape_meshes:
            return True
        if not self.enabled:
            return False
        if self._collision_meshes is None:
            self._collision_meshes = self.tagged.collision_mesh_objects(bpy.data.objects)
        return bool(self._collision_meshes)

    def hides_render_mesh(self, obj: bpy.types.Object | None) -> bool:
        """True when the object's mesh is not visible geometry: a physics shape stand-in made by the importer
        (markers.SHAPE_MESH), or an untagged object used as another object's collision mesh."""
        if obj is None:
            return False
        if markers.is_shape_mesh(obj):
            return True
        if not self.enabled:
            return False
        if self._collision_meshes is None:
            self._collision_meshes = self.tagged.collision_mesh_objects(bpy.data.objects)
        return obj in self._collision_meshes

    def record(self, node: Any, obj: bpy.types.Object | None, node_world: Matrix | None = None) -> None:
        if self.enabled and obj is not None:
            self._records.append((node, obj))
            if node_world is not None:
                self.output.node_worlds[obj] = node_world

    def write_scene(self, gltf_scene: Any, bl_scene: bpy.types.Scene) -> None:
        """Write the physics of every object gathered for this scene (nodes are still live objects)."""
        records, self._records = self._records, []
        if not self.enabled or not records:
            return
        self.output.meet(records[0][0])
        if self._kept_of is not None:  # extensions of an imported file nobody here reads: written back as they were
            for node, obj in records:
                kept = self._kept_of(obj)
                if kept:
                    self._kept.append((node, kept))
        # animated properties hold the file's static values the import kept (io/blender/animation/static_values.py);
        # a file with no action animates nothing (the look at every object is left out)
        held = static_values.held([bl_scene, *(obj for _node, obj in records)]) if bpy.data.actions else nullcontext()
        with collector_paused(), held:
            SceneWrite(self.options, self.output, self.messages, self.animation, gltf_scene, bl_scene, records).run()
        holds_no_peers = getattr(self.tagged, "holds_no_peers", None)  # objects not looked at for other add-ons'
        self.report(peer_findings.findings((obj for _node, obj in records), holds_no_peers))

    # --- finishing ---------------------------------------------------------------------------------

    def attach_animation(self, animations: list) -> None:
        """The sampled physics animation into the exporter's gathered animations (gather_gltf_hook)."""
        if self.enabled and self.output.some_node is not None:
            self._write_gathered()
            if self.target is not None:  # its form's channel rewrites, on the sampled channels
                self.report(target_form.rewrite_channels(self.animation.data, self.target.form))
            self.animation.attach(animations, self.output.some_node)

    def finish(self, gltf: Any) -> None:
        """Turn placeholders into indices and write the document-level arrays and extensionsUsed; then say
        what the export found, summarised."""
        if not self.enabled:
            self.messages.flush()
            return
        try:
            with collector_paused():  # the KHR spelling allocates per node, as write_scene does
                self._finish(gltf)
                self._detach(gltf)
        finally:  # what only finishing needs goes before the exporter converts the whole document: a lower
            # peak, and less for the full garbage collections during that conversion to walk
            self.output.forget()
            self.messages.flush()

    def _write_gathered(self) -> None:
        """Every gathered node's physics written in the home dialect, once all scenes are gathered (before the
        exporter's traversal, which must meet the meshes of shapes); the animated items then have their index."""
        if self.output.gathered:
            with collector_paused():
                self.output.write_gathered(self.messages)
            self.animation.place_items()

    def _finish(self, gltf: Any) -> None:
        self._write_gathered()  # in case the exporter did not call gather_gltf_hook
        self._first_new_node, node_index = self.output.place_new_nodes(gltf)
        for node, extensions in self.output.late:
            put(node, extensions)
        for node in self.output.carriers:
            node.extensions.pop(MESH_CARRIER_KEY, None)
        for node, kept in self._kept:
            node.extensions = node.extensions or {}
            for name, value in kept.items():
                node.extensions.setdefault(name, value)
                if name not in gltf.extensions_used:
                    gltf.extensions_used.append(name)
        mesh_index = {id(mesh): index for index, mesh in enumerate(gltf.meshes)}
        writer = self.output.writer
        for node, name in writer.resolve(node_index, mesh_index, self.warn):
            node.extensions.pop(name, None)
        self._write_document(gltf)
        self.animation.finish(gltf)
        if self.target is not None and self.target.form:  # what the target changes in the written document
            origin = Matrix.Identity(4)
            self.report(target_form.apply(gltf, self.target.form, lambda name: self.output.new_node(name, origin)))
        others = [registry.get(name) for name in self.dialects if name != writer.home.name]
        if others:
            self._write_others(gltf, others, node_index, mesh_index)

    def _write_others(self, gltf: Any, others: list[registry.DialectUnit], node_index: dict[int, int],
                      mesh_index: dict[int, int]) -> None:
        """The target's dialects besides the home one, from the same model values (`export_dialects`)."""
        writer = self.output.writer
        without_home = writer.home.name not in self.dialects
        animated = self.animation.has_channels()
        physics = export_dialects.surviving(writer.written_nodes, node_index)

        def node_ref(value: Any) -> int | None:
            return node_index.get(id(value.node)) if isinstance(value, NodeSlot) else None

        def mesh_ref(value: Any) -> int | None:
            return mesh_index.get(id(value.mesh)) if isinstance(value, MeshSlot) else None

        for unit in others:
            keep_home = not without_home or animated or unit is not others[-1]
            self.report(export_dialects.write_dialect(gltf, unit, physics, node_ref, mesh_ref,
                                                      keep_home=keep_home, separate=animated))
            self.animation.add_spelling(gltf, unit.tables)
        if without_home and animated:
            if self.animation.drop_home_channels():
                export_dialects.drop_home(gltf)
            else:
                self.warn(f"some animated values have no {', '.join(unit.name for unit in others)} spelling: "
                          f"the {writer.home.name} physics is written too, for their channels (an export "
                          "target with both)")

    def _detach(self, gltf: Any) -> None:
        """Take the finished physics JSON off the exporter's objects, to be written into the encoded document
        (`late_json`), where the exporter can hand that document over; not with extension names inside kept
        keys, which the exporter must meet in its passes to declare them."""
        root = gltf_compat.package_root(gltf)
        if self.output.writer.kept_extensions or not gltf_compat.encoded_document_reachable(root):
            return
        self._package_root = root
        self._detached = late_json.detach(gltf, self._physics_names(gltf), self._first_new_node)

    def encode(self) -> None:
        """Write the detached physics JSON into the document the exporter is about to encode."""
        detached, self._detached = self._detached, None
        if detached is None:
            return
        document = gltf_compat.document_being_encoded(self._package_root)
        if document is None:
            self.warn(f"{model.HOOK_FAILURE}the exporter's finished document was not found; the file has no physics")
            return
        late_json.attach(document, detached)

    @staticmethod
    def _physics_names(gltf: Any) -> tuple[str, ...]:
        """The dialects' physics extensions `finish` declared."""
        return tuple(name for name in export_writer.dialect_names() if name in (gltf.extensions_used or ()))

    def passthrough(self, gltf: Any) -> tuple[str, ...]:
        """The physics extensions the exporter may write as they are, without its clean-up passes (Blender
        5.2+ asks through `passthrough_extension_data`): none unless all of their JSON, in every node and
        the document, takes the clean-up's form in place (`exporter_form.settle`).

        Extension names inside keys kept from an imported file are the exception: the exporter must meet
        them in its passes to keep them in extensionsUsed, so such an export is left to the clean-up.
        """
        if not self.enabled or self.output.writer.kept_extensions or self._detached is not None:
            return ()
        names = self._physics_names(gltf)
        if not names:
            return ()
        contents = [extensions.get(name) for extensions in (node.extensions for node in gltf.nodes or ()) if extensions
                    for name in names if name in extensions]
        contents.extend((gltf.extensions or {}).get(name) for name in names if name in (gltf.extensions or {}))
        settled = all(type(content) is dict and content and exporter_form.settle(content) for content in contents)
        return names if settled else ()

    def _write_document(self, gltf: Any) -> None:
        if gltf.extensions is None:
            gltf.extensions = {}
        issues: list[model.Issue] = []
        stored = getattr(self.tagged, "document_unknown", None)  # keys kept from imported files
        placed = self.output.writer.document(stored(self._scene) if stored is not None else {}, issues)
        world = scene_gravity.from_scene(self._scene)  # the scene's gravity, when it is not the default
        if world is not None:
            for name in self.output.writer.document_units(model.PhysicsDocument(gravity=world), gltf.extensions,
                                                          issues):
                if name not in gltf.extensions_used:
                    gltf.extensions_used.append(name)
        kept_document = getattr(self.tagged, "kept_document_extensions", None)  # extensions nothing here reads
        for name, value in (kept_document(self._scene) if kept_document is not None else {}).items():
            if name not in gltf.extensions:
                gltf.extensions[name] = value
                gltf.extensions_used.append(name)
        self.report(issues)
        gltf.extensions.update(placed)
        for name in self.output.writer.used(placed):
            if name not in gltf.extensions_used:
                gltf.extensions_used.append(name)
