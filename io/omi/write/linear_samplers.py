"""A target's `form.LinearSamplers` on a parsed file (the command line's convert): each physics channel keyed
CUBICSPLINE sampled into LINEAR keys, for an engine that rejects CUBICSPLINE samplers.

A CUBICSPLINE key holds (in-tangent, value, out-tangent) and each segment between two keys is the Hermite
curve of their values and tangents (the tangents scaled by the segment's duration, as glTF defines it). The
curve is sampled at every key and at most `STEP` seconds apart between them: the engine then plays the same
motion within what a physics tick shows, as the Blender export's LINEAR keys at every frame do. The keys go
into buffers of their own (data: URIs) and the sampler takes them, so every channel sharing it plays them.
What changed is said once per extension; a sampler whose keys cannot be read is left as it was, for the
target's own loss report to name by its objects (the Godot targets': `engine_form`).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping
from typing import Any

from ..checks.animation_keys import WIDTHS, float_rows
from ..dialects import pointers
from ..json_types import get
from ..model import Issue
from ..targets.form import LinearSamplers
from .channel_rewrite import ReadBuffer, accessor, times_accessor

STEP = 1.0 / 60.0  # the longest time between two sampled keys: one physics tick at 60 Hz


def sample(document: dict[str, Any], part: LinearSamplers, read_buffer: ReadBuffer) -> list[Issue]:
    """The document's CUBICSPLINE physics channels sampled into LINEAR keys, in place; a note per extension
    of the channels sampled."""
    sampled: dict[str, list[tuple[str, str]]] = {}
    done: dict[int, bool] = {}  # id(sampler) -> sampled (a sampler shared by channels is sampled once)
    for at, pointer, sampler in pointers.channel_pointers(document):
        if not isinstance(sampler, dict) or (sampler.get("interpolation") != "CUBICSPLINE" and id(sampler) not in done):
            continue
        if id(sampler) not in done:
            done[id(sampler)] = _sample(document, sampler, read_buffer)
        if done[id(sampler)]:
            sampled.setdefault(_extension(pointer), []).append((at, pointer))
    return [Issue(found[0][0], f"{extension} channels keyed CUBICSPLINE sampled into LINEAR keys ({part.engine} "
                               f"rejects CUBICSPLINE samplers; a key at least every 1/{round(1 / STEP)} s): "
                               f"{', '.join(pointer for _at, pointer in found)}", "info", part.kind)
            for extension, found in sampled.items()]


def _extension(pointer: str) -> str:
    """The extension a physics pointer names (`/extensions/<name>/...` or `/nodes/N/extensions/<name>/...`)."""
    tokens = pointer.split("/")
    at = tokens.index("extensions") + 1 if "extensions" in tokens else len(tokens)
    return tokens[at] if at < len(tokens) else pointer


def _sample(document: dict[str, Any], sampler: dict[str, Any], read_buffer: ReadBuffer) -> bool:
    """The sampler's CUBICSPLINE keys replaced by LINEAR ones on its curve; False when they cannot be read."""
    accessors = get(document, "accessors")
    rows: list[list[tuple[float, ...]] | None] = []
    for role in ("input", "output"):
        index = sampler.get(role)
        found = accessors[index] if isinstance(accessors, list) and type(index) is int \
            and 0 <= index < len(accessors) else None
        rows.append(float_rows(found, document, read_buffer) if isinstance(found, Mapping) else None)
    times_rows, values = rows
    kind = get(accessors[sampler["output"]], "type") if values is not None else None
    if times_rows is None or values is None or not isinstance(kind, str) or len(values) != 3 * len(times_rows) \
            or any(later <= earlier for (earlier,), (later,) in itertools.pairwise(times_rows)):
        return False
    times, keys = curve([row[0] for row in times_rows], values)
    if kind == "VEC4":  # the physics' only float4 is a quaternion (an inertia orientation): kept of unit length,
        keys = [_unit(key) for key in keys]  # as glTF asks of an interpolated rotation
    sampler["input"] = times_accessor(document, times)
    sampler["output"] = accessor(document, [number for key in keys for number in key], kind, WIDTHS[kind])
    sampler["interpolation"] = "LINEAR"
    return True


def curve(times: list[float], rows: list[tuple[float, ...]]) -> tuple[list[float], list[tuple[float, ...]]]:
    """(times, values) of a CUBICSPLINE channel (`rows`: in-tangent, value, out-tangent per key) sampled at
    its keys and at most `STEP` apart between them."""
    out_times, out_values = [times[0]], [rows[1]]
    for k in range(len(times) - 1):
        start, duration = times[k], times[k + 1] - times[k]
        steps = max(1, math.ceil(duration / STEP - 1e-9))
        value, leaving, arriving, end = rows[3 * k + 1], rows[3 * k + 2], rows[3 * k + 3], rows[3 * k + 4]
        for step in range(1, steps + 1):
            s = step / steps
            weights = (2 * s**3 - 3 * s**2 + 1, duration * (s**3 - 2 * s**2 + s), -2 * s**3 + 3 * s**2,
                       duration * (s**3 - s**2))
            out_times.append(times[k + 1] if step == steps else start + s * duration)
            out_values.append(end if step == steps else tuple(
                weights[0] * p0 + weights[1] * m0 + weights[2] * p1 + weights[3] * m1
                for p0, m0, p1, m1 in zip(value, leaving, end, arriving, strict=True)))
    return out_times, out_values


def _unit(quaternion: tuple[float, ...]) -> tuple[float, ...]:
    length = math.sqrt(sum(number * number for number in quaternion))
    return tuple(number / length for number in quaternion) if length > 0.0 else quaternion
