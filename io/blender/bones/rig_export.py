"""Export: a ragdoll part's physics goes on its bone's glTF node, and the rig's own objects are no nodes.

The exporter's tree filter hook calls `RagdollExport.prepare` (the parts of the exported armatures, see
rig.parts_of; parts and bone targets left out of the tree; a part's physics children, a compound's
colliders and joint frames, moved under the bone's vnode, where the exporter gathers objects parented to a
bone); its joint hook asks `part_of` for each bone node, and the physics export records that node with the
part and the frame (`node_world`) its physics is measured from.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import bpy
from mathutils import Matrix

from .. import gltf_compat
from ..tables.markers import BONE_TARGET, is_generated
from . import rig


class RagdollExport:
    """One export's ragdoll parts, by armature and bone name."""

    def __init__(self, export_settings: dict) -> None:
        self.settings = export_settings
        self.parts: dict[tuple[bpy.types.Object, str], rig.BonePart] = {}

    def prepare(self, vtree: Any, warn: Callable[[str], None]) -> None:
        bones = gltf_compat.export_tree_bones(vtree)
        for armature in {armature for armature, _bone in bones}:
            for part in rig.parts_of(armature):
                if (armature, part.bone) in bones:
                    self.parts[(armature, part.bone)] = part
        if not self.parts:
            return
        owners = {part.part: part for part in self.parts.values()}
        for uuid, vnode in list(vtree.nodes.items()):
            obj = getattr(vnode, "blender_object", None)
            if obj is None or getattr(vnode, "blender_bone", None) is not None:  # a bone's vnode names its armature
                continue
            if obj in owners or BONE_TARGET in obj:
                vnode.keep_tag = False
                continue
            owner = owners.get(obj.parent) if obj.parent is not None else None
            if owner is None or is_generated(obj):
                continue
            if obj.parent_bone == owner.bone:  # the exporter finds the bone's node by this name
                gltf_compat.move_under_bone(vtree, uuid, bones[(owner.armature, owner.bone)])
            else:
                warn(f"object {obj.name!r}: a child of the ragdoll part {owner.part.name!r} of bone {owner.bone!r}; "
                     "the bone's node carries the part's physics, but this object is written outside it (parent "
                     "it to the bone, or set its parent bone to the bone's name, to keep it inside)")

    def part_of(self, pose_bone: Any) -> rig.BonePart | None:
        armature = getattr(pose_bone, "id_data", None)
        if armature is None:
            return None
        return self.parts.get((armature, getattr(pose_bone, "name", "")))

    def node_world(self, part: rig.BonePart) -> Matrix:
        """The bone node's frame as the part's physics is measured: the bone's current pose (which the part
        sets, or rides on) in the exporter's bone node axes."""
        bones = part.armature.pose
        assert bones is not None, "an armature object has its pose"
        pose = part.armature.matrix_world @ bones.bones[part.bone].matrix
        return pose @ gltf_compat.exported_axis_change(self.settings)
