"""Export of tagged shapes: every type on every motion type, placed so that an importer applying the node
transforms gets exactly the world-space volume the shape has in Blender (checked numerically)."""

from __future__ import annotations

import math
from typing import Any

import bpy
import numpy as np
import pytest
from export_support import (
    box_corners,
    close,
    empty,
    export,
    global_scale,
    mesh_object,
    point_sets_close,
    tag_motion,
    tag_shape,
    to_gltf,
    transform,
)
from mathutils import Euler, Matrix, Vector

pytestmark = pytest.mark.usefixtures("omi_addon")

SHAPE_VALUES: dict[str, dict[str, Any]] = {
    'BOX': {"size": (1.0, 2.0, 3.0)},
    'SPHERE': {"radius": 0.7},
    'CAPSULE': {"height": 1.2, "radius_top": 0.3, "radius_bottom": 0.4},
    'CYLINDER': {"height": 2.5, "radius_top": 0.2, "radius_bottom": 0.6},
    'CONVEX': {},
    'TRIMESH': {},
}
EXPECTED_JSON: dict[str, dict[str, Any]] = {
    'BOX': {"size": [1.0, 3.0, 2.0]},  # Blender (x, y, z) extents -> glTF (x, z, y)
    'SPHERE': {"radius": 0.7},
    'CAPSULE': {"height": 1.2, "radiusTop": 0.3, "radiusBottom": 0.4},
    'CYLINDER': {"height": 2.5, "radiusTop": 0.2, "radiusBottom": 0.6},
}


def blender_world_vertices(obj: bpy.types.Object, extra: Matrix | None = None,
                           frame: bpy.types.Object | None = None) -> np.ndarray:
    """World positions (glTF axes) of the object's evaluated mesh vertices, placed by `frame` (default: the
    object itself) and `extra` (a shape offset)."""
    depsgraph = bpy.context.evaluated_depsgraph_get()
    evaluated = obj.evaluated_get(depsgraph)
    mesh = evaluated.to_mesh()
    matrix = (frame or obj).matrix_world @ (extra or Matrix.Identity(4))
    points = np.array([tuple(to_gltf(matrix @ v.co)) for v in mesh.vertices])
    evaluated.to_mesh_clear()
    return points


def assert_shape_json(shape: dict, shape_type: str) -> None:
    details = shape[shape["type"]]
    for key, value in EXPECTED_JSON.get(shape_type, {}).items():
        actual = details[key]
        assert close(actual if isinstance(actual, list) else [actual], value if isinstance(value, list) else [value],
                     1e-6), (key, actual, value)


@pytest.mark.parametrize("fmt", ["GLTF_SEPARATE", "GLB"])
def test_every_shape_type_on_every_motion_type(clean_scene, tmp_path, fmt):
    objects = {}
    for row, motion in enumerate(('STATIC', 'KINEMATIC', 'DYNAMIC')):
        for column, shape_type in enumerate(SHAPE_VALUES):
            obj = mesh_object(f"{shape_type}_{motion}", "ico", location=(3.0 * column, 4.0 * row, 0.0),
                              rotation=(0.3, 0.0, 0.2 * column))
            tag_motion(obj, motion, mass=2.5)
            tag_shape(obj, "collider", shape_type, **SHAPE_VALUES[shape_type])
            objects[obj.name] = (motion, shape_type)
    result = export(tmp_path, fmt=fmt)

    for name, (motion, shape_type) in objects.items():
        body = result.body(name)
        assert body["motion"]["type"] == motion.lower()
        if motion == 'DYNAMIC':
            assert body["motion"]["mass"] == 2.5
        shape = result.shape(body["collider"]["shape"])
        assert shape["type"] == shape_type.lower()
        assert_shape_json(shape, shape_type)
        if shape_type in ('CONVEX', 'TRIMESH'):
            mesh_index = shape[shape["type"]]["mesh"]
            points = result.mesh_world_points(mesh_index, result.index(name))
            assert point_sets_close(points, blender_world_vertices(bpy.data.objects[name]), 1e-5)


