"""Make Ragdoll (issue #23): a ragdoll made on a test armature simulates, switches between animated and
simulated, and exports, re-imports and simulates the same way in both dialects."""

from __future__ import annotations

import math

import bpy
import export_support
import import_support
import pytest
import ragdoll_files
from mathutils import Vector

BONES = ("Hips", "Spine", "Head")
FRAMES = 60
SAME_RUN = 0.01  # m: the re-imported ragdoll runs through the same Bullet steps from the same start


@pytest.fixture
def figure(clean_scene, omi_addon, rigid_body, omi):
    armature, mesh, ground = ragdoll_files.make_lying_figure()
    rigid_body.build_rigid_bodies(bpy.context.scene, [ground], omi("properties.convert_build").SettingsPhysics(
        bpy.context.scene), [])
    bpy.context.view_layer.objects.active = armature
    armature.select_set(True)
    return armature, mesh


def _make(shape_type: str = 'CAPSULE', **options) -> None:
    assert bpy.ops.omi.make_ragdoll(bones='DEFORM', shape_type=shape_type, **options) == {'FINISHED'}


def _positions() -> dict[str, Vector]:
    return {bone: bpy.data.objects[bone].matrix_world.translation.copy() for bone in BONES}


def test_make_ragdoll_fits_bodies_and_joins_them(figure, markers, omi):
    armature, _mesh = figure
    _make(total_mass=10.0)
    parts = {bone: bpy.data.objects[bone] for bone in BONES}
    assert all(part[markers.BONE_PART] == bone for bone, part in parts.items())
    assert sum(part.omi_physics.motion.mass for part in parts.values()) == pytest.approx(10.0)
    for bone, part in parts.items():
        assert part.rigid_body is not None and part.rigid_body.type == 'ACTIVE'
        shape = bpy.data.objects[f"{bone}.collider"].omi_physics.collider.shape
        if bone == "Head":  # its vertices span 0.25 m, less than the capsule's 0.28 m width: a ball
            assert shape.shape_type == 'SPHERE'
            assert shape.radius == pytest.approx(math.sqrt(0.125 ** 2 + 0.02), abs=1e-3)  # around the last rings
            continue
        assert shape.shape_type == 'CAPSULE'
        assert shape.radius_top == pytest.approx(0.1 * math.sqrt(2.0), abs=1e-4)  # the tube's square, corner to corner
        follow = armature.pose.bones[bone].constraints["OMI ragdoll"]
        assert follow.type == 'COPY_TRANSFORMS' and follow.target.parent == part and not follow.mute
    for child, parent in (("Spine", "Hips"), ("Head", "Spine")):
        joint = bpy.data.objects[f"{child}.joint"]
        assert joint.parent == parts[parent] and joint.omi_physics.joint.connected_object == parts[child]
        limits = {(limit.kind, limit.axes): (limit.min_angular, limit.max_angular)
                  for limit in joint.omi_physics.joint.limits}
        assert limits[('ANGULAR', (0,))] == pytest.approx((-math.radians(45.0), math.radians(45.0)))
        assert limits[('ANGULAR', (1,))] == pytest.approx((-math.radians(45.0), math.radians(45.0)))
        assert limits[('ANGULAR', (2,))] == pytest.approx((-math.radians(30.0), math.radians(30.0)))
        assert ('LINEAR', (0, 1, 2)) in limits
        assert len(import_support.constraints_of(joint)) == 1  # built as one Blender rigid body constraint
        # the joint's limits list names them as Make Ragdoll does, with their values, without opening a row
        labels = [omi("panels.lists").limit_label(limit) for limit in joint.omi_physics.joint.limits]
        assert labels == ["Linear XYZ fixed", "Swing X -45° to 45°", "Swing Y -45° to 45°", "Twist -30° to 30°"]


def test_made_ragdoll_falls_and_the_skin_follows(figure):
    _armature, mesh = figure
    _make()
    rest = {bone: bpy.data.objects[bone].matrix_world.copy() for bone in BONES}
    groups = {group.index: group.name for group in mesh.vertex_groups}
    locals_ = [(groups[vertex.groups[0].group], rest[groups[vertex.groups[0].group]].inverted() @ vertex.co)
               for vertex in mesh.data.vertices]
    import_support.step(FRAMES)
    landed = _positions()
    assert all(position.z < 0.3 for position in landed.values()), landed  # fell 1 m onto the ground
    depsgraph = bpy.context.evaluated_depsgraph_get()
    evaluated = mesh.evaluated_get(depsgraph)
    deformed = evaluated.to_mesh()
    try:
        errors = [(evaluated.matrix_world @ vertex.co - bpy.data.objects[bone].matrix_world @ local).length
                  for vertex, (bone, local) in zip(deformed.vertices, locals_, strict=True)]
    finally:
        evaluated.to_mesh_clear()
    assert max(errors) < 1e-3


