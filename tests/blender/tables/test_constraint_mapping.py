"""The constraint mapping there and back: every Blender constraint type goes Blender -> model -> Blender, and
every special joint of the spec (and a custom, a spring and a motor joint) goes model -> Blender -> model,
with the same values and nothing reported as lost. Both directions read `io/blender/tables/constraints.py`.
"""

from __future__ import annotations

import math
from typing import Any

import bpy
import export_support as support
import omi_core.model
import pytest


@pytest.fixture(scope="module")
def mapping(omi):
    modules = {"constraints": "tables.constraints", "adopt_constraints": "adopt.from_constraints",
               "rigid_body_joints": "builder.constraint_settings", "bullet": "tables.bullet"}
    return {name: omi(f"io.blender.{module}") for name, module in modules.items()}


@pytest.fixture(scope="module")
def model(omi):
    return omi_core.model


# Blender constraint type -> settings that use what the type offers (limits, springs, motors).
BLENDER_CONSTRAINTS: dict[str, dict[str, Any]] = {
    'FIXED': {},
    'POINT': {},
    'HINGE': {"use_limit_ang_z": True, "limit_ang_z_lower": -0.5, "limit_ang_z_upper": 1.25},
    'HINGE_FREE': {},
    'SLIDER': {"use_limit_lin_x": True, "limit_lin_x_lower": -0.25, "limit_lin_x_upper": 0.75},
    'PISTON': {"use_limit_lin_x": True, "limit_lin_x_lower": -0.25, "limit_lin_x_upper": 0.75,
               "use_limit_ang_x": True, "limit_ang_x_lower": -0.3, "limit_ang_x_upper": 0.2},
    'GENERIC': {"use_limit_lin_x": True, "limit_lin_x_lower": -1.0, "limit_lin_x_upper": 1.0,
                "use_limit_lin_y": True, "use_limit_ang_z": True, "limit_ang_z_lower": -math.pi / 4,
                "limit_ang_z_upper": 0.1},
    'GENERIC_SPRING': {"use_limit_lin_z": True, "use_spring_x": True, "spring_stiffness_x": 30.0,
                       "spring_damping_x": 0.5, "use_spring_ang_y": True, "spring_stiffness_ang_y": 12.0,
                       "spring_damping_ang_y": 0.25, "spring_type": 'SPRING2'},
    'MOTOR': {"use_motor_ang": True, "motor_ang_target_velocity": 2.0, "motor_ang_max_impulse": 3.0,
              "use_motor_lin": True, "motor_lin_target_velocity": -1.0, "motor_lin_max_impulse": 0.5},
}


def compared_properties(constraints, constraint_type: str) -> list[tuple[str, ...]]:
    """Every switch that carries meaning for this type, by the table, each with the values it switches on."""
    kind = constraints.CONSTRAINT_KINDS[constraint_type]
    groups = [(constraints.use_limit(dof), *constraints.limit_bounds(dof)) for dof in kind.dofs(constraints.LIMITED)]
    if constraint_type == 'GENERIC_SPRING':
        groups += [constraints.spring(dof) for dof in kind.roles] + [("spring_type",)]
    if constraint_type == 'MOTOR':
        groups += [constraints.motor(angular) for angular in (False, True)]
    return groups


def same(a, b) -> bool:
    if isinstance(a, float) or isinstance(b, float):
        return math.isclose(a, b, rel_tol=1e-6, abs_tol=1e-6)
    return a == b


def bodies():
    first = support.mesh_object("First", location=(0.0, 0.0, 0.0))
    second = support.mesh_object("Second", location=(0.0, 0.0, 0.0))
    support.add_rigid_body(first, 'PASSIVE')
    support.add_rigid_body(second, 'ACTIVE')
    return first, second


def test_the_table_covers_every_blender_constraint_type(mapping):
    rna = bpy.types.RigidBodyConstraint.bl_rna.properties["type"]
    assert set(mapping["constraints"].CONSTRAINT_KINDS) == {item.identifier for item in rna.enum_items}
    for kind in mapping["constraints"].CONSTRAINT_KINDS.values():
        for dof in kind.dofs(mapping["constraints"].LIMITED):  # every name the table spells exists in Blender
            for name in (mapping["constraints"].use_limit(dof), *mapping["constraints"].limit_bounds(dof)):
                assert name in bpy.types.RigidBodyConstraint.bl_rna.properties, name