def test_equal_shapes_are_written_once(clean_scene, tmp_path):
    for index in range(3):
        tag_shape(empty(f"Box{index}", location=(index, 0, 0)), "collider", 'BOX', size=(1.0, 2.0, 3.0))
    tag_shape(empty("Other"), "collider", 'BOX', size=(1.0, 1.0, 1.0))
    result = export(tmp_path)
    indices = {result.body(f"Box{index}")["collider"]["shape"] for index in range(3)}
    assert len(indices) == 1
    assert len(result.shapes()) == 2
    # an all-defaults box states its size: the exporter would drop an empty "box": {} (ERRATA needs it)
    assert result.shape(result.body("Other")["collider"]["shape"]) == {"type": "box", "box": {"size": [1, 1, 1]}}


def primitive_world(result, carrier: int, shape: dict) -> dict:
    """World-space description (glTF axes) of an exported primitive shape placed by its carrier node, which
    may be scaled uniformly (the shape scales with it), never unevenly."""
    world = result.world(carrier)
    scale = global_scale(world)
    assert close(scale, (scale[0],) * 3, 1e-5), f"primitive shape on an unevenly scaled node: {scale}"
    details = shape[shape["type"]]
    if shape["type"] == "box":
        return {"corners": transform(box_corners(details.get("size", (1, 1, 1))), world)}
    if shape["type"] == "sphere":
        return {"center": world.translation, "radius": details.get("radius", 0.5) * scale[0]}
    height = details.get("height", 1.0 if shape["type"] == "capsule" else 2.0)
    return {"top": world @ Vector((0, height / 2, 0)), "bottom": world @ Vector((0, -height / 2, 0)),
            "radius_top": details.get("radiusTop", 0.5) * scale[0],
            "radius_bottom": details.get("radiusBottom", 0.5) * scale[0]}


CASES: dict[str, Any] = {
    # name: (object transform (loc, rot, scale), shape type, values, offset (loc, rot) or None, approximated?)
    "rotated box": (((1, 2, 3), (0.4, -0.3, 1.1), (1, 1, 1)), 'BOX', {"size": (1, 2, 3)}, None, False),
    "offset box": (((1, 0, 0), (0, 0, 0.5), (1, 1, 1)), 'BOX', {"size": (1, 2, 3)}, ((0.5, -1, 2), (0.3, 0.2, 0.1)),
                   False),
    "uniformly scaled capsule": (((0, 1, 0), (0.2, 0.1, 0), (2, 2, 2)), 'CAPSULE',
                                 {"height": 1.0, "radius_top": 0.25, "radius_bottom": 0.5}, None, False),
    "scaled offset sphere": (((0, 0, 1), (0, 0.7, 0), (1.5, 1.5, 1.5)), 'SPHERE', {"radius": 0.4},
                             ((1, 0, 0), (0, 0, 0)), False),
    "unevenly scaled box": (((0, 0, 0), (0.3, 0.2, 0.1), (1, 2, 3)), 'BOX', {"size": (1, 1, 2)}, None, False),
    "unevenly scaled rotated-offset box (axis-aligned turn)": (
        ((0, 0, 0), (0, 0, 0.3), (1, 2, 3)), 'BOX', {"size": (1, 1, 2)}, ((0.5, 0, 0), (0, 0, math.pi / 2)), False),
    "cylinder scaled along its axis": (((2, 0, 0), (0.5, 0, 0), (2, 2, 5)), 'CYLINDER',
                                       {"height": 1.0, "radius_top": 0.3, "radius_bottom": 0.6}, None, False),
    "capsule scaled along its axis": (((0, 0, 0), (0, 0, 0), (1, 1, 3)), 'CAPSULE',
                                      {"height": 1.0, "radius_top": 0.5, "radius_bottom": 0.5}, None, True),
    "sphere scaled unevenly": (((0, 0, 0), (0, 0, 0), (1, 2, 1)), 'SPHERE', {"radius": 0.5}, None, True),
    "cylinder squashed across its axis": (((0, 0, 0), (0, 0, 0), (1, 2, 1)), 'CYLINDER', {"height": 2.0}, None, True),
}