def test_animated_ragdoll_follows_the_bones_and_switches_back(figure):
    armature, _mesh = figure
    _make()
    assert bpy.ops.omi.ragdoll_simulate(simulated=False) == {'FINISHED'}
    hips = armature.pose.bones["Hips"]
    hips.rotation_mode = 'XYZ'
    hips.rotation_euler = (0.0, 0.0, 0.0)
    hips.keyframe_insert("rotation_euler", frame=1)
    hips.rotation_euler = (0.0, 0.0, math.radians(90.0))
    hips.keyframe_insert("rotation_euler", frame=20)
    import_support.step(20)
    part = bpy.data.objects["Spine"]  # on the Hips bone's chain: it turns with it, a quarter turn about Hips
    assert (part.matrix_world.translation - Vector((0.0, 0.4, 1.0))).length < 0.02
    assert armature.pose.bones["Spine"].constraints["OMI ragdoll"].mute
    assert part.rigid_body.kinematic
    assert bpy.ops.omi.ragdoll_simulate(simulated=True) == {'FINISHED'}
    assert not armature.pose.bones["Spine"].constraints["OMI ragdoll"].mute
    assert not part.rigid_body.kinematic and "OMI ragdoll animated" not in part.constraints


@pytest.mark.parametrize("shape_type", ["CAPSULE", "BOX"])
@pytest.mark.parametrize("dialect", ["OMI", "KHR"])
def test_made_ragdoll_exports_reimports_and_simulates_the_same(figure, tmp_path, dialect, shape_type):
    _make(shape_type)
    bpy.context.scene.omi_physics.export_dialect = dialect
    exported = export_support.export(tmp_path, "ragdoll", check=dialect == "OMI")
    assert not [text for text in exported.messages if "cannot be written" in text or "outside it" in text]
    gltf = exported.gltf
    nodes = gltf["nodes"]
    joints = {nodes[index]["name"]: nodes[index] for index in gltf["skins"][0]["joints"]}
    key = "OMI_physics_body" if dialect == "OMI" else "KHR_physics_rigid_bodies"
    assert all("motion" in joints[bone]["extensions"][key] for bone in BONES)
    names = [node["name"] for node in nodes]
    assert not [name for name in names if name.endswith(" bone")] and len(names) == len(set(names))
    import_support.step(FRAMES)
    made = _positions()

    imported = import_support.import_gltf(exported.path)
    assert imported.warnings == []
    assert not [text for text in imported.notes if "cannot express" in text]  # Blender simulates the file as is
    import_support.step(FRAMES)
    again = _positions()
    for bone in BONES:
        assert (again[bone] - made[bone]).length < SAME_RUN, (bone, made[bone], again[bone])


def test_overlay_draws_the_ragdoll_bones(figure, omi):
    armature, _mesh = figure
    _make()
    collect, geometry = omi("viewport.collect"), omi("viewport.geometry")
    lines = collect.scene_lines(bpy.context.scene.objects, depsgraph=bpy.context.evaluated_depsgraph_get())
    assert lines.ragdoll_bones == 3
    ragdoll = [tuple(point) for point, color in zip(lines.positions, lines.colors, strict=True)
               if tuple(color) == pytest.approx(geometry.ROLE_COLORS['RAGDOLL'])]
    assert len(ragdoll) == 3 * 4  # the bone, and its head to its body
    tail = armature.matrix_world @ armature.pose.bones["Spine"].tail
    assert tuple(tail) == pytest.approx(ragdoll[4 + 1], abs=1e-5)


def test_selected_bones_only_and_making_it_again(figure):
    armature, _mesh = figure
    _make()
    before = sorted(obj.name for obj in bpy.data.objects)
    _make()  # again: the old parts, their shapes and joints are replaced, not doubled
    assert sorted(obj.name for obj in bpy.data.objects) == before
    for pose_bone in armature.pose.bones:  # Blender 5.0 selects pose bones, 4.2 bones
        selected = pose_bone.name in ("Spine", "Head")
        if hasattr(pose_bone, "select"):
            pose_bone.select = selected
        else:
            armature.data.bones[pose_bone.name].select = selected
    bpy.ops.object.mode_set(mode='POSE')
    assert bpy.ops.omi.make_ragdoll(bones='SELECTED') == {'FINISHED'}
    assert bpy.context.mode == 'OBJECT'
    made = {obj.name for obj in bpy.data.objects if "omi_bone_part" in obj}
    assert {"Spine", "Head"} <= made
    assert [bone.name for bone in armature.pose.bones if "OMI ragdoll" in bone.constraints] == list(BONES)  # Hips kept
    assert sorted(obj.name for obj in bpy.data.objects) == before  # Spine joined to the kept Hips again
    assert bpy.data.objects["Spine.joint"].omi_physics.joint.connected_object == bpy.data.objects["Spine"]
