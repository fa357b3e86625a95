"""The units' operators and panels: Make Vehicle, Add Wheel, Add Thruster, Make Seat and Add Spawn Point on a
small scene, exported through Blender's exporter into a file the units' schemas accept and the reader reads
without a finding; the panels draw every field of each unit's tables."""

from __future__ import annotations

import types
from pathlib import Path

import addon_loader
import bpy
import export_support as support
import import_support
import numpy as np
import omi_core.dialects.fields
import omi_core.dialects.registry
import omi_core.read.reader
import pytest
from mathutils import Matrix, Vector
from present import present
from ui_recorder import Recorder


@pytest.fixture
def car(omi_addon):
    bpy.ops.wm.read_homefile(use_empty=True)
    body = support.mesh_object("Car", "cube", (0.0, 0.0, 1.0))
    body.scale = (1.0, 2.0, 0.5)
    body.data.transform(Matrix.Diagonal((1.0, 2.0, 0.5, 1.0)))
    body.scale = (1.0, 1.0, 1.0)  # the shape in its mesh: the wheels keep their own size
    bpy.context.view_layer.update()
    wheels = []
    for name, x, y in (("FL", -1.1, -1.5), ("FR", 1.1, -1.5), ("BL", -1.1, 1.5), ("BR", 1.1, 1.5)):
        bpy.ops.mesh.primitive_cylinder_add(radius=0.4, depth=0.2, rotation=(0.0, 1.5708, 0.0))
        wheel = bpy.context.active_object
        wheel.name = f"Tire {name}"  # named like a wheel
        wheel.parent = body
        wheel.location = (x, y, -0.5)
        wheels.append(wheel)
    thruster = support.empty("Booster", (0.0, 1.0, 0.0))
    thruster.parent = body
    support.select(body, active=body)
    return body, wheels, thruster


def test_a_made_vehicle_exports_valid_and_reads_clean(car, tmp_path):
    _body, _wheels, thruster = car
    assert bpy.ops.omi.make_vehicle() == {'FINISHED'}
    support.select(thruster, active=thruster)
    assert bpy.ops.omi.add_thruster(strength=500.0) == {'FINISHED'}
    assert bpy.ops.omi.add_spawn_point(title="Start", team="Red") == {'FINISHED'}
    exported = support.export(tmp_path, check=False)
    gltf = exported.gltf
    assert present(omi_core.dialects.registry.default().schema_check)(gltf, None, False) == []
    doc = omi_core.read.reader.read_document(gltf)
    assert [str(issue) for issue in doc.issues] == []
    vehicle = exported.node("Car")["extensions"]["OMI_vehicle_body"]
    seat = exported.nodes[vehicle["pilotSeat"]]
    assert "OMI_seat" in seat["extensions"] and seat["name"] == "Car Pilot Seat"
    assert "trigger" in seat["extensions"]["OMI_physics_body"]  # players reach it
    wheels_json = gltf["extensions"]["OMI_vehicle_wheel"]["wheels"]
    front = wheels_json[exported.node("Tire FL")["extensions"]["OMI_vehicle_wheel"]["wheel"]]
    rear = wheels_json[exported.node("Tire BR")["extensions"]["OMI_vehicle_wheel"]["wheel"]]
    assert front["maxSteeringAngle"] == pytest.approx(0.5) and "maxPropulsionForce" not in front
    assert rear["maxPropulsionForce"] > 0 and front["radius"] == pytest.approx(0.4, rel=1e-3)
    assert front["width"] == pytest.approx(0.2, rel=1e-3)
    booster = gltf["extensions"]["OMI_vehicle_thruster"]["thrusters"][0]
    assert booster == {"maxForce": 500.0}
    assert exported.node("Start")["extensions"]["OMI_spawn_point"] == {"title": "Start", "team": "Red"}