@pytest.mark.parametrize("case", list(CASES))
def test_primitive_shapes_occupy_their_blender_volume(clean_scene, tmp_path, case):
    (location, rotation, scale), shape_type, values, offset, approximated = CASES[case]
    obj = empty("Obj", location, rotation, scale)
    settings = tag_shape(obj, "collider", shape_type, **values)
    offset_matrix = Matrix.Identity(4)
    if offset is not None:
        settings.use_offset = True
        settings.offset_location, settings.offset_rotation = offset
        offset_matrix = Matrix.LocRotScale(Vector(offset[0]), Euler(offset[1]), None)
    bpy.context.view_layer.update()
    frame = obj.matrix_world @ offset_matrix
    result = export(tmp_path)

    carrier = result.carrier("Obj", "collider")
    if offset is None and len(set(scale)) == 1:  # a uniform scale keeps the collider on the object's own node
        assert carrier == result.index("Obj")
    shape = result.shape(result.body(carrier)["collider"]["shape"])
    placed = primitive_world(result, carrier, shape)
    warnings = result.warnings("'Obj'", "approximated")
    assert bool(warnings) == approximated, warnings
    lengths = [frame.to_3x3().col[i].length for i in range(3)]
    if shape_type == 'BOX':
        expected = np.array([tuple(to_gltf(frame @ Vector(corner))) for corner in box_corners(values["size"])])
        assert point_sets_close(placed["corners"], expected, 1e-4)
    elif shape_type == 'SPHERE':
        assert close(placed["center"], to_gltf(frame.translation))
        assert math.isclose(placed["radius"], values["radius"] * max(lengths), rel_tol=1e-5)
    else:
        half = values["height"] / 2 if shape_type == 'CAPSULE' else values.get("height", 2.0) / 2
        top, bottom = to_gltf(frame @ Vector((0, 0, half))), to_gltf(frame @ Vector((0, 0, -half)))
        radial = max(lengths[0], lengths[1])
        top_radius = values.get("radius_top", 0.5) * radial
        bottom_radius = values.get("radius_bottom", 0.5) * radial
        assert math.isclose(placed["radius_top"], top_radius, rel_tol=1e-5)
        assert math.isclose(placed["radius_bottom"], bottom_radius, rel_tol=1e-5)
        if shape_type == 'CYLINDER' or not approximated:
            assert close(placed["top"], top) and close(placed["bottom"], bottom)
        else:  # capsule: the full length along the axis is kept, the caps are re-rounded
            axis = (top - bottom).normalized()
            full_top, full_bottom = top + axis * values["radius_top"] * lengths[2], \
                bottom - axis * values["radius_bottom"] * lengths[2]
            assert close(placed["top"] + axis * top_radius, full_top)
            assert close(placed["bottom"] - axis * bottom_radius, full_bottom)


def test_slanted_box_is_approximated_with_a_warning(clean_scene, tmp_path):
    parent = empty("Parent", scale=(1, 3, 1))
    child = empty("Slanted", rotation=(0, 0, 0.6), parent=parent)
    tag_shape(child, "collider", 'BOX', size=(1, 1, 1))
    result = export(tmp_path)
    warnings = result.warnings("'Slanted'", "slanted")
    assert warnings
    carrier = result.carrier("Slanted", "collider")
    assert close(global_scale(result.world(carrier)), (1, 1, 1), 1e-5)


def test_mesh_shapes_follow_rotation_offset_and_uneven_scale_exactly(clean_scene, tmp_path):
    obj = mesh_object("Hull", "ico", location=(1, 2, 3), rotation=(0.3, 0.5, 0.7), scale=(1, 2, 0.5))
    settings = tag_shape(obj, "collider", 'CONVEX')
    settings.use_offset = True
    settings.offset_location, settings.offset_rotation = (0.2, 0.0, 0.5), (0.0, 0.4, 0.0)
    tag_motion(obj, 'DYNAMIC')
    bpy.context.view_layer.update()
    result = export(tmp_path)
    carrier = result.carrier("Hull", "collider")
    assert carrier != result.index("Hull")  # the offset puts the shape on a child node
    mesh_index = result.shape(result.body(carrier)["collider"]["shape"])["convex"]["mesh"]
    offset = Matrix.LocRotScale(Vector((0.2, 0.0, 0.5)), Euler((0.0, 0.4, 0.0)), None)
    assert point_sets_close(result.mesh_world_points(mesh_index, carrier), blender_world_vertices(obj, offset), 1e-5)
    assert "motion" in result.body("Hull")


