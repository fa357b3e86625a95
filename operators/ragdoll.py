"""Ragdolls: make one from the selected armature, and switch it between animated and simulated.

A part per chosen bone (io/blender/bones/rig.py) carries the bone's body; its shape, fitted to the
vertices the bone moves most (or to the bone's length), sits on a child collider object; a joint joins
each part to the part of its nearest chosen parent bone, with swing and twist limits the artist edits
like any joint's. The Blender rigid bodies are built by the import's own build.
"""

from __future__ import annotations

import math

import bpy
from bpy.props import BoolProperty, EnumProperty, FloatProperty
from mathutils import Matrix

from ..io.blender import gltf_compat
from ..io.blender.bones import bone_shapes, rig
from ..io.blender.builder import rigid_body
from ..io.blender.tables import markers
from ..io.omi import model
from ..properties import convert_build, object_physics
from .common import OperatorResult, in_object_mode, plural, scene_of
from .joint_presets import LimitSpec, write_limits

BONE_ITEMS = [
    ('SELECTED', "Selected Bones", "The bones selected in Pose Mode (all deforming bones when none is)", 0),
    ('DEFORM', "Deforming Bones", "Every bone that deforms a mesh", 1),
]
SHAPE_ITEMS = [
    ('CAPSULE', "Capsule", "A capsule along the bone around its vertices", 0),
    ('BOX', "Box", "A box around the bone's vertices, aligned with the bone", 1),
]


def _armature(context: bpy.types.Context) -> bpy.types.Object | None:
    obj = context.active_object
    return obj if obj is not None and obj.type == 'ARMATURE' else None


def _is_selected(armature: bpy.types.Object, bone: bpy.types.Bone) -> bool:
    """Bone selection: on the pose bone from Blender 5.0, on the bone before."""
    pose_bone = rig.pose(armature).bones.get(bone.name)
    if pose_bone is not None and hasattr(pose_bone, "select"):
        return bool(pose_bone.select)
    return bool(getattr(bone, "select", False))


def _chosen_bones(armature: bpy.types.Object, which: str) -> list[str]:
    bones = rig.armature_data(armature).bones
    deform = [bone.name for bone in bones if bone.use_deform]
    if which == 'SELECTED':
        selected = [bone.name for bone in bones if _is_selected(armature, bone)]
        return selected or deform
    return deform


def _nearest_chosen_parent(armature: bpy.types.Object, bone: str, chosen: set[str]) -> str | None:
    """The nearest bone above `bone` that has (or gets) a part."""
    parent = rig.armature_data(armature).bones[bone].parent
    while parent is not None and parent.name not in chosen:
        parent = parent.parent
    return None if parent is None else parent.name


class OMI_OT_make_ragdoll(bpy.types.Operator):
    """Make a ragdoll of the active armature: a body with a fitted shape per bone, joints between parent and
child bones, and the bones following the simulation"""

    bl_idname = "omi.make_ragdoll"
    bl_label = "Make Ragdoll"
    bl_options = {'REGISTER', 'UNDO'}

    bones: EnumProperty(name="Bones", items=BONE_ITEMS, default='SELECTED')
    shape_type: EnumProperty(name="Shape", items=SHAPE_ITEMS, default='CAPSULE')
    total_mass: FloatProperty(name="Total Mass", description="Shared among the bodies by the volume of their shapes",
                              default=70.0, min=0.001, soft_max=1000.0, unit='MASS')
    swing_limit: FloatProperty(name="Swing", description="How far a child bone may swing away from its parent's "
                               "direction, each way", subtype='ANGLE', default=math.radians(45.0), min=0.0,
                               max=math.pi)
    twist_limit: FloatProperty(name="Twist", description="How far a child bone may turn about its own length, each way",
                               subtype='ANGLE', default=math.radians(30.0), min=0.0, max=math.pi)
    simulated: BoolProperty(name="Simulated", default=True,
                            description="Start simulated (else animated: the bodies follow the bones)")

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        if _armature(context) is None:
            cls.poll_message_set("The active object is not an armature")
            return False
        if not in_object_mode(context) and context.mode != 'POSE':
            cls.poll_message_set("Switch to Object Mode or Pose Mode")
            return False
        return True

    def execute(self, context: bpy.types.Context) -> OperatorResult:
        armature = _armature(context)
        assert armature is not None
        chosen = _chosen_bones(armature, self.bones)
        if not chosen:
            self.report({'ERROR'}, f"{armature.name}: no bone to make a body of")
            return {'CANCELLED'}
        if context.mode == 'POSE':
            bpy.ops.object.mode_set(mode='OBJECT')
        old = {part.bone: part.part for part in rig.parts_of(armature)}
        to_node = gltf_compat.exported_axis_change({})  # a part sits at its bone's glTF node frame
        collection = armature.users_collection[0] if armature.users_collection else scene_of(context).collection
        parts: dict[str, bpy.types.Object] = {}
        shapes: dict[str, bone_shapes.BoneShape] = {}
        for bone in chosen:
            rig.unfollow(armature, bone)
            if bone in old:
                _remove_part(old[bone])
            world = rig.pose_world(armature, bone) @ to_node
            shapes[bone] = bone_shapes.fit_bone(armature, bone, world, self.shape_type)
            parts[bone] = _make_part(armature, bone, world, shapes[bone], collection)
        volume = sum(shape.volume for shape in shapes.values()) or 1.0
        for bone, part in parts.items():
            object_physics(part).motion.mass = self.total_mass * shapes[bone].volume / volume
        hosts = {**{bone: part for bone, part in old.items() if bone not in parts}, **parts}  # kept parts join too
        joints = [_make_joint(bone, parent, hosts, self.swing_limit, self.twist_limit)
                  for bone in chosen if (parent := _nearest_chosen_parent(armature, bone, set(hosts))) is not None]
        issues: list[model.Issue] = []
        built = list(dict.fromkeys([*parts.values(), *(child for part in parts.values() for child in part.children),
                                    *joints]))  # a joint hangs under its host part too: built once
        scene = scene_of(context)
        rigid_body.build_rigid_bodies(scene, built, convert_build.SettingsPhysics(scene, issues),
                                      issues)
        for bone, part in parts.items():
            rig.follow_part(armature, bone, part)
        rig.set_simulated(armature, self.simulated)
        fitted = sum(1 for shape in shapes.values() if shape.from_vertices)
        self.report({'INFO'}, f"{armature.name}: ragdoll of {plural(len(parts), 'body')} ({fitted} fitted to their "
                              f"vertices) and {plural(len(joints), 'joint')}")
        return {'FINISHED'}


