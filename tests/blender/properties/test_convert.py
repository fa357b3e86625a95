"""PropertyGroups <-> model: every property, both directions, with the Z-up <-> Y-up conversions checked."""

from __future__ import annotations

import math
import random
import re
import struct
from dataclasses import fields, is_dataclass
from typing import Any

import bpy
import export_support
import pytest
from mathutils import Quaternion, Vector


@pytest.fixture
def conv(omi):
    return omi("properties.convert")


@pytest.fixture
def library(omi):
    return omi("properties.library")


def new_object(name: str, mesh: bool = False) -> bpy.types.Object:
    data = bpy.data.meshes.new(name) if mesh else None
    obj = bpy.data.objects.new(name, data)
    bpy.context.scene.collection.objects.link(obj)
    return obj


def library_name_matches(back: str, original: str) -> bool:
    """Library names are unique in Blender: a taken name gets a suffix; an unnamed value reuses any equal entry."""
    if not original:
        return True
    return back == original or re.fullmatch(re.escape(original) + r"\.\d{3}", back) is not None


def approx(a: Any, b: Any, tol: float = 1e-6) -> bool:
    """Structural equality of model values with a float32-sized tolerance; `a` is the one read back."""
    if is_dataclass(a) and is_dataclass(b):
        return type(a) is type(b) and all(
            library_name_matches(getattr(a, f.name), getattr(b, f.name)) if f.name == "name"
            else approx(getattr(a, f.name), getattr(b, f.name), tol)
            for f in fields(a)
        )
    if isinstance(a, tuple) and isinstance(b, tuple):
        return len(a) == len(b) and all(approx(x, y, tol) for x, y in zip(a, b, strict=True))
    if isinstance(a, float) or isinstance(b, float):
        return a is not None and b is not None and math.isclose(a, b, rel_tol=tol, abs_tol=tol)
    return a == b


def differences(a, b, path: str = "", tol: float = 1e-6) -> list[str]:
    """Where two model values differ (for failure messages)."""
    if is_dataclass(a) and is_dataclass(b) and type(a) is type(b):
        return [d for f in fields(a) if f.name != "name" and not approx(getattr(a, f.name), getattr(b, f.name), tol)
                for d in differences(getattr(a, f.name), getattr(b, f.name), f"{path}.{f.name}", tol)]
    if isinstance(a, tuple) and isinstance(b, tuple) and len(a) == len(b):
        return [d for i, (x, y) in enumerate(zip(a, b, strict=True)) for d in differences(x, y, f"{path}[{i}]", tol)]
    return [] if approx(a, b, tol) else [f"{path}: {a!r} != {b!r}"]


def roundtrip(conv, obj, name: str = "Copy"):
    """PG -> model -> PG on a fresh object, and the model read back from it."""
    issues: list = []
    node = conv.node_from_object(obj, issues)
    copy = new_object(name, mesh=obj.type == 'MESH')
    conv.apply_node_to_object(node, copy, scene=bpy.context.scene, resolve_node=lambda ref: ref, issues=issues)
    return node, copy, issues


# --- shapes ----------------------------------------------------------------------------------------------


def test_box_size_swaps_y_and_z(conv, clean_scene):
    obj = new_object("Box")
    settings = obj.omi_physics
    settings.use_collider = True
    settings.collider.shape.shape_type = 'BOX'
    settings.collider.shape.size = (1.0, 2.0, 3.0)
    node, copy, issues = roundtrip(conv, obj)
    assert node.collider.shape.type == "box"
    assert node.collider.shape.size == (1.0, 3.0, 2.0)
    assert tuple(copy.omi_physics.collider.shape.size) == (1.0, 2.0, 3.0)
    assert copy.omi_physics.collider.shape.shape_type == 'BOX'
    assert node.motion is None and node.trigger is None and node.joint is None
    assert issues == []


def test_sphere_radius(conv, clean_scene):
    obj = new_object("Ball")
    obj.omi_physics.use_trigger = True
    shape = obj.omi_physics.trigger.shape
    shape.shape_type = 'SPHERE'
    shape.radius = 1.25
    node, copy, _issues = roundtrip(conv, obj)
    assert node.trigger.shape.type == "sphere" and node.trigger.shape.radius == 1.25
    assert copy.omi_physics.trigger.shape.shape_type == 'SPHERE'
    assert copy.omi_physics.trigger.shape.radius == 1.25
    assert copy.omi_physics.use_trigger and not copy.omi_physics.use_collider


@pytest.mark.parametrize("shape_type", ['CAPSULE', 'CYLINDER'])
@pytest.mark.parametrize(("top", "bottom"), [(0.25, 0.25), (0.75, 0.25), (0.0, 0.5)])
def test_capsule_and_cylinder_keep_height_and_radii(conv, clean_scene, shape_type, top, bottom):
    obj = new_object("Pill")
    obj.omi_physics.use_collider = True
    shape = obj.omi_physics.collider.shape
    shape.shape_type = shape_type
    shape.height = 1.5
    shape.radius_top = top
    shape.radius_bottom = bottom
    node, copy, _issues = roundtrip(conv, obj)
    value = node.collider.shape
    assert value.type == shape_type.lower()
    assert value.height == 1.5  # local Blender Z is local glTF Y: no change
    assert (value.radius_top, value.radius_bottom) == (top, bottom)  # +Z top is +Y top
    copied = copy.omi_physics.collider.shape
    assert (copied.shape_type, copied.height, copied.radius_top, copied.radius_bottom) == (shape_type, 1.5, top, bottom)


