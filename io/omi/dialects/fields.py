"""One declaration per model field of a JSON dialect, and the two functions that read and write it.

A `Field` says everything both directions need about one value: the model attribute, the JSON key, the
kind of JSON value, the spec default (absent in JSON means it; the writer omits it), the bounds and the
enum spellings. `read_fields` narrows a JSON object into model values with exactly those rules (every
dropped value reported with its pointer) and `write_fields` writes model values back, omitting defaults
and never writing what the bounds forbid. The dialect tables (`dialects/omi.py`, `dialects/khr.py`) are
lists of Fields; the canonical form and the tests read the same lists.

Values whose structure differs between dialects (a joint limit's axes, a drive's required `type`, a
shape's mesh or geometry) are declared here too, with the kind `"special"`: the generic functions skip
them and the reader/writer of that item handles them, but the key still has this one home.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from ..json_types import (
    MISSING,
    Issues,
    Where,
    bool_or,
    describe,
    float_or,
    get,
    join,
    report,
    str_list_or,
    str_or,
    vec_or,
)
from ..model import Unknown

Kind = Literal["number", "vector", "choice", "strings", "bool", "name", "infinity", "special"]


class _Default:
    """The type of SAME: a read default that is the spec default."""

    def __repr__(self) -> str:
        return "SAME"


SAME: Any = _Default()


@dataclass(frozen=True)
class Field:
    """One JSON value of one item, in one dialect.

    kind: "number" (finite, within the bounds), "vector" (`size` finite numbers), "choice" (one of
    `choices`, else the default), "strings" (distinct strings), "bool", "name" (glTF name, not part of the
    meaning), "infinity" (a number where absent or negative means infinite: None in the model), "special"
    (handled by the item's own code).
    default: the spec default, omitted on write (None: the spec has none, every value is written).
    absent: what the model holds when the key is absent, if not the default (e.g. None for "the shape
    type's default height").
    excludes: a key this one may not be written next to (the writer keeps the first written).
    zero_is_infinite: 0 in the file is math.inf in the model (KHR's mass and inertia); `write_fields` leaves
    both out (not finite, not above the minimum), the dialect's writer puts the 0 in.
    open: an enum whose schema accepts any string (a drive's type and mode): a spelling the table does not
    know is kept and written back (`write_unknown`); a closed enum's (motion type, combine modes) cannot be
    written schema-valid, so the reader reads the fallback and says the value is not kept.
    """

    attr: str
    key: str
    kind: Kind = "number"
    default: Any = None
    size: int = 1
    minimum: float | None = None
    exclusive_minimum: float | None = None
    maximum: float | None = None  # "number"/"vector": above it the read default is used (reported)
    choices: tuple[str, ...] = ()
    what: str = ""
    absent: Any = SAME
    excludes: str = ""
    open: bool = False  # "choice"/enum: the schema allows other strings too, so a file's unknown one is kept
    zero_is_infinite: bool = False  # "number"/"vector": the dialect spells the model's math.inf as 0 (KHR)

    @property
    def label(self) -> str:
        """How messages name the value."""
        return self.what or self.key

    @property
    def read_default(self) -> Any:
        return self.default if self.absent is SAME else self.absent

    @property
    def fallback(self) -> Any:
        """What the model holds for an enum spelling the table does not know: the read default, else the first
        choice. The file's spelling is kept in the item's `unknown` and written back while the model still
        holds this value (a value the user chose instead wins; in Blender, setting the enum at all, even to
        the value shown, forgets the spelling: properties/joint._chosen)."""
        default = self.read_default
        return default if default is not None or not self.choices else self.choices[0]


def field(fields: Sequence[Field], attr: str) -> Field:
    """The field of `fields` that holds model attribute `attr`."""
    for candidate in fields:
        if candidate.attr == attr:
            return candidate
    raise KeyError(attr)


def keys(fields: Iterable[Field]) -> tuple[str, ...]:
    return tuple(candidate.key for candidate in fields)


# --- reading ---------------------------------------------------------------------------------------

def read_field(spec: Field, container: Mapping[str, Any], at: Where, issues: Issues) -> Any:
    """The model value of one field of a JSON object (its read default when absent or unusable)."""
    value = get(container, spec.key)
    where = join(at, spec.key)
    default = spec.read_default
    if spec.kind == "number":
        number = float_or(value, default, where, issues, minimum=spec.minimum,
                          exclusive_minimum=spec.exclusive_minimum, what=spec.label)
        return _at_most(spec, number, default, where, issues)
    if spec.kind == "vector":
        numbers = vec_or(value, spec.size, default, where, issues, minimum=spec.minimum,
                         exclusive_minimum=spec.exclusive_minimum, what=spec.label)
        return _at_most(spec, numbers, default, where, issues)
    if spec.kind == "choice":
        text = str_or(value, default, where, issues, spec.label)
        if text not in spec.choices:
            if spec.open:
                report(issues, where, f"{spec.label} {describe(text)} is not one of {', '.join(spec.choices)}: read "
                       f"as {spec.fallback}; the file's value is kept and written back unless the setting is changed",
                       "warning")
            else:
                report(issues, where, f"{spec.label} {describe(text)} is not one of {', '.join(spec.choices)}; using "
                       f"{spec.fallback} (the schema allows no other value, so it is not kept)")
            return spec.fallback
        return text
    if spec.kind == "strings":
        return str_list_or(value, default, where, issues, spec.label)
    if spec.kind == "bool":
        return bool_or(value, default, where, issues, spec.label)
    if spec.kind == "name":
        return str_or(value, "", where, issues, "name")
    if spec.kind == "infinity":
        number = float_or(value, None, where, issues, what=spec.label)
        if number is not None and number < 0.0:
            report(issues, where, f"negative {spec.label} means infinite (the schema wants it omitted)", "info")
            return None
        return number
    raise ValueError(f"field {spec.key} of kind {spec.kind} is read by its item's own code")


def _at_most(spec: Field, value: Any, default: Any, at: Where, issues: Issues) -> Any:
    """`value` unless a number of it is above the Field's maximum (then the default, reported)."""
    if spec.maximum is None or value is None or value is default:
        return value
    numbers = value if isinstance(value, tuple) else (value,)
    if any(number > spec.maximum for number in numbers):
        report(issues, at, f"{spec.label} {describe(list(numbers) if len(numbers) > 1 else numbers[0])} is above "
               f"the maximum {spec.maximum:g}; using the default")
        return default
    return value


def read_fields(fields: Iterable[Field], container: Mapping[str, Any], at: Where, issues: Issues) -> dict[str, Any]:
    """attr -> model value for every non-special field."""
    return {spec.attr: read_field(spec, container, at, issues) for spec in fields if spec.kind != "special"}


# --- writing ---------------------------------------------------------------------------------------

def finite(value: object) -> bool:
    """A finite number (not a bool). Floats and ints are tested by exact type first: the writer asks this of
    every number it writes."""
    kind = type(value)
    if kind is float:
        return math.isfinite(value)  # type: ignore[arg-type]  # `kind is float` (fast) narrows nothing for mypy
    if kind is int:
        return True
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _within(spec: Field, number: float) -> bool:
    if spec.minimum is not None and number < spec.minimum:
        return False
    if spec.maximum is not None and number > spec.maximum:
        return False
    return spec.exclusive_minimum is None or number > spec.exclusive_minimum


def json_value(spec: Field, value: Any) -> Any:
    """The JSON form of a model value, or MISSING when it is not written (default, absent, out of bounds)."""
    if spec.kind in ("number", "infinity"):
        if value is None or not finite(value) or not _within(spec, value):
            return MISSING
        return MISSING if spec.default is not None and value == spec.default else float(value)
    if spec.kind == "vector":
        if value is None:
            return MISSING
        numbers = tuple(value)
        if len(numbers) != spec.size:
            return MISSING
        bounded = spec.minimum is not None or spec.exclusive_minimum is not None or spec.maximum is not None
        for number in numbers:
            if not finite(number) or (bounded and not _within(spec, number)):
                return MISSING
        return MISSING if spec.default is not None and numbers == tuple(spec.default) else [float(n) for n in numbers]
    if spec.kind == "choice":
        return value if value in spec.choices and value != spec.default else MISSING
    if spec.kind == "strings":
        kept: list[str] = []
        for item in value or ():
            if isinstance(item, str) and item not in kept:
                kept.append(item)
        return kept or MISSING
    if spec.kind == "bool":
        return value if isinstance(value, bool) and value != spec.default else MISSING
    if spec.kind == "name":
        return value if isinstance(value, str) and value else MISSING
    raise ValueError(f"field {spec.key} of kind {spec.kind} is written by its item's own code")


def write_fields(fields: Iterable[Field], item: object, out: dict[str, Any]) -> dict[str, Any]:
    """out[key] = JSON value for every non-special field of `item` (a model value) that is written."""
    for spec in fields:
        if spec.kind == "special" or (spec.excludes and spec.excludes in out):
            continue
        value = json_value(spec, getattr(item, spec.attr))
        if value is not MISSING:
            out[spec.key] = value
    return out


def write_unknown(fields: Iterable[Field], item: object, out: dict[str, Any], dialect: str) -> dict[str, Any]:
    """Put the item's kept unknown keys (`model.Unknown`, read from a file of `dialect`) back into `out`.

    An undeclared key never overrides a key already written. A declared key holds the file's spelling of an
    open enum's value the table does not know: it replaces the written value only while the model still
    holds the Field's `fallback` (the setting was not changed; a value the user chose wins). Another dialect's keys are
    not written here (`unknown_keys.not_written` names them).
    """
    kept: Unknown | None = getattr(item, "unknown", None)
    if not kept or kept.dialect != dialect:
        return out
    declared = {spec.key: spec for spec in fields}
    for key, value in kept.fresh().items():
        spec = declared.get(key)
        if spec is None:
            out.setdefault(key, value)
        elif spec.open and getattr(item, spec.attr, None) == spec.fallback:
            out[key] = value
    return out
