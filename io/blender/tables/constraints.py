"""Blender's rigid body constraint types as data: what each does with the six degrees of freedom of its
frame, which axis it works along, which special joint of the spec it is, and its property names.

Read by the import (`rigid_body_joints`: limits -> the most special Blender type), the export and
*Sync from Blender* (`adopt_constraints`: a constraint -> limits and drives) and the joint presets
(`operators/joint_presets`, `properties/convert_joint.joint_preset`), so the four cannot drift apart. Signs are
`bullet.BULLET_SIGN`'s. Axes are the constraint frame's Blender axes (0 = X, 1 = Y, 2 = Z).

Pure Python: no bpy.
"""

from __future__ import annotations

from dataclasses import dataclass

AXIS_LETTERS = "xyz"
AXIS_IDS = ('X', 'Y', 'Z')  # the PropertyGroups' axis enum items

FIXED = "fixed"  # the type locks this degree of freedom
FREE = "free"  # the type leaves it alone
LIMITED = "limited"  # a use_limit_* switch and a lower/upper range

Dof = tuple[bool, int]  # (angular, axis)


@dataclass(frozen=True)
class ConstraintKind:
    """One Blender constraint type. `roles` covers all six degrees of freedom; `working_axis` is the axis the
    type turns about or slides along (its frame is turned to put it on a joint axis), None when it has
    none; `special` is the spec's special joint it expresses exactly."""

    type: str
    roles: dict[Dof, str]
    working_axis: int | None = None
    special: str | None = None

    def dofs(self, role: str) -> list[Dof]:
        return [dof for dof, found in self.roles.items() if found == role]


def _roles(linear: str | tuple[str, str, str], angular: str | tuple[str, str, str]) -> dict[Dof, str]:
    spread = [(kind,) * 3 if isinstance(kind, str) else kind for kind in (linear, angular)]
    return {(angular_dof, axis): spread[angular_dof][axis] for angular_dof in (False, True) for axis in range(3)}


_X_ONLY = (LIMITED, FIXED, FIXED)
CONSTRAINT_KINDS: dict[str, ConstraintKind] = {kind.type: kind for kind in (
    ConstraintKind('FIXED', _roles(FIXED, FIXED), special='FIXED'),
    ConstraintKind('POINT', _roles(FIXED, FREE), special='PIN'),
    ConstraintKind('HINGE', _roles(FIXED, (FIXED, FIXED, LIMITED)), working_axis=2, special='HINGE'),
    ConstraintKind('SLIDER', _roles(_X_ONLY, FIXED), working_axis=0, special='SLIDER'),
    ConstraintKind('PISTON', _roles(_X_ONLY, _X_ONLY), working_axis=0, special='SLIDER'),
    ConstraintKind('GENERIC', _roles(LIMITED, LIMITED)),
    ConstraintKind('GENERIC_SPRING', _roles(LIMITED, LIMITED)),
    ConstraintKind('MOTOR', _roles(FREE, FREE), working_axis=0),
)}
# The types a joint's limits may become, most special first (GENERIC takes any other rigid limits).
SPECIAL_ORDER = ('FIXED', 'POINT', 'HINGE', 'SLIDER', 'PISTON')
# The spec's special joints (its "Special Cases" table), as the presets offer them.
SPECIAL_JOINTS = ('FIXED', 'PIN', 'HINGE', 'SLIDER')


def special_kind(special: str, turning: bool = False) -> ConstraintKind:
    """The Blender type of a special joint of the spec; `turning` picks the slider that also turns (PISTON)."""
    if special == 'SLIDER' and turning:
        return CONSTRAINT_KINDS['PISTON']
    return next(kind for kind in CONSTRAINT_KINDS.values() if kind.special == special)


def _short(angular: bool) -> str:
    return "ang" if angular else "lin"


def use_limit(dof: Dof) -> str:
    return f"use_limit_{_short(dof[0])}_{AXIS_LETTERS[dof[1]]}"


def limit_bounds(dof: Dof) -> tuple[str, str]:
    """The lower and upper limit property names of a degree of freedom."""
    stem = f"limit_{_short(dof[0])}_{AXIS_LETTERS[dof[1]]}"
    return f"{stem}_lower", f"{stem}_upper"


def spring(dof: Dof) -> tuple[str, str, str]:
    """(use, stiffness, damping) property names of a generic spring's degree of freedom."""
    letter = AXIS_LETTERS[dof[1]]
    if dof[0]:
        return f"use_spring_ang_{letter}", f"spring_stiffness_ang_{letter}", f"spring_damping_ang_{letter}"
    return f"use_spring_{letter}", f"spring_stiffness_{letter}", f"spring_damping_{letter}"


def motor(angular: bool) -> tuple[str, str, str]:
    """(use, target velocity, max impulse) property names of a motor's linear or angular drive."""
    short = _short(angular)
    return f"use_motor_{short}", f"motor_{short}_target_velocity", f"motor_{short}_max_impulse"


def joint_dof(kind: ConstraintKind, dof: Dof, joint_axis: int) -> Dof:
    """Where a degree of freedom of the constraint frame lands among the joint's, when the frame is turned
    to put the kind's working axis on `joint_axis` (the other two axes keep their order)."""
    if kind.working_axis is None:
        return dof
    angular, axis = dof
    if axis == kind.working_axis:
        return angular, joint_axis
    others = [a for a in range(3) if a != kind.working_axis]
    targets = [a for a in range(3) if a != joint_axis]
    return angular, targets[others.index(axis)]


# (type, working axis, roles, joint axis) -> the kind's roles on the joint's degrees of freedom (see `match`)
_TURNED: dict[tuple[str, int | None, tuple[tuple[Dof, str], ...], int], tuple[tuple[Dof, str], ...]] = {}


def _turned(kind: ConstraintKind, joint_axis: int) -> tuple[tuple[Dof, str], ...]:
    key = (kind.type, kind.working_axis, tuple(kind.roles.items()), joint_axis)
    found = _TURNED.get(key)
    if found is None:
        found = _TURNED[key] = tuple({joint_dof(kind, dof, joint_axis): role
                                      for dof, role in kind.roles.items()}.items())
    return found


def match(kind: ConstraintKind, states: dict[Dof, str], limited: frozenset[str]) -> int | None:
    """The joint axis on which `kind` expresses these degree-of-freedom states exactly (FIXED dofs "fixed",
    FREE dofs "free", LIMITED dofs one of `limited`), or None. Kinds without a working axis answer 0."""
    for joint_axis in (range(3) if kind.working_axis is not None else (0,)):
        if all(states[dof] == role if role != LIMITED else states[dof] in limited
               for dof, role in _turned(kind, joint_axis)):
            return joint_axis
    return None