def test_shape_mesh_reuses_the_rendered_mesh_when_it_is_one_triangle_primitive(clean_scene, tmp_path):
    plain = mesh_object("Plain", "cube")
    for polygon in plain.data.polygons:
        polygon.use_smooth = True  # rendered with the mesh's own 8 vertices
    tag_shape(plain, "collider", 'TRIMESH')
    result = export(tmp_path)
    shape = result.shape(result.body("Plain")["collider"]["shape"])
    assert shape["trimesh"]["mesh"] == result.node("Plain")["mesh"]


def test_a_hull_split_for_rendering_gets_its_welded_points(clean_scene, tmp_path):
    """A flat-shaded cube renders with 24 vertices (each face its own normals); a hull of it written with the
    render mesh would have three times the points of its 8, past what engines cap hulls at sooner: the shape
    gets a collision-only mesh of the mesh's own 8 points (a triangle mesh keeps sharing the render mesh)."""
    shape_type = 'CONVEX'
    flat = mesh_object("Flat", "cube")
    tag_shape(flat, "collider", shape_type)
    result = export(tmp_path)
    node = result.node("Flat")
    render = result.gltf["meshes"][node["mesh"]]["primitives"][0]
    assert len(result.accessor(render["attributes"]["POSITION"])) == 24
    shape = result.shape(result.body("Flat")["collider"]["shape"])
    mesh_index = shape[shape_type.lower()]["mesh"]
    assert mesh_index != node["mesh"]
    points = result.accessor(result.gltf["meshes"][mesh_index]["primitives"][0]["attributes"]["POSITION"])
    assert len(points) == len(flat.data.vertices) == 8
    assert not any(other.get("mesh") == mesh_index for other in result.nodes)  # collision-only: not rendered


def test_multi_material_mesh_gets_a_single_primitive_collision_mesh(clean_scene, tmp_path):
    obj = mesh_object("TwoMaterials", "cube")
    for name in ("Red", "Blue"):
        obj.data.materials.append(bpy.data.materials.new(name))
    for polygon in obj.data.polygons:
        polygon.material_index = polygon.index % 2
    tag_shape(obj, "collider", 'TRIMESH')
    result = export(tmp_path)
    node = result.node("TwoMaterials")
    assert len(result.gltf["meshes"][node["mesh"]]["primitives"]) == 2
    mesh_index = result.shape(result.body("TwoMaterials")["collider"]["shape"])["trimesh"]["mesh"]
    assert mesh_index != node["mesh"]
    assert len(result.gltf["meshes"][mesh_index]["primitives"]) == 1
    assert not any(other.get("mesh") == mesh_index for other in result.nodes)  # collision-only: not rendered
    triangles = result.accessor(result.gltf["meshes"][mesh_index]["primitives"][0]["indices"])
    assert len(triangles) == 12 * 3


@pytest.mark.parametrize("apply_modifiers", [True, False])
def test_shape_mesh_has_the_modifiers_applied(clean_scene, tmp_path, apply_modifiers):
    obj = mesh_object("Arrayed", "cube")
    modifier = obj.modifiers.new("Array", 'ARRAY')
    modifier.count = 3
    tag_shape(obj, "collider", 'CONVEX')
    result = export(tmp_path, export_apply=apply_modifiers)
    mesh_index = result.shape(result.body("Arrayed")["collider"]["shape"])["convex"]["mesh"]
    assert (mesh_index == result.node("Arrayed")["mesh"]) == apply_modifiers
    points = result.mesh_world_points(mesh_index, result.index("Arrayed"))
    assert point_sets_close(points, blender_world_vertices(obj), 1e-5)
    assert points[:, 0].max() == pytest.approx(2.5, abs=1e-5)  # three cubes side by side along X


