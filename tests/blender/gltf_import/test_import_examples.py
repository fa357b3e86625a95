"""Every spec example (current and legacy revisions) through bpy.ops.import_scene.gltf: settings on the
objects, Blender rigid bodies of the right kind and shape, at the file's positions with the file's sizes,
and constraints between the right bodies."""

from __future__ import annotations

from pathlib import Path

import bpy
import import_support as support
import pytest
import schema_check
from present import present

EXAMPLES = sorted(str(path.relative_to(schema_check.SPEC_DIR)) for path in schema_check.SPEC_DIR.rglob("*.gltf")) \
    if schema_check.SPEC_DIR.is_dir() else []

MOTION = {"static": ('PASSIVE', False), "kinematic": ('ACTIVE', True), "dynamic": ('ACTIVE', False)}
PRIMITIVE = {"box": 'BOX', "sphere": 'SPHERE', "capsule": 'CAPSULE', "cylinder": 'CYLINDER'}
CONSTRAINTS = {"weld_joint.gltf": ['FIXED'], "simple_joint.gltf": ['GENERIC_SPRING'],
               "slider_ball.gltf": ['GENERIC_SPRING']}





def test_every_example_is_covered(spec_dir):
    assert len(EXAMPLES) >= 24  # 16 current, 8 legacy at the time of writing
    assert any(name.startswith("legacy/") for name in EXAMPLES)


def _motion_owner(doc, hierarchy: dict[int, int], index: int | None) -> int | None:
    while index is not None:
        if index in doc.nodes and doc.nodes[index].motion is not None:
            return index
        index = hierarchy.get(index)
    return None


@pytest.mark.parametrize("name", EXAMPLES)
def test_example_imports_as_the_file_means(spec_dir, reader, name, markers, rigid_body_plan):
    path = Path(spec_dir) / name
    gltf = schema_check.load_gltf(path)
    doc = reader.read_document(gltf)
    imported = support.import_gltf(path)
    assert imported.result == {'FINISHED'}
    assert imported.failures == []
    nodes = gltf["nodes"]
    parents = {child: index for index, node in enumerate(nodes) for child in node.get("children", [])}
    worlds = support.world_matrices(gltf)
    objects = {index: imported.obj(node["name"]) for index, node in enumerate(nodes)}

    for index, obj in objects.items():  # the import keeps every node where the file puts it
        if obj.type in ('CAMERA', 'LIGHT'):  # the importer turns these to Blender's viewing axis
            assert (obj.matrix_world.translation - worlds[index].translation).length < 1e-4
        else:
            assert support.matrices_close(obj.matrix_world, worlds[index]), obj.name

    checked_shapes = 0
    for index, node in doc.nodes.items():
        obj = objects[index]
        settings = obj.omi_physics
        assert (settings.use_motion, settings.use_collider, settings.use_trigger, settings.use_joint) == (
            node.motion is not None, node.collider is not None, node.trigger is not None, node.joint is not None)

        if node.motion is not None:
            assert obj.type == 'MESH' and obj.rigid_body is not None, obj.name
            assert (obj.rigid_body.type, obj.rigid_body.kinematic) == MOTION[node.motion.type]
            if node.motion.type != "static":
                assert obj.rigid_body.mass == pytest.approx(node.motion.mass)

        if node.collider is not None and node.collider.shape is not None:
            shape = node.collider.shape
            carrier = support.shape_carrier(obj)
            assert carrier is not None, f"{obj.name}: no Blender shape"
            owner = _motion_owner(doc, parents, index)
            body = objects[owner] if owner is not None else obj
            expected_type = MOTION[doc.nodes[owner].motion.type][0] if owner is not None else 'PASSIVE'
            assert body.rigid_body.type == expected_type
            assert support.matrices_close(carrier.matrix_world, worlds[index]), carrier.name  # where the shape is
            if shape.type in PRIMITIVE:
                assert carrier.rigid_body.collision_shape == PRIMITIVE[shape.type]
                extents = support.world_extents(carrier)
                assert extents == pytest.approx(support.shape_bounds(shape), abs=1e-4), carrier.name
            else:
                assert carrier.rigid_body.collision_shape == ('CONVEX_HULL' if shape.type == "convex" else 'MESH')
                accessor = gltf["accessors"][gltf["meshes"][shape.mesh]["primitives"][0]["attributes"]["POSITION"]]
                low, high = accessor["min"], accessor["max"]
                want = (high[0] - low[0], high[2] - low[2], high[1] - low[1])
                assert tuple(carrier.dimensions) == pytest.approx(want, abs=1e-4)
                assert len(carrier.data.vertices) >= accessor["count"] // 3
            checked_shapes += 1

        if node.trigger is not None:
            assert obj.rigid_body is None, f"trigger {obj.name} must not collide"

    model_zero = (0.0, 0.0, 0.0)
    expected_shapes = sum(1 for n in doc.nodes.values() if n.collider is not None and n.collider.shape is not None)
    assert checked_shapes == expected_shapes

    made = [o for o in bpy.context.scene.objects
            if o.rigid_body_constraint is not None and o.get(markers.GENERATED) != markers.STARTER]
    starters = [o for o in bpy.context.scene.objects
                if o.rigid_body_constraint is not None and o.get(markers.GENERATED) == markers.STARTER]
    assert len(starters) == sum((node.motion.linear_velocity != model_zero)
                                + (node.motion.angular_velocity != model_zero) for node in doc.nodes.values()
                                if node.motion is not None and node.motion.type == "dynamic")
    joints = {index: node.joint for index, node in doc.nodes.items() if node.joint is not None}
    assert [o.rigid_body_constraint.type for o in made] == CONSTRAINTS.get(Path(name).name, [])
    for index, joint in joints.items():
        owned = [o for o in made if o.get(markers.OWNER) == objects[index]]
        assert owned, f"joint {nodes[index]['name']} has no Blender constraint"
        for constraint_object in owned:
            constraint = constraint_object.rigid_body_constraint
            assert constraint.object1 == objects[present(_motion_owner(doc, parents, index))]
            assert constraint.object2 == objects[present(_motion_owner(doc, parents, joint.connected_node))]
            assert constraint.disable_collisions is not joint.enable_collision
            assert (constraint_object.matrix_world.translation - worlds[index].translation).length < 1e-4


