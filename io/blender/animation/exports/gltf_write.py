"""Sampled physics channels into the glTF document: animations, samplers, accessors, pointers.

`attach` runs in gather_gltf_hook (animations gathered, buffer not yet written): each channel goes into the
animation that already animates its object, or into one animation named for the scene's physics.
`finish` runs in gather_gltf_extensions_hook, once every node has its final index.
"""

from __future__ import annotations

import copy
import struct
from collections.abc import Callable
from typing import Any, Protocol

import bpy

from ....omi.dialects import pointers, registry
from ....omi.dialects.base import Dialect
from ... import gltf_compat
from .channel_data import ChannelData


class AnimationExport(Protocol):
    """What the writing reads of the export's animation session (`sample.AnimationExport`)."""

    data: list[ChannelData]
    settings: dict
    scene: bpy.types.Scene
    warn: Callable[..., None]

    def keys_only_physics(self, obj: bpy.types.Object) -> bool: ...

_FLOAT = 5126
_SIMULATED_MODES = ("NLA_TRACKS", "BROADCAST")  # animations built from NLA tracks, not the active actions


def attach(session: AnimationExport, animations: list, some_node: Any) -> None:
    """Add every sampled channel to the animation that already animates its object, or to one animation
    named for the scene's physics (gather_gltf_hook: the animations are gathered but not yet indexed)."""
    if not session.data:
        return
    if not session.settings.get("gltf_animations", True):
        session.warn("physics animation is not exported: the export's Animation option is off")
        session.data = []
        return
    mode = session.settings.get("gltf_animation_mode", "ACTIONS")
    if mode in _SIMULATED_MODES:
        session.warn(f"physics animation comes from the active actions; with the {mode} animation mode it goes "
                     f"into the animation {_own_name(session)!r}")
    _drop_simulated_motion(session, animations)
    gltf_io = gltf_compat.gltf_io(some_node)
    binary = gltf_compat.binary_data_class(gltf_compat.package_root(some_node))
    # SCENE mode: the exporter writes one animation for the scene; the physics joins it
    own = next((animation for animation in animations if animation.name == session.scene.name), None) \
        if mode == "SCENE" else None
    for data in session.data:
        animation = None if mode in _SIMULATED_MODES else _animation_of(animations, data.anchor)
        if animation is None:
            if own is None:
                own = gltf_io.Animation(channels=[], extensions=None, extras=None, name=_own_name(session),
                                        samplers=[])
                animations.append(own)
            animation = own
        count = pointers.COMPONENTS[data.template.type]
        flat = [number for key in data.values for number in key]
        output_type = pointers.ACCESSOR_TYPES[data.template.type]
        sampler = gltf_io.AnimationSampler(
            extensions=None, extras=None, interpolation=data.interpolation,
            input=_accessor(gltf_io, binary, data.times, "SCALAR", bounds=True),
            output=_accessor(gltf_io, binary, flat, output_type, width=count))
        animation.samplers.append(sampler)
        data.target = gltf_io.AnimationChannelTarget(
            extensions={pointers.ANIMATION_POINTER_EXTENSION: {"pointer": data.pointer(0)}}, extras=None,
            node=None, path="pointer")
        channel = gltf_io.AnimationChannel(extensions=None, extras=None, sampler=len(animation.samplers) - 1,
                                           target=data.target)
        animation.channels.append(channel)
        data.home = (animation, channel)

def _drop_simulated_motion(session: AnimationExport, animations: list) -> None:
    """The exporter samples the transform of every object with an action; for a body whose action holds
    only physics keyframes that is the simulation's motion, which an engine must simulate, not replay."""
    for obj, anchor in {(data.obj, data.anchor) for data in session.data if data.anchor is not None}:
        if obj.rigid_body is None or obj.rigid_body.type != 'ACTIVE' or not session.keys_only_physics(obj):
            continue
        dropped = False
        for animation in animations:
            kept = [channel for channel in animation.channels
                    if channel.target is None or channel.target.node is not anchor]
            dropped |= len(kept) < len(animation.channels)
            animation.channels[:] = kept
        if dropped:
            session.warn(f"object {obj.name!r}: its simulated motion is not written as a transform animation "
                      "(its action keys physics settings only; engines simulate the motion)", "info")
    animations[:] = [animation for animation in animations if animation.channels]

def _own_name(session: AnimationExport) -> str:
    return f"{session.scene.name} physics"

def finish(session: AnimationExport, gltf: Any) -> None:
    """Node-level pointers get their node's final index; KHR_animation_pointer goes into extensionsUsed."""
    attached = [data for data in session.data if data.target is not None]
    if not attached:
        return
    node_index = {id(node): index for index, node in enumerate(gltf.nodes)}
    for data in attached:
        if data.node is not None:
            index = node_index.get(id(data.node))
            if index is None:
                session.warn(f"node {getattr(data.node, 'name', '?')!r} was removed by the exporter; its channel "
                          f"{data.template.text} is not written")
                if data.home is not None:
                    animation, channel = data.home
                    animation.channels.remove(channel)
                continue
            data.target.extensions[pointers.ANIMATION_POINTER_EXTENSION]["pointer"] = data.pointer(index)
    if pointers.ANIMATION_POINTER_EXTENSION not in gltf.extensions_used:
        gltf.extensions_used.append(pointers.ANIMATION_POINTER_EXTENSION)


