"""Imported physics animation, played by Blender's simulation: keyframes on the Blender rigid bodies and
rigid body constraints the import built.

The Blender values come from the same build the import (and *Sync to Blender*) uses: for each key the
settings hold the key's values, the objects' rigid bodies and constraints are built again, and the
properties that moved are read; after the last key the build runs once more at rest and its objects get
the keyframes. So Bullet's signs, the motor/spring split and the proxies of non-mesh bodies stay in their
one home (`io/blender/rigid_body*`). What the build does not change (a shape's size, gravity factor,
initial velocities, staticFriction) cannot play in Blender: the settings keep the keyframes, export
writes them unchanged, and the import report names each such channel once.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

import bpy

from ..properties import convert_build
from .blender.animation import curves
from .blender.build import rigid_body
from .blender.tables import markers
from .omi import model

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

    def build(self, owners: list[bpy.types.Object]) -> None:
        rigid_body.build_rigid_bodies(self.scene, owners, convert_build.SettingsPhysics(self.scene), None)

    def follow(self, at: str, pointer: str, owners: list[bpy.types.Object], *, apply_rest: Callable[[], object],
               apply_nudged: Callable[[], object], keys: list[tuple[float, Callable[[], object]]],
               interpolation: str) -> None:
        """Key the Blender properties that follow one channel. `apply_*` put the settings at rest, nudged or
        at a key (frame, apply)."""
        owners = [owner for owner in owners if owner.name in bpy.data.objects]
        if not owners:
            return
        apply_rest()
        self.build(owners)
        base = blender_values(owners)
        apply_nudged()
        self.build(owners)
        moved = blender_values(owners)
        fed = [key for key, (_holder, value) in base.items() if key in moved and moved[key][1] != value]
        if not fed:
            apply_rest()
            self.build(owners)
            names = ", ".join(repr(owner.name) for owner in owners)
            self.issues.append(model.Issue(at, f"{pointer}: Blender's simulation cannot follow this animated value "
                                               f"of {names}; the settings keep its keyframes and export them",
                                           "info"))
            return
        recorded: dict[BlenderKey, list[tuple[float, float]]] = {key: [] for key in fed}
        for frame, apply_key in keys:
            apply_key()
            self.build(owners)
            now = blender_values(owners)
            for key in fed:
                if key in now:
                    recorded[key].append((frame, now[key][1]))
        apply_rest()
        self.build(owners)
        final = blender_values(owners)
        for key, points in recorded.items():
            if key in final and len(points) == len(keys):
                _key_blender(final[key][0], key, points, interpolation)


def _key_blender(holder: bpy.types.Object, key: BlenderKey, points: list[tuple[float, float]],
                 interpolation: str) -> None:
    _owner, _index, block_name, name, position = key
    block = getattr(holder, block_name)
    value = getattr(block, name)
    is_array = hasattr(value, "__len__")
    path = f"{block_name}.{name}"
    for frame, number in points:
        if is_array:
            getattr(block, name)[position] = number
        else:
            setattr(block, name, type(value)(round(number)) if isinstance(value, bool | int) else number)
        holder.keyframe_insert(path, index=position if is_array else -1, frame=frame)
    animation = getattr(holder, "animation_data", None)
    if animation is None or animation.action is None:
        return
    for curve in curves.fcurves(holder):
        if curve.data_path == path and (curve.array_index == position or not is_array):
            for point in curve.keyframe_points:
                point.interpolation = interpolation
