"""The `godot` export target through the real glTF exporter and importer (without Godot: tests/godot runs
the same files in Godot 4 itself): every render mesh of a node with physics goes to a child named after
it, shapes are in Godot's form, what Godot ignores is said once per kind, and an import of the file gives
the artist back the same objects as the OMI export's import, each body holding its own mesh."""

from __future__ import annotations

import bpy
import demo_scene
import export_support as build
import import_support as support
import pytest
from cli_support import blender_cli, run_cli

pytestmark = pytest.mark.usefixtures("omi_addon")


def _export(tmp_path, name: str, target: str) -> build.Exported:
    options = bpy.context.scene.omi_physics
    options.export_dialect = target
    try:
        return build.export(tmp_path, name, 'GLB', check=target != 'GODOT')
    finally:
        options.export_dialect = 'OMI'


def _scene_objects() -> dict[str, tuple]:
    """Object name -> (type, parent, vertex count, rigid body shape and type), for the scene an import made."""
    return {obj.name: (obj.type, obj.parent.name if obj.parent else None,
                       len(obj.data.vertices) if obj.type == 'MESH' else None,
                       (obj.rigid_body.type, obj.rigid_body.collision_shape) if obj.rigid_body else None)
            for obj in bpy.context.scene.objects}


def test_demo_for_godot_keeps_every_mesh_and_imports_back_as_one_object_each(clean_scene, tmp_path):
    demo_scene.build_scene()
    meshes = {obj.name for obj in bpy.context.scene.objects if obj.type == 'MESH'}
    omi = _export(tmp_path, "demo_omi", 'OMI')
    godot = _export(tmp_path, "demo_godot", 'GODOT')
    build.assert_no_dangling_indices(godot.gltf)
    physics_nodes = {node["name"] for node in godot.nodes if build.BODY in node.get("extensions", {})}
    for name in meshes & physics_nodes:
        body = next(node for node in godot.nodes if node.get("name") == name and "extensions" in node)
        assert "mesh" not in body, name
        children = [godot.nodes[child] for child in body.get("children", [])]
        assert [child for child in children if child == {"name": name, "mesh": child.get("mesh")}], (name, children)
    for name in meshes - physics_nodes:  # a mesh without physics stays where it was
        assert "mesh" in godot.node(name), name
    for shape in godot.shapes():
        details = shape[shape["type"]]
        assert set(details) == {"box": {"size"}, "sphere": {"radius"}, "capsule": {"radius", "height"},
                                "cylinder": {"radius", "height"}}.get(shape["type"], set(details)), shape
    ignored = [message for message in godot.messages if "Godot 4 ignores" in message]
    assert len(ignored) == len(set(ignored)) == 3, ignored  # the demo has joints, materials and filters
    assert any("joints" in m and "'Door.joint'" in m and "'PendulumBob.joint'" in m for m in ignored)
    assert not [m for m in omi.messages if "Godot" in m]  # the OMI target says nothing about Godot

    support.import_gltf(omi.path)
    from_omi = _scene_objects()
    support.import_gltf(godot.path)
    assert _scene_objects() == from_omi


def test_command_line_target_godot(omi_addon, clean_scene, tmp_path):
    demo_scene.build_scene()
    blend = tmp_path / "demo.blend"
    bpy.ops.wm.save_as_mainfile(filepath=str(blend), copy=True)
    result = blender_cli("export", blend, "--out", tmp_path / "demo.glb", "--target", "godot")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Godot 4 ignores joints" in result.stdout + result.stderr
    written = build.schema_check.load_gltf(tmp_path / "demo.glb")
    ball = next(node for node in written["nodes"] if node.get("name") == "Ball" and "extensions" in node)
    assert "mesh" not in ball and written["nodes"][ball["children"][-1]].get("name") == "Ball"