def test_height_none_means_type_default(conv, model, clean_scene):
    for shape_type in ("capsule", "cylinder"):
        obj = new_object(shape_type)
        node = model.NodePhysics(collider=model.Collider(shape=model.Shape(shape_type)))
        conv.apply_node_to_object(node, obj, scene=bpy.context.scene, resolve_node=lambda ref: ref)
        assert obj.omi_physics.collider.shape.height == model.default_height(shape_type)


def test_mesh_shapes_reference_objects(conv, clean_scene):
    obj = new_object("Rock", mesh=True)
    hull_source = new_object("RockHull", mesh=True)
    obj.omi_physics.use_collider = True
    shape = obj.omi_physics.collider.shape
    shape.shape_type = 'CONVEX'
    shape.mesh_source = 'SELF'
    assert conv.node_from_object(obj).collider.shape.mesh is obj

    shape.shape_type = 'TRIMESH'
    shape.mesh_source = 'OBJECT'
    shape.mesh_object = hull_source
    node, copy, issues = roundtrip(conv, obj)
    assert node.collider.shape.type == "trimesh" and node.collider.shape.mesh is hull_source
    assert copy.omi_physics.collider.shape.mesh_source == 'OBJECT'
    assert copy.omi_physics.collider.shape.mesh_object == hull_source
    assert issues == []

    # A resolver that returns the object itself selects SELF.
    target = new_object("Target", mesh=True)
    conv.apply_node_to_object(node, target, scene=bpy.context.scene, resolve_node=lambda ref: ref,
                              resolve_mesh=lambda _ref: target)
    assert target.omi_physics.collider.shape.mesh_source == 'SELF'


def test_missing_mesh_object_is_an_issue(conv, model, clean_scene):
    obj = new_object("Hull")
    obj.omi_physics.use_collider = True
    shape = obj.omi_physics.collider.shape
    shape.shape_type = 'CONVEX'
    shape.mesh_source = 'OBJECT'
    issues: list = []
    node = conv.node_from_object(obj, issues)
    assert node.collider.shape.type == "convex" and node.collider.shape.mesh is None
    assert len(issues) == 1 and "Hull" in issues[0].message
    assert issues[0].pointer == "/collider/shape/mesh_object"

    shape.mesh_source = 'SELF'  # an empty has no mesh
    issues.clear()
    assert conv.node_from_object(obj, issues).collider.shape.mesh is None
    assert len(issues) == 1

    unresolved: list = []
    target = new_object("Target", mesh=True)
    conv.apply_node_to_object(node, target, scene=bpy.context.scene, resolve_node=lambda ref: ref,
                              resolve_mesh=lambda _ref: None, issues=unresolved)
    assert len(unresolved) == 1
    assert target.omi_physics.collider.shape.mesh_object is None

    not_a_mesh: list = []
    node = model.NodePhysics(collider=model.Collider(model.Shape("convex", mesh=0)))
    conv.apply_node_to_object(node, target, scene=bpy.context.scene, resolve_node=lambda ref: ref,
                              resolve_mesh=lambda _ref: obj, issues=not_a_mesh)  # obj is an empty
    assert len(not_a_mesh) == 1 and "no mesh" in not_a_mesh[0].message
    assert target.omi_physics.collider.shape.mesh_object is None


def test_compound_collider_has_no_shape(conv, clean_scene):
    obj = new_object("Group")
    obj.omi_physics.use_collider = True
    obj.omi_physics.collider.is_compound = True
    node, copy, _issues = roundtrip(conv, obj)
    assert node.collider.shape is None
    assert copy.omi_physics.collider.is_compound


def test_shape_offset_matrix(conv, clean_scene):
    obj = new_object("Offset")
    shape = obj.omi_physics.collider.shape
    assert conv.shape_offset_matrix(shape) is None
    shape.use_offset = True
    shape.offset_location = (1.0, 2.0, 3.0)
    shape.offset_rotation = (0.0, 0.0, math.pi / 2)
    matrix = conv.shape_offset_matrix(shape)
    assert (matrix.translation - Vector((1.0, 2.0, 3.0))).length < 1e-6
    assert (matrix @ Vector((2.0, 0.0, 0.0)) - Vector((1.0, 4.0, 3.0))).length < 1e-6
    # The offset is not part of the model.
    obj.omi_physics.use_collider = True
    plain = new_object("Plain")
    plain.omi_physics.use_collider = True
    assert conv.node_from_object(obj) == conv.node_from_object(plain)


# --- motion ----------------------------------------------------------------------------------------------