@pytest.mark.parametrize("case", sorted(BLENDER_CONSTRAINTS))
def test_blender_to_model_to_blender(clean_scene, mapping, case):
    constraint_type = case.removesuffix("_FREE")
    first, second = bodies()
    original = support.add_constraint("Original", constraint_type, first, second, **BLENDER_CONSTRAINTS[case])
    issues: list[Any] = []
    joint = mapping["adopt_constraints"].constraint_joint(original, issues)
    assert issues == []
    limits, drives = mapping["rigid_body_joints"].from_model(joint.settings)
    specs, notes = mapping["rigid_body_joints"].plan_constraints(limits, drives)
    assert notes == set()
    assert [spec.type for spec in specs] == [constraint_type]
    spec = specs[0]
    assert spec.axis == (spec.axis if spec.align is None else {"Z": 2, "X": 0}[spec.align])  # no frame turn
    rebuilt = support.add_constraint("Rebuilt", spec.type, first, second, **spec.values)
    compared = 0
    for group in compared_properties(mapping["constraints"], constraint_type):
        switch = getattr(original.rigid_body_constraint, group[0])
        for name in group[:1] + (group[1:] if switch is True else ()):
            a, b = getattr(original.rigid_body_constraint, name), getattr(rebuilt.rigid_body_constraint, name)
            assert same(a, b), (name, a, b)
            compared += 1
    assert compared >= len(BLENDER_CONSTRAINTS[case])  # every value set above was compared


def spec_joints(model, bullet) -> dict[str, Any]:
    """The spec's special joints (and three more) in the canonical form the Blender side writes: fixed
    axes grouped per kind, then each range on its own axis; glTF axes whose Blender frame needs no turn."""
    fixed_linear = model.JointLimit(linear_axes=(0, 1, 2), min=0.0, max=0.0)
    fixed_angular = model.JointLimit(angular_axes=(0, 1, 2), min=0.0, max=0.0)
    settings = model.JointSettings
    return {
        "fixed": settings(limits=(fixed_linear, fixed_angular)),
        "pin": settings(limits=(fixed_linear,)),
        "hinge": settings(limits=(fixed_linear, model.JointLimit(angular_axes=(0, 2), min=0.0, max=0.0),
                                  model.JointLimit(angular_axes=(1,), min=-0.5, max=1.0))),
        "slider": settings(limits=(model.JointLimit(linear_axes=(1, 2), min=0.0, max=0.0), fixed_angular,
                                   model.JointLimit(linear_axes=(0,), min=-0.25, max=0.75))),
        "turning slider": settings(limits=(
            model.JointLimit(linear_axes=(1, 2), min=0.0, max=0.0),
            model.JointLimit(angular_axes=(1, 2), min=0.0, max=0.0),
            model.JointLimit(linear_axes=(0,), min=-0.25, max=0.75),
            model.JointLimit(angular_axes=(0,), min=-0.5, max=0.25))),
        "custom": settings(limits=(model.JointLimit(linear_axes=(2,), min=0.0, max=0.0),
                                   model.JointLimit(linear_axes=(0,), min=-1.0, max=1.0),
                                   model.JointLimit(angular_axes=(1,), min=-0.75, max=0.25))),
        "spring": settings(limits=(model.JointLimit(linear_axes=(1,), min=0.0, max=0.0),),
                           drives=(model.JointDrive(type="linear", mode="force", axis=0, position_target=0.0,
                                                    stiffness=30.0, damping=0.5),)),
        "motor": settings(drives=(
            model.JointDrive(type="linear", mode="force", axis=0, max_force=0.5, velocity_target=-1.0,
                             damping=bullet.motor_damping(0.5)),
            model.JointDrive(type="angular", mode="force", axis=0, max_force=3.0, velocity_target=2.0,
                             damping=bullet.motor_damping(3.0)))),
    }


