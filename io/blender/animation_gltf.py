"""Sampled physics channels into the glTF document: animations, samplers, accessors, pointers.

`attach` runs in gather_gltf_hook (animations gathered, buffer not yet written): each channel goes into the
animation that already animates its object, or into one animation named for the scene's physics.
`finish` runs in gather_gltf_extensions_hook, once every node has its final index.
"""

from __future__ import annotations

import struct
from typing import TYPE_CHECKING, Any

from ..omi import pointers
from . import gltf_compat

if TYPE_CHECKING:
    from .animation_export import AnimationExport

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
    own = None
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