def test_collision_mesh_object_is_written_for_the_shape_and_not_rendered(clean_scene, tmp_path):
    body = mesh_object("Statue", "cube", location=(0, 0, 1), rotation=(0, 0, 0.4), scale=(2, 2, 2))
    proxy = mesh_object("StatueProxy", "ico", location=(0.5, 0, 1.5), rotation=(0.2, 0, 0), scale=(1, 1, 3))
    tag_motion(body, 'DYNAMIC')
    tag_shape(body, "collider", 'CONVEX', mesh_source='OBJECT', mesh_object=proxy)
    bpy.context.view_layer.update()
    result = export(tmp_path)
    assert "mesh" not in result.node("StatueProxy")  # still a node, but not rendered
    assert "mesh" in result.node("Statue")
    mesh_index = result.shape(result.body("Statue")["collider"]["shape"])["convex"]["mesh"]
    assert not any(node.get("mesh") == mesh_index for node in result.nodes)
    points = result.mesh_world_points(mesh_index, result.index("Statue"))
    # the proxy's geometry sits in the statue's frame, as the viewport overlay draws it
    assert point_sets_close(points, blender_world_vertices(proxy, frame=body), 1e-5)


def test_hidden_collision_mesh_object_still_gives_its_mesh(clean_scene, tmp_path):
    body = mesh_object("Rock", "cube")
    proxy = mesh_object("RockProxy", "ico")
    proxy.hide_set(True)
    tag_shape(body, "collider", 'CONVEX', mesh_source='OBJECT', mesh_object=proxy)
    result = export(tmp_path, use_visible=True)
    assert "RockProxy" not in [node.get("name") for node in result.nodes]
    mesh_index = result.shape(result.body("Rock")["collider"]["shape"])["convex"]["mesh"]
    assert point_sets_close(result.mesh_world_points(mesh_index, result.index("Rock")),
                            blender_world_vertices(proxy, frame=body))


def test_compound_collider_keeps_its_grouping_marker(clean_scene, tmp_path):
    parent = empty("Cart")
    tag_motion(parent, 'DYNAMIC', mass=10.0)
    parent.omi_physics.use_collider = True
    parent.omi_physics.collider.is_compound = True
    for index, x in enumerate((-1.0, 1.0)):
        wheel = empty(f"Wheel{index}", location=(x, 0, 0), parent=parent)
        tag_shape(wheel, "collider", 'SPHERE', radius=0.3)
    result = export(tmp_path)
    assert result.body("Cart")["collider"] == {"extras": {}}
    assert result.body("Cart")["motion"] == {"type": "dynamic", "mass": 10}
    for index in range(2):
        assert result.parent(result.index(f"Wheel{index}")) == result.index("Cart")
        assert "motion" not in result.body(f"Wheel{index}")
        assert result.shape(result.body(f"Wheel{index}")["collider"]["shape"])["sphere"]["radius"] == \
            pytest.approx(0.3)


def test_single_and_compound_triggers(clean_scene, tmp_path):
    tag_shape(empty("Zone"), "trigger", 'SPHERE', radius=2.0)
    group = empty("Alarm")
    group.omi_physics.use_trigger = True
    group.omi_physics.trigger.is_compound = True
    members = []
    for index in range(2):
        member = empty(f"Beam{index}", location=(index, 0, 0), parent=group)
        settings = tag_shape(member, "trigger", 'BOX', size=(0.1, 4.0, 0.1))
        if index == 1:  # an offset trigger shape lives on a child node: the compound must point there
            settings.use_offset = True
            settings.offset_location = (0, 0, 1)
        group.omi_physics.trigger.nodes.add().target = member
        members.append(member)
    result = export(tmp_path)
    zone_shape = result.shape(result.body("Zone")["trigger"]["shape"])
    assert zone_shape == {"type": "sphere", "sphere": {"radius": 2}}
    compound = result.body("Alarm")["trigger"]
    assert set(compound) == {"nodes"}
    expected = {result.carrier("Beam0", "trigger"), result.carrier("Beam1", "trigger")}
    assert set(compound["nodes"]) == expected
    assert result.carrier("Beam1", "trigger") != result.index("Beam1")
    for index in expected:
        assert "shape" in result.body(index)["trigger"]


