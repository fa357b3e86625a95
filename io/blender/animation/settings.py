"""The settings side of the Object Model table: the kinds of entry, and the table the properties layer registers.

`io/omi/dialects/pointers` lists every animatable JSON pointer with its model value (part, attribute:
`PointerTemplate.model_value`). The settings' binding (`properties/animated_settings.py`, the one home of
the PropertyGroups' layout) gives each such value its setting and registers that table here with the
functions that read and write the settings (`Layout`, `register`), so export maps an F-curve on a setting to
its pointer, and import a channel to the settings it keys, without moving a value to see what follows and
without this package spelling a PropertyGroup path. Each entry is one of:

- `Held`: the setting holds the value one-to-one; its components are the value's through the axis change
  of `axes` (the permutation and signs are computed from `axes`' own functions, so the swap has one home);
  `off_when` names a switch of the same group under which the setting does not hold it (infinite mass),
  `needs` one without which it holds nothing (a centre of mass left to the engine, an unlimited drive
  force); a drive's settings are the model's drive of the same index; `placed`: the setting holds it in its
  object's frame and the export bakes the object's scale (and the shape's offset) in, so only the import
  reads it from here (a shape's values);
- `Translated`: a setting holds it, but how depends on more than the value (a joint's axes decide a limit's
  sign, which bound and which settings limit hold it): these go through the whole translation, found by
  moving the setting once (`exports/sample`, `imports/keyframes`);
- `NotHeld`: no setting holds it (a KHR plane; booleans, which are not animated by this add-on).
No bpy here: names and numbers only.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from ..tables import axes

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

Groups = Mapping[Part, tuple[str, tuple[str, ...]]]  # part -> (datablock, RNA paths of its group; `{}`: item index)


class SettingsAccess(Protocol):
    """What the animation needs of the settings beyond their paths: the properties layer's conversions."""

    def settings(self, id_data: Any) -> Any:
        """The settings of an object or a scene (the root every group path starts from)."""

    def write_node(self, rest: Any, node: Any, obj: Any, bl_scene: Any, resolve_node: Callable[[int], Any]) -> None:
        """Write the parts of the model's `node` that differ from `rest` into the object's settings."""

    def own_material(self, bl_scene: Any, users: list[Any]) -> None:
        """Give the library material these objects share an entry of their own when other objects use it too."""

    def motion_group(self, obj: Any) -> str:
        """The path of the object's motion group."""

    def shape_group(self, obj: Any, part: str, shape_type: str) -> str | None:
        """The path of the shape group of the object's collider or trigger (`part`) when it holds a primitive
        shape of that (OMI) type, else None."""

    def drive_group(self, obj: Any, index: int) -> str | None:
        """The path of the object's joint drive `index`, or None when it has none there."""

    def material_group(self, bl_scene: Any, users: list[Any]) -> str | None:
        """The path of the library material every one of these objects uses, or None when they use several."""

    def physics_input(self, bl_scene: Any) -> Callable[[Any], Any]:
        """The build's input for objects: their settings as model values."""


@dataclass(frozen=True)
class Layout:
    """The settings' side of the table, registered by the properties layer: the groups of each part, the entry
    of each model value, the Blender properties that mirror a setting (path -> (setting path, conversion))."""

    root: str  # the settings' attribute on an object or a scene: every group path starts with it
    groups: Groups
    settings: Mapping[tuple[Part, str], Entry]
    mirrors: Mapping[str, tuple[str, Callable[[float], float]]]
    access: SettingsAccess

    @property
    def prefix(self) -> str:
        """How the RNA path of every setting starts."""
        return f"{self.root}."

    def library_prefix(self) -> str:
        """How the RNA path of a library entry's setting starts (the scene's physics materials)."""
        return self.groups["material"][1][0].partition("{}")[0]

    def needed_switches(self) -> frozenset[str]:
        """The switches without which a setting holds no value (`Held.needs`)."""
        return frozenset(entry.needs for entry in self.settings.values() if isinstance(entry, Held) and entry.needs)


_REGISTERED: list[Layout] = []


def register(layout: Layout) -> None:
    """The properties layer's table (at the add-on's register)."""
    _REGISTERED[:] = [layout]


def unregister() -> None:
    _REGISTERED.clear()


def layout() -> Layout:
    if not _REGISTERED:
        raise RuntimeError("the settings' layout is not registered (the add-on registers it)")
    return _REGISTERED[0]


def held_by(group: str, name: str) -> tuple[Part, str, Held] | None:
    """(part, model attribute, entry) of the setting `name` in a settings group path (a body's motion group,
    a library material's), when it holds a model value one-to-one; else None."""
    table = layout()
    for part, (_datablock, paths) in table.groups.items():
        if not any(_same_group(group, path) for path in paths):
            continue
        for (entry_part, attr), entry in table.settings.items():
            if entry_part == part and isinstance(entry, Held) and entry.name == name:
                return part, attr, entry
    return None


def group_index(group: str) -> int | None:
    """The item index of a settings group path (`...drives[1]` -> 1), or None."""
    head, _, tail = group.rpartition("[")
    number = tail[:-1] if head and tail.endswith("]") else ""
    return int(number) if number.isdigit() else None


def _same_group(group: str, pattern: str) -> bool:
    head, _, tail = pattern.partition("{}")
    if not _:
        return group == pattern
    return group.startswith(head) and group.endswith(tail) and group[len(head):len(group) - len(tail)].isdigit()
