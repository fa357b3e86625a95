"""The Blender preview of a wheeled vehicle (io/blender/builder/vehicle_preview.py): the spec's simple_car.gltf,
imported, drives forward in Blender's simulation once its back wheels' throttle is keyed, and its wheels turn;
with no throttle it stays where it settles."""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

import bpy
import export_support as support
import import_support
import pytest
from mathutils import Matrix

pytestmark = pytest.mark.usefixtures("omi_addon")

SPEC = Path(__file__).resolve().parents[4] / "shared" / "omi-vehicles-spec"
CAR = SPEC / "OMI_vehicle_wheel" / "examples" / "simple_car.gltf"
SECONDS = 2.0


class Drive(NamedTuple):
    """Where 2 s of Blender's simulation took the car: metres forward, up and sideways, the wheel's turn."""

    forward: float
    height: float
    turned: float
    messages: list[str]
    sideways: float


def drive(throttle: float, steering: float = 0.0, *, vehicle: bool = False) -> Drive:
    """(forward metres, height change, back wheel's turn in radians) after SECONDS; the import's messages.
    The car is left at the last frame (`drive.sideways`: its sideways metres). `vehicle`: the throttle and
    steering keyed on the vehicle body's activation (forward, yaw) instead of on the wheels."""
    if not CAR.exists():
        pytest.skip(f"{CAR} is absent (../shared/omi-vehicles-spec)")
    imported = import_support.import_gltf(CAR)
    floor = support.mesh_object("Floor", location=(0.0, 0.0, -1.1))
    floor.data.transform(Matrix.Diagonal((200.0, 200.0, 1.0, 1.0)))
    support.add_rigid_body(floor, 'PASSIVE', 'BOX')
    if vehicle:
        settings = imported.obj("SimpleCar").omi_physics.units.vehicle_body
        settings.linear_activation, settings.angular_activation = (0.0, 0.0, throttle), (0.0, steering, 0.0)
        settings.keyframe_insert("linear_activation", frame=1)
        settings.keyframe_insert("angular_activation", frame=1)
        throttle = steering = 0.0
    for name in ("WheelBackLeft", "WheelBackRight"):
        settings = imported.obj(name).omi_physics.units.vehicle_wheel
        settings.target_propulsion_force_ratio = throttle
        settings.keyframe_insert("target_propulsion_force_ratio", frame=1)
    for name in ("WheelFrontLeft", "WheelFrontRight"):
        settings = imported.obj(name).omi_physics.units.vehicle_wheel
        settings.target_steering_ratio = steering
        settings.keyframe_insert("target_steering_ratio", frame=1)
    scene = bpy.context.scene
    last = 1 + round(SECONDS * scene.render.fps)
    scene.frame_start, scene.frame_end = 1, last
    scene.rigidbody_world.point_cache.frame_end = last
    car, wheel = imported.obj("SimpleCar"), imported.obj("WheelBackLeftMesh")
    start, turn_start = car.matrix_world.translation.copy(), wheel.matrix_world.to_euler().x
    for frame in range(1, last + 1):
        scene.frame_set(frame)
    moved = car.matrix_world.translation - start
    turned = wheel.matrix_world.to_euler().x - turn_start
    return Drive(-moved.y, moved.z, turned, [text for _, text in imported.messages], moved.x)


def test_the_imported_car_drives_forward_when_its_throttle_is_keyed():
    forward, height, turned, messages, _sideways = drive(1.0)
    print(f"forward {forward:.3f} m, height {height:+.3f} m, wheel turned {turned:.2f} rad")
    assert forward > 2.0
    assert abs(height) < 0.5
    assert abs(turned) > 0.1
    assert sum("vehicles previewed" in message for message in messages) == 1


def test_without_throttle_the_car_stays():
    forward, height, _, _, _ = drive(0.0)
    print(f"forward {forward:.3f} m, height {height:+.3f} m")
    assert abs(forward) < 0.1


def test_keyed_steering_turns_the_car():
    straight = drive(1.0).forward
    steered = drive(1.0, steering=1.0)
    forward, sideways = steered.forward, steered.sideways
    print(f"steered: forward {forward:.3f} m (straight {straight:.3f}), sideways {sideways:+.3f} m")
    assert abs(sideways) > 0.5 and forward < straight


def test_the_preview_stays_out_of_the_export(tmp_path):
    drive(1.0)  # the car has driven 2 s: the export still writes the wheels where the file had them
    exported = support.export(tmp_path, "car", 'GLTF_SEPARATE', check=False)
    names: list[str] = [node.get("name", "") for node in exported.nodes]
    assert not [name for name in names if "hub" in name or "suspension" in name or name.endswith(" wheel")]
    wheel = exported.node("WheelBackLeft")
    assert wheel.get("translation") == pytest.approx([0.8, 0.0, -1.15], abs=1e-5)
    assert "rotation" not in wheel or wheel["rotation"] == pytest.approx([0.0, 0.0, 0.0, 1.0], abs=1e-5)


def test_the_vehicles_activation_drives_and_steers_it_as_the_wheels_ratios_do():
    wheels, vehicle = drive(1.0, steering=1.0), drive(1.0, steering=1.0, vehicle=True)
    by_wheels, by_vehicle = (wheels.forward, wheels.sideways), (vehicle.forward, vehicle.sideways)
    assert by_vehicle == pytest.approx(by_wheels, abs=1e-3)
    backwards = drive(-1.0, vehicle=True).forward
    print(f"vehicle activation: forward {by_vehicle[0]:.3f} m, sideways {by_vehicle[1]:+.3f} m; "
          f"reverse {backwards:.3f} m")
    assert backwards < -2.0
    drivers = [driver for obj in bpy.data.objects if obj.animation_data for driver in obj.animation_data.drivers]
    assert drivers and all(driver.driver.is_simple_expression and driver.driver.is_valid for driver in drivers)
