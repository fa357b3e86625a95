"""Skins whose inverse bind matrices are not finite numbers, named for `validate` (no bpy here).

Blender's importer places each bone by its inverse bind matrix; a NaN or an infinity there gives the bone,
the mesh it deforms and the ragdoll parts that follow it (io/blender/bones) no place, without a word.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from ..json_types import get, pointer
from ..model import Issue
from .animation_keys import ReadBuffer, float_rows


def check(document: Mapping[str, Any], read_buffer: ReadBuffer) -> list[Issue]:
    """An error per skin whose inverseBindMatrices accessor holds a value that is not a finite number."""
    accessors = get(document, "accessors")
    skins = get(document, "skins")
    found = []
    for index, skin in enumerate(skins if isinstance(skins, list) else []):
        accessor = get(skin, "inverseBindMatrices")
        if not isinstance(accessors, list) or not isinstance(accessor, int) or not 0 <= accessor < len(accessors):
            continue
        rows = float_rows(accessors[accessor], document, read_buffer) or []
        bad = [joint for joint, row in enumerate(rows) if not all(math.isfinite(value) for value in row)]
        if bad:
            found.append(Issue(pointer("skins", index, "inverseBindMatrices"), f"the inverse bind matrices of "
                               f"{len(bad)} joint(s) (first: joint {bad[0]}) hold NaN or infinity: Blender's "
                               "importer gives those bones, and the ragdoll parts that follow them, no place", "error"))
    return found
