"""Equal JSON values found in O(1): a hashable key per value, so a reader reads each distinct object once.

Apart from `json_types` (narrowing untrusted values), since this one only compares values already read.
"""

from __future__ import annotations

import math
from typing import Any

_KEY_DEPTH = 4  # deeper (or larger) values get no key: they are rare, and a key must stay cheap
_KEY_SIZE = 16


def value_key(value: object, depth: int = 0) -> Any:
    """A hashable key equal for two JSON values exactly when they are the same JSON (same keys in the same
    order, same types: 1 is not 1.0, True is not 1, 0.0 is not -0.0), or None for a value too deep or too
    large to key cheaply, a number that is not finite, or what is not JSON. Lets a reader read each distinct
    object once."""
    kind = value.__class__
    if kind is dict:
        if depth >= _KEY_DEPTH or len(value) > _KEY_SIZE:  # type: ignore[arg-type]  # see below
            return None
        parts: list[Any] = [kind]
        for name, item in value.items():  # type: ignore[attr-defined]  # `kind is dict` (fast) narrows nothing for mypy
            key = value_key(item, depth + 1)
            if key is None:
                return None
            parts.append((name, key))
        return tuple(parts)
    if kind is list:
        if depth >= _KEY_DEPTH or len(value) > _KEY_SIZE:  # type: ignore[arg-type]  # see below
            return None
        parts = [kind]
        for item in value:  # type: ignore[attr-defined]  # `kind is list` (fast) narrows nothing for mypy
            key = value_key(item, depth + 1)
            if key is None:
                return None
            parts.append(key)
        return tuple(parts)
    if kind is float:
        if not math.isfinite(value):  # type: ignore[arg-type]  # `kind is float` (fast) narrows nothing for mypy
            return None
        return (kind, value, math.copysign(1.0, value)) if value == 0.0 else (kind, value)
    if kind is str or kind is int or kind is bool or value is None:
        return (kind, value)
    return None
