"""Validation of gravity volumes: the spec's rules, with the messages of the pure rules (io/omi/dialects/gravity.py).

A volume only on a base trigger (a trigger without motion or collider, not a member of a compound trigger),
line points a multiple of 3 numbers and at least two points, a normalised direction; and, once per scene,
that Blender's rigid bodies do not feel gravity volumes. Read by the Validate operator and the gravity panel.
"""

from __future__ import annotations

from collections.abc import Iterable

import bpy

from ..io.omi import model
from ..io.omi.dialects import gravity
from . import object_physics
from .convert import node_from_object

SIMULATION_NOTE = ("Blender's rigid bodies do not feel gravity volumes (one scene gravity; force fields push with "
                   "forces that depend on mass): the volumes are exported for engines, not simulated here")


def compound_members(objects: Iterable[bpy.types.Object]) -> set[str]:
    """Names of the objects that are members of some compound trigger."""
    found: set[str] = set()
    for obj in objects:
        settings = object_physics(obj)
        if settings.use_trigger and settings.trigger.is_compound:
            found.update(item.target.name for item in settings.trigger.nodes if item.target is not None)
    return found


def gravity_findings(obj: bpy.types.Object, members: set[str]) -> list[tuple[str, str, model.Severity]]:
    """(code, message, severity) of each rule the object's gravity volume breaks."""
    physics = node_from_object(obj, [])
    volume = physics.gravity
    if volume is None:
        return []
    findings = [gravity.placement_issue(physics, obj.name in members, "")]
    if volume.type == "line":
        findings.append(gravity.points_issue(volume.points, ""))
    if volume.type == "directional":
        findings.append(gravity.direction_issue(volume.direction, ""))
    return [("GRAVITY", found.message, "error" if found.severity == "error" else "warning")
            for found in findings if found is not None]
