"""A file's static value of each animated physics property, kept beside its keyframes.

glTF holds two values for an animated physics property: the static one in the extension (what an engine
without animation uses) and the channel's keys. Blender holds one per property, and an F-curve overrides
it at every frame, so after import the property shows its first key and the export would write that key
as the static value (mass 2 animated 5 -> 7 exported mass 5). The import therefore keeps the static value
of each property it keys in an ID property (`markers.STATIC_VALUES`, a JSON object "path[index]" -> value,
kept out of glTF extras), and the export holds the property at that value while it writes the physics.

The rule (README "Animated physics"): a kept static value is used only while an F-curve of the datablock's
active action animates that property. Without one (the animation or that F-curve was removed) the
property's own value is the static value again, so what the artist sets is what exports. Editing or
deleting an entry of the custom property changes or forgets the value kept.
"""

from __future__ import annotations

import contextlib
import json
import math
from collections.abc import Iterable, Iterator
from typing import Any

from ..tables.markers import STATIC_VALUES
from . import curves


def _name(path: str, index: int) -> str:
    return f"{path}[{index}]"


def _entries(id_data: Any) -> dict[str, float]:
    """The kept values of a datablock (entries that are not numbers are ignored)."""
    text = id_data.get(STATIC_VALUES) if hasattr(id_data, "get") else None
    if not isinstance(text, str):
        return {}  # most datablocks (asked for every exported object)
    try:
        found = json.loads(text)
    except ValueError:
        return {}
    if not isinstance(found, dict):
        return {}
    return {str(name): float(value) for name, value in found.items()
            if isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)}


def remember(id_data: Any, path: str, index: int, value: float) -> None:
    """Keep `value` as the static value of one number of a property the import keys."""
    entries = _entries(id_data)
    entries[_name(path, index)] = float(value)
    id_data[STATIC_VALUES] = json.dumps(entries, sort_keys=True)


def kept(id_data: Any) -> dict[tuple[str, int], float]:
    """(RNA path, index) -> static value for every kept value whose property an F-curve animates now."""
    entries = _entries(id_data)
    if not entries:
        return {}
    return {(curve.data_path, curve.array_index): entries[name] for curve in curves.fcurves(id_data)
            if (name := _name(curve.data_path, curve.array_index)) in entries}


@contextlib.contextmanager
def held(datablocks: Iterable[Any]) -> Iterator[None]:
    """Within: every animated property with a kept static value holds that value (put back on exit)."""
    saved: list[tuple[Any, str, int, float]] = []
    try:
        for id_data in dict.fromkeys(datablocks):
            for (path, index), value in kept(id_data).items():
                try:
                    before = curves.value(id_data, path, index)
                    curves.put(id_data, path, index, value)
                except (AttributeError, ValueError, IndexError, TypeError):
                    continue  # the property is gone (a part switched off, a limit removed): nothing to hold
                saved.append((id_data, path, index, before))
        yield
    finally:
        for id_data, path, index, before in reversed(saved):
            curves.put(id_data, path, index, before)
