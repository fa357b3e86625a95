"""Artists switching from the other Blender glTF-physics add-ons keep their physics.

Each .blend is authored here with stand-in PropertyGroups of the same names and types as the peers' own
(ZycaR's OMI add-on: `Object.omi_physics_props`; the KHR spec author's exporter: `Object.khr_physics_extra_props`
and `khr_physics_extra_constraint_props`, beside Blender's rigid bodies), saved, and opened again with only this
add-on: Blender keeps the values as stored properties. Before Adopt, Validate and export name them; after it,
the export carries the artist's physics and the peers' values are unchanged.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from pathlib import Path

import bpy
import export_support as support
import import_support
import pytest

ZYCAR_SHAPES = [(name, name, "") for name in ("box", "sphere", "cylinder", "capsule", "convex", "trimesh", "none")]
ZYCAR_BODIES = [(name, name, "") for name in ("static", "kinematic", "dynamic")]
AXES = [(name, name, "") for name in "XYZ"]
COMBINE = [(name, name, "", number) for number, name in enumerate(("average", "minimum", "maximum", "multiply"))]
DRIVE_MODES = [("force", "Force", "", 0), ("acceleration", "Acceleration", "", 1)]


class ZycarStandIn(bpy.types.PropertyGroup):
    is_collision: bpy.props.BoolProperty()
    body_type: bpy.props.EnumProperty(items=ZYCAR_BODIES, default="static")
    is_trigger: bpy.props.BoolProperty()
    shape_type: bpy.props.EnumProperty(items=ZYCAR_SHAPES, default="box")
    box_size: bpy.props.FloatVectorProperty(size=3, default=(1.0, 1.0, 1.0))
    sphere_radius: bpy.props.FloatProperty(default=0.5)
    capsule_radius: bpy.props.FloatProperty(default=0.5)
    capsule_height: bpy.props.FloatProperty(default=1.0)
    capsule_axis: bpy.props.EnumProperty(items=AXES, default="Y")
    mass: bpy.props.FloatProperty(default=1.0)
    linear_velocity: bpy.props.FloatVectorProperty(size=3)


class EoinBodyStandIn(bpy.types.PropertyGroup):
    is_trigger: bpy.props.BoolProperty()
    gravity_factor: bpy.props.FloatProperty(default=1.0)
    linear_velocity: bpy.props.FloatVectorProperty(default=(0, 0, 0))
    friction_combine: bpy.props.EnumProperty(items=COMBINE)


class EoinConstraintStandIn(bpy.types.PropertyGroup):
    use_ang_drive_z: bpy.props.BoolProperty()
    ang_z_drive_mode: bpy.props.EnumProperty(items=DRIVE_MODES)
    ang_z_drive_vel_target: bpy.props.FloatProperty()
    ang_z_drive_force_limited: bpy.props.BoolProperty()
    ang_z_drive_max_force: bpy.props.FloatProperty()
    ang_z_drive_damping: bpy.props.FloatProperty()


STAND_INS = ((ZycarStandIn, "omi_physics_props"), (EoinBodyStandIn, "khr_physics_extra_props"),
             (EoinConstraintStandIn, "khr_physics_extra_constraint_props"))


@pytest.fixture
def peers_installed(omi_addon) -> Iterator[None]:
    """The peers' PropertyGroups registered while a scene is authored; the test unregisters them to open it."""
    for cls, name in STAND_INS:
        bpy.utils.register_class(cls)
        setattr(bpy.types.Object, name, bpy.props.PointerProperty(type=cls))
    yield
    uninstall_peers()


def uninstall_peers() -> None:
    for cls, name in STAND_INS:
        if hasattr(bpy.types.Object, name):
            delattr(bpy.types.Object, name)
        if getattr(cls, "is_registered", False):
            bpy.utils.unregister_class(cls)


def reopen_without_peers(tmp_path: Path) -> None:
    path = tmp_path / "authored.blend"
    bpy.ops.wm.save_as_mainfile(filepath=str(path))
    uninstall_peers()
    bpy.ops.wm.open_mainfile(filepath=str(path))


def adopt_operator_and_export(tmp_path: Path, name: str) -> support.Exported:
    assert bpy.ops.omi.adopt_peer_settings() == {'FINISHED'}
    return support.export(tmp_path, name)