def test_motion_every_field(conv, clean_scene):
    obj = new_object("Body")
    settings = obj.omi_physics
    settings.use_motion = True
    motion = settings.motion
    motion.motion_type = 'KINEMATIC'
    motion.mass = 3.5
    motion.use_center_of_mass, motion.center_of_mass = True, (0.1, 0.2, 0.3)
    motion.inertia_diagonal = (1.0, 2.0, 3.0)
    blender_quat = Quaternion((0.3, 0.5, -0.2), 0.8)
    motion.inertia_orientation = tuple(blender_quat)
    motion.linear_velocity = (0.0, 1.0, 0.0)
    motion.angular_velocity = (4.0, 5.0, 6.0)
    motion.gravity_factor = -0.5
    node, copy, _issues = roundtrip(conv, obj)
    value = node.motion
    assert value.type == "kinematic"
    assert value.mass == 3.5
    assert approx(value.center_of_mass, (0.1, 0.3, -0.2))
    assert value.inertia_diagonal == (1.0, 3.0, 2.0)
    assert value.linear_velocity == (0.0, 0.0, -1.0)
    assert approx(value.angular_velocity, (4.0, 6.0, -5.0))
    assert value.gravity_factor == -0.5
    # The glTF quaternion rotates glTF vectors the way the Blender one rotates Blender vectors.
    x, y, z, w = value.inertia_orientation
    gltf_quat = Quaternion((w, x, y, z))
    for probe in ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.3, -0.7, 0.2)):
        rotated_blender = blender_quat @ Vector(probe)
        expected = Vector((rotated_blender.x, rotated_blender.z, -rotated_blender.y))
        assert (gltf_quat @ Vector((probe[0], probe[2], -probe[1])) - expected).length < 1e-6
    copied = copy.omi_physics.motion
    assert copied.motion_type == 'KINEMATIC' and math.isclose(copied.mass, 3.5)
    for name in ("center_of_mass", "inertia_diagonal", "inertia_orientation", "linear_velocity", "angular_velocity"):
        assert approx(tuple(getattr(copied, name)), tuple(getattr(motion, name))), name
    assert copied.gravity_factor == -0.5


@pytest.mark.parametrize("motion_type", ['STATIC', 'KINEMATIC', 'DYNAMIC'])
def test_motion_types(conv, clean_scene, motion_type):
    obj = new_object("Body")
    obj.omi_physics.use_motion = True
    obj.omi_physics.motion.motion_type = motion_type
    node, copy, _issues = roundtrip(conv, obj)
    assert node.motion.type == motion_type.lower()
    assert copy.omi_physics.motion.motion_type == motion_type


# --- materials and filters -------------------------------------------------------------------------------


COMBINES = ['AVERAGE', 'MINIMUM', 'MAXIMUM', 'MULTIPLY']


@pytest.mark.parametrize(("friction_combine", "restitution_combine"), list(zip(COMBINES, reversed(COMBINES),
                                                                                   strict=True)))
def test_material_every_field(conv, clean_scene, friction_combine, restitution_combine):
    library = clean_scene.omi_physics.physics_materials
    entry = library.add()
    entry.name = "Grippy"
    entry.static_friction = 0.9
    entry.dynamic_friction = 0.7
    entry.restitution = 0.3
    entry.friction_combine = friction_combine
    entry.restitution_combine = restitution_combine
    obj = new_object("Floor")
    obj.omi_physics.use_collider = True
    obj.omi_physics.collider.physics_material = "Grippy"
    issues: list = []
    node = conv.node_from_object(obj, issues)
    material = node.collider.physics_material
    assert material.name == "Grippy"
    assert approx((material.static_friction, material.dynamic_friction, material.restitution), (0.9, 0.7, 0.3))
    assert material.friction_combine == friction_combine.lower()
    assert material.restitution_combine == restitution_combine.lower()
    # Into another scene: the library entry is recreated with the same name and values.
    other = bpy.data.scenes.new("Other")
    copy = bpy.data.objects.new("Copy", None)
    other.collection.objects.link(copy)
    conv.apply_node_to_object(node, copy, scene=other, resolve_node=lambda ref: ref, issues=issues)
    assert copy.omi_physics.collider.physics_material == "Grippy"
    recreated = other.omi_physics.physics_materials["Grippy"]
    assert recreated.friction_combine == friction_combine
    assert recreated.restitution_combine == restitution_combine
    assert approx(conv.node_from_object(copy).collider.physics_material, material)
    assert issues == []


def test_unknown_library_names_are_issues(conv, clean_scene):
    obj = new_object("Floor")
    obj.omi_physics.use_collider = True
    obj.omi_physics.collider.physics_material = "Nope"
    obj.omi_physics.collider.collision_filter = "Nada"
    obj.omi_physics.use_trigger = True
    obj.omi_physics.trigger.collision_filter = "Zilch"
    issues: list = []
    node = conv.node_from_object(obj, issues)
    assert node.collider.physics_material is None and node.collider.collision_filter is None
    assert node.trigger.collision_filter is None
    assert sorted(issue.pointer for issue in issues) == [
        "/collider/collision_filter", "/collider/physics_material", "/trigger/collision_filter"]
    assert all("Floor" in issue.message for issue in issues)


@pytest.mark.parametrize("mode", ['ALL', 'ONLY', 'EXCEPT'])
def test_filter_modes(conv, clean_scene, mode):
    entry = clean_scene.omi_physics.collision_filters.add()
    entry.name = "Layer"
    for name in ("Player", "Props"):
        entry.collision_systems.add().name = name
    entry.mode = mode
    for name in ("Enemy", "Debris"):
        entry.listed_systems.add().name = name
    obj = new_object("Thing")
    obj.omi_physics.use_trigger = True
    obj.omi_physics.trigger.collision_filter = "Layer"
    node, copy, issues = roundtrip(conv, obj)
    value = node.trigger.collision_filter
    assert value.name == "Layer"
    assert value.collision_systems == ("Player", "Props")
    assert value.collide_with_systems == (("Enemy", "Debris") if mode == 'ONLY' else ())
    assert value.not_collide_with_systems == (("Enemy", "Debris") if mode == 'EXCEPT' else ())
    # The same scene already holds an equal filter: it is reused, not duplicated.
    assert copy.omi_physics.trigger.collision_filter == "Layer"
    assert len(clean_scene.omi_physics.collision_filters) == 1
    assert issues == []


