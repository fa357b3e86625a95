"""One glTF export's OMI physics: read objects as the exporter gathers them, write their extensions.

The hooks in io/gltf_export.py call, in this order:
- `record(node, obj)` for every object node the exporter gathers;
- `write_scene(scene)` once a scene's nodes are all gathered but not yet indexed: derive each recorded
  object's physics (its OMI settings, or else its Blender rigid body / rigid body constraint), add the
  child nodes that shapes and joint frames need, and write node extensions with `io/omi/write/writer`. Node
  and mesh references are placeholders (`export_parts.NodeSlot`, `MeshSlot`) because nothing has an index yet;
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
from typing import Any

import bpy
from mathutils import Matrix

from ...omi import model
from ...omi.dialects import registry, unknown_keys
from ...omi.dialects.godot import NAME as GODOT_TARGET
from ...omi.dialects.godot_omi import NAME as GODOT_OMI_TARGET
from ...omi.write import writer
from .. import gltf_compat
from ..adopt import peer_findings
from ..animation import static_values
from ..animation.sample import AnimationExport
from ..gc_pause import collector_paused
from ..gravity import scene_gravity
from ..tables import markers
from . import exporter_form, godot_omi_target, godot_target, late_json, respell
from .messages import Messages
from .options import Options
from .output import Output, put
from .parts import MESH_CARRIER_KEY, MeshSlot, NodeSlot, SettingsReader
from .scene import SceneWrite


class PhysicsExport:
    """The physics part of one glTF export (created by the export user extension)."""

    def __init__(self, export_settings: dict, bl_scene: bpy.types.Scene, tagged: SettingsReader) -> None:
        self.settings = export_settings
        self.tagged = tagged
        self.enabled = bool(tagged.export_physics)
        self.dialects: tuple[str, ...] = tuple(getattr(tagged, "export_dialects", (respell.home().name,)))
        self.target: str = str(getattr(tagged, "export_target", respell.home().name.lower()))  # see godot_target
        self._scene = bl_scene
        self._records: list[tuple[Any, bpy.types.Object]] = []
        self._kept_of = getattr(tagged, "kept_extensions", None)
        self._kept: list[tuple[Any, dict[str, Any]]] = []
        # The session's helpers, one job each: what was asked, what goes into the document, the messages, the
        # animated values.
        self.options = Options(export_settings, tagged, self.dialects, bool(tagged.export_rigid_bodies), bl_scene)
        self.output = Output(self.dialects)
        self.messages = Messages(export_settings)
        self.animation = AnimationExport(export_settings, bl_scene, self.warn, cubic=next(
            (known.cubic_channels for known in registry.targets() if known.name.lower() == self.target), True))
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
    def drop_generated(vtree: Any) -> None:
        """Objects the add-on generated for Blender's simulation (markers.GENERATED) never become nodes."""
        for vnode in vtree.nodes.values():
            obj = getattr(vnode, "blender_object", None)
            if obj is not None and markers.is_generated(obj):
                vnode.keep_tag = False

    def hides_any_render_mesh(self, vtree: Any) -> bool:
        """Whether `hides_render_mesh` can say True for an object of the export's tree. When it cannot, the
        export hook drops its per-object mesh check (one Python call per object the exporter gathers)."""
        for vnode in vtree.nodes.values():
            obj = getattr(vnode, "blender_object", None)
            if obj is not None and markers.is_shape_mesh(obj):
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
            kept = self._kept_of(obj) if self._kept_of is not None else None
            if kept:  # extensions of an imported file nobody here reads: written back as they were
                self._kept.append((node, kept))
            if node_world is not None:
                self.output.node_worlds[obj] = node_world

    def write_scene(self, gltf_scene: Any, bl_scene: bpy.types.Scene) -> None:
        """Write the physics of every object gathered for this scene (nodes are still live objects)."""
        records, self._records = self._records, []
        if not self.enabled or not records:
            return
        self.output.meet(records[0][0])
        # animated properties hold the file's static values the import kept (animation/static_values.py)
        with collector_paused(), static_values.held([bl_scene, *(obj for _node, obj in records)]):
            SceneWrite(self.options, self.output, self.messages, self.animation, gltf_scene, bl_scene, records).run()
        self.report(peer_findings.findings(obj for _node, obj in records))

    # --- finishing ---------------------------------------------------------------------------------

    def attach_animation(self, animations: list) -> None:
        """The sampled physics animation into the exporter's gathered animations (gather_gltf_hook)."""
        if self.enabled and self.output.some_node is not None:
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

    def _finish(self, gltf: Any) -> None:
        self._first_new_node = self.output.place_new_nodes(gltf)
        for node, extensions in self.output.late:
            put(node, extensions)
        for node, kept in self._kept:
            node.extensions = node.extensions or {}
            for name, value in kept.items():
                node.extensions.setdefault(name, value)
                if name not in gltf.extensions_used:
                    gltf.extensions_used.append(name)
        node_index = {id(node): index for index, node in enumerate(gltf.nodes)}
        mesh_index = {id(mesh): index for index, mesh in enumerate(gltf.meshes)}
        for node, name, content, obj_name in self.output.pending:
            content.pop(MESH_CARRIER_KEY, None)
            if name == writer.JOINT:
                index = node_index.get(id(content["connectedNode"].node))
                if index is None:
                    self.warn(f"object {obj_name!r}: the joint's connected node was removed by the exporter; "
                              "joint dropped")
                    node.extensions.pop(name, None)
                else:
                    content["connectedNode"] = index
            else:
                self._unit_slots(node, name, content, node_index, obj_name)
            trigger = content.get("trigger") if name == writer.BODY else None
            if trigger and "nodes" in trigger:
                members = [node_index.get(id(slot.node)) for slot in trigger["nodes"]]
                trigger["nodes"] = [index for index in members if index is not None]
                if len(trigger["nodes"]) < len(members):
                    self.warn(f"object {obj_name!r}: compound trigger members were removed by the exporter")
                if not trigger["nodes"]:
                    del content["trigger"]
        for shape in self.output.items_arrays["shapes"]:
            details = shape[shape["type"]]
            slot = details.get("mesh")
            if isinstance(slot, MeshSlot):
                index = mesh_index.get(id(slot.mesh))
                if index is None:
                    self.warn(f"a {shape['type']} shape lost its mesh in the exporter; written without one")
                    del details["mesh"]
                else:
                    details["mesh"] = index
        self._write_document(gltf)
        self.animation.finish(gltf)
        if self.target == GODOT_TARGET:
            self.report(godot_target.apply(gltf, lambda name: self.output.new_node(name, Matrix.Identity(4))))
        elif self.target == GODOT_OMI_TARGET:
            self.report(godot_omi_target.apply(gltf, lambda name: self.output.new_node(name, Matrix.Identity(4))))
        home = respell.home().name  # the spelling the gather hooks wrote; every other one is made from it
        others = [registry.get(name) for name in self.dialects if name != home]
        if others:
            without_home = home not in self.dialects
            animated = self.animation.has_channels()
            for unit in others:
                keep_home = not without_home or animated or unit is not others[-1]
                self.report(self._write_dialect(gltf, unit, node_index, mesh_index, keep_home=keep_home,
                                                separate=animated))
                self.animation.add_spelling(gltf, unit.tables)
            if without_home and animated:
                if self.animation.drop_home_channels():
                    respell.drop_home(gltf)
                else:
                    self.warn(f"some animated values have no {', '.join(unit.name for unit in others)} spelling: "
                              f"the {home} physics is written too, for their channels (an export target with "
                              "both)")

    def _unit_slots(self, node: Any, name: str, content: dict, node_index: dict[int, int], obj_name: str) -> None:
        """An extension unit's node references (e.g. a pilot seat) become indices; one whose node the exporter
        removed is left out, said."""
        for key, value in list(content.items()):
            if isinstance(value, NodeSlot):
                index = node_index.get(id(value.node))
                if index is None:
                    self.warn(f"object {obj_name!r}: {name} {key} names a node the exporter removed; left out")
                    del content[key]
                else:
                    content[key] = index

    def _detach(self, gltf: Any) -> None:
        """Take the finished physics JSON off the exporter's objects, to be written into the encoded document
        (`late_json`), where the exporter can hand that document over; not with extension names inside kept
        keys, which the exporter must meet in its passes to declare them."""
        if self.output.kept_extensions or not gltf_compat.encoded_document_reachable(gltf_compat.package_root(gltf)):
            return
        self._package_root = gltf_compat.package_root(gltf)
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
        """The physics extensions `finish` declared."""
        return tuple(name for name in (*model.ALL_EXTENSIONS, *model.KHR_EXTENSIONS)
                     if name in (gltf.extensions_used or ()))

    def passthrough(self, gltf: Any) -> tuple[str, ...]:
        """The physics extensions the exporter may write as they are, without its clean-up passes (Blender
        5.2+ asks through `passthrough_extension_data`): none unless all of their JSON, in every node and
        the document, takes the clean-up's form in place (`exporter_form.settle`).

        Extension names inside keys kept from an imported file are the exception: the exporter must meet
        them in its passes to keep them in extensionsUsed, so such an export is left to the clean-up.
        """
        if not self.enabled or self.output.kept_extensions or self._detached is not None:
            return ()
        names = self._physics_names(gltf)
        if not names:
            return ()
        contents = [extensions.get(name) for extensions in (node.extensions for node in gltf.nodes or ()) if extensions
                    for name in names if name in extensions]
        contents.extend((gltf.extensions or {}).get(name) for name in names if name in (gltf.extensions or {}))
        settled = all(type(content) is dict and content and exporter_form.settle(content) for content in contents)
        return names if settled else ()

    def _write_dialect(self, gltf: Any, unit: registry.DialectUnit, node_index: dict[int, int],
                       mesh_index: dict[int, int], *, keep_home: bool, separate: bool) -> list[model.Issue]:
        """`unit`'s spelling of what the home spelling holds: each node's written physics, less the parts the
        home spelling lost in `finish` (a joint or trigger whose nodes the exporter removed) or in writing (an
        unusable shape)."""
        physics = []
        for node, part in self.output.written_nodes:
            index = node_index.get(id(node))
            extensions = node.extensions or {}
            body = extensions.get(writer.BODY) or {}
            motion = part.motion if "motion" in body else None
            collider = part.collider if "collider" in body else None
            trigger = part.trigger if "trigger" in body else None
            joint = part.joint if writer.JOINT in extensions else None
            unknown = part.unknown if writer.BODY in extensions else model.NOTHING_UNKNOWN
            unchanged = motion is part.motion and collider is part.collider and trigger is part.trigger \
                and joint is part.joint and unknown is part.unknown  # the common case: no new value to make
            kept = part if unchanged else model.NodePhysics(motion=motion, collider=collider, trigger=trigger,
                                                            joint=joint, unknown=unknown)
            if index is not None and not (kept.is_empty and not kept.unknown):
                physics.append((index, kept))

        def node_ref(value: Any) -> int | None:
            return node_index.get(id(value.node)) if isinstance(value, NodeSlot) else None

        def mesh_ref(value: Any) -> int | None:
            return mesh_index.get(id(value.mesh)) if isinstance(value, MeshSlot) else None

        return respell.write_dialect(gltf, unit, physics, node_ref, mesh_ref, keep_home=keep_home,
                                     separate=separate)

    def _write_document(self, gltf: Any) -> None:
        if gltf.extensions is None:
            gltf.extensions = {}
        placed = self.output.items.by_extension()  # the writer's placement: which extension holds which array
        issues: list[model.Issue] = []
        stored = getattr(self.tagged, "document_unknown", None)  # keys kept from imported files
        for name, kept in (stored(self._scene) if stored is not None else {}).items():
            if name in writer.OMI_EXTENSIONS:
                content = placed.setdefault(name, {})
                writer.put_document_unknown(content, name, kept, issues=issues)
                self.output.kept_extensions |= unknown_keys.extension_names((kept,))
                if not content:
                    del placed[name]
        issues += scene_gravity.write(self._scene, gltf, self.dialects)
        kept_document = getattr(self.tagged, "kept_document_extensions", None)  # extensions nothing here reads
        for name, value in (kept_document(self._scene) if kept_document is not None else {}).items():
            if name not in gltf.extensions:
                gltf.extensions[name] = value
                gltf.extensions_used.append(name)
        self.report(issues)
        gltf.extensions.update(placed)
        used = list(placed)
        home = respell.home().name  # the other dialects drop the home spelling's kept extensions
        kept_names = sorted(self.output.kept_extensions) if home in self.dialects else []
        for name in (*used, *sorted(self.output.node_extensions_used), *kept_names):
            if name not in gltf.extensions_used:
                gltf.extensions_used.append(name)
