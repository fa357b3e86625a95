"""Imported physics animation, played by Blender's simulation: keyframes on the Blender rigid bodies and
rigid body constraints the import built.

The Blender values come from the same build the import (and *Sync to Blender*) uses: with the settings at
rest and at the channel's value nudged (once per component), the objects' rigid bodies and constraints are
built again and the properties that moved are read; each key within the bounds of the pointer's Field is
then an affine map of those (`linear_keys`, checked at the keys' extremes), others are built whole; after
the last key the build runs once more at rest and its objects get the keyframes. So Bullet's signs, the
motor/spring split and the proxies of non-mesh bodies stay in their one home (`io/blender/builder`). What the
build does not change (a shape's size, gravity factor, initial velocities, staticFriction) cannot play in
Blender: the settings keep the keyframes, export writes them unchanged, and the import report names each
such channel once.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

import bpy

from ....omi import model
from ....omi.animation import linear_keys
from ...builder import rigid_body
from ...tables import markers
from .. import curves, settings, static_values

BlenderKey = tuple[str, int, str, str, int]  # (owner object, generated index or -1, block, property, index)
_BLOCKS = ("rigid_body", "rigid_body_constraint")


def _generated(owner: bpy.types.Object) -> list[bpy.types.Object]:
    """The objects the build made for `owner` (constraint empties, proxies), in a stable order."""
    return sorted((obj for obj in bpy.data.objects if markers.is_generated(obj) and obj.get(markers.OWNER) == owner),
                  key=lambda obj: obj.name)


def _holders(owners: Iterable[bpy.types.Object]) -> list[tuple[bpy.types.Object, int, bpy.types.Object]]:
    """(owner, generated index or -1, object holding a rigid body or constraint) for these owners."""
    found = []
    for owner in owners:
        found.append((owner, -1, owner))
        found += [(owner, index, made) for index, made in enumerate(_generated(owner))]
    return found


def blender_values(owners: Iterable[bpy.types.Object]) -> dict[BlenderKey, tuple[bpy.types.Object, float]]:
    """Every number of the owners' Blender rigid bodies and constraints (their own and generated ones)."""
    found: dict[BlenderKey, tuple[bpy.types.Object, float]] = {}
    for owner, index, holder in _holders(owners):
        for block_name in _BLOCKS:
            block = getattr(holder, block_name, None)
            if block is None:
                continue
            for prop in block.bl_rna.properties:
                if prop.type not in ('FLOAT', 'INT', 'BOOLEAN') or prop.identifier == "rna_type":
                    continue
                value = getattr(block, prop.identifier)
                numbers = list(value) if hasattr(value, "__len__") else [value]
                for position, number in enumerate(numbers):
                    found[(owner.name, index, block_name, prop.identifier, position)] = (holder, float(number))
    return found