def test_filter_only_with_empty_list_warns(conv, clean_scene):
    entry = clean_scene.omi_physics.collision_filters.add()
    entry.name = "Nothing"
    entry.mode = 'ONLY'
    obj = new_object("Thing")
    obj.omi_physics.use_collider = True
    obj.omi_physics.collider.collision_filter = "Nothing"
    issues: list = []
    assert conv.node_from_object(obj, issues).collider.collision_filter.collide_with_systems == ()
    assert len(issues) == 1


# --- triggers --------------------------------------------------------------------------------------------


def test_compound_trigger_members(conv, clean_scene):
    obj = new_object("Zone")
    members = [new_object("PartA"), new_object("PartB")]
    trigger = obj.omi_physics.trigger
    obj.omi_physics.use_trigger = True
    trigger.is_compound = True
    trigger.nodes.add().target = members[0]
    trigger.nodes.add()  # an empty slot
    trigger.nodes.add().target = members[1]
    issues: list = []
    node = conv.node_from_object(obj, issues)
    assert node.trigger.is_compound and node.trigger.shape is None
    assert node.trigger.nodes == tuple(members)
    assert [issue.pointer for issue in issues] == ["/trigger/nodes/1"]

    copy = new_object("Copy")
    dropped: list = []
    conv.apply_node_to_object(node, copy, scene=clean_scene, issues=dropped,
                              resolve_node=lambda ref: None if ref is members[0] else ref)
    assert copy.omi_physics.trigger.is_compound
    assert [item.target for item in copy.omi_physics.trigger.nodes] == [members[1]]
    assert [issue.pointer for issue in dropped] == ["/trigger/nodes/0"]


def test_single_trigger_ignores_stale_members(conv, clean_scene):
    obj = new_object("Zone")
    obj.omi_physics.use_trigger = True
    obj.omi_physics.trigger.nodes.add().target = new_object("Old")
    node = conv.node_from_object(obj)
    assert node.trigger.shape.type == "box" and node.trigger.nodes == ()


# --- joints ----------------------------------------------------------------------------------------------

# Blender axis -> (glTF axis, whether a signed range flips)
AXIS_CASES = [("X", 0, False), ("Y", 2, True), ("Z", 1, False)]


def joint_object(name: str = "Joint"):
    obj = new_object(name)
    obj.omi_physics.use_joint = True
    obj.omi_physics.joint.connected_object = new_object(f"{name}Other")
    return obj


@pytest.mark.parametrize("kind", ['LINEAR', 'ANGULAR'])
@pytest.mark.parametrize("axis_case", AXIS_CASES)
def test_single_axis_limit(conv, clean_scene, kind, axis_case):
    axis, gltf_axis, flips = axis_case
    obj = joint_object()
    limit = obj.omi_physics.joint.limits.add()
    limit.kind = kind
    limit.axis_x, limit.axis_y, limit.axis_z = (axis == "X"), (axis == "Y"), (axis == "Z")
    if kind == 'LINEAR':
        limit.min_linear, limit.max_linear = -1.0, 2.0
    else:
        limit.min_angular, limit.max_angular = -1.0, 2.0
    limit.use_stiffness = True
    limit.stiffness = 50.0
    limit.damping = 3.0
    node, copy, issues = roundtrip(conv, obj)
    (value,) = node.joint.settings.limits
    expected_axes = (gltf_axis,)
    assert value.linear_axes == (expected_axes if kind == 'LINEAR' else ())
    assert value.angular_axes == (expected_axes if kind == 'ANGULAR' else ())
    assert (value.min, value.max) == ((-2.0, 1.0) if flips else (-1.0, 2.0))
    assert (value.stiffness, value.damping) == (50.0, 3.0)
    (copied,) = copy.omi_physics.joint.limits
    assert copied.kind == kind and copied.axes == limit.axes
    pair = (copied.min_linear, copied.max_linear) if kind == 'LINEAR' else (copied.min_angular, copied.max_angular)
    assert pair == (-1.0, 2.0)
    assert copied.use_min and copied.use_max and copied.use_stiffness
    assert (copied.stiffness, copied.damping) == (50.0, 3.0)
    assert issues == []


def test_brief_example_y_limit(conv, clean_scene):
    """A Blender Y-axis limit [-1, 2] is glTF axis 2 with [-2, 1]."""
    obj = joint_object()
    limit = obj.omi_physics.joint.limits.add()
    limit.axis_x = limit.axis_z = False
    limit.min_linear, limit.max_linear = -1.0, 2.0
    (value,) = conv.node_from_object(obj).joint.settings.limits
    assert (value.linear_axes, value.min, value.max) == ((2,), -2.0, 1.0)


@pytest.mark.parametrize(("use_min", "use_max"), [(False, True), (True, False), (False, False)])
def test_unbounded_limit_sides(conv, clean_scene, use_min, use_max):
    obj = joint_object()
    limit = obj.omi_physics.joint.limits.add()
    limit.kind = 'ANGULAR'
    limit.axis_x = limit.axis_z = False  # Y flips: the unbounded side moves
    limit.min_angular, limit.max_angular = -0.5, 0.25
    limit.use_min, limit.use_max = use_min, use_max
    node, copy, _issues = roundtrip(conv, obj)
    (value,) = node.joint.settings.limits
    assert value.min == (-0.25 if use_max else None)
    assert value.max == (0.5 if use_min else None)
    assert value.stiffness is None
    (copied,) = copy.omi_physics.joint.limits
    assert (copied.use_min, copied.use_max) == (use_min, use_max)
    assert not copied.use_stiffness
    if use_min:
        assert copied.min_angular == -0.5
    if use_max:
        assert copied.max_angular == 0.25


