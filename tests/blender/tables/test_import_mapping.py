"""The pure mappings behind the import: joint limits -> Blender constraints, collision filters -> collections;
and the import's constraints read back by the export's mapping."""

from __future__ import annotations

import itertools

import pytest
from export_support import add_constraint, add_rigid_body, mesh_object


@pytest.fixture
def joints(omi):
    return omi("io.blender.builder.constraint_settings")


@pytest.fixture
def filters(omi):
    return omi("io.blender.builder.collision_filters")


def lin(joints, axes, low=0.0, high=0.0, *, stiffness=None, damping=0.0):
    return joints.Limit(False, tuple(axes), low, high, stiffness, damping)


def ang(joints, axes, low=0.0, high=0.0, *, stiffness=None, damping=0.0):
    return joints.Limit(True, tuple(axes), low, high, stiffness, damping)


def test_weld_is_fixed(joints):
    specs, notes = joints.plan_constraints([lin(joints, (0, 1, 2)), ang(joints, (0, 1, 2))], [])
    assert [spec.type for spec in specs] == ['FIXED']
    assert notes == set()


def test_pin_is_point(joints):
    specs, _ = joints.plan_constraints([lin(joints, (0, 1, 2))], [])
    assert [spec.type for spec in specs] == ['POINT']


@pytest.mark.parametrize("axis", [0, 1, 2])
def test_hinge_turns_about_its_axis_with_negated_range(joints, axis):
    others = [a for a in range(3) if a != axis]
    specs, notes = joints.plan_constraints(
        [lin(joints, (0, 1, 2)), ang(joints, others), ang(joints, (axis,), -0.25, 1.0)], [])
    (spec,) = specs
    assert (spec.type, spec.align, spec.axis) == ('HINGE', 'Z', axis)
    assert spec.values["use_limit_ang_z"] is True
    # Blender counts angles the other way round: [-0.25, 1] becomes [-1, 0.25].
    assert spec.values["limit_ang_z_lower"] == pytest.approx(-1.0)
    assert spec.values["limit_ang_z_upper"] == pytest.approx(0.25)
    assert notes == set()


def test_free_hinge_has_no_limit(joints):
    (spec,), _ = joints.plan_constraints([lin(joints, (0, 1, 2)), ang(joints, (0, 1))], [])
    assert (spec.type, spec.axis, spec.values) == ('HINGE', 2, {"use_limit_ang_z": False})


@pytest.mark.parametrize("axis", [0, 1, 2])
def test_slider_moves_along_its_axis_with_the_same_range(joints, axis):
    others = [a for a in range(3) if a != axis]
    specs, _ = joints.plan_constraints(
        [lin(joints, others), lin(joints, (axis,), -1.75, 0.25), ang(joints, (0, 1, 2))], [])
    (spec,) = specs
    assert (spec.type, spec.align, spec.axis) == ('SLIDER', 'X', axis)
    assert spec.values == {"use_limit_lin_x": True, "limit_lin_x_lower": -1.75, "limit_lin_x_upper": 0.25}


def test_slider_that_also_turns_is_a_piston_with_the_same_ranges(joints):
    """Bullet's piston counts its turn the way OMI does (unlike the hinge): the range is kept as it is."""
    specs, _ = joints.plan_constraints(
        [lin(joints, (1, 2)), lin(joints, (0,), -1.0, 0.5), ang(joints, (1, 2)), ang(joints, (0,), 0.0, 0.5)], [])
    (spec,) = specs
    assert (spec.type, spec.axis) == ('PISTON', 0)
    assert (spec.values["limit_lin_x_lower"], spec.values["limit_lin_x_upper"]) == (-1.0, 0.5)
    assert spec.values["limit_ang_x_lower"] == pytest.approx(0.0)
    assert spec.values["limit_ang_x_upper"] == pytest.approx(0.5)


def test_other_rigid_limits_are_generic_per_axis(joints):
    limits = [lin(joints, (0,), -1.0, 2.0), lin(joints, (1, 2)), ang(joints, (0,), -0.5, 0.75)]
    (spec,), _ = joints.plan_constraints(limits, [])
    assert spec.type == 'GENERIC' and spec.align is None
    values = spec.values
    assert (values["use_limit_lin_x"], values["limit_lin_x_lower"], values["limit_lin_x_upper"]) == (True, -1.0, 2.0)
    assert (values["limit_lin_y_lower"], values["limit_lin_y_upper"]) == (0.0, 0.0)
    assert values["limit_ang_x_lower"] == pytest.approx(-0.75)
    assert values["limit_ang_x_upper"] == pytest.approx(0.5)
    assert values["use_limit_ang_y"] is False and values["use_limit_ang_z"] is False