@pytest.mark.parametrize("name", ["fixed", "pin", "hinge", "slider", "turning slider", "custom", "spring", "motor"])
def test_model_to_blender_to_model(clean_scene, mapping, model, name):
    settings = spec_joints(model, mapping["bullet"])[name]
    limits, drives = mapping["rigid_body_joints"].from_model(settings)
    specs, notes = mapping["rigid_body_joints"].plan_constraints(limits, drives)
    assert notes == set()
    assert len(specs) == 1
    first, second = bodies()
    built = support.add_constraint("Built", specs[0].type, first, second, **specs[0].values)
    issues: list[Any] = []
    back = mapping["adopt_constraints"].constraint_joint(built, issues).settings
    assert issues == []
    assert len(back.limits) == len(settings.limits)
    for found, wanted in zip(back.limits, settings.limits, strict=True):
        assert (found.linear_axes, found.angular_axes) == (wanted.linear_axes, wanted.angular_axes)
        assert same(found.min, wanted.min) and same(found.max, wanted.max), (found, wanted)
    assert len(back.drives) == len(settings.drives)
    for found, wanted in zip(back.drives, settings.drives, strict=True):
        for field in ("type", "mode", "axis", "max_force", "position_target", "velocity_target", "stiffness",
                      "damping"):
            a, b = getattr(found, field), getattr(wanted, field)
            assert (a is None and b is None) or same(a, b), (field, a, b)


def test_a_preset_builds_the_constraint_type_the_table_names(mapping, omi):
    presets = omi("operators.joint_presets")
    convert = omi("properties.convert_joint")
    constraints = mapping["constraints"]
    for special in constraints.SPECIAL_JOINTS:
        for turn in ((None, (-0.5, 0.5)) if special == 'SLIDER' else (None,)):
            specs = presets.preset_limits(special, 'Z', -0.5, 1.0, turn)
            limits = [mapping["rigid_body_joints"].Limit(spec.kind == 'ANGULAR', spec.axes, spec.min, spec.max)
                      for spec in specs]
            planned, notes = mapping["rigid_body_joints"].plan_constraints(limits, [])
            assert notes == set()
            assert [spec.type for spec in planned] == [constraints.special_kind(special, turn is not None).type]
            model_limits = tuple(convert.limit_to_model(_LimitPG(spec)) for spec in specs)
            assert convert.joint_preset(model_limits) == special


class _LimitPG:
    """A limit PropertyGroup's fields, from a preset's LimitSpec (what write_limits stores)."""

    def __init__(self, spec) -> None:
        self.kind, self.axes = spec.kind, spec.axes
        self.use_min, self.use_max = spec.min is not None, spec.max is not None
        self.min_linear = self.min_angular = spec.min or 0.0
        self.max_linear = self.max_angular = spec.max or 0.0
        self.use_stiffness, self.stiffness, self.damping = False, 0.0, 0.0
        self.unknown_json = ""  # nothing kept from a file


@pytest.mark.parametrize("case", ["MOTOR", "GENERIC_SPRING", "HINGE", "PISTON"])
def test_sync_from_blender_then_to_blender_reports_nothing(clean_scene, omi, case):
    """The add-on's own output is never "something Blender cannot express" (a motor's damping was)."""
    sync = omi("operators.sync")
    first, second = bodies()
    joint = support.add_constraint("Joint", case, first, second, **BLENDER_CONSTRAINTS[case])
    issues: list[Any] = []
    assert all(sync.adopt_rigid_body(obj, clean_scene, issues) for obj in (first, second))
    assert sync.adopt_constraint(joint, issues)
    assert issues == []
    joint.omi_physics.joint.connected_object = second  # the joint frame is the constraint object's ...
    joint.parent = first  # ... and its body is object1's
    omi("io.blender.builder.rigid_body").build_rigid_bodies(clean_scene, [first, second, joint],
                                                   omi("properties.convert_build").SettingsPhysics(clean_scene), issues)
    assert [issue.message for issue in issues] == []
