"""The settings side of the Object Model table: which setting holds each animatable model value, and how.

`io/omi/dialects/pointers` lists every animatable JSON pointer with its model value (part, attribute:
`PointerTemplate.model_value`). This table gives each such value its setting (the add-on's PropertyGroups
below `omi_physics`, on the object or, for library materials, on the scene), so export maps an F-curve on
a setting to its pointer, and import a channel to the settings it keys, without moving a value to see what
follows. Each entry is one of:

- `Held`: the setting holds the value one-to-one; its components are the value's through the axis change
  of `axes` (the permutation and signs are computed from `axes`' own functions, so the swap has one home);
  `off_when` names a switch of the same group under which the setting does not hold it (infinite mass),
  `needs` one without which it holds nothing (a centre of mass left to the engine, an unlimited drive
  force); a drive's settings are the model's drive of the same index; `placed`: the setting holds it in its
  object's frame and the export bakes the object's scale (and the shape's offset) in, so only the import
  reads it from here (a shape's values);
- `Translated`: a setting holds it, but how depends on more than the value (a joint's axes decide a limit's
  sign, which bound and which settings limit hold it): these go through the whole translation, found by
  moving the setting once (`animation/sample`, `animation_import`);
- `NotHeld`: no setting holds it (a KHR plane; booleans, which are not animated by this add-on).

`tests/blender/tables/test_animated_settings.py` checks that every animatable row of the pure table has an entry,
every entry a row, and that every setting named exists.
No bpy here: names and numbers only.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from . import axes, bullet

Part = str  # the pointer table's `part`: "motion", "shape", "material", "limit", "drive", "joint"
Axes = tuple[tuple[int, float], ...]  # per setting component: (model component, sign)


def _signed_permutation(convert: Callable[[Sequence[float]], Sequence[float]], width: int) -> Axes:
    """Which model component (and sign) each setting component is, read off an axis change."""
    found: list[tuple[int, float]] = [(0, 0.0)] * width
    for component in range(width):
        unit = [0.0] * width
        unit[component] = 1.0
        for position, number in enumerate(convert(unit)):
            if number:
                found[position] = (component, float(number))
    return tuple(found)


SCALAR: Axes = ((0, 1.0),)
POSITION: Axes = _signed_permutation(axes.vec_to_blender, 3)  # points and velocities: Blender (x, -z, y)
EXTENT: Axes = _signed_permutation(axes.size_to_blender, 3)  # sizes and principal moments: (x, z, y)
ROTATION: Axes = _signed_permutation(axes.quat_to_blender, 4)  # glTF (x, y, z, w) -> Blender (w, x, -z, y)


@dataclass(frozen=True)
class Held:
    """The setting `name` holds the value: setting component j = sign * model component i (`axes`)."""

    name: str
    axes: Axes = SCALAR
    off_when: str = ""  # a bool (or bool array, per component) setting that, on, means the value is elsewhere
    needs: str = ""  # a bool setting that, off, means the setting holds no value (the engine computes it)
    placed: bool = False  # the export places it in the world (object scale, shape offset): translated there


@dataclass(frozen=True)
class Translated:
    """Settings hold the value through a conversion that depends on more than the value itself."""

    names: tuple[str, ...]
    why: str


@dataclass(frozen=True)
class NotHeld:
    why: str


Entry = Held | Translated | NotHeld

# Where a part's settings group lives: (datablock, RNA path of the group; `{}` is the item's index).
GROUPS: dict[Part, tuple[str, tuple[str, ...]]] = {
    "motion": ("object", ("omi_physics.motion",)),
    "shape": ("object", ("omi_physics.collider.shape", "omi_physics.trigger.shape")),
    "material": ("scene", ("omi_physics.physics_materials[{}]",)),
    "limit": ("object", ("omi_physics.joint.limits[{}]",)),
    "drive": ("object", ("omi_physics.joint.drives[{}]",)),
    "joint": ("object", ("omi_physics.joint",)),
}

_JOINT_AXES = ("the joint's axes decide its sign, which bound it is and which settings limit holds it (a limit on "
               "linear and angular axes is two settings limits)")
_DRIVE_AXIS = "the drive's axis and the joint's direction (joint_nodes.reversed_settings) decide its sign"
_BOOLEAN = "a boolean: not animated by this add-on (named at export, refused at import)"

SETTINGS: dict[tuple[Part, str], Entry] = {
    ("motion", "mass"): Held("mass", off_when="infinite_mass"),
    ("motion", "center_of_mass"): Held("center_of_mass", POSITION, needs="use_center_of_mass"),
    ("motion", "inertia_diagonal"): Held("inertia_diagonal", EXTENT, off_when="infinite_inertia"),
    ("motion", "inertia_orientation"): Held("inertia_orientation", ROTATION),
    ("motion", "linear_velocity"): Held("linear_velocity", POSITION),
    ("motion", "angular_velocity"): Held("angular_velocity", POSITION),
    ("motion", "gravity_factor"): Held("gravity_factor"),
    ("motion", "isKinematic"): NotHeld(_BOOLEAN + "; the settings' motion type"),
    ("material", "static_friction"): Held("static_friction"),
    ("material", "dynamic_friction"): Held("dynamic_friction"),
    ("material", "restitution"): Held("restitution"),
    ("shape", "size"): Held("size", EXTENT, placed=True),  # a collider's or trigger's shape, in its object's frame
    ("shape", "radius"): Held("radius", placed=True),
    ("shape", "height"): Held("height", placed=True),
    ("shape", "radius_top"): Held("radius_top", placed=True),
    ("shape", "radius_bottom"): Held("radius_bottom", placed=True),
    ("shape", "size_x"): NotHeld("a KHR plane: the settings have no plane shape"),
    ("shape", "size_z"): NotHeld("a KHR plane: the settings have no plane shape"),
    ("shape", "double_sided"): NotHeld("a KHR plane: the settings have no plane shape"),
    ("limit", "min"): Translated(("min_linear", "min_angular", "max_linear", "max_angular"), _JOINT_AXES),
    ("limit", "max"): Translated(("max_linear", "max_angular", "min_linear", "min_angular"), _JOINT_AXES),
    ("limit", "stiffness"): Translated(("stiffness",), "absent is infinite (use_stiffness); " + _JOINT_AXES),
    ("limit", "damping"): Translated(("damping",), _JOINT_AXES),
    ("drive", "max_force"): Held("max_force", needs="use_max_force"),  # absent: unlimited
    ("drive", "position_target"): Translated(("position_target_linear", "position_target_angular"), _DRIVE_AXIS),
    ("drive", "velocity_target"): Translated(("velocity_target",), _DRIVE_AXIS),
    ("drive", "stiffness"): Held("stiffness"),  # a joint turned round keeps it (joint_nodes.reversed_settings)
    ("drive", "damping"): Held("damping"),
    ("joint", "enable_collision"): NotHeld(_BOOLEAN + "; the setting enable_collision"),
}


# Blender rigid-body properties that mirror a Held setting: the settings' mass is Blender's Rigid Body Mass once
# the body has a rigid body (properties/homes), Blender's floor aside. While the mirror holds the Blender mass of
# the setting's value, the setting's value is the one exported.
MIRRORS: dict[str, tuple[str, Callable[[float], float]]] = {
    "rigid_body.mass": ("omi_physics.motion.mass", bullet.blender_mass)}


def held_by(group: str, name: str) -> tuple[Part, str, Held] | None:
    """(part, model attribute, entry) of the setting `name` in a settings group path (`omi_physics.motion`,
    `omi_physics.physics_materials[2]`), when it holds a model value one-to-one; else None."""
    for part, (_datablock, paths) in GROUPS.items():
        if not any(_same_group(group, path) for path in paths):
            continue
        for (entry_part, attr), entry in SETTINGS.items():
            if entry_part == part and isinstance(entry, Held) and entry.name == name:
                return part, attr, entry
    return None


def group_index(group: str) -> int | None:
    """The item index of a settings group path (`omi_physics.joint.drives[1]` -> 1), or None."""
    head, _, tail = group.rpartition("[")
    number = tail[:-1] if head and tail.endswith("]") else ""
    return int(number) if number.isdigit() else None


def _same_group(group: str, pattern: str) -> bool:
    head, _, tail = pattern.partition("{}")
    if not _:
        return group == pattern
    return group.startswith(head) and group.endswith(tail) and group[len(head):len(group) - len(tail)].isdigit()