def test_soft_fixed_limits_are_springs_of_the_same_stiffness(joints):
    specs, notes = joints.plan_constraints([lin(joints, (0, 1, 2), stiffness=0.3, damping=1.0)], [])
    (spec,) = specs
    assert spec.type == 'GENERIC_SPRING' and spec.values["spring_type"] == 'SPRING2'
    for axis in "xyz":
        assert spec.values[f"use_limit_lin_{axis}"] is False
        assert spec.values[f"use_spring_{axis}"] is True
        assert spec.values[f"spring_stiffness_{axis}"] == pytest.approx(0.3)
        assert spec.values[f"spring_damping_{axis}"] == pytest.approx(1.0)
        assert spec.values[f"use_spring_ang_{axis}"] is False
    assert notes == set()


def test_soft_range_is_rigid_and_named(joints):
    (spec,), notes = joints.plan_constraints([lin(joints, (0,), -1.0, 1.0, stiffness=5.0)], [])
    assert spec.type == 'GENERIC' and spec.values["use_limit_lin_x"] is True
    assert notes == {joints.SOFT_RANGE}


def test_linear_limits_are_measured_from_the_starting_offset(joints):
    """Blender's zero is the starting pose; OMI's is the joint frame, so a weld of offset frames pulls."""
    specs, _ = joints.plan_constraints([lin(joints, (0, 1, 2)), ang(joints, (0, 1, 2))], [], rest_offset=(0.5, 0, 0))
    (spec,) = specs
    assert (spec.type, spec.axis) == ('SLIDER', 0)  # the x offset is a (zero-length) range now
    assert (spec.values["limit_lin_x_lower"], spec.values["limit_lin_x_upper"]) == (-0.5, -0.5)


def test_velocity_drives_are_motors_with_negated_targets(joints):
    drives = [joints.Drive(True, 2, velocity_target=3.0, max_force=10.0, damping=1.0),
              joints.Drive(False, 2, velocity_target=-1.0, damping=5.0)]
    specs, notes = joints.plan_constraints([lin(joints, (0, 1, 2)), ang(joints, (0, 1))], drives)
    assert [(spec.type, spec.axis) for spec in specs] == [('HINGE', 2), ('MOTOR', 2)]
    motor = specs[1].values
    assert motor["use_motor_ang"] is True and motor["motor_ang_target_velocity"] == -3.0
    assert motor["motor_ang_max_impulse"] == 10.0
    assert motor["use_motor_lin"] is True and motor["motor_lin_target_velocity"] == 1.0
    assert motor["motor_lin_max_impulse"] == joints.UNLIMITED_FORCE
    assert joints.MOTOR_DAMPING in notes


def test_velocity_drive_without_damping_pushes_nothing(joints):
    """OMI's drive force is damping * (target - velocity): zero damping makes no motor."""
    specs, notes = joints.plan_constraints([], [joints.Drive(True, 0, velocity_target=2.0)])
    assert specs == [] and notes == set()


def test_spring_drive_on_a_free_axis(joints):
    drives = [joints.Drive(False, 1, position_target=0.0, stiffness=50.0, damping=2.0, acceleration=True)]
    (spec,), notes = joints.plan_constraints([], drives)
    assert spec.type == 'GENERIC_SPRING'
    assert spec.values["use_spring_y"] is True and spec.values["spring_stiffness_y"] == 50.0
    assert spec.values["use_limit_lin_y"] is False
    assert notes == {joints.DRIVE_ACCELERATION}


def test_nothing_constrained_gives_nothing(joints):
    assert joints.plan_constraints([], []) == ([], set())


def shares(a: tuple[bool, ...], b: tuple[bool, ...]) -> bool:
    return any(x and y for x, y in zip(a, b, strict=True))


def test_no_filters_keep_blenders_default_collection(filters):
    result = filters.assign([None, None, None])
    assert result.collections == ((True,) + (False,) * 19,) * 3
    assert result.problems == ()