def test_make_seat_places_the_points_from_the_chairs_bounds(omi_addon, tmp_path):
    bpy.ops.wm.read_homefile(use_empty=True)
    chair = support.mesh_object("Chair", "cube", (0.0, 0.0, 0.5))
    support.select(chair, active=chair)
    assert bpy.ops.omi.make_seat() == {'FINISHED'}
    exported = support.export(tmp_path, check=False)
    seat = exported.node("Chair")["extensions"]["OMI_seat"]
    trigger = exported.node("Chair")["extensions"]["OMI_physics_body"]["trigger"]
    assert exported.shapes()[trigger["shape"]] == {"type": "box", "box": {"size": pytest.approx([1.0, 1.0, 1.0])}}
    back, knee, foot = (seat[name] for name in ("back", "knee", "foot"))
    assert back[1] == pytest.approx(knee[1]) and foot[1] < knee[1]  # seat height; the foot on the floor
    assert back[2] < knee[2] < foot[2]  # the character faces the file's +Z
    assert foot[1] == pytest.approx(min(corner[2] for corner in chair.bound_box))  # the chair's bottom


def test_a_wheel_outside_a_vehicle_is_named_by_validate(omi_addon, tmp_path):
    bpy.ops.wm.read_homefile(use_empty=True)
    wheel = support.mesh_object("Lonely Wheel", "cube")
    support.select(wheel, active=wheel)
    assert bpy.ops.omi.add_wheel() == {'FINISHED'}
    gltf = support.export(tmp_path, check=False).gltf
    found = omi_core.read.reader.read_document(gltf).issues
    assert [issue.kind for issue in found] == ["OMI_vehicle_wheel:placement"]


def test_the_panels_draw_each_units_fields(car, omi_addon):
    body, _wheels, _thruster = car
    bpy.ops.omi.make_vehicle()
    panels, units = addon_loader.module("panels.units"), addon_loader.module("properties.units")
    assert len(panels._MADE) == len(units.BINDINGS) == 6
    context = types.SimpleNamespace(object=body, active_object=body, scene=bpy.context.scene)
    for cls in panels._MADE:
        layout = Recorder()
        cls.draw(types.SimpleNamespace(layout=layout, binding=cls.binding), context)
        drawn = layout.prop_set()
        assert {spec.attr for spec in cls.binding.fields if spec.kind != "special"} <= drawn
    sidebar = Recorder()
    panels.VIEW3D_PT_omi_units.draw(types.SimpleNamespace(layout=sidebar), context)
    assert sidebar.operators()[:5] == ["omi.make_vehicle", "omi.make_seat", "omi.add_spawn_point", "omi.add_wheel",
                                       "omi.add_thruster"]
    assert "pilot_seat" in sidebar.prop_set()


def test_the_overlay_draws_wheel_rims_seats_and_spawn_points(omi_addon):
    """The imported car: each wheel's rims are circles of its radius around its world position, in the plane
    across its axle; the seats and the vehicle's front are drawn too, all in the units' colour."""
    car_file = Path(__file__).resolve().parents[2] / "data" / "omi_vehicles" / "OMI_vehicle_wheel" / "examples" \
        / "simple_car.gltf"
    import_support.import_gltf(car_file)
    unit_lines = addon_loader.module("viewport.unit_lines")
    scene = bpy.context.scene
    before = addon_loader.module("viewport.collect").scene_lines(scene.objects)
    lines = unit_lines.with_units(before, scene.objects)
    added = lines.positions[len(before.positions):]
    assert len(added) > 0 and np.allclose(lines.colors[len(before.positions):], unit_lines.UNIT_COLOR)
    wheel = bpy.data.objects["WheelFrontLeft"]
    buffer = addon_loader.module("viewport.geometry").LineBuffer()
    assert unit_lines.unit_lines(wheel, buffer) == 1
    points, _colors = buffer.arrays()
    rim = points[:48]  # the first rim: 24 segments
    axle = np.array(wheel.matrix_world.to_3x3() @ Vector((1.0, 0.0, 0.0)))
    centre = np.array(wheel.matrix_world.translation) - axle * 0.0625  # the rim at -width/2 (0.125 wide)
    assert np.allclose(np.linalg.norm(rim - centre, axis=1), 0.35, atol=1e-4)
    assert np.allclose((rim - centre) @ axle, 0.0, atol=1e-4)
    seats = [obj for obj in scene.objects if obj.name.startswith("Seat")]
    assert len(seats) == 4 and all(unit_lines.unit_lines(seat, buffer) == 1 for seat in seats)