@pytest.mark.parametrize(("flags", "gltf_axes"), [((True, True, False), (0, 2)), ((False, True, True), (1, 2)),
                                                  ((True, False, True), (0, 1)), ((True, True, True), (0, 1, 2))])
def test_multi_axis_limit_is_sign_free(conv, clean_scene, flags, gltf_axes):
    obj = joint_object()
    limit = obj.omi_physics.joint.limits.add()
    limit.axis_x, limit.axis_y, limit.axis_z = flags
    limit.min_linear, limit.max_linear = -0.5, 1.5
    node, copy, _issues = roundtrip(conv, obj)
    (value,) = node.joint.settings.limits
    assert (value.linear_axes, value.min, value.max) == (gltf_axes, -0.5, 1.5)
    (copied,) = copy.omi_physics.joint.limits
    assert (copied.axis_x, copied.axis_y, copied.axis_z) == flags
    assert (copied.min_linear, copied.max_linear) == (-0.5, 1.5)


def test_limit_without_axes_and_joint_without_target(conv, clean_scene):
    obj = joint_object()
    limit = obj.omi_physics.joint.limits.add()
    limit.axis_x = limit.axis_y = limit.axis_z = False
    issues: list = []
    assert conv.node_from_object(obj, issues).joint.settings.limits == ()
    assert [issue.pointer for issue in issues] == ["/joint/limits/0"]
    obj.omi_physics.joint.connected_object = None
    issues.clear()
    assert conv.node_from_object(obj, issues).joint is None
    assert [issue.pointer for issue in issues] == ["/joint/connected_object"]


def test_limit_on_both_axis_sets_splits(conv, model, clean_scene):
    weld = model.JointLimit(linear_axes=(0, 1, 2), angular_axes=(0, 1, 2), min=0.0, max=0.0)
    node = model.NodePhysics(joint=model.Joint(model.JointSettings(limits=(weld,)), connected_node=None))
    obj = new_object("Weld")
    issues: list = []
    conv.apply_node_to_object(node, obj, scene=clean_scene, resolve_node=lambda ref: ref, issues=issues)
    joint = obj.omi_physics.joint
    assert [limit.kind for limit in joint.limits] == ['LINEAR', 'ANGULAR']
    assert all(limit.axes == (0, 1, 2) for limit in joint.limits)
    assert joint.preset == 'FIXED'
    assert [issue.pointer for issue in issues] == ["/joint/connected_object"]


@pytest.mark.parametrize("drive_type", ['LINEAR', 'ANGULAR'])
@pytest.mark.parametrize("mode", ['FORCE', 'ACCELERATION'])
@pytest.mark.parametrize("axis_case", AXIS_CASES)
def test_drives(conv, clean_scene, drive_type, mode, axis_case):
    axis, gltf_axis, flips = axis_case
    obj = joint_object()
    drive = obj.omi_physics.joint.drives.add()
    drive.drive_type = drive_type
    drive.mode = mode
    drive.axis = axis
    drive.use_max_force = True
    drive.max_force = 250.0
    drive.use_position_target = True
    drive.position_target_linear = 0.75
    drive.position_target_angular = 1.25
    drive.use_velocity_target = True
    drive.velocity_target = 2.0
    drive.stiffness = 10.0
    drive.damping = 4.0
    node, copy, _issues = roundtrip(conv, obj)
    (value,) = node.joint.settings.drives
    sign = -1.0 if flips else 1.0
    target = 0.75 if drive_type == 'LINEAR' else 1.25
    assert (value.type, value.mode, value.axis) == (drive_type.lower(), mode.lower(), gltf_axis)
    assert value.max_force == 250.0
    assert value.position_target == sign * target
    assert value.velocity_target == sign * 2.0
    assert (value.stiffness, value.damping) == (10.0, 4.0)
    (copied,) = copy.omi_physics.joint.drives
    assert (copied.drive_type, copied.mode, copied.axis) == (drive_type, mode, axis)
    assert copied.use_max_force and copied.max_force == 250.0
    assert copied.use_position_target and copied.use_velocity_target
    copied_target = copied.position_target_linear if drive_type == 'LINEAR' else copied.position_target_angular
    assert copied_target == target
    assert copied.velocity_target == 2.0
    assert (copied.stiffness, copied.damping) == (10.0, 4.0)


def test_drive_without_optional_values(conv, clean_scene):
    obj = joint_object()
    drive = obj.omi_physics.joint.drives.add()
    drive.axis = 'Y'
    node, copy, _issues = roundtrip(conv, obj)
    (value,) = node.joint.settings.drives
    assert (value.max_force, value.position_target, value.velocity_target) == (None, None, None)
    (copied,) = copy.omi_physics.joint.drives
    assert not (copied.use_max_force or copied.use_position_target or copied.use_velocity_target)


def test_joint_connection_and_collision(conv, clean_scene):
    obj = joint_object()
    obj.omi_physics.joint.enable_collision = True
    node, copy, _issues = roundtrip(conv, obj)
    assert node.joint.connected_node is obj.omi_physics.joint.connected_object
    assert node.joint.enable_collision
    assert copy.omi_physics.joint.connected_object == obj.omi_physics.joint.connected_object
    assert copy.omi_physics.joint.enable_collision


# --- presets ---------------------------------------------------------------------------------------------