def _animation_of(animations: list, node: Any) -> Any:
    for animation in animations:
        for channel in animation.channels or []:
            if channel.target is not None and channel.target.node is node and node is not None:
                return animation
    return None


def _accessor(gltf_io: Any, binary: type, numbers: list[float], kind: str, *, width: int = 1,
              bounds: bool = False) -> Any:
    packed = struct.pack(f"<{len(numbers)}f", *numbers)
    data = binary(packed)
    low = high = None
    if bounds:  # of the float32 values as stored, which validators compare them with
        stored = struct.unpack(f"<{len(numbers)}f", packed)
        low = [min(stored[i::width]) for i in range(width)]
        high = [max(stored[i::width]) for i in range(width)]
    return gltf_io.Accessor(buffer_view=data, byte_offset=None, component_type=_FLOAT, count=len(numbers) // width,
                            extensions=None, extras=None, max=high, min=low, name=None, normalized=None,
                            sparse=None, type=kind)


# --- the KHR spelling (export dialect KHR or OMI and KHR) --------------------------------------------------

def _refs(node: Any, extension: str, paths: tuple[tuple[str, ...], ...]) -> set[int]:
    """The item indices a node's extension references along these key paths."""
    found = set()
    for path in paths:
        current = (node.extensions or {}).get(extension)
        for key in path:
            current = current.get(key) if isinstance(current, dict) else None
        if isinstance(current, int):
            found.add(current)
    return found


def _repoint(node: Any, extension: str, paths: tuple[tuple[str, ...], ...], old: int, new: int) -> None:
    """Where the node's extension references item `old` along these key paths, reference `new` instead."""
    for path in paths:
        current = (node.extensions or {}).get(extension)
        for key in path[:-1]:
            current = current.get(key) if isinstance(current, dict) else None
        if isinstance(current, dict) and current.get(path[-1]) == old:
            current[path[-1]] = new


def _khr_index(gltf: Any, template: pointers.PointerTemplate, khr: pointers.PointerTemplate, index: int, *,
               source: Dialect, dialect: Dialect) -> int | None:
    """The KHR item that spells the OMI item `index`. KHR deduplicates on its own, so an animated item may
    have been merged with still ones that start equal: its users then get a copy of their own."""
    if template.array is None:
        return None
    source_extension, source_paths = source.referencing(template.array), source.item_references[template.array]
    khr_extension, khr_paths = dialect.referencing(template.array), dialect.item_references[template.array]
    users = [node for node in gltf.nodes or [] if index in _refs(node, source_extension, source_paths)]
    khr_indices = {found for node in users for found in _refs(node, khr_extension, khr_paths)}
    if len(khr_indices) != 1:
        return None
    [khr_index] = khr_indices
    sharers = [node for node in gltf.nodes or [] if khr_index in _refs(node, khr_extension, khr_paths)]
    if len(sharers) == len(users):
        return khr_index
    items = (gltf.extensions or {}).get(khr.extension, {}).get(template.array)
    if not isinstance(items, list) or not 0 <= khr_index < len(items):
        return None
    items.append(copy.deepcopy(items[khr_index]))
    for node in users:
        _repoint(node, khr_extension, khr_paths, khr_index, len(items) - 1)
    return len(items) - 1


def add_spelling(session: AnimationExport, gltf: Any, dialect: Dialect) -> None:
    """Beside each OMI channel, one on the same sampler pointing at `dialect`'s spelling of the value (after
    `io/omi/write/export_dialects.write_dialect`); a value it holds elsewhere or shares with still items is named, not
    written."""
    source = registry.default().tables  # the dialect the channels were sampled in
    source_rows, rows = pointers.dialect_rows(source), pointers.dialect_rows(dialect)
    document = {"nodes": [{"extensions": node.extensions or {}} for node in gltf.nodes or []],
                "extensions": gltf.extensions or {}}
    added = False
    for data in session.data:
        home = data.home
        if home is None or home[1] not in home[0].channels:
            continue
        omi_pointer = data.target.extensions[pointers.ANIMATION_POINTER_EXTENSION]["pointer"]
        found = pointers.match(omi_pointer, source_rows)
        khr = None if found is None else next(
            (t for t in rows if t.array == found.template.array and t.path == found.template.path), None)
        index = None if found is None or khr is None else found.index if khr.array is None else \
            _khr_index(gltf, found.template, khr, found.index, source=source, dialect=dialect)
        if found is None or khr is None or index is None:
            session.warn(f"{omi_pointer}: the {dialect.name} file has no single value for it; only the {source.name} "
                         "channel animates it")
            continue
        khr_found = pointers.PointerMatch(khr, index, found.nested)
        exists, value = pointers.resolve(document, khr_found)
        if not exists or value != pointers.resolve(document, found)[1]:
            session.warn(f"{omi_pointer}: the {dialect.name} file holds this value differently; only the {source.name} "
                         "channel animates it")
            continue
        animation, channel = home
        gltf_io = type(channel)
        target = type(data.target)(extensions={pointers.ANIMATION_POINTER_EXTENSION: {
            "pointer": pointers.pointer_of(khr, index, found.nested)}}, extras=None, node=None, path="pointer")
        data.khr_channel = gltf_io(extensions=None, extras=None, sampler=channel.sampler, target=target)
        animation.channels.append(data.khr_channel)
        added = True
    if added and pointers.ANIMATION_POINTER_EXTENSION not in gltf.extensions_used:
        gltf.extensions_used.append(pointers.ANIMATION_POINTER_EXTENSION)