def test_a_scaled_body_for_godot_imports_back_with_the_same_physics(clean_scene, tmp_path):
    """The `godot` target bakes a moving body's scale into its shapes (Godot's physics drops it): the file
    still means the same bodies, so Blender simulates its import as it simulates the `omi` export's."""
    from mathutils import Matrix

    floor = build.mesh_object("Floor", location=(0.0, 0.0, -0.5))
    floor.data.transform(Matrix.Diagonal((10.0, 10.0, 1.0, 1.0)))
    build.add_rigid_body(floor, 'PASSIVE', 'BOX')
    ball = build.mesh_object("Ball", "ico", location=(0.0, 0.0, 2.0), scale=(1.5, 1.5, 1.5))
    build.add_rigid_body(ball, 'ACTIVE', 'SPHERE')
    crate = build.mesh_object("Crate", location=(3.0, 0.0, 2.0), scale=(2.0, 1.0, 0.5))
    build.add_rigid_body(crate, 'ACTIVE', 'BOX')
    omi = _export(tmp_path, "scaled_omi", 'OMI')
    godot = _export(tmp_path, "scaled_godot", 'GODOT')
    assert "scale" not in next(n for n in godot.nodes if n.get("name") == "Ball" and "extensions" in n)
    ends = []
    for exported in (omi, godot):
        support.import_gltf(exported.path)
        support.step(48)
        ends.append({name: bpy.data.objects[name].matrix_world.translation.copy() for name in ("Ball", "Crate")})
    for name in ("Ball", "Crate"):
        assert (ends[0][name] - ends[1][name]).length < 0.01, (name, ends)
    assert ends[1]["Ball"].z == pytest.approx(0.75, abs=0.05)  # resting on its scaled radius


def test_a_ragdoll_exported_for_godot_says_its_bones_stay(clean_scene, tmp_path):
    """Godot 4.6 builds a dynamic body on a skin joint as a RigidBody3D under a BoneAttachment3D: it falls, the
    bone and the skin stay. The export says so, once, as `convert --to godot` of the same file does."""
    import ragdoll_files

    support.import_gltf(ragdoll_files.write(tmp_path, "OMI"))
    godot = _export(tmp_path, "ragdoll_godot", 'GODOT')
    said = [message for message in godot.messages if "bones following their bodies" in message]
    assert len(said) == 1 and "'Upper'" in said[0] and "'Lower'" in said[0], godot.messages


def test_a_uniformly_scaled_body_with_a_child_says_nothing_turned(clean_scene, tmp_path):
    """A dynamic empty scaled (2, 2, 2) with one box child: nothing is turned inside an uneven scale."""
    body = build.empty("Body", scale=(2.0, 2.0, 2.0))
    build.tag_motion(body)
    part = build.mesh_object("Part", location=(0.5, 0.0, 0.0))
    part.parent = body
    build.tag_shape(part, "collider", 'BOX')
    godot = _export(tmp_path, "uniform_godot", 'GODOT')
    assert not [message for message in godot.messages if "unevenly scaled" in message], godot.messages


def test_morph_weights_animated_on_a_body_follow_its_mesh_for_godot_and_back(clean_scene, tmp_path):
    """The `godot` target moves a body's mesh to a child: the channel of its shape-key weights goes to that
    child too (before, it kept pointing at the body node, which has no mesh: invalid glTF, and Godot plays
    no blend shape), and the import folds both back onto one object, animated."""
    blob = build.mesh_object("Blob", location=(0.0, 0.0, 2.0))
    blob.shape_key_add(name="Basis")
    key = blob.shape_key_add(name="Squash")
    for point in key.data:
        point.co.z *= 0.5
    for frame, value in ((1, 0.0), (24, 1.0)):
        key.value = value
        key.keyframe_insert("value", frame=frame)
    build.tag_motion(blob)
    build.tag_shape(blob, "collider", 'BOX')
    godot = _export(tmp_path, "morph_godot", 'GODOT')
    body = next(index for index, node in enumerate(godot.nodes) if node.get("name") == "Blob" and "extensions" in node)
    holder = godot.nodes[body]["children"][-1]
    assert godot.nodes[holder].get("mesh") is not None and "mesh" not in godot.nodes[body]
    weights = [channel["target"] for animation in godot.gltf["animations"] for channel in animation["channels"]
               if channel["target"].get("path") == "weights"]
    assert weights == [{"node": holder, "path": "weights"}], weights
    support.import_gltf(godot.path)
    assert [obj.name for obj in bpy.context.scene.objects] == ["Blob"]
    blob = bpy.data.objects["Blob"]
    assert blob.data.shape_keys is not None and blob.data.shape_keys.animation_data.action is not None