def test_filters_collide_exactly_as_omi_says(filters, model):
    world = model.CollisionFilter(("world",), name="World")
    player = model.CollisionFilter(("player",), ("world",), name="Player")
    ghost = model.CollisionFilter(("ghost",), (), ("world", "player"), name="Ghost")
    nothing = model.CollisionFilter((), ("nobody",), name="Nothing")
    bodies = [None, world, world, player, player, player, ghost, ghost, nothing]
    result = filters.assign(bodies)
    assert result.problems == ()
    for (i, a), (j, b) in itertools.combinations(enumerate(bodies), 2):
        assert shares(result.collections[i], result.collections[j]) == filters.collide(a, b), (a, b)
    assert not any(result.collections[-1])
    assert not filters.collide(player, player)  # players are kept apart: one collection each


def test_same_values_share_collections_whatever_the_name(filters, model):
    a = model.CollisionFilter(("a",), name="One")
    b = model.CollisionFilter(("a",), name="Two")
    result = filters.assign([None, a, b])
    assert result.collections[1] == result.collections[2]


def test_more_groups_than_blender_has_are_reported(filters, model):
    # 25 filters that each collide only with themselves need 25 collections.
    bodies = [model.CollisionFilter((f"s{i}",), (f"s{i}",)) for i in range(25)]
    result = filters.assign(bodies)
    assert any("20" in problem for problem in result.problems)
    assert all(sum(flags) == 1 for flags in result.collections)
    assert not shares(result.collections[0], result.collections[1])


def test_bodies_kept_apart_share_when_collections_run_out(filters, model):
    ground = model.CollisionFilter(("ground",), name="Ground")
    crate = model.CollisionFilter(("crate",), ("ground",), name="Crate")
    bodies = [ground] + [crate] * 30
    result = filters.assign(bodies)
    assert any("'Crate'" in problem and "each other" in problem for problem in result.problems)
    assert all(shares(result.collections[0], flags) for flags in result.collections[1:])


# Blender axes X and Z are glTF X and Y with the same sign, so these ranges read back unchanged.
READ_BACK = {
    # name: (limits, drives) in Blender axes (X and Z only)
    "piston": (((False, (1, 2), 0.0, 0.0), (False, (0,), -0.5, 0.25), (True, (1, 2), 0.0, 0.0),
                (True, (0,), 0.0, 0.5)), ()),
    "slider": (((False, (1, 2), 0.0, 0.0), (False, (0,), -0.5, 0.25), (True, (0, 1, 2), 0.0, 0.0)), ()),
    "hinge": (((False, (0, 1, 2), 0.0, 0.0), (True, (0, 1), 0.0, 0.0), (True, (2,), -0.25, 1.0)), ()),
    "generic": (((False, (0, 1, 2), 0.0, 0.0), (True, (0,), -0.5, 0.75), (True, (2,), 0.0, 0.25)), ()),
    "motor": ((), ((True, 2.0), (False, -1.0))),
}


@pytest.mark.parametrize("case", list(READ_BACK))
def test_import_constraints_read_back_as_the_same_joint(clean_scene, joints, omi, case):
    """The import's Blender constraint, read by the export's mapping, gives the file's ranges and targets:
    both sides count Bullet's signs from one table."""
    adopt_constraints = omi("io.blender.adopt.from_constraints")
    limit_rows, drive_rows = READ_BACK[case]
    limits = [joints.Limit(angular, axes, low, high) for angular, axes, low, high in limit_rows]
    drives = [joints.Drive(angular, 0, velocity_target=target, damping=1.0) for angular, target in drive_rows]
    specs, _notes = joints.plan_constraints(limits, drives)
    (spec,) = specs
    assert spec.align is None or (spec.align, spec.axis) in {('X', 0), ('Z', 2)}  # no turn of the frame
    first, second = mesh_object("First"), mesh_object("Second", location=(0.0, 0.0, 2.0))
    add_rigid_body(first, 'PASSIVE')
    add_rigid_body(second, 'ACTIVE')
    pivot = add_constraint("Joint", spec.type, first, second, **spec.values)
    joint = adopt_constraints.constraint_joint(pivot, [])
    gltf_axis = {0: 0, 2: 1}
    ranges = {("angular" if limit.angular_axes else "linear", (limit.angular_axes or limit.linear_axes)[0]):
              (limit.min, limit.max) for limit in joint.settings.limits
              if len(limit.angular_axes) + len(limit.linear_axes) == 1 and limit.min != limit.max}
    expected = {("angular" if angular else "linear", gltf_axis[axes[0]]): (pytest.approx(low), pytest.approx(high))
                for angular, axes, low, high in limit_rows if len(axes) == 1}
    assert ranges == expected
    targets = {drive.type: drive.velocity_target for drive in joint.settings.drives}
    assert targets == {("angular" if angular else "linear"): pytest.approx(target) for angular, target in drive_rows}