def test_joint_presets(omi, model):
    conv = omi("properties.convert_joint")
    def lim(lin=(), ang=(), lo=0.0, hi=0.0, stiffness=None):
        return model.JointLimit(linear_axes=lin, angular_axes=ang, min=lo, max=hi, stiffness=stiffness)

    xyz = (0, 1, 2)
    assert conv.joint_preset((lim(xyz, xyz),)) == 'FIXED'
    assert conv.joint_preset((lim(xyz), lim((), xyz))) == 'FIXED'
    assert conv.joint_preset((lim(xyz),)) == 'PIN'
    assert conv.joint_preset((lim(xyz), lim((), (1,), -1.0, 1.0), lim((), (0, 2)))) == 'HINGE'
    assert conv.joint_preset((lim(xyz), lim((), (1,), None, 1.0), lim((), (0, 2)))) == 'HINGE'
    assert conv.joint_preset((lim((0, 2)), lim((1,), (), -1.0, 1.0), lim((), xyz))) == 'SLIDER'
    assert conv.joint_preset((lim((0, 2)), lim((1,), (), -1.0, 1.0), lim((), (1,), -1.0, 1.0),
                              lim((), (0, 2)))) == 'SLIDER'
    # Not special: a soft weld, a free hinge axis with one other angular free, two limits on one axis.
    assert conv.joint_preset((lim(xyz, xyz, stiffness=5.0),)) == 'CUSTOM'
    assert conv.joint_preset((lim(xyz), lim((), (0, 2)))) == 'CUSTOM'
    assert conv.joint_preset((lim(xyz, xyz), lim((), (1,), -1.0, 1.0))) == 'CUSTOM'
    assert conv.joint_preset((lim(xyz, xyz, 0.5, 0.5),)) == 'CUSTOM'
    assert conv.joint_preset(()) == 'CUSTOM'


def test_apply_detects_hinge_preset(conv, model, clean_scene):
    hinge = (model.JointLimit(linear_axes=(0, 1, 2), min=0.0, max=0.0),
             model.JointLimit(angular_axes=(0, 2), min=0.0, max=0.0),
             model.JointLimit(angular_axes=(1,), min=-1.0, max=1.0))
    obj = new_object("Door")
    node = model.NodePhysics(joint=model.Joint(model.JointSettings(limits=hinge), connected_node=obj))
    conv.apply_node_to_object(node, obj, scene=clean_scene, resolve_node=lambda ref: ref)
    assert obj.omi_physics.joint.preset == 'HINGE'


# --- model -> PG -> model identity -----------------------------------------------------------------------


def random_model(model, rng: random.Random, refs: list, meshes: list):
    def number(lo=0.0, hi=5.0):
        return round(rng.uniform(lo, hi), 3)

    def vec(lo=-5.0, hi=5.0):
        return (number(lo, hi), number(lo, hi), number(lo, hi))

    def shape():
        kind = rng.choice(model.SHAPE_TYPES)
        if kind == "box":
            return model.Shape("box", size=vec(0.1, 4.0))
        if kind == "sphere":
            return model.Shape("sphere", radius=number(0.1))
        if kind in ("capsule", "cylinder"):
            return model.Shape(kind, height=number(), radius_top=number(0.1), radius_bottom=number(0.1))
        return model.Shape(kind, mesh=rng.choice(meshes))

    def names(pool=("A", "B", "C", "D")):
        return tuple(rng.sample(pool, rng.randint(0, 3)))

    def collision_filter():
        if rng.random() < 0.3:
            return None
        mask = names()
        which = rng.randrange(3)
        return model.CollisionFilter(names(), mask if which == 1 else (), mask if which == 2 and mask else (),
                                     name=rng.choice(("", "Layer", "Mask")))

    def material():
        if rng.random() < 0.3:
            return None
        return model.PhysicsMaterial(number(0, 1), number(0, 1), number(0, 1), rng.choice(model.COMBINE_MODES),
                                     rng.choice(model.COMBINE_MODES), name=rng.choice(("", "Mat", "Other")))

    def limit():
        axes = tuple(sorted(rng.sample((0, 1, 2), rng.randint(1, 3))))
        lo = rng.choice((None, number(-3, 0)))
        hi = rng.choice((None, number(0, 3)))
        linear = rng.random() < 0.5
        return model.JointLimit(linear_axes=axes if linear else (), angular_axes=() if linear else axes,
                                min=lo, max=hi, stiffness=rng.choice((None, number(0, 100))), damping=number())

    def drive():
        return model.JointDrive(rng.choice(model.DRIVE_TYPES), rng.choice(model.DRIVE_MODES), rng.randrange(3),
                                max_force=rng.choice((None, number(0, 500))),
                                position_target=rng.choice((None, number(-2, 2))),
                                velocity_target=rng.choice((None, number(-2, 2))),
                                stiffness=number(), damping=number())

    def quat():
        q = Quaternion(Vector(vec()).normalized() if any(vec()) else Vector((0, 0, 1)), number(-3, 3))
        q.normalize()
        return (q.x, q.y, q.z, q.w)

    motion = rng.choice((None, model.Motion(rng.choice(model.MOTION_TYPES), number(0.1, 50), vec(), vec(0, 5),
                                            quat(), vec(), vec(), number(-2, 2))))
    collider = rng.choice((None, model.Collider(rng.choice((None, shape())), material(), collision_filter())))
    trigger = None
    if rng.random() < 0.6:
        compound = rng.random() < 0.4
        trigger = model.Trigger(None if compound else shape(), tuple(rng.sample(refs, 2)) if compound else (),
                                collision_filter())
    joint = None
    if rng.random() < 0.6:
        settings = model.JointSettings(tuple(limit() for _ in range(rng.randint(0, 3))),
                                       tuple(drive() for _ in range(rng.randint(0, 3))))
        joint = model.Joint(settings, rng.choice(refs), rng.random() < 0.5)
    return model.NodePhysics(motion, collider, trigger, joint)