def test_a_units_older_settings_migrate_when_the_file_loads(omi_addon, tmp_path):
    """A unit whose settings layout changed (version 2: power now in watts, was kilowatts) upgrades the
    settings a file saved with version 1, once, when the file loads."""
    units = addon_loader.module("properties.units")
    fields = omi_core.dialects.fields
    steps = []

    def migrate(settings, stored):
        steps.append(stored)
        settings.power *= 1000.0

    old = units.Binding("EXT_toy_migrating", "toy_migrating", "Toy", (fields.Field("power", "power", default=1.0),),
                        dict, version=1)
    units.attach(old)
    try:
        bpy.ops.wm.read_homefile(use_empty=True)
        obj = support.empty("Heater")
        settings = units.settings_of(obj, old)
        settings.enabled, settings.power = True, 2.5
        path = tmp_path / "old.blend"  # saved by version 1, which stamps its version
        bpy.ops.wm.save_as_mainfile(filepath=str(path))
        units.detach(old)
        new = units.Binding(old.unit, old.attr, old.label, old.fields, dict, version=2, migrate=migrate)
        units.attach(new)
        bpy.ops.wm.open_mainfile(filepath=str(path))
        settings = units.settings_of(bpy.data.objects["Heater"], new)
        assert steps == [1] and settings.power == pytest.approx(2500.0) and settings.version == 2
        units.migrate_units_on_load()
        assert steps == [1]  # once
        bpy.ops.wm.save_as_mainfile(filepath=str(path))  # settings made now hold the current layout
        bpy.ops.wm.open_mainfile(filepath=str(path))
        assert steps == [1]
    finally:
        for binding in [binding for binding in units.BINDINGS if binding.attr == "toy_migrating"]:
            units.detach(binding)


def test_seat_point_gizmos_sit_on_the_points_and_move_the_settings(omi_addon):
    """The gizmo group shows on a selected seat; each dot is bound to one point setting, drawn in the object's
    frame with the file's axes (so the dot sits where the overlay draws the point). Stand-ins for the gizmos:
    background Blender has no region to make them in."""
    bpy.ops.wm.read_homefile(use_empty=True)
    chair = support.mesh_object("Chair", "cube", (1.0, 2.0, 0.5), (0.0, 0.0, 0.7))
    support.select(chair, active=chair)
    bpy.ops.omi.make_seat()
    gizmo = addon_loader.module("viewport.unit_gizmo")
    group = bpy.types.GizmoGroup.bl_rna_get_subclass_py("VIEW3D_GGT_omi_unit_points")
    assert group is gizmo.VIEW3D_GGT_omi_unit_points and group.poll(bpy.context)
    class Dot(types.SimpleNamespace):
        def target_set_prop(self, name, data, prop):
            self.bound = (name, data, prop)

    dots = [Dot(hide=False, bound=None, matrix_basis=None) for _ in range(gizmo.POOL)]
    stand_in = types.SimpleNamespace(dots=dots)
    group.refresh(stand_in, bpy.context)
    group.draw_prepare(stand_in, bpy.context)
    bound = [dot.bound[2] for dot in dots if not dot.hide]
    assert bound == ["back", "knee", "foot"] and all(dot.bound[0] == "offset" for dot in dots[:3])
    settings = dots[0].bound[1]
    axes = addon_loader.module("io.blender.tables.axes")
    expected = chair.matrix_world @ Vector(axes.vec_to_blender(tuple(settings.back)))
    assert (dots[0].matrix_basis @ Vector(settings.back) - expected).length < 1e-5
    chair.select_set(False)
    assert not group.poll(bpy.context)
