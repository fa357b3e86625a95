"""Keyframed physics settings -> glTF animation channels targeting the Object Model (KHR_animation_pointer).

An F-curve on a setting that holds its Object Model value one-to-one (a body's motion values, a library
material's: `settings.Held`) is mapped to its pointer by the tables and sampled by
arithmetic (`direct`), checked against the still export's value at rest. Every other value goes through
the same translation as the still export: for every sample time the animated properties are set from
their F-curves, the object's physics is derived again (settings or Blender rigid body, `derive`), placed
as the export placed it (shape scale baked in, joint turned round) and written by the default dialect's unit;
`io/omi/dialects/pointers` lists the Object Model values of what was written. Which of those F-curves feeds which
value is found by nudging each one at rest and seeing what changes, so axis swaps that depend on a
joint's axes, Bullet signs and spec defaults stay in their one home each.

The export session (`io/blender/export/scene.py`) makes one `AnimationExport`, handing in its `Placement`
(this package does not import the export), and calls, per node it writes for an animated object:
`track(...)` as it gathers the node (the tracker's `ref_into` keeps items fed by the object's own F-curves
out of the deduplication, so an animated shape is never merged with a still one that starts equal), then
`written(...)` with the node as the export will write it (`ExportWriter.preview`), which checks the still
values against the rest snapshot and samples the animation. Once the export has written every gathered node,
`place_items()` gives the item channels their item's index; `attach(animations)` (gather_gltf_hook) adds
channels, samplers and accessors; `finish(gltf)` turns node placeholders into the pointers' node indices.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import bpy

from ....omi import model
from ....omi.dialects import pointers, registry
from ....omi.dialects.base import Dialect
from .. import curves
from ..curves import Channel
from ..settings import layout as settings_layout
from . import direct, gltf_write
from .channel_data import ChannelData
from .tracker import Snapshot, Tracker, item_key

_BLENDER_PREFIXES = ("rigid_body.", "rigid_body_constraint.")  # Blender's own rigid body and constraint


def _array_extension() -> dict[str, str]:
    """Document-level array -> its extension: the default dialect's and the extension units' (registry)."""
    units = {template.array: template.extension for template in pointers.all_pointers()
             if template.array and template.array != pointers.DOCUMENT}
    return {**units, **{template.array: template.extension for template in pointers.home_rows() if template.array}}


@dataclass(frozen=True)
class Placement:
    """How the export places what it writes (the export session's own functions, handed in: this package does
    not import the export): a primitive shape in its node's frame, a joint seen from its connected side."""

    shape: Callable[[model.Shape, Any, Any], Any]  # (shape, node's world matrix, offset) -> placement or None
    reversed_settings: Callable[[model.JointSettings], model.JointSettings]


def _numbers(value: Any) -> list[float]:
    return [float(v) for v in value] if isinstance(value, list | tuple) else [float(value)]


