"""Node transforms Blender cannot hold as written, named before they change silently (no bpy here).

Blender's importer turns a translation beyond float32 into NaN (the export then writes the node at the
origin), keeps a zero-length rotation as it is (the export then writes [1, 0, 0, 0], a half turn about X),
and replaces a matrix with shear by the nearest rotation and scale. `check` names each, at the node's
pointer; `validate` and the import report them as warnings.
"""

from __future__ import annotations

import math
import struct
from collections.abc import Iterator
from typing import Any

from ..json_types import pointer
from ..model import Issue
from .value_losses import FLOAT32_MAX

MIN_ROTATION_LENGTH = 1e-6  # shorter quaternions are no rotation (normalizing them is noise)
SHEAR_TOLERANCE = 1e-6  # of the product of the two axes' lengths
_SIZES = (("translation", 3), ("scale", 3), ("matrix", 16), ("rotation", 4))  # in the order findings are made
_KEYS = frozenset(key for key, _size in _SIZES)


def _numbers(value: Any, size: int) -> list[float] | None:
    if not isinstance(value, list) or len(value) != size:
        return None
    if all(type(item) is float for item in value):
        return value  # what a parser makes: read as it is (nothing here changes it)
    if not all(isinstance(item, int | float) and not isinstance(item, bool) for item in value):
        return None
    return [float(item) for item in value]


def _within_float32(numbers: list[float]) -> bool:
    """Every number finite and within float32's range, told by builtins alone (a large file has many)."""
    total = sum(numbers)
    return total - total == 0.0 and min(numbers) >= -FLOAT32_MAX and max(numbers) <= FLOAT32_MAX


def _beyond_float32(number: float) -> bool:
    if not math.isfinite(number):
        return True
    try:
        struct.pack("<f", number)
    except OverflowError:
        return True
    return False


def _shown(numbers: list[float]) -> str:
    return "[" + ", ".join(f"{number:g}" for number in numbers) + "]"


def check(document: Any) -> list[Issue]:
    """Every node transform Blender cannot hold as written, in node order."""
    nodes = document.get("nodes") if isinstance(document, dict) else None
    placed = [(index, node) for index, node in enumerate(nodes if isinstance(nodes, list) else [])
              if isinstance(node, dict) and not _KEYS.isdisjoint(node)]  # most nodes of a large file hold none
    if _all_held([node for _index, node in placed]):
        return []
    issues: list[Issue] = []
    for index, node in placed:
        issues += _node(index, node)
    return issues


def _all_held(nodes: list[dict[str, Any]]) -> bool:
    """Whether every node's translation, rotation and scale are floats Blender holds as written (no matrix):
    told for the whole file at once, since a large file's nodes are nearly always so; False sends each node
    through `_node`, which names what is not."""
    numbers: list[float] = []
    rotations: list[list[float]] = []
    for node in nodes:
        if "matrix" in node:
            return False
        for key, size in (("translation", 3), ("scale", 3), ("rotation", 4)):
            value = node.get(key)
            if value is None:
                continue
            if type(value) is not list or len(value) != size:
                return False
            numbers += value
            if size == 4:
                rotations.append(value)
    if not all(type(number) is float for number in numbers) or (numbers and not _within_float32(numbers)):
        return False
    return all(math.sqrt(x * x + y * y + z * z + w * w) >= MIN_ROTATION_LENGTH for x, y, z, w in rotations)


def _node(index: int, node: dict[str, Any]) -> Iterator[Issue]:
    for key, size in _SIZES:
        value = node.get(key)
        numbers = _numbers(value, size) if value is not None else None
        if numbers is None:
            continue
        if not _within_float32(numbers) and any(_beyond_float32(number) for number in numbers):
            origin = " (at the origin)" if key == "translation" else ""
            yield Issue(pointer("nodes", index, key), f"{key} {_shown(numbers)} is beyond float32: Blender makes it "
                                                      f"NaN, and the export writes the node without it{origin}",
                        "warning")
        elif key == "rotation" and math.sqrt(sum(number * number for number in numbers)) < MIN_ROTATION_LENGTH:
            yield Issue(pointer("nodes", index, key), f"rotation {_shown(numbers)} has (almost) no length, so it is "
                                                      "no rotation: Blender keeps it as is and the export writes "
                                                      "[1, 0, 0, 0], a half turn about X", "warning")
        elif key == "matrix" and _has_shear(numbers):
            yield Issue(pointer("nodes", index, key), "matrix has shear, which Blender objects cannot hold: Blender "
                                                      "keeps the nearest rotation and scale, so the node's shapes "
                                                      "change", "warning")


def _has_shear(matrix: list[float]) -> bool:
    """Whether the 3x3 part's axes (columns, glTF is column-major) are not at right angles."""
    axes = [matrix[0:3], matrix[4:7], matrix[8:11]]
    for first, second in ((0, 1), (0, 2), (1, 2)):
        dot = sum(a * b for a, b in zip(axes[first], axes[second], strict=True))
        lengths = math.sqrt(sum(a * a for a in axes[first]) * sum(b * b for b in axes[second]))
        if abs(dot) > SHEAR_TOLERANCE * lengths:
            return True
    return False
