"""Small helpers both halves of the PropertyGroup <-> model conversion use (`convert`, `convert_joint`)."""

from __future__ import annotations

from typing import TypeVar, cast

import bpy

from ..io.omi import model
from ..io.omi.dialects import registry
from ..io.omi.json_types import shortest_float32


def pg_float(value: float) -> float:
    """A PropertyGroup float (a float32) as the shortest decimal that is the same float32: a PG value of 0.3
    reads as 0.3, not 0.30000001192092896, and writing it back into a PG gives the same float32."""
    return shortest_float32(value)


FloatTuple = TypeVar("FloatTuple", bound=tuple[float, ...])


def pg_vec(values: FloatTuple) -> FloatTuple:
    """PropertyGroup floats as by `pg_float`, without negative zeros (axis swaps negate zeros; files should not
    show -0.0). The same length as `values`."""
    return cast(FloatTuple, tuple(pg_float(v) + 0.0 for v in values))


def kept(text: str) -> model.Unknown:
    """A settings group's stored unknown keys (its `*unknown_json` string) as the model holds them."""
    return model.Unknown.from_text(text, registry.kept_keys_dialect())


def kept_values(values: dict[str, object]) -> model.Unknown:
    """Unknown keys to store in a settings group: they are kept in the spelling of the dialect that keeps them."""
    return model.Unknown(values, registry.kept_keys_dialect())


def issue(issues: list[model.Issue] | None, pointer: str, obj: bpy.types.Object, message: str) -> None:
    if issues is not None:
        issues.append(model.Issue(pointer, f"object {obj.name!r}: {message}"))