def test_compound_trigger_drops_members_that_are_not_exported_or_not_inside(clean_scene, tmp_path):
    group = empty("Gate")
    group.omi_physics.use_trigger = True
    group.omi_physics.trigger.is_compound = True
    inside = empty("Inside", parent=group)
    hidden = empty("Hidden", parent=group)
    outside = empty("Outside")
    for member in (inside, hidden, outside):
        tag_shape(member, "trigger", 'BOX')
        group.omi_physics.trigger.nodes.add().target = member
    hidden.hide_set(True)
    result = export(tmp_path, use_visible=True)
    assert result.body("Gate")["trigger"]["nodes"] == [result.index("Inside")]
    assert result.warnings("'Gate'", "'Hidden'", "not exported")
    assert result.warnings("'Gate'", "'Outside'", "not inside")


def test_physics_materials_and_collision_filters_are_shared(clean_scene, tmp_path):
    library = clean_scene.omi_physics
    material = library.physics_materials.add()
    material.name = "Ice"
    material.static_friction, material.dynamic_friction, material.restitution = 0.1, 0.05, 0.2
    material.friction_combine = 'MINIMUM'
    collision_filter = library.collision_filters.add()
    collision_filter.name = "Player"
    collision_filter.collision_systems.add().name = "Player"
    collision_filter.mode = 'EXCEPT'
    collision_filter.listed_systems.add().name = "Ghost"
    for index in range(3):
        obj = empty(f"Slab{index}", location=(index, 0, 0))
        tag_shape(obj, "collider", 'BOX')
        obj.omi_physics.collider.physics_material = "Ice"
        obj.omi_physics.collider.collision_filter = "Player"
    trigger = empty("Sensor")
    tag_shape(trigger, "trigger", 'BOX')
    trigger.omi_physics.trigger.collision_filter = "Player"
    result = export(tmp_path)
    materials = result.root("OMI_physics_body", "physicsMaterials")
    filters = result.root("OMI_physics_body", "collisionFilters")
    assert len(materials) == 1 and len(filters) == 1
    assert materials[0]["name"] == "Ice" and materials[0]["frictionCombine"] == "minimum"
    assert materials[0]["staticFriction"] == pytest.approx(0.1)
    assert filters[0]["collisionSystems"] == ["Player"] and filters[0]["notCollideWithSystems"] == ["Ghost"]
    for index in range(3):
        collider = result.body(f"Slab{index}")["collider"]
        assert collider["physicsMaterial"] == 0 and collider["collisionFilter"] == 0
    assert result.body("Sensor")["trigger"]["collisionFilter"] == 0


def test_motion_settings_are_written_in_gltf_axes(clean_scene, tmp_path):
    obj = empty("Rover", location=(1, 2, 3), rotation=(0.1, 0.2, 0.3))
    tag_shape(obj, "collider", 'BOX')
    tag_motion(obj, 'DYNAMIC', mass=12.5, use_center_of_mass=True, center_of_mass=(0.1, 0.2, 0.3),
               inertia_diagonal=(1.0, 2.0, 3.0),
               inertia_orientation=(0.5, 0.5, 0.5, 0.5), linear_velocity=(1.0, 2.0, 3.0),
               angular_velocity=(0.4, 0.5, 0.6), gravity_factor=0.25)
    result = export(tmp_path)
    motion = result.body("Rover")["motion"]
    expected = {  # Blender (x, y, z) -> glTF (x, z, -y); principal moments swap Y and Z
        "mass": [12.5], "centerOfMass": [0.1, 0.3, -0.2], "inertiaDiagonal": [1.0, 3.0, 2.0],
        "inertiaOrientation": [0.5, 0.5, -0.5, 0.5], "linearVelocity": [1.0, 3.0, -2.0],
        "angularVelocity": [0.4, 0.6, -0.5], "gravityFactor": [0.25],
    }
    assert motion["type"] == "dynamic"
    for key, value in expected.items():
        written = motion[key] if isinstance(motion[key], list) else [motion[key]]
        assert close(written, value, 1e-6), (key, written)