def zycar_scene() -> None:
    bpy.ops.wm.read_homefile(use_empty=True)
    floor = support.mesh_object("Floor")
    floor.omi_physics_props.is_collision = True
    floor.omi_physics_props.box_size = (10.0, 6.0, 0.5)  # Blender X, Y, Z
    ball = support.mesh_object("Ball", location=(0.0, 0.0, 3.0))
    props = ball.omi_physics_props
    props.is_collision, props.body_type, props.shape_type, props.sphere_radius = True, "dynamic", "sphere", 0.4
    props.mass, props.linear_velocity = 3.0, (1.0, 0.0, 0.0)
    zone = support.mesh_object("Zone", location=(4.0, 0.0, 1.0))
    zone.omi_physics_props.is_collision = zone.omi_physics_props.is_trigger = True
    pill = support.mesh_object("Pill", location=(-3.0, 0.0, 2.0))
    props = pill.omi_physics_props
    props.is_collision, props.shape_type, props.capsule_radius, props.capsule_height = True, "capsule", 0.25, 2.0
    props.capsule_axis = "Z"
    support.mesh_object("Untagged", location=(0.0, 5.0, 0.0)).omi_physics_props.box_size = (2.0, 2.0, 2.0)


def test_a_zycar_blend_is_named_until_adopted_then_exports_its_physics(peers_installed, omi, tmp_path):
    zycar_scene()
    reopen_without_peers(tmp_path)
    assert not hasattr(bpy.data.objects["Ball"], "omi_physics_props")  # only this add-on now

    validate_checks = omi("operators.validate_checks")
    named = {p.object_name for p in validate_checks.check_scene(bpy.context.scene) if p.code == "PEER_NOT_ADOPTED"}
    assert named == {"Floor", "Ball", "Zone", "Pill"}  # "Untagged" has the group but its switch off
    before = support.export(tmp_path, "before")
    lines = before.warnings("ZycaR")
    assert len(lines) == 1 and "4 objects" in lines[0] and "'Ball'" in lines[0], before.messages
    assert support.BODY not in before.gltf.get("extensionsUsed", [])

    exported = adopt_operator_and_export(tmp_path, "adopted")
    assert not exported.warnings("ZycaR")
    ball = exported.body("Ball")
    assert ball["motion"]["type"] == "dynamic" and math.isclose(ball["motion"]["mass"], 3.0)
    assert ball["motion"]["linearVelocity"] == [1.0, 0.0, 0.0]  # ZycaR writes velocities unconverted
    assert exported.shape(ball["collider"]["shape"]) == {"type": "sphere", "sphere": {"radius": pytest.approx(0.4)}}
    floor = exported.body("Floor")
    assert floor["motion"] == {"type": "static"} or "motion" not in floor
    assert exported.shape(floor["collider"]["shape"])["box"]["size"] == pytest.approx([10.0, 0.5, 6.0])
    zone = exported.body("Zone")
    assert "trigger" in zone and "collider" not in zone and "motion" not in zone
    capsule = exported.shape(exported.body("Pill")["collider"]["shape"])["capsule"]
    assert capsule["height"] == pytest.approx(1.5)  # ZycaR's full height 2 less the two 0.25 m caps
    assert "Untagged" not in {exported.nodes[i]["name"] for i, n in enumerate(exported.nodes)
                              if support.BODY in n.get("extensions", {})}
    # the peer's values are untouched: an artist can go back
    stored = omi("io.blender.adopt.peer_props").stored_group(bpy.data.objects["Ball"], "omi_physics_props")
    assert stored["mass"] == 3.0 and stored["shape_type"] == 1
    again = validate_checks.check_scene(bpy.context.scene)
    assert not [p for p in again if p.code == "PEER_NOT_ADOPTED"]