def _remove_part(part: bpy.types.Object) -> None:
    """The part, what hangs under it (shape, joints, bone target, generated rigid bodies) and the joints of
    other parts connected to it."""
    joined = [obj for obj in bpy.data.objects if object_physics(obj).use_joint
              and object_physics(obj).joint.connected_object == part]
    doomed = {part, *part.children_recursive, *joined, *(child for obj in joined for child in obj.children_recursive)}
    doomed |= {made for obj in list(doomed) for made in markers.made_for(obj)}  # e.g. a joint's constraints
    bpy.data.batch_remove(doomed)


def _make_part(armature: bpy.types.Object, bone: str, world: Matrix, shape: bone_shapes.BoneShape,
               collection: bpy.types.Collection) -> bpy.types.Object:
    part = rig.new_part(bone, world, collection, bone)
    object_physics(part).use_motion = True
    object_physics(part).motion.motion_type = 'DYNAMIC'
    collider = bpy.data.objects.new(f"{bone}.collider", None)
    collider.empty_display_size = 0.05
    collection.objects.link(collider)
    collider.parent = part
    collider.parent_bone = bone  # unused by Blender under an object; the exporter's way to the bone's node
    collider.matrix_basis = Matrix.Translation(shape.center)  # type: ignore[arg-type]  # the newest stubs' Translation takes no Vector
    settings = object_physics(collider)
    settings.use_collider = True
    settings.collider.shape.shape_type = shape.shape_type
    if shape.size is not None:
        settings.collider.shape.size = shape.size
    elif shape.shape_type == 'SPHERE':
        settings.collider.shape.radius = shape.radius
    else:
        settings.collider.shape.radius_top = settings.collider.shape.radius_bottom = shape.radius
        settings.collider.shape.height = shape.mid_height
    return part


def _make_joint(bone: str, parent: str, parts: dict[str, bpy.types.Object], swing: float,
                twist: float) -> bpy.types.Object:
    """A joint under the parent's part, at the child's part frame (its head; +Z along the bone): linear axes
    fixed, swing about X and about Y and twist about Z limited."""
    host, child = parts[parent], parts[bone]
    joint = bpy.data.objects.new(f"{bone}.joint", None)
    joint.empty_display_type = 'ARROWS'
    joint.empty_display_size = 0.1
    for collection in host.users_collection:
        collection.objects.link(joint)
    joint.parent = host
    joint.parent_bone = parent
    joint.matrix_basis = host.matrix_world.inverted_safe() @ child.matrix_world
    settings = object_physics(joint)
    settings.use_joint = True
    settings.joint.connected_object = child
    settings.joint.preset = 'CUSTOM'
    # One limit per turning axis: a range on several axes at once means a cone in the spec, which Blender's
    # constraints cannot hold (they limit each axis); per axis, the file means what Blender simulates.
    write_limits(settings.joint, [LimitSpec('LINEAR', (0, 1, 2), 0.0, 0.0), LimitSpec('ANGULAR', (0,), -swing, swing),
                                  LimitSpec('ANGULAR', (1,), -swing, swing), LimitSpec('ANGULAR', (2,), -twist, twist)])
    return joint


class OMI_OT_ragdoll_simulate(bpy.types.Operator):
    """Switch the active armature's ragdoll between simulated (the bones follow the bodies) and animated (the
bodies follow the bones' animation)"""

    bl_idname = "omi.ragdoll_simulate"
    bl_label = "Simulate Ragdoll"
    bl_options = {'REGISTER', 'UNDO'}

    simulated: BoolProperty(name="Simulated", default=True)

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        armature = _armature(context)
        if armature is None or not rig.parts_of(armature):
            cls.poll_message_set("The active object is not an armature with a ragdoll")
            return False
        return True

    def execute(self, context: bpy.types.Context) -> OperatorResult:
        armature = _armature(context)
        assert armature is not None
        count = rig.set_simulated(armature, self.simulated)
        state = "simulated" if self.simulated else "animated"
        self.report({'INFO'}, f"{armature.name}: {plural(count, 'bone')} {state}")
        return {'FINISHED'}


CLASSES: tuple[type, ...] = (OMI_OT_make_ragdoll, OMI_OT_ragdoll_simulate)