def test_meshes_and_materials_import_with_the_physics(spec_dir):
    imported = support.import_gltf(Path(spec_dir) / "OMI_physics_joint" / "examples" / "weld_joint.gltf")
    for name in ("MeshA", "MeshB", "FloorMesh"):
        obj = imported.obj(name)
        assert obj.type == 'MESH' and len(obj.data.polygons) > 0 and obj.rigid_body is None
        assert obj.data.materials and obj.data.materials[0] is not None
        assert obj.visible_camera  # visible geometry stays visible


def test_shape_stand_ins_are_wire_and_not_rendered(spec_dir, markers, rigid_body_plan):
    imported = support.import_gltf(Path(spec_dir) / "OMI_physics_body" / "examples" / "basic" / "dynamic_box.gltf")
    body = imported.obj("DynamicBox")
    assert markers.is_shape_mesh(body)
    assert body.display_type == 'WIRE'
    assert not body.visible_camera and not body.visible_shadow
    # The body's only collider sits on it: the body's own object shows and carries the shape.
    assert imported.obj("BoxShape").type == 'EMPTY' and support.shape_carrier(imported.obj("BoxShape")) == body
    assert "OMI placeholder" not in bpy.data.meshes


def test_colliders_of_a_compound_body_show_their_own_shapes(spec_dir, markers, rigid_body_plan):
    imported = support.import_gltf(Path(spec_dir) / "OMI_physics_joint" / "examples" / "weld_joint.gltf")
    collider = imported.obj("ColliderA")  # turned against its body: the body is a compound
    assert markers.is_shape_mesh(collider) and collider.display_type == 'WIRE'
    assert support.shape_carrier(collider) == collider


def test_collision_mesh_that_no_node_shows_is_imported(spec_dir, markers):
    """convex_hull.gltf: the hull uses mesh 0, which only the shape references; the node shows mesh 1."""
    imported = support.import_gltf(Path(spec_dir) / "OMI_physics_shape" / "examples" / "convex" / "convex_hull.gltf")
    node = imported.obj("ConvexHullShape")
    shape = node.omi_physics.collider.shape
    assert shape.shape_type == 'CONVEX' and shape.mesh_source == 'SELF'
    assert node.type == 'MESH' and markers.is_shape_mesh(node) and len(node.data.vertices) > 0
    visible = imported.obj("ConvexMesh")
    assert visible.data != node.data and not markers.is_shape_mesh(visible)