def eoin_scene() -> None:
    bpy.ops.wm.read_homefile(use_empty=True)
    floor = support.mesh_object("Floor", location=(0.0, 0.0, -0.5))
    floor.scale = (6.0, 6.0, 0.5)
    support.add_rigid_body(floor, 'PASSIVE')
    zone = support.mesh_object("Zone", location=(0.0, 0.0, 1.5))
    support.add_rigid_body(zone, 'PASSIVE')
    zone.khr_physics_extra_props.is_trigger = True
    ball = support.mesh_object("Ball", "ico", location=(0.0, 0.0, 4.0))
    support.add_rigid_body(ball, 'ACTIVE', 'SPHERE', linear_damping=0.0, angular_damping=0.0)
    ball.khr_physics_extra_props.gravity_factor = 0.5
    ball.khr_physics_extra_props.linear_velocity = (0.0, 2.0, 0.0)  # Blender's +Y: glTF's -Z
    ball.khr_physics_extra_props.friction_combine = "minimum"
    post = support.mesh_object("Post", location=(4.0, 0.0, 1.0))
    support.add_rigid_body(post, 'PASSIVE')
    door = support.mesh_object("Door", location=(4.0, 1.0, 1.0))
    support.add_rigid_body(door, 'ACTIVE')
    hinge = support.add_constraint("Hinge", 'HINGE', post, door, location=(4.0, 0.5, 1.0))
    drive = hinge.khr_physics_extra_constraint_props
    drive.use_ang_drive_z, drive.ang_z_drive_vel_target, drive.ang_z_drive_damping = True, 2.0, 5.0


def test_an_eoin_blend_keeps_its_trigger_velocity_gravity_and_drive_once_adopted(peers_installed, omi, tmp_path):
    eoin_scene()
    reopen_without_peers(tmp_path)
    before = support.export(tmp_path, "before")
    lines = before.warnings("KHR (eoin)")
    assert len(lines) == 1 and "'Zone'" in lines[0] and "'Hinge'" in lines[0], before.messages
    assert "collider" in before.body("Zone")  # the zone is solid until adopted

    exported = adopt_operator_and_export(tmp_path, "adopted")
    zone = exported.body("Zone")
    assert "trigger" in zone and "collider" not in zone and "motion" not in zone
    motion = exported.body("Ball")["motion"]
    assert motion["gravityFactor"] == 0.5
    assert motion["linearVelocity"] == pytest.approx([0.0, 0.0, -2.0])
    material = exported.root(support.BODY, "physicsMaterials")[exported.body("Ball")["collider"]["physicsMaterial"]]
    assert material["frictionCombine"] == "minimum"
    # the drive on the constraint object's Blender Z, as the artist set it (the export writes the joint through
    # the settings like any other: its frame may come out turned round, with the target's sign)
    (drive,) = bpy.data.objects["Hinge"].omi_physics.joint.drives
    assert (drive.drive_type, drive.axis, drive.use_velocity_target) == ('ANGULAR', 'Z', True)
    assert (drive.velocity_target, drive.damping) == (pytest.approx(2.0), pytest.approx(5.0))
    (joint_node,) = [i for i, node in enumerate(exported.nodes) if support.JOINT in node.get("extensions", {})]
    (written,) = exported.root(support.JOINT, "physicsJoints")[exported.joint(joint_node)["joint"]]["drives"]
    assert (written["type"], written["axis"], abs(written["velocityTarget"])) == ("angular", 1, 2.0)


def test_the_adopted_trigger_lets_the_ball_through_in_the_exported_file(peers_installed, tmp_path):
    eoin_scene()
    reopen_without_peers(tmp_path)
    exported = adopt_operator_and_export(tmp_path, "adopted")
    import_support.import_gltf(exported.path)
    scene = bpy.context.scene
    scene.rigidbody_world.point_cache.frame_end = 80
    for frame in range(scene.frame_start, 81):
        scene.frame_set(frame)
    ball_z = bpy.data.objects["Ball"].matrix_world.translation.z
    assert ball_z < 1.0, ball_z  # through the zone (which spans 0.5 to 2.5 m), resting on the floor


def test_blender_damping_is_one_line_however_many_bodies(omi_addon, tmp_path):
    bpy.ops.wm.read_homefile(use_empty=True)
    for index in range(30):
        support.add_rigid_body(support.mesh_object(f"Box{index}", location=(3.0 * index, 0.0, 0.0)))
    still = support.mesh_object("Still", location=(0.0, 5.0, 0.0))
    support.add_rigid_body(still, linear_damping=0.0, angular_damping=0.0)
    exported = support.export(tmp_path, "damped")
    lines = [text for text in exported.messages if "damping" in text]
    assert len(lines) == 1 and "30 bodies" in lines[0] and "'Still'" not in lines[0], lines
