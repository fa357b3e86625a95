"""What a rigid-body build tells its caller: problems per object (warnings), and what Blender cannot
express gathered into one "kept in the OMI settings" note (an "info" issue: a limit of Blender, not a
problem in the file; the import counts it apart from the problems).
"""

from __future__ import annotations

import math

import bpy

from ...omi import model
from ..tables.bullet import BULLET_COMBINE
from .plan import PlannedBody

# Names of what Blender rigid bodies cannot express, for the one "kept in the settings" note.
GRAVITY_FACTOR = "gravity factor"
CENTER_OF_MASS = "center of mass offset"
INERTIA = "inertia"
FRICTION_COMBINE = f"friction combine modes other than {BULLET_COMBINE!r} (Bullet multiplies the two bodies' friction)"
RESTITUTION_COMBINE = (f"restitution combine modes other than {BULLET_COMBINE!r} (Bullet multiplies the two "
                       "bodies' restitution)")
STATIC_FRICTION = "static friction (Blender has one friction: the dynamic one is used)"
TRIGGERS = "triggers (no Blender rigid body: they must not collide)"
CENTERED_BODIES = ("centres of mass off the body's origin (a generated rigid body, its origin the centre of mass and "
                   "the shapes a compound around it, moves as the file means, and the object follows it)")
NESTED_BODIES = ("nested dynamic bodies (a generated rigid body, unparented, moves each in world space as the file "
                 "means, and the object follows it: Blender cannot simulate a rigid body whose parent is one)")
GRAVITY_VOLUMES = "gravity volumes (Blender's rigid bodies feel the one scene gravity: the volumes pull nothing here)"
RESTITUTION = ("restitution (Bullet multiplies the two bodies' values and its bounces do not keep the energy that "
               "gives: measured from 2 m, 1 on 1 rebounds to 2.20 m, then 2.28 m; 0.5 on 0.5 (0.25) to 0.18 m where "
               "the file says 0.125 m; 1 on 1 at 40 substeps to 0.48 m)")
TAPERED = "tapered capsules and cylinders (convex hulls)"
BAKED_SCALE = "non-uniformly scaled shapes inside a body (convex hulls)"



class Report:
    """Issues for the caller, with what Blender cannot express gathered into one note."""

    def __init__(self, issues: list[model.Issue] | None) -> None:
        self.issues = issues if issues is not None else []
        self.unsupported: dict[str, dict[str, None]] = {}  # feature -> object names, in order
        self.approximated: dict[str, dict[str, None]] = {}  # stand-in (with its measured effect) -> object names

    def warn(self, obj: bpy.types.Object, pointer: str, message: str) -> None:
        self.issues.append(model.Issue(pointer, f"object {obj.name!r}: {message}"))

    def cannot(self, feature: str, obj: bpy.types.Object) -> None:
        self.unsupported.setdefault(feature, {})[obj.name] = None

    def approximate(self, stand_in: str, obj: bpy.types.Object) -> None:
        self.approximated.setdefault(stand_in, {})[obj.name] = None

    def finish(self) -> None:
        if self.unsupported:
            self.issues.append(model.Issue("", "Blender rigid bodies cannot express " + _listed(self.unsupported)
                                           + ": kept in the OMI settings and exported unchanged", "info"))
        if self.approximated:
            self.issues.append(model.Issue("", "Blender rigid bodies approximate " + _listed(self.approximated)
                                           + ": the settings keep the file's values and export them", "info"))


def _listed(found: dict[str, dict[str, None]]) -> str:
    parts = []
    for feature, objects in found.items():
        names = list(objects)
        shown = ", ".join(repr(name) for name in names[:5]) + (f" and {len(names) - 5} more" if len(names) > 5
                                                              else "")
        parts.append(f"{feature} ({shown})")
    return "; ".join(parts)


def note_motion(body: PlannedBody, report: Report) -> None:
    """What the body's motion says that Blender ignores (velocities, infinite values: `motion_stand_ins`)."""
    motion = body.motion_values
    if motion is None:
        return
    if not math.isclose(motion.gravity_factor, 1.0, abs_tol=1e-6):
        report.cannot(GRAVITY_FACTOR, body.owner)
    # None: computed by the engine; Blender's is the origin, its stand-in (no value to keep)
    if motion.center_of_mass is not None and tuple(motion.center_of_mass) != model.ZERO3 and not body.center_built:
        report.cannot(CENTER_OF_MASS, body.owner)
    inertia = motion.inertia_diagonal
    if (inertia != model.ZERO3 and any(value != 0.0 and not math.isinf(value) for value in inertia)) \
            or abs(abs(motion.inertia_orientation[3]) - 1.0) > 1e-6:
        report.cannot(INERTIA, body.owner)