def test_shape_mesh_beside_another_mesh_gets_its_own_object(tmp_path, markers, rigid_body_plan):
    """A node showing one mesh with a convex shape of another: the shape's mesh goes on a child object."""
    gltf = support.document([{"name": "Rock", "mesh": 0, "extensions": {support.BODY: {"collider": {"shape": 0}}}}],
                            [{"type": "convex", "convex": {"mesh": 1}}], meshes=True)
    gltf["meshes"].append({"name": "Hull", "primitives": [{"attributes": {"POSITION": 0}, "indices": 1}]})
    imported = support.import_gltf(support.write_gltf(tmp_path, "rock", gltf))
    rock = imported.obj("Rock")
    shape = rock.omi_physics.collider.shape
    assert shape.mesh_source == 'OBJECT' and shape.mesh_object is not None
    assert shape.mesh_object.parent == rock and markers.is_shape_mesh(shape.mesh_object)
    assert shape.mesh_object.data.name.startswith("Hull")
    assert not markers.is_shape_mesh(rock) and rock.data.name.startswith("Crate")
    carrier = support.shape_carrier(rock)
    assert carrier is not None and carrier.rigid_body.collision_shape == 'CONVEX_HULL'
    assert carrier.data == shape.mesh_object.data


@pytest.mark.parametrize(("shape", "blender_shape", "extents"), [
    ({"type": "capsule", "capsule": {"height": 1.0, "radiusTop": 0.25, "radiusBottom": 0.5}},
     'CONVEX_HULL', (1.0, 1.0, 1.75)),
    ({"type": "cylinder", "cylinder": {"height": 2.0, "radiusTop": 0.25, "radiusBottom": 0.5}},
     'CONVEX_HULL', (1.0, 1.0, 2.0)),
    ({"type": "cylinder", "cylinder": {"height": 2.0, "radiusTop": 0.0, "radiusBottom": 0.5}}, 'CONE', (1.0, 1.0, 2.0)),
])
def test_tapered_shapes_are_hulls_of_their_exact_size(tmp_path, rigid_body, shape, blender_shape, extents):
    nodes = [{"name": "Post", "extensions": {support.BODY: {"collider": {"shape": 0}}}}]
    imported = support.import_gltf(support.write_gltf(tmp_path, "tapered", support.document(nodes, [shape])))
    post = imported.obj("Post")
    assert post.rigid_body.collision_shape == blender_shape
    assert tuple(post.dimensions) == pytest.approx(extents, abs=1e-4)
    if blender_shape == 'CONVEX_HULL':
        assert any("tapered" in text and "'Post'" in text for text in imported.notes)


def test_what_blender_approximates_is_named_once_and_kept(spec_dir):
    path = Path(spec_dir) / "OMI_physics_body" / "examples" / "complex" / "dynamic_with_velocity.gltf"
    imported = support.import_gltf(path)
    named = [text for text in imported.notes if "approximate" in text]
    assert len(named) == 1
    assert not any("approximate" in text or "problem(s)" in text for text in imported.warnings)
    assert "starting velocities as a motor" in named[0] and "('DynamicWithVelocity')" in named[0]
    motion = imported.obj("DynamicWithVelocity").omi_physics.motion
    assert tuple(motion.linear_velocity) == pytest.approx((1.0, -3.0, 2.0))  # glTF (1, 2, 3) in Blender axes
    assert tuple(motion.angular_velocity) == pytest.approx((4.0, -6.0, 5.0))


def test_body_with_its_own_shape_and_a_child_collider_is_one_compound(tmp_path, rigid_body_plan):
    nodes = [{"name": "Hammer", "translation": [0.0, 2.0, 0.0], "children": [1],
              "extensions": {support.BODY: {"motion": {"type": "dynamic"}, "collider": {"shape": 0}}}},
             {"name": "Head", "extensions": {support.BODY: {"collider": {"shape": 1}}}}]
    shapes = [{"type": "capsule", "capsule": {"height": 1.0, "radiusTop": 0.05, "radiusBottom": 0.05}},
              {"type": "box", "box": {"size": [0.4, 0.2, 0.2]}}]
    imported = support.import_gltf(support.write_gltf(tmp_path, "hammer", support.document(nodes, shapes)))
    hammer, head = imported.obj("Hammer"), imported.obj("Head")
    assert hammer.rigid_body.collision_shape == 'COMPOUND'
    carriers = {support.shape_carrier(hammer), support.shape_carrier(head)}
    assert None not in carriers and len(carriers) == 2
    kinds = sorted(present(carrier).rigid_body.collision_shape for carrier in carriers)
    assert kinds == ['BOX', 'CAPSULE']
    assert all(present(carrier).parent == hammer for carrier in carriers)