class RigidFollow:
    """Keys the Blender rigid bodies and constraints of an import after its settings were keyed."""

    def __init__(self, bl_scene: bpy.types.Scene, issues: list[model.Issue]) -> None:
        self.scene = bl_scene
        self.issues = issues
        self._others: list[Callable[[bpy.types.Object], Any]] = []  # the other objects' inputs, during a follow

    def build(self, owners: list[bpy.types.Object]) -> None:
        """Build the owners' rigid bodies from their settings now; the other objects' settings (which the
        build reads for collision collections and joints) do not change during one channel's follow, so
        they are converted once per follow."""
        fresh = settings.layout().access.physics_input(self.scene)
        others = self._others[0] if self._others else fresh
        owned = set(owners)
        rigid_body.build_rigid_bodies(self.scene, owners, lambda obj: fresh(obj) if obj in owned else others(obj),
                                      None)

    def values_at(self, owners: list[bpy.types.Object], apply_at: Callable[[Sequence[float]], object],
                  numbers: Sequence[float]) -> dict[BlenderKey, float]:
        """The Blender values with the settings at a channel value (the whole translation: a build)."""
        apply_at(numbers)
        self.build(owners)
        return {key: value for key, (_holder, value) in blender_values(owners).items()}

    def follow(self, at: str, pointer: str, owners: list[bpy.types.Object], *, apply_rest: Callable[[], object],
               rest: list[float], stated: bool, values: list[list[float]], frames: list[float], field: Any,
               apply_at: Callable[[Sequence[float]], object],
               interpolation: curves.KeyInterpolation) -> None:
        """Key the Blender properties that follow one channel (`values`: its value at each key, at `frames`;
        `apply_rest` puts the settings at rest, `apply_at` at a channel value; `rest` is the value at rest, or the
        first key's when the file does not state it (`stated` False)). Which properties follow, and how, is found
        by building at rest and nudged (`linear_keys`); keys then cost no build where the map holds."""
        owners = [owner for owner in owners if owner.name in bpy.data.objects]
        if not owners:
            return
        self._others[:] = [settings.layout().access.physics_input(self.scene)]
        try:
            self._follow(at, pointer, owners, apply_rest=apply_rest, rest=rest, stated=stated, values=values,
                         frames=frames, field=field, apply_at=apply_at, interpolation=interpolation)
        finally:
            self._others.clear()

    def _follow(self, at: str, pointer: str, owners: list[bpy.types.Object], *, apply_rest: Callable[[], object],
                rest: list[float], stated: bool, values: list[list[float]], frames: list[float], field: Any,
                apply_at: Callable[[Sequence[float]], object], interpolation: curves.KeyInterpolation) -> None:
        apply_rest()
        self.build(owners)
        base = {key: value for key, (_holder, value) in blender_values(owners).items()}
        moved = self.values_at(owners, apply_at, [number + 1.0 for number in rest])
        fed = [key for key, value in base.items() if key in moved and moved[key] != value]
        if not fed:
            apply_rest()
            self.build(owners)
            names = ", ".join(repr(owner.name) for owner in owners)
            self.issues.append(model.Issue(at, f"{pointer}: Blender's simulation cannot follow this animated value "
                                               f"of {names}; the settings keep its keyframes and export them",
                                           "info"))
            return
        linear = linear_keys.fit(rest, base, fed, lambda numbers: self.values_at(owners, apply_at, numbers),
                                 field=field, keys=values) if stated else None
        recorded: dict[BlenderKey, list[tuple[float, float]]] = {key: [] for key in fed}
        for frame, numbers in zip(frames, values, strict=True):
            now = linear.at(numbers) if linear is not None and linear_keys.within(field, numbers) \
                else self.values_at(owners, apply_at, numbers)
            for key in fed:
                if key in now:
                    recorded[key].append((frame, now[key]))
        apply_rest()
        self.build(owners)
        final = blender_values(owners)
        for key, points in recorded.items():
            if key in final and len(points) == len(values):
                holder, rest_value = final[key]
                _owner, index, block_name, name, position = key
                if index < 0 and _keyed_through_setting(holder, f"{block_name}.{name}"):
                    continue  # the setting's own keyframes write this value, Blender's property being its home
                _key_blender(holder, key, points, interpolation)
                curves.put(holder, f"{block_name}.{name}", position, rest_value)
                static_values.remember(holder, f"{block_name}.{name}", position, rest_value)


def _keyed_through_setting(holder: bpy.types.Object, path: str) -> bool:
    """Whether the object's keyed setting writes this Blender property as it plays (`Layout.mirrors`: the
    settings' mass is its Blender rigid body's): one F-curve, the setting's (the file's curve, tangents
    included), then animates the one value."""
    mirrored = settings.layout().mirrors.get(path)
    return mirrored is not None and any(curve.data_path == mirrored[0] for curve in curves.fcurves(holder))


def _key_blender(holder: bpy.types.Object, key: BlenderKey, points: list[tuple[float, float]],
                 interpolation: curves.KeyInterpolation) -> None:
    _owner, _index, block_name, name, position = key
    curve = curves.insert_keys(holder, f"{block_name}.{name}", position, points)
    if curve is not None:
        for point in curve.keyframe_points:
            point.interpolation = interpolation