def test_model_to_pg_to_model_identity(conv, model, clean_scene):
    rng = random.Random(20251)
    refs = [new_object(f"Ref{i}") for i in range(4)]
    meshes = [new_object(f"Mesh{i}", mesh=True) for i in range(2)]
    for index in range(60):
        node = random_model(model, rng, refs, meshes)
        obj = new_object(f"Target{index}")
        issues: list = []
        conv.apply_node_to_object(node, obj, scene=clean_scene, resolve_node=lambda ref: ref, issues=issues)
        back = conv.node_from_object(obj, issues)
        assert approx(back, node, 1e-5), f"model {index}: {differences(back, node, tol=1e-5)}"
        assert issues == [], issues
        assert conv.is_tagged(obj) == (not node.is_empty)


# --- library ---------------------------------------------------------------------------------------------


def test_unique_name(library):
    assert library.unique_name([], "Ice") == "Ice"
    assert library.unique_name(["Ice"], "Ice") == "Ice.001"
    assert library.unique_name(["Ice", "Ice.001"], "Ice") == "Ice.002"
    assert library.unique_name(["Ice", "Ice.001"], "Ice.001") == "Ice.002"


def test_material_library_dedup(library, model, clean_scene):
    ice = library.MATERIAL_PRESETS["Ice"]
    assert library.material_from_model(clean_scene, ice) == "Ice"
    assert library.material_from_model(clean_scene, ice) == "Ice"
    different = model.PhysicsMaterial(0.5, 0.5, 0.5, name="Ice")
    assert library.material_from_model(clean_scene, different) == "Ice.001"
    unnamed = model.PhysicsMaterial(0.2, 0.2, 0.2)
    assert library.material_from_model(clean_scene, unnamed) == "Material"
    # An unnamed value reuses any equal entry; a named one only its own name or a numbered copy.
    assert library.material_from_model(clean_scene, model.PhysicsMaterial(0.2, 0.2, 0.2, name="Copy")) == "Copy"
    assert library.material_from_model(clean_scene, model.PhysicsMaterial(0.2, 0.2, 0.2)) == "Material"
    assert library.material_from_model(clean_scene, different) == "Ice.001"
    assert library.material_from_model(clean_scene, model.PhysicsMaterial()) == "Material.001"
    names = [entry.name for entry in clean_scene.omi_physics.physics_materials]
    assert names == ["Ice", "Ice.001", "Material", "Copy", "Material.001"]
    assert approx(library.material_to_model(library.find_material(clean_scene, "Ice")), ice)
    assert library.find_material(clean_scene, "Missing") is None
    assert library.find_material(clean_scene, "") is None


def test_filter_library_dedup(library, model, clean_scene):
    for name, preset in library.FILTER_PRESETS.items():
        assert library.filter_from_model(clean_scene, preset) == name
        assert approx(library.filter_to_model(library.find_filter(clean_scene, name)), preset)
    count = len(clean_scene.omi_physics.collision_filters)
    assert library.filter_from_model(clean_scene, library.FILTER_PRESETS["Trigger"]) == "Trigger"
    assert library.filter_from_model(clean_scene, model.CollisionFilter()) == "Filter"
    assert len(clean_scene.omi_physics.collision_filters) == count + 1
    issues: list = []
    both = model.CollisionFilter(("A",), ("B",), ("C",), name="Bad")
    assert library.filter_from_model(clean_scene, both, issues) == "Bad"
    assert library.find_filter(clean_scene, "Bad").mode == 'ONLY'
    assert len(issues) == 1


def test_presets_are_valid(library, model):
    for name, material in library.MATERIAL_PRESETS.items():
        assert material.name == name
        assert 0.0 <= material.dynamic_friction <= material.static_friction
        assert 0.0 <= material.restitution <= 1.0
        assert {material.friction_combine, material.restitution_combine} <= set(model.COMBINE_MODES)
    assert set(library.MATERIAL_PRESETS) >= {"Ice", "Rubber", "Metal", "Wood"}
    for name, value in library.FILTER_PRESETS.items():
        assert value.name == name and value.collision_systems == (name,)
        assert not (value.collide_with_systems and value.not_collide_with_systems)


def test_is_tagged(conv, clean_scene):
    obj = new_object("Plain")
    assert not conv.is_tagged(obj)
    obj.omi_physics.use_joint = True
    assert conv.is_tagged(obj)
    camera = bpy.data.objects.new("Cam", bpy.data.cameras.new("Cam"))
    assert not conv.is_tagged(camera)


# --- float32 values --------------------------------------------------------------------------------------


def float32(value: float) -> float:
    return struct.unpack("<f", struct.pack("<f", value))[0]


