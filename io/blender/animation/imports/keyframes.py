"""glTF animation channels targeting physics values (KHR_animation_pointer) -> keyframes on the settings.

The values go through the same translation as the still import: the document is read once into the model
(the file's own physics); a value moved at its pointer is read (`io/omi/read/reader`) once, and the part of the
physics that changed is written into the settings by the settings' binding (registered in `settings.Layout`).
Which settings a pointer feeds, and how, is read from the Object Model tables where a setting holds the value
one-to-one (`table`: no read), else found by moving the value once per component; keys within the bounds of
the pointer's Field are then an affine map of those (`io/omi/animation/linear_keys`, checked at the keys'
extremes), the others are translated whole. So axis swaps, Bullet signs and spec defaults stay in their one
home each, as on export (`exports/sample.py`).

Channels whose pointer leads into a physics extension but names no Object Model value, or one the file does
not have, are warned about with the channel's JSON pointer; the rest still imports.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import bpy

from ....omi import model
from ....omi.animation import linear_keys, moved_values, one_radius
from ....omi.checks import animation_keys
from ....omi.dialects import pointers, registry
from ....omi.read import reader
from ....omi.write import channel_follow
from ... import gltf_compat
from .. import curves, settings, static_values
from . import table
from .rigid import RigidFollow

_INTERPOLATION: dict[str, curves.KeyInterpolation] = {"STEP": 'CONSTANT', "LINEAR": 'LINEAR', "CUBICSPLINE": 'BEZIER'}
Key = tuple[Any, str, int]  # (datablock, RNA path, array index) of a setting
Values = dict[Key, float]


@dataclass
class PointerChannel:
    """One physics channel of the file: where it is, what it targets, and its keys."""

    at: str  # JSON pointer of the channel, for messages
    pointer: str
    found: pointers.PointerMatch
    interpolation: str
    times: list[float]
    values: list[list[float]]  # per key; CUBICSPLINE: [in-tangent, value, out-tangent]


def import_animation(gltf: Any, document: dict, objects: Mapping[int, bpy.types.Object], bl_scene: bpy.types.Scene,
                     issues: list[model.Issue], *, rigid_bodies: bool = False) -> list[tuple[Any, str, int]]:
    """Keyframes for every physics channel of the file (`document`: the importer's parsed glTF as the physics
    reader reads it; with `rigid_bodies`, on the Blender rigid bodies and constraints the import built too);
    the (datablock, RNA path, index) keyed on the settings."""
    channels, made = read_channels(gltf, document, issues)
    if not channels:
        return []
    indices = {index for pointer in made if (index := one_radius.shape_index(pointer)) is not None}
    document = dict(one_radius.in_spec_form(document, indices))  # as the channels read from Godot's form mean
    sources = sorted({channel.at.split("/")[2] for channel in channels}, key=int)
    if len(sources) > 1:
        names = [gltf.data.animations[int(index)].name or f"#{index}" for index in sources]
        issues.append(model.Issue("/animations", f"physics channels of several animations ({', '.join(names)}) are "
                                                 "keyed into the objects' active actions together; they export as "
                                                 "one animation"))
    keys = ChannelKeyframes(document, reader.read_document(document), objects, bl_scene, issues)
    keys.follow = RigidFollow(bl_scene, issues) if rigid_bodies else None
    for channel in channels:
        try:
            keys.write(channel)
        except Exception as error:  # one bad channel must not cost the others their keyframes
            issues.append(model.Issue(channel.at, f"{channel.pointer}: not imported ({type(error).__name__}: "
                                                  f"{error})", "error"))
    for switch in keys.switches:  # a keyed value needs its switch on (a centre of mass the file left to the
        curves.put(*switch, 1.0)  # engine and animates): on for good, not keyed, once every channel is in
    return keys.keyed


def read_channels(gltf: Any, document: Mapping, issues: list[model.Issue]) -> tuple[list[PointerChannel], set[str]]:
    """The file's physics channels with their keys; unusable ones are reported and left out. Also the
    pointers of the channels read from a shape's channels in Godot's form (`one_radius`)."""
    data = gltf.data
    channels = []
    animations = {"animations": _animations_json(data)}
    issues.extend(animation_keys.malformed_pointers(animations))
    made, replaced, found_issues = one_radius.read(document, pointers.channel_pointers(animations),
                                                   lambda index: gltf_compat.accessor_rows(gltf, index))
    issues.extend(found_issues)
    for at, pointer, interpolation, times, values in made:  # a shape's channels in Godot's form, as the spec's
        matched = pointers.match(pointer)
        if matched is not None:
            channels.append(PointerChannel(at, pointer, matched, interpolation, times, values))
    for at, pointer, sampler in pointers.channel_pointers(animations):
        if at in replaced:
            continue
        where = f"{at}/target/extensions/{pointers.ANIMATION_POINTER_EXTENSION}/pointer"
        found = pointers.match(pointer)
        if found is not None and found.template in pointers.GRAVITY_POINTERS:
            issues.append(model.Issue(where, f"{pointer}: gravity values are not keyed in Blender (its rigid bodies "
                                             "have no gravity volumes); channel not imported", "warning"))
            continue
        if found is None or found.template.type == "bool":
            what = "a boolean" if found is not None else "not a value of the glTF Object Model"
            issues.append(model.Issue(where, f"{pointer} is {what}; channel not imported"))
            continue
        if not pointers.resolve(document, found)[0]:
            issues.append(model.Issue(where, f"{pointer}: the file has no such physics value; channel not imported"))
            continue
        if sampler is None:
            issues.append(model.Issue(where, f"{pointer}: its sampler is missing; channel not imported"))
            continue
        interpolation = sampler.get("interpolation", "LINEAR")
        try:
            times = [float(row[0]) for row in gltf_compat.accessor_rows(gltf, sampler["input"])]
            rows = [[float(number) for number in row] for row in gltf_compat.accessor_rows(gltf, sampler["output"])]
        except (KeyError, IndexError, TypeError, ValueError) as error:
            issues.append(model.Issue(where, f"{pointer}: its keys cannot be read ({error}); channel not imported"))
            continue
        width = pointers.COMPONENTS[found.template.type]
        per_key = 3 if interpolation == "CUBICSPLINE" else 1
        if any(len(row) != width for row in rows) or len(rows) != per_key * len(times) or not times:
            issues.append(model.Issue(where, f"{pointer} is a {found.template.type}: its sampler's output does "
                                             "not match it; channel not imported", "error"))
            continue
        problems = animation_keys.key_issues(at, animation_keys.sampler_pointer(animations, at), pointer,
                                             found.template, times=times,
                                             values=animation_keys.key_values(rows, interpolation))
        if problems:  # what validate says of the same keys: the channel is not imported
            issues.extend(problems)
            continue
        values = [[number for row in rows[per_key * k: per_key * (k + 1)] for number in row]
                  for k in range(len(times))]
        channels.append(PointerChannel(at, pointer, found, interpolation, times, values))
    return channels, {pointer for _at, pointer, _interpolation, _times, _values in made}


def _animations_json(data: Any) -> list[dict]:
    """The importer's animations as the plain JSON `pointers.channel_pointers` reads."""
    result = []
    for animation in data.animations or []:
        channels = [{"sampler": channel.sampler, "target": {"path": channel.target.path,
                                                             "extensions": channel.target.extensions or {}}}
                    for channel in animation.channels or []]
        samplers = [{"input": sampler.input, "output": sampler.output,
                     "interpolation": sampler.interpolation or "LINEAR"} for sampler in animation.samplers or []]
        result.append({"channels": channels, "samplers": samplers})
    return result


