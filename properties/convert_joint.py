"""Joint PropertyGroups <-> model, both directions side by side, and which special joint of the spec a
set of limits is (read from `io/blender/tables/constraints`, the table the Blender side uses too).

The PropertyGroups hold the joint object's local Blender axes; the model holds glTF axes (`axes`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import bpy

from ..io.blender.tables import axes, constraints
from ..io.omi import model
from ..io.omi.conventions import held_choice
from .convert_common import issue as _issue
from .convert_common import kept
from .convert_common import pg_float as _float
from .joint import OMIJointDrive, OMIJointLimit, OMIJointSettings
from .stored import store

NodeResolver = Callable[[model.NodeRef], "bpy.types.Object | None"]


def limit_to_model(pg: OMIJointLimit) -> model.JointLimit | None:
    """A limit in Blender axes as a glTF limit; None when no axis is chosen.

    A single-axis range is signed, so it flips when the axis flips; a 2- or 3-axis limit bounds a radial
    distance (or angle) and keeps its values.
    """
    blender_axes = pg.axes
    if not blender_axes:
        return None
    gltf_axes, sign = axes.joint_axes(blender_axes, to_blender=False)
    angular = pg.kind == 'ANGULAR'
    low = _float(pg.min_angular if angular else pg.min_linear) if pg.use_min else None
    high = _float(pg.max_angular if angular else pg.max_linear) if pg.use_max else None
    low, high = axes.signed_range(low, high, sign)
    low, high = (None if low is None else low + 0.0), (None if high is None else high + 0.0)
    return model.JointLimit(
        linear_axes=() if angular else gltf_axes,
        angular_axes=gltf_axes if angular else (),
        min=low,
        max=high,
        stiffness=_float(pg.stiffness) if pg.use_stiffness else None,
        damping=_float(pg.damping),
        unknown=kept(pg.unknown_json),
    )


def drive_to_model(pg: OMIJointDrive) -> model.JointDrive:
    """A drive on a Blender axis as a drive on the matching glTF axis (targets negate when it flips)."""
    (axis,), sign = axes.joint_axes((constraints.AXIS_IDS.index(pg.axis),), to_blender=False)
    angular = pg.drive_type == 'ANGULAR'
    position = _float(pg.position_target_angular if angular else pg.position_target_linear) \
        if pg.use_position_target else None
    velocity = _float(pg.velocity_target) if pg.use_velocity_target else None
    if sign < 0:
        position = None if position is None else -position + 0.0
        velocity = None if velocity is None else -velocity + 0.0
    return model.JointDrive(
        type=pg.drive_type.lower(),
        mode=pg.mode.lower(),
        axis=axis,
        max_force=_float(pg.max_force) if pg.use_max_force else None,
        position_target=position,
        velocity_target=velocity,
        stiffness=_float(pg.stiffness),
        damping=_float(pg.damping),
        unknown=kept(pg.unknown_json),  # a kept 'servo' mode is written while the mode shows its fallback
    )


def joint_to_model(pg: OMIJointSettings, obj: bpy.types.Object,
                   issues: list[model.Issue] | None = None) -> model.Joint | None:
    """The joint, or None (with an issue) when it is connected to nothing: the spec requires a node."""
    if pg.connected_object is None:
        _issue(issues, "/joint/connected_object", obj, "joint is connected to no object; joint skipped")
        return None
    limits: list[model.JointLimit] = []
    for index, limit_pg in enumerate(pg.limits):
        limit = limit_to_model(limit_pg)
        if limit is None:
            _issue(issues, f"/joint/limits/{index}", obj, "joint limit has no axis; skipped")
        else:
            limits.append(limit)
    drives = tuple(drive_to_model(drive_pg) for drive_pg in pg.drives)
    return model.Joint(
        settings=model.JointSettings(limits=tuple(limits), drives=drives, unknown=kept(pg.settings_unknown_json)),
        connected_node=pg.connected_object,
        enable_collision=pg.enable_collision,
        unknown=kept(pg.unknown_json),
    )


def _limit_values(kind: str, gltf_axes: tuple[int, ...], limit: model.JointLimit) -> dict:
    used, sign = axes.joint_axes(gltf_axes, to_blender=True)
    low, high = axes.signed_range(limit.min, limit.max, sign)
    values = {"kind": kind, "axis_x": 0 in used, "axis_y": 1 in used, "axis_z": 2 in used,
              "use_min": low is not None, "use_max": high is not None}
    bound = "angular" if kind == 'ANGULAR' else "linear"
    values[f"min_{bound}"] = 0.0 if low is None else low
    values[f"max_{bound}"] = 0.0 if high is None else high
    values.update(use_stiffness=limit.stiffness is not None,
                  stiffness=0.0 if limit.stiffness is None else limit.stiffness,
                  damping=limit.damping, unknown_json=limit.unknown.text)
    return values


def _drive_values(drive: model.JointDrive) -> dict:
    (axis,), sign = axes.joint_axes((drive.axis,), to_blender=True)
    position, velocity = drive.position_target, drive.velocity_target
    if sign < 0:
        position = None if position is None else -position
        velocity = None if velocity is None else -velocity
    drive_type = held_choice(drive.type, model.DRIVE_TYPES)
    mode = held_choice(drive.mode, model.DRIVE_MODES)
    values: dict[str, Any] = {"drive_type": drive_type.upper(), "mode": mode.upper(),
                              "axis": constraints.AXIS_IDS[axis], "use_max_force": drive.max_force is not None}
    if drive.max_force is not None:
        values["max_force"] = drive.max_force
    values["use_position_target"] = position is not None
    target = "position_target_linear" if drive_type == "linear" else "position_target_angular"
    values[target] = 0.0 if position is None else position
    values.update(use_velocity_target=velocity is not None, velocity_target=0.0 if velocity is None else velocity,
                  stiffness=drive.stiffness, damping=drive.damping, unknown_json=drive.unknown.text)
    return values


def _is_zero(value: float | None) -> bool:
    return value is not None and abs(value) <= 1e-9


_RANGED = frozenset({"ranged"})


def joint_preset(limits: tuple[model.JointLimit, ...]) -> str:
    """FIXED, PIN, HINGE, SLIDER or CUSTOM, per the spec's "Special Cases" table.

    Each of the six degrees of freedom is free (no limit), fixed (rigid min = max = 0) or ranged (a
    rigid single-axis limit with min != max). Anything else (soft limits, a multi-axis range, a degree of
    freedom under two limits, a non-zero weld) makes the joint CUSTOM. Axis indices are compared among
    themselves, so glTF or Blender indices give the same answer.
    """
    state: dict[tuple[str, int], str] = {}
    for limit in limits:
        dofs = [("linear", axis) for axis in limit.linear_axes] + [("angular", axis) for axis in limit.angular_axes]
        if limit.stiffness is not None:
            return 'CUSTOM'
        if _is_zero(limit.min) and _is_zero(limit.max):
            kind = "fixed"
        elif len(dofs) == 1 and (limit.min is None or limit.max is None or limit.min < limit.max):
            kind = "ranged" if (limit.min is not None or limit.max is not None) else "free"
        else:
            return 'CUSTOM'
        for dof in dofs:
            if dof in state:
                return 'CUSTOM'
            state[dof] = kind
    states = {(angular, axis): state.get(("angular" if angular else "linear", axis), "free")
              for angular in (False, True) for axis in range(3)}
    for preset in constraints.SPECIAL_JOINTS:
        kinds = [constraints.special_kind(preset)] + ([constraints.special_kind(preset, turning=True)]
                                                      if preset == 'SLIDER' else [])
        if any(constraints.match(kind, states, _RANGED) is not None for kind in kinds):
            return preset
    return 'CUSTOM'


def apply_joint(joint: model.Joint, pg: OMIJointSettings, obj: bpy.types.Object, *, resolve_node: NodeResolver,
                issues: list[model.Issue] | None = None) -> None:
    """Write a joint. A limit on both linear and angular axes becomes two PropertyGroup limits."""
    connected = resolve_node(joint.connected_node)
    if connected is None:
        _issue(issues, "/joint/connected_object", obj, f"connected node {joint.connected_node!r} not found")
    store(pg, {"connected_object": connected, "enable_collision": joint.enable_collision,
               "unknown_json": joint.unknown.text, "settings_unknown_json": joint.settings.unknown.text})
    pg.limits.clear()
    for index, limit in enumerate(joint.settings.limits):
        if not limit.linear_axes and not limit.angular_axes:
            _issue(issues, f"/joint/limits/{index}", obj, "joint limit has no axis; skipped")
        for kind, gltf_axes in (('LINEAR', limit.linear_axes), ('ANGULAR', limit.angular_axes)):
            if gltf_axes:
                store(pg.limits.add(), _limit_values(kind, tuple(gltf_axes), limit))
    pg.drives.clear()
    for drive in joint.settings.drives:
        store(pg.drives.add(), _drive_values(drive))
    store(pg, {"preset": _preset_of(joint.settings.limits)})


_PRESETS: dict[tuple[model.JointLimit, ...], str] = {}  # limits -> `joint_preset`: an import's joints share a few


def _preset_of(limits: tuple[model.JointLimit, ...]) -> str:
    found = _PRESETS.get(limits)
    if found is None:
        if len(_PRESETS) > 1024:
            _PRESETS.clear()
        found = _PRESETS[limits] = joint_preset(limits)
    return found