def noisy_object(value: float, library_entry) -> bpy.types.Object:
    """A body whose every float property (scalars and vectors) is set to `value`."""
    obj = new_object("Noisy")
    settings = obj.omi_physics
    settings.use_motion = settings.use_collider = settings.use_joint = True
    motion = settings.motion
    motion.mass = motion.gravity_factor = value
    motion.use_center_of_mass = True
    motion.center_of_mass = motion.inertia_diagonal = motion.linear_velocity = motion.angular_velocity = (value,) * 3
    shape = settings.collider.shape
    shape.shape_type = 'CAPSULE'
    shape.height = shape.radius_top = shape.radius_bottom = value
    library_entry.static_friction = library_entry.dynamic_friction = library_entry.restitution = value
    settings.collider.physics_material = library_entry.name
    settings.joint.connected_object = new_object("Other")
    limit = settings.joint.limits.add()
    limit.axis_x, limit.axis_y, limit.axis_z = True, False, False
    limit.use_min = limit.use_max = limit.use_stiffness = True
    limit.min_linear, limit.max_linear, limit.stiffness, limit.damping = -value, value, value, value
    drive = settings.joint.drives.add()
    drive.drive_type, drive.axis = 'LINEAR', 'X'
    drive.use_max_force = drive.use_position_target = drive.use_velocity_target = True
    drive.max_force = drive.position_target_linear = drive.velocity_target = drive.stiffness = drive.damping = value
    return obj


def model_floats(node) -> list[float]:
    """Every float of a body's motion, collider shape, material, limit and drive, unsigned (axis swaps negate)."""
    motion, shape = node.motion, node.collider.shape
    material = node.collider.physics_material
    (limit,), (drive,) = node.joint.settings.limits, node.joint.settings.drives
    numbers = [motion.mass, motion.gravity_factor, *motion.center_of_mass, *motion.inertia_diagonal,
            *motion.linear_velocity, *motion.angular_velocity, shape.height, shape.radius_top, shape.radius_bottom,
            material.static_friction, material.dynamic_friction, material.restitution,
            -limit.min, limit.max, limit.stiffness, limit.damping,
            drive.max_force, drive.position_target, drive.velocity_target, drive.stiffness, drive.damping]
    return [abs(number) for number in numbers]


@pytest.mark.parametrize("value", [0.3, 0.123817444, 7.2154, 1e-7, 2.5])
def test_pg_floats_read_as_the_shortest_decimal(conv, clean_scene, value):
    """0.3 in a PropertyGroup (0.30000001192092896 as a float32) is 0.3 in the model; a value that needs
    9 digits to be its float32 keeps all 9."""
    entry = clean_scene.omi_physics.physics_materials.add()
    entry.name = "Noise"
    obj = noisy_object(value, entry)
    assert obj.omi_physics.motion.mass == float32(value)
    if value in (0.3, 0.123817444):
        assert float32(value) != value  # the PropertyGroup really holds the noisy widening
    issues: list = []
    node = conv.node_from_object(obj, issues)
    floats = model_floats(node)
    assert len(floats) == 29 and issues == []
    assert all(number == value for number in floats), floats
    assert node.motion.inertia_orientation == (0.0, 0.0, 0.0, 1.0)


def test_pg_to_model_to_pg_is_exact_for_float32(conv, clean_scene):
    rng = random.Random(32)
    entry = clean_scene.omi_physics.physics_materials.add()
    entry.name = "Noise"
    for index in range(40):
        value = float32(rng.uniform(0.0, 1000.0) * 10.0 ** rng.randint(-6, 0))
        obj = noisy_object(value, entry)
        node = conv.node_from_object(obj)
        assert [float32(number) for number in model_floats(node)] == [value] * 29
        copy = new_object(f"Copy{index}")
        conv.apply_node_to_object(node, copy, scene=clean_scene, resolve_node=lambda ref: ref)
        motion, original = copy.omi_physics.motion, obj.omi_physics.motion
        assert motion.mass == original.mass == value
        assert tuple(motion.linear_velocity) == tuple(original.linear_velocity)
        assert copy.omi_physics.collider.shape.radius_top == value
        (limit,) = copy.omi_physics.joint.limits
        assert (limit.min_linear, limit.max_linear) == (-value, value)
        material = library_material(clean_scene, copy.omi_physics.collider.physics_material)
        assert material.static_friction == value
        assert conv.node_from_object(copy) == node
        bpy.data.objects.remove(obj)


def library_material(bl_scene, name: str):
    return bl_scene.omi_physics.physics_materials[name]


def test_exported_file_shows_the_short_decimal(clean_scene, tmp_path):
    """Through the real glTF exporter: the file's text holds 0.3 where the PropertyGroups hold 0.3."""
    bpy.ops.mesh.primitive_cube_add()
    obj = bpy.context.active_object
    settings = obj.omi_physics
    settings.use_motion = settings.use_collider = True
    settings.motion.mass = 0.3
    settings.motion.linear_velocity = (0.3, 0.0, 0.0)
    settings.collider.shape.shape_type = 'SPHERE'
    settings.collider.shape.radius = 0.3
    entry = clean_scene.omi_physics.physics_materials.add()
    entry.name = "Grippy"
    entry.static_friction = 0.3
    settings.collider.physics_material = "Grippy"
    exported = export_support.export(tmp_path)
    text = exported.path.read_text(encoding="utf-8")
    body = exported.body(obj.name)
    motion = body["motion"]
    assert motion["mass"] == 0.3 and motion["linearVelocity"] == [0.3, 0.0, 0.0]
    assert exported.shapes()[body["collider"]["shape"]]["sphere"]["radius"] == 0.3
    material = exported.root(export_support.BODY, "physicsMaterials")[body["collider"]["physicsMaterial"]]
    assert material["staticFriction"] == 0.3
    assert re.search(r'"mass":\s*0\.3[,}\s]', text) and re.search(r'"radius":\s*0\.3[,}\s]', text)
    assert "0.30000001" not in text