def test_the_targets_own_capsules_import_without_the_old_form_warning(clean_scene, tmp_path):
    """The target writes capsules in Godot's form on purpose (one radius, the full height): its file imports
    them at their size and neither the import nor Validate calls them the old full-height form."""
    from mathutils import Matrix

    pill = build.mesh_object("Pill", location=(0.0, 0.0, 2.0))
    pill.data.transform(Matrix.Diagonal((0.6, 0.6, 3.0, 1.0)))
    build.add_rigid_body(pill, 'ACTIVE', 'CAPSULE')
    godot = _export(tmp_path, "pill_godot", 'GODOT')
    assert godot.shapes()[0] == {"type": "capsule", "capsule": {"radius": pytest.approx(0.3), "height": 3}}
    imported = support.import_gltf(godot.path)
    assert not [message for message in imported.warnings if "full-height" in message], imported.warnings
    assert bpy.data.objects["Pill"].dimensions[:] == pytest.approx((0.6, 0.6, 3.0), abs=1e-5)
    problems = [problem.message for problem in bpy.context.window_manager.omi_authoring.problems]  # Validate's
    assert not [message for message in problems if "full-height" in message], problems


def _bodies() -> dict[str, tuple]:
    """Each imported object: (scale, location, mesh vertices, collider shape and its sizes)."""
    found = {}
    for obj in bpy.context.scene.objects:
        settings = obj.omi_physics
        shape = settings.collider.shape if settings.use_collider else None
        found[obj.name] = (tuple(round(v, 5) for v in obj.scale), tuple(round(v, 5) for v in obj.location),
                           len(obj.data.vertices) if obj.type == 'MESH' else None,
                           shape and (shape.shape_type, round(shape.radius, 5), tuple(round(v, 5) for v in shape.size)))
    return found


def test_a_scaled_ball_for_godot_imports_back_as_the_artist_made_it(clean_scene, tmp_path):
    """The `godot` target bakes a moving body's scale 2 into its sphere (radius 1) and puts the scale on the
    mesh child. The import folds that layout back: one 'Ball' object with scale 2 and radius 0.5, as the
    `omi` export's import gives (before: the body kept no mesh, an extra 'Ball.001' child held it at scale 2,
    and the sphere read radius 1 on an unscaled body). Both the export and `convert --to godot`."""
    ball = build.mesh_object("Ball", "ico", location=(0.0, 0.0, 2.0), scale=(2.0, 2.0, 2.0))
    build.tag_motion(ball)
    build.tag_shape(ball, "collider", 'SPHERE', radius=0.5)
    omi = _export(tmp_path, "ball_omi", 'OMI')
    godot = _export(tmp_path, "ball_godot", 'GODOT')
    support.import_gltf(omi.path)
    wanted = _bodies()
    assert wanted["Ball"][0] == (2.0, 2.0, 2.0) and wanted["Ball"][3] == ('SPHERE', 0.5, (1.0, 1.0, 1.0)), wanted
    support.import_gltf(godot.path)
    assert _bodies() == wanted
    converted = tmp_path / "ball_converted.glb"
    result = run_cli("convert", omi.path, "--to", "godot", "--out", converted)
    assert result.returncode == 0, result.stdout + result.stderr
    support.import_gltf(converted)
    assert _bodies() == wanted


def test_an_animated_capsule_for_godot_imports_back_with_its_keys(clean_scene, tmp_path):
    """The `godot` target writes a capsule's channels in Godot's form (one radius, the full height); the
    import reads them back as the spec's values, so the keys come back as the artist set them (before this
    the full heights were read as mid-heights, two radii too tall, and the radius channel was not imported)."""
    pill = build.mesh_object("Pill", location=(0.0, 0.0, 2.0))
    build.tag_motion(pill, 'DYNAMIC', mass=2.0)
    shape = build.tag_shape(pill, "collider", 'CAPSULE', height=1.0, radius_top=0.3, radius_bottom=0.3)
    for frame, factor in ((1, 1.0), (24, 2.0)):
        shape.height, shape.radius_top, shape.radius_bottom = factor, 0.3 * factor, 0.3 * factor
        for key in ("height", "radius_top", "radius_bottom"):
            shape.keyframe_insert(key, frame=frame)
    godot = _export(tmp_path, "pill_godot", 'GODOT')
    imported = support.import_gltf(godot.path)
    assert not [message for message in imported.warnings if "not imported" in message], imported.warnings
    shape = bpy.data.objects["Pill"].omi_physics.collider.shape
    ends = {}
    for frame in (1, 24):
        bpy.context.scene.frame_set(frame)
        ends[frame] = (round(shape.height, 4), round(shape.radius_top, 4), round(shape.radius_bottom, 4))
    assert ends == {1: (1.0, 0.3, 0.3), 24: (2.0, 0.6, 0.6)}, ends