class AnimationExport:
    """The animated part of one glTF export's physics."""

    def __init__(self, export_settings: dict, bl_scene: bpy.types.Scene, warn: Callable[..., None], *,
                 placement: Placement, cubic: bool = True) -> None:
        self.settings = export_settings
        self.placement = placement
        layout = settings_layout()  # the settings' paths: the properties layer's
        self._own_prefixes = (layout.prefix, *_BLENDER_PREFIXES)
        self.cubic = cubic  # the target's engine plays CUBICSPLINE samplers
        self.scene = bl_scene
        self.warn = warn
        self.data: list[ChannelData] = []
        self._channels: dict[Any, list[Channel]] = {}
        self._library = self._numeric([Channel(bl_scene, curve) for curve in curves.fcurves(bl_scene)
                                       if curve.data_path.startswith(layout.library_prefix())])
        self._refused: set[tuple] = set()
        self._feeding: set[tuple] = set()  # keys of the channels that feed some Object Model value
        self._sampled: set[tuple] = set()  # (node id, item index, template, nested) of the channels made
        self._library_done: set[tuple] = set()  # library channels sampled (a shared material, once)
        self._fps = curves.fps(bl_scene)

    def _numeric(self, channels: list[Channel]) -> list[Channel]:
        kept = []
        for channel in channels:
            if curves.numeric(channel):
                kept.append(channel)
            else:
                self._refuse(channel, "it is not a number, so glTF's Object Model cannot animate it")
        return kept

    def _refuse(self, channel: Channel, why: str) -> None:
        key = channel.key
        if key not in self._refused:
            self._refused.add(key)
            self.warn(f"{channel.id_data.name!r}: the keyframes on {channel.fcurve.data_path}"
                      f"[{channel.fcurve.array_index}] are not exported: {why}")

    def own_channels(self, obj: bpy.types.Object) -> list[Channel]:
        channels = self._channels.get(obj)
        if channels is None:
            channels = self._channels[obj] = self._numeric(
                [Channel(obj, curve) for curve in curves.fcurves(obj)
                 if curve.data_path.startswith(self._own_prefixes)])
        return channels

    def keys_only_physics(self, obj: bpy.types.Object) -> bool:
        """True when every F-curve of the object's action keys a physics setting (none keys its transform)."""
        return all(curve.data_path.startswith(self._own_prefixes) for curve in curves.fcurves(obj))

    def animates(self, obj: bpy.types.Object) -> bool:
        # An object without animation data has no channels of its own (asked of every exported object)
        return bool(self._library) or (obj.animation_data is not None and bool(self.own_channels(obj)))

    # --- snapshots ---------------------------------------------------------------------------------

    def _part_now(self, tracker: Tracker) -> model.NodePhysics | None:
        """The tracker's part with the values the settings hold now, placed as the export placed them."""
        derived = tracker.derive(tracker.obj)
        if derived is None:
            return None
        physics, part, obj = derived.physics, tracker.part, tracker.obj
        motion = physics.motion if part.motion is not None else None
        collider = _placed(part.collider, physics.collider, obj, derived.collider_offset, self.placement.shape)
        trigger = _placed(part.trigger, physics.trigger, obj, derived.trigger_offset, self.placement.shape)
        joint = part.joint
        source = derived.joint if derived.joint is not None else derived.constraint
        if joint is not None and source is None:
            joint = None
        elif joint is not None:
            settings = self.placement.reversed_settings(source.settings) if tracker.reversed_joint else source.settings
            joint = dataclasses.replace(joint, settings=settings, enable_collision=source.enable_collision)
        return model.NodePhysics(motion=motion, collider=collider, trigger=trigger, joint=joint,
                                 extensions=physics.extensions if part.extensions else part.extensions)

    def _snapshot(self, tracker: Tracker) -> Snapshot | None:
        part = self._part_now(tracker)
        if part is None:
            return None
        log: list[tuple[str, dict]] = []

        def ref(kind: str, item: dict) -> int:
            log.append((kind, item))
            return len(log) - 1

        home = registry.default()  # the spelling written as the export gathers (export_writer.home)
        extensions = home.write_node(part, ref, _keep, _keep, dialect=home.tables)
        arrays = _array_extension()
        found: Snapshot = {}
        for name, content in extensions.items():
            for (text, nested), value in pointers.leaves(name, None, content).items():
                found[("node", text, nested)] = value
        for position, (kind, item) in enumerate(log):
            if kind in arrays:
                for (text, nested), value in pointers.leaves(arrays[kind], kind, item).items():
                    found[(position, text, nested)] = value
        return found

    # --- tracking one written node -------------------------------------------------------------------

    def track(self, node: Any, obj: bpy.types.Object, anchor: Any, part: model.NodePhysics, *,
              derive: Callable[[bpy.types.Object], Any]) -> Tracker | None:
        """Before a node of an animated object is written: find which values its F-curves feed; the tracker
        (its `ref_into` writes with: items fed by the object's own F-curves are never merged), or None."""
        own = self.own_channels(obj)
        reversed_joint = False
        if part.joint is not None:
            derived = derive(obj)
            source = derived.joint.settings if derived.joint is not None else derived.constraint.settings
            reversed_joint = part.joint.settings != source
        library = self._materials_of(part)
        material_done = bool(library) and library[0].key in self._library_done
        tracker = Tracker(node, obj, anchor, part, derive, reversed_joint, [*own, *([] if material_done else library)])
        if not tracker.channels:
            return None
        with curves.held(tracker.channels):
            rest = self._snapshot(tracker)
            if rest is None:
                return None
            for channel in tracker.channels:
                mapped = direct.map_channel(channel, rest)
                if mapped is not None:
                    tracker.direct[channel.key] = mapped
                changed = {mapped.key} if mapped is not None else self._nudged(tracker, channel, rest)
                for key in changed:
                    tracker.feeds.setdefault(key, []).append(channel)
                    self._feeding.add(channel.key)
                    if channel in own and key[0] != "node":
                        tracker.unique.add(key[0])
        tracker.channels = [channel for channel in tracker.channels if channel.key not in self._refused]
        if not tracker.feeds:
            return None
        tracker.rest = rest
        return tracker

    def _materials_of(self, part: model.NodePhysics) -> list[Channel]:
        """The keyed library channels of the physics material this part uses (materials carry their name)."""
        material = part.collider.physics_material if part.collider is not None else None
        if material is None or not material.name:
            return []
        return [channel for channel in self._library if _entry_name(channel) == material.name]

    def _nudged(self, tracker: Tracker, channel: Channel, rest: Snapshot) -> set[tuple]:
        """The snapshot keys whose value changes when this channel's property moves a little."""
        value = channel.current()
        for delta in (1.0, -1.0):
            channel.put(value + delta)
            if channel.current() != value:
                break
        moved = self._snapshot(tracker) or {}
        channel.put(value)
        if set(moved) != set(rest):
            if channel in self.own_channels(tracker.obj):
                self._refuse(channel, "it changes which physics values the object has, not a value")
            return set()
        return {key for key, old in rest.items() if moved[key] != old}

    def written(self, tracker: Tracker, extensions: dict[str, dict], arrays: dict[str, list[dict]]) -> None:
        """The node as the export will write it (`arrays`: its items, by `tracker.refs`): check its still values
        against the snapshot, then sample."""
        tracker.preview = arrays
        real: Snapshot = {}
        homes = _array_extension()
        for name, content in extensions.items():
            for (text, nested), value in pointers.leaves(name, None, content).items():
                real[("node", text, nested)] = value
        for position, (kind, index) in enumerate(tracker.refs):
            if kind in homes:
                for (text, nested), value in pointers.leaves(homes[kind], kind, arrays[kind][index]).items():
                    real[(position, text, nested)] = value
        if real != tracker.rest:
            self.warn(f"object {tracker.obj.name!r}: its physics animation could not be matched to the values "
                      "written; not exported")
            return
        with curves.held(tracker.channels):
            for key, channels in tracker.feeds.items():
                self._sample(tracker, key, channels)
        self._library_done.update(channel.key for channel in tracker.channels if channel.id_data == self.scene)

    def _sample(self, tracker: Tracker, key: tuple, channels: list[Channel]) -> None:
        position, text, nested = key
        template = next(t for t in pointers.all_pointers() if t.text == text)
        if template.type == "bool":
            for channel in channels:
                self._refuse(channel, "booleans are not animated through KHR_animation_pointer by this add-on")
            return
        node = tracker.node if position == "node" else None
        pointer = (id(node), item_key(tracker, position), text, nested)
        if pointer in self._sampled:
            return  # a shared library material seen again from another object
        self._sampled.add(pointer)
        plan = curves.plan((channel.fcurve for channel in channels), cubic=self.cubic)
        mapped = [(channel, tracker.direct[channel.key]) for channel in channels if channel.key in tracker.direct]
        mirrored = direct.mirrors([channel for channel in channels if channel.key not in tracker.direct], mapped)
        values = direct.values(mapped, _numbers(tracker.rest[key]), plan.frames, fps=self._fps,
                               cubic=plan.interpolation == 'CUBICSPLINE', mirrored=mirrored) \
            if mapped and mirrored is not None else None
        if values is None:
            values = self._translated(tracker, key, channels, plan)
        if values is None:
            return
        if plan.baked and (self.cubic or curves.plan(channel.fcurve for channel in channels).baked):
            self.warn(f"object {tracker.obj.name!r}: {text.rsplit('/', 1)[-1]} is sampled at every frame "
                      "(its keyframes use easing, modifiers or handles glTF cannot hold)")
        still = {text: value for (at, text, within), value in tracker.rest.items()
                 if at == position and within == nested}
        self.data.append(ChannelData(tracker.obj, tracker.anchor, template, node, 0, nested, plan.interpolation,
                                     [frame / self._fps for frame in plan.frames], values, still=still,
                                     item=None if position == "node" else (tracker.final_refs, position)))

    def _translated(self, tracker: Tracker, key: tuple, channels: list[Channel],
                    plan: curves.Plan) -> list[list[float]] | None:
        """The value at each key through the whole translation (the settings at the frame, derived and
        written); None (said) when a key leaves the values the file can hold."""
        values: list[list[float]] = []
        for frame in plan.frames:
            curves.set_frame(tracker.channels, frame)
            snapshot = self._snapshot(tracker) or {}
            if key not in snapshot:
                self.warn(f"object {tracker.obj.name!r}: at frame {frame:g}, {key[1]} leaves the values the file "
                          "can hold; its channel is not exported")
                return None
            value = _numbers(snapshot[key])
            if plan.interpolation == 'CUBICSPLINE':
                incoming, outgoing = (self._tangent(tracker, key, channels, frame, side) for side in (0, 1))
                values.append([*incoming, *value, *outgoing])
            else:
                values.append(value)
        return values

    def _tangent(self, tracker: Tracker, key: tuple, channels: list[Channel], frame: float,
                 side: int) -> list[float]:
        """A glTF tangent (per second) of the value at a key: the linear translation applied to the slopes."""
        base = _numbers((self._snapshot(tracker) or {})[key])
        slopes = [curves.slopes(channel.fcurve, frame)[side] for channel in channels]
        if not any(slopes):
            return [0.0] * len(base)
        values = [channel.current() for channel in channels]
        for step in (1.0, -1.0, 0.01, -0.01):
            for channel, value, slope in zip(channels, values, slopes, strict=True):
                channel.put(value + slope * step)
            landed = all(math.isclose(channel.current(), value + slope * step, rel_tol=1e-5, abs_tol=1e-6)
                         for channel, value, slope in zip(channels, values, slopes, strict=True))
            moved = (self._snapshot(tracker) or {}).get(key)
            for channel, value in zip(channels, values, strict=True):
                channel.put(value)
            if landed and moved is not None:  # not clamped by a property's range, not left out by the writer
                return [(after - before) / step * self._fps
                        for after, before in zip(_numbers(moved), base, strict=True)]
        return [0.0] * len(base)

    # --- into the glTF document (gltf_write.py) ------------------------------------------------------

    def attach(self, animations: list, some_node: Any) -> None:
        for channels in self._channels.values():
            for channel in channels:
                if channel.key not in self._feeding:
                    self._refuse(channel, "no value of the glTF Object Model follows it (a motion type, a switch, "
                                          "a setting the file does not hold)")
        gltf_write.attach(self, animations, some_node)

    def finish(self, gltf: Any) -> None:
        gltf_write.finish(self, gltf)

    def add_spelling(self, gltf: Any, dialect: Dialect) -> None:
        gltf_write.add_spelling(self, gltf, dialect)

    def place_items(self) -> None:
        """Item channels get their item's index, once the export has written the items (`Tracker.final_refs`)."""
        placed = []
        for data in self.data:
            if data.item is not None:
                refs, position = data.item
                if position >= len(refs):
                    continue  # its node was not written
                data.index, data.item = refs[position][1], None
            placed.append(data)
        self.data = placed

    def has_channels(self) -> bool:
        return any(data.home is not None and data.home[1] in data.home[0].channels for data in self.data)

    def drop_home_channels(self) -> bool:
        """An export without the home (the default dialect's) spelling: remove its channels when every one has
        its twin in the other spelling; False (nothing removed) when some value has none."""
        attached = [(data.khr_channel, data.home) for data in self.data
                    if data.home is not None and data.home[1] in data.home[0].channels]
        if any(khr_channel is None for khr_channel, _ in attached):
            return False
        for _, (animation, channel) in attached:
            animation.channels.remove(channel)
        return True


def _entry_name(channel: Channel) -> str | None:
    """The name of the library entry a scene F-curve keys (`...physics_materials[2].restitution`)."""
    head = channel.fcurve.data_path.rsplit(".", 1)[0]
    try:
        return getattr(channel.id_data.path_resolve(head), "name", None)
    except ValueError:
        return None


def _keep(value: Any) -> Any:
    return value


def _placed(written: Any, now: Any, obj: bpy.types.Object, offset: Any,
            place: Callable[[model.Shape, Any, Any], Any]) -> Any:
    """A written collider/trigger with the values it holds now: a primitive shape placed as export placed it."""
    if written is None or now is None:
        return None  # a part switched off: its values vanish, which the nudge reports as a change of structure
    shape = written.shape
    if shape is not None and now.shape is not None and shape.type in model.PRIMITIVE_SHAPE_TYPES:
        placement = place(now.shape, obj.matrix_world, offset)
        shape = placement.shape if placement is not None else shape
    values = {"shape": shape, "collision_filter": now.collision_filter}
    if isinstance(written, model.Collider):
        values["physics_material"] = now.physics_material
    return dataclasses.replace(written, **values)