def _follow_interpolation(interpolation: str) -> curves.KeyInterpolation:
    """The Blender rigid bodies' keys: a Bézier curve of the settings is followed linearly between keys."""
    kind = _INTERPOLATION.get(interpolation, 'LINEAR')
    return kind if kind != 'BEZIER' else 'LINEAR'


class ChannelKeyframes:
    """One import's physics channels, set as keyframes on the objects' settings and the scene library."""

    def __init__(self, document: dict, doc: model.PhysicsDocument, objects: Mapping[int, bpy.types.Object],
                 bl_scene: bpy.types.Scene, issues: list[model.Issue]) -> None:
        self.document = document
        self.doc = doc
        self.objects = objects
        self.scene = bl_scene
        self.access = settings.layout().access  # the settings' conversions (the properties layer's)
        self.issues = issues
        self.fps = curves.fps(bl_scene)
        self.keyed: list[tuple[Any, str, int]] = []  # every (datablock, path, index) given keyframes
        self.switches: list[tuple[Any, str, int]] = []  # switches a keyed value needs on (`Held.needs`)
        self.ids: list[Any] = []  # the datablocks the current channel's settings live on
        self.held = dict(doc.nodes)  # node index -> the physics its object's settings hold now
        self.touched: list[bpy.types.Object] = []  # the objects whose physics the current channel changes
        self.follow: RigidFollow | None = None
        self.at_rest = True  # the settings hold the file's own physics (`rest()` has nothing to do)
        self.moved = moved_values.MovedValues(document, doc)  # the physics with a value moved, read once

    def rest(self) -> list[int]:
        """The file's own physics back in the settings: the model read once, no document read."""
        return self._apply(self.doc, at_rest=True)

    def apply_at(self, found: pointers.PointerMatch, numbers: Sequence[float]) -> list[int]:
        """The physics with the channel's value at `numbers` in the settings; the indices of the nodes whose
        physics differs from the file's own."""
        return self._apply(self.moved.at(found, numbers), at_rest=False)

    def _apply(self, changed: model.PhysicsDocument, *, at_rest: bool) -> list[int]:
        """Write the physics of `changed` into the settings wherever it differs from what they hold."""
        if at_rest and self.at_rest:
            return []
        self.at_rest = at_rest
        touched = []
        for index, node in changed.nodes.items():
            held = self.held.get(index)
            obj = self.objects.get(index)
            if held is None or obj is None:
                continue
            if node != held:
                self.access.write_node(held, node, obj, self.scene, self.objects.get)
                self.held[index] = node
            if node != self.doc.nodes[index]:
                touched.append(index)
        return touched

    def values(self) -> Values:
        found: Values = {}
        for id_data in self.ids:
            table.setting_numbers(self.access.settings(id_data), id_data, found)
        return found

    def own_material(self, channel: PointerChannel) -> None:
        """An animated physics material gets a library entry of its own (`SettingsAccess.own_material`): keys on
        an entry shared with other objects would animate them too."""
        found = channel.found
        if found.template.array != "physicsMaterials":
            return
        dialect = registry.dialect_of(found.template.extension).tables  # the spelling the pointer is in
        users = [self.objects[index] for index in channel_follow.item_users(self.document, dialect,
                                                                            "physicsMaterials", found.index)
                 if index in self.objects]
        self.access.own_material(self.scene, users)

    def translate(self, found: pointers.PointerMatch, numbers: Sequence[float]) -> Values:
        """The settings with the channel's value at `numbers` (the whole translation: a document read)."""
        self.apply_at(found, numbers)
        return self.values()

    def write(self, channel: PointerChannel) -> None:
        """Keyframes for one channel on every setting its pointer feeds.

        Which settings follow the value, and how, is read from the Object Model tables where a setting holds
        it one-to-one (`table`), else found by translating it at rest and nudged (once per
        component: `linear_keys`); keys within the bounds of the pointer's Field are then arithmetic, the
        others (and every key of a channel the map does not predict) translated whole."""
        self.own_material(channel)
        template = channel.found.template
        width = pointers.COMPONENTS[template.type]
        rest = pointers.resolve(self.document, channel.found)[1]
        rest_numbers = [float(v) for v in (rest if isinstance(rest, list) else [rest])] if rest is not None \
            else channel.values[0][:width]
        cubic = channel.interpolation == "CUBICSPLINE"
        at_keys = [numbers[width:2 * width] if cubic else numbers for numbers in channel.values]
        field = template.field
        mapped = table.table_map(channel.found, rest_numbers if rest is not None else None,
                                           self.document, self.objects, self.scene)
        linear: linear_keys.LinearMap[Key] | None
        if mapped is not None:
            self.touched, linear = mapped
            self.ids = [*self.touched, self.scene]
            before = self.values()
            fed = list(linear.offset)
        else:
            found = self._nudge(channel, rest_numbers, stated=rest is not None, keys=at_keys)
            if found is None:
                return
            fed, before, linear = found
        self._key(channel, fed, before, linear, at_keys)
        if self.follow is not None:
            self.follow.follow(channel.at, channel.pointer, self.touched, apply_rest=self.rest,
                               rest=rest_numbers, stated=rest is not None, values=at_keys,
                               frames=[time * self.fps for time in channel.times], field=field,
                               apply_at=lambda numbers: self.apply_at(channel.found, numbers),
                               interpolation=_follow_interpolation(channel.interpolation))

    def _nudge(self, channel: PointerChannel, rest_numbers: list[float], *, stated: bool,
               keys: list[list[float]]) -> tuple[list[Key], Values, linear_keys.LinearMap[Key] | None] | None:
        """(settings fed, their values at rest, the affine map or None) found by translating the value at rest
        and nudged; None (said) when no setting follows it."""
        template = channel.found.template
        nudged = [v + 1.0 for v in rest_numbers]
        self.ids = []
        touched = self.apply_at(channel.found, nudged)
        self.rest()
        self.touched = [self.objects[index] for index in touched]
        self.ids = [*(self.objects[index] for index in touched), self.scene]
        before = self.values()
        self.apply_at(channel.found, nudged)
        moved = self.values()
        self.rest()
        fed = [key for key, value in before.items() if moved.get(key) != value]
        if not fed:
            self.issues.append(model.Issue(channel.at, f"{channel.pointer}: no setting follows this value; "
                                                      "channel not imported"))
            return None
        linear = linear_keys.fit(rest_numbers, before, fed, lambda numbers: self.translate(channel.found, numbers),
                                 field=template.field, keys=keys) if stated else None
        self.rest()
        return fed, before, linear

    def _key(self, channel: PointerChannel, fed: list[Key], before: Values, linear: linear_keys.LinearMap[Key] | None,
             at_keys: list[list[float]]) -> None:
        """Keyframes on the fed settings at every key: by the map where it holds, else translated whole. A
        switch that moving the value turns on (`Held.needs`) is not keyed: it is set once all channels are in."""
        needed = settings.layout().needed_switches()  # `use_center_of_mass` off: the engine computes it
        switches = [key for key in fed if key[1].rsplit(".", 1)[-1] in needed]
        if switches:
            fed = [key for key in fed if key not in switches]
            self.switches += [key for key in switches if key not in self.switches]
        field = channel.found.template.field
        width = pointers.COMPONENTS[channel.found.template.type]
        cubic = channel.interpolation == "CUBICSPLINE"
        frames = [time * self.fps for time in channel.times]
        keyed: dict[tuple[Any, str, int], list[tuple[float, float, float, float]]] = {key: [] for key in fed}
        for position, numbers in enumerate(channel.values):
            value = at_keys[position]
            tangents = (numbers[:width], numbers[2 * width:]) if cubic else ()
            if linear is not None and _arithmetic(field, value, tangents):
                now = linear.at(value)
                slopes = [{key: change / self.fps for key, change in linear.change(value, tangent).items()}
                          if any(tangent) else {} for tangent in tangents]
            else:
                now = self.translate(channel.found, value)
                slopes = [self._slopes(channel, value, numbers, side, fed) for side in (0, 2)] if cubic else []
            for key in fed:
                incoming = slopes[0].get(key, 0.0) if slopes else 0.0
                outgoing = slopes[1].get(key, 0.0) if slopes else 0.0
                keyed[key].append((frames[position], now[key], incoming, outgoing))
        self.rest()
        interpolation = _INTERPOLATION.get(channel.interpolation, 'LINEAR')
        for key, keys in keyed.items():
            curves.keyframes_with_slopes(key, keys, interpolation)
            self.keyed.append(key)
            curves.put(*key, before[key])  # the settings hold the file's own value again (keying left the last)
            static_values.remember(*key, before[key])  # and the export writes it, not the key at its frame

    def _slopes(self, channel: PointerChannel, value: list[float], numbers: list[float], side: int,
                fed: list) -> dict:
        """Slopes per frame of the fed settings at a key, from a glTF tangent (per second)."""
        width = pointers.COMPONENTS[channel.found.template.type]
        tangent = numbers[side * width:(side + 1) * width]
        if not any(tangent):
            return {}
        base = self.values()
        for step in (1.0, -1.0, 0.01, -0.01):
            moved_value = [v + t * step for v, t in zip(value, tangent, strict=True)]
            self.apply_at(channel.found, moved_value)
            moved = self.values()
            if all(key in moved for key in fed) and any(moved[key] != base[key] for key in fed):
                self.apply_at(channel.found, value)
                return {key: (moved[key] - base[key]) / step / self.fps for key in fed}
        self.apply_at(channel.found, value)
        return {}


def _arithmetic(field: Any, value: list[float], tangents: tuple[list[float], ...]) -> bool:
    """Whether a key (and its tangents' ends) stays where the channel's affine map holds."""
    return linear_keys.within(field, value) and all(
        not any(tangent) or linear_keys.within(field, [v + t for v, t in zip(value, tangent, strict=True)])
        for tangent in tangents)
