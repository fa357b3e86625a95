"""The JSON boundary: narrow untrusted JSON values into Python values without ever raising.

Input files are untrusted: any value may be missing, of the wrong type, NaN, huge or nested oddly.
Each helper returns either a clean value or the caller's default, and appends a `model.Issue`
(severity 'error': the value was dropped) with the RFC 6901 pointer of the offending value, so the
reader stays a straight sequence of reads with no try/except and every dropped value is reported.

`MISSING` stands for an absent key, so that an explicit JSON `null` can be reported while an absent
optional key silently takes its default.

Going the other way, `shortest_float32` keeps Blender's float32 values from showing binary noise in files.
"""

from __future__ import annotations

import math
import struct
import sys
from collections.abc import Mapping, Sequence
from typing import Any, TypeGuard, TypeVar

from .model import Issue, Severity

JSON = None | bool | int | float | str | list[Any] | dict[str, Any]
T = TypeVar("T")


class _Missing:
    """The type of MISSING: an absent key (never equal to any JSON value)."""

    _instance: _Missing | None = None

    def __new__(cls) -> _Missing:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "MISSING"

    def __bool__(self) -> bool:
        return False


MISSING: Any = _Missing()

Issues = list[Issue] | None


# --- JSON pointers (RFC 6901) ---------------------------------------------------------------------
# A reader makes a pointer for every value it looks at but needs the text only for the few it reports, so
# a pointer (`Where`) is either its RFC 6901 text or the tuple of its raw tokens from the document root
# (`ROOT` is the empty tuple), and `join` keeps the kind it is given: extending a tuple is a tuple
# concatenation, and the text is made once, by `pointer_text`, when an Issue is created.

Where = str | tuple[Any, ...]
ROOT: tuple[Any, ...] = ()


def escape_token(token: object) -> str:
    """One pointer token: '~' -> '~0', '/' -> '~1' (in that order, as RFC 6901 requires)."""
    text = str(token)
    if "~" in text or "/" in text:
        return text.replace("~", "~0").replace("/", "~1")
    return text


def array_index(token: str) -> int | None:
    """A JSON pointer token as an array index: ASCII digits without a leading zero (RFC 6901), else None.
    `str.isdigit` also takes superscript, fullwidth and Arabic-Indic digits, which int() refuses or reads as
    another index."""
    if not (token.isascii() and token.isdigit()) or (len(token) > 1 and token[0] == "0"):
        return None
    return int(token) if len(token) <= 18 else sys.maxsize  # past any array; int() refuses 4,300+ digits


def pointer(*tokens: object) -> str:
    """A pointer from raw tokens: pointer('nodes', 3, 'extensions') -> '/nodes/3/extensions'."""
    return "".join("/" + escape_token(token) for token in tokens)


def join(base: Where, *tokens: object) -> Where:
    """Extend a pointer with more raw tokens: a token tuple stays a tuple, a text stays a text."""
    if isinstance(base, tuple):
        return base + tokens
    return base + pointer(*tokens)


def pointer_text(at: Where) -> str:
    """The RFC 6901 text of a pointer."""
    return at if isinstance(at, str) else pointer(*at)


def report(issues: Issues, at: Where, message: str, severity: Severity = "error") -> None:
    if issues is not None:
        issues.append(Issue(pointer_text(at), message, severity))


# --- type tests ------------------------------------------------------------------------------------

def is_number(value: object) -> TypeGuard[int | float]:
    """A finite JSON number (bool is not a number here, although it is an int in Python)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    try:
        return math.isfinite(value)
    except OverflowError:  # an int too large for a float
        return False


def is_index(value: object) -> TypeGuard[int]:
    """A glTFid: a non-negative integer (floats like 2.0 are accepted by JSON parsers as 2.0; not here)."""
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def describe(value: object) -> str:
    """A short, safe description of a bad value for messages (never the whole of a huge value)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        shown = value if len(value) <= 40 else value[:37] + "..."
        return repr(shown)
    if isinstance(value, int) and value.bit_length() > 64:
        return "a huge integer"
    if isinstance(value, int | float):
        text = repr(value)
        return text if len(text) <= 40 else text[:37] + "..."
    if isinstance(value, Mapping):
        return "an object"
    if isinstance(value, list | tuple):
        return f"an array of {len(value)}"
    return type(value).__name__


def get(container: object, key: str) -> Any:
    """container[key] if container is a JSON object holding key, else MISSING."""
    if type(container) is dict:  # what json.loads makes, tested without the slower ABC check
        return container.get(key, MISSING)
    if isinstance(container, Mapping) and key in container:
        return container[key]
    return MISSING


# --- narrowing helpers -----------------------------------------------------------------------------

def obj_or_none(value: object, at: Where, issues: Issues, what: str = "value") -> dict[str, Any] | None:
    """A JSON object, or None (reported unless absent)."""
    if value is MISSING:
        return None
    if type(value) is dict or isinstance(value, Mapping):
        return value  # type: ignore[return-value]  # a Mapping other than dict is read as one
    report(issues, at, f"{what} must be an object, got {describe(value)}; dropped")
    return None


def list_or_none(value: object, at: Where, issues: Issues, what: str = "value") -> list[Any] | None:
    """A JSON array, or None (reported unless absent)."""
    if value is MISSING:
        return None
    if isinstance(value, list | tuple):
        return list(value)
    report(issues, at, f"{what} must be an array, got {describe(value)}; dropped")
    return None


def float_or(
    value: object,
    default: T,
    at: Where = "",
    issues: Issues = None,
    *,
    minimum: float | None = None,
    exclusive_minimum: float | None = None,
    what: str = "value",
) -> float | T:
    """A finite number within the bounds, else `default` (reported unless the key was absent)."""
    if value is MISSING:
        return default
    if not is_number(value):
        report(issues, at, f"{what} must be a finite number, got {describe(value)}; using the default")
        return default
    number = float(value)
    if minimum is not None and number < minimum:
        report(issues, at, f"{what} {describe(value)} is below the minimum {minimum:g}; using the default")
        return default
    if exclusive_minimum is not None and number <= exclusive_minimum:
        report(issues, at, f"{what} {describe(value)} must be greater than {exclusive_minimum:g}; using the default")
        return default
    return number


def int_or(
    value: object,
    default: T,
    at: Where = "",
    issues: Issues = None,
    *,
    minimum: int | None = None,
    maximum: int | None = None,
    what: str = "value",
) -> int | T:
    """An integer within the bounds, else `default`. A float with an integral value (2.0) is accepted."""
    if value is MISSING:
        return default
    number: int | None = None
    if isinstance(value, int) and not isinstance(value, bool):
        number = value
    elif is_number(value) and isinstance(value, float) and value.is_integer():
        number = int(value)
    if number is None:
        report(issues, at, f"{what} must be an integer, got {describe(value)}; using the default")
        return default
    if (minimum is not None and number < minimum) or (maximum is not None and number > maximum):
        bounds = f"{'' if minimum is None else minimum}..{'' if maximum is None else maximum}"
        report(issues, at, f"{what} {describe(value)} is out of range {bounds}; dropped")
        return default
    return number


def bool_or(value: object, default: bool, at: Where = "", issues: Issues = None, what: str = "value") -> bool:
    if value is MISSING:
        return default
    if isinstance(value, bool):
        return value
    report(issues, at, f"{what} must be true or false, got {describe(value)}; using the default")
    return default


def str_or(value: object, default: T, at: Where = "", issues: Issues = None, what: str = "value") -> str | T:
    if value is MISSING:
        return default
    if isinstance(value, str):
        return value
    report(issues, at, f"{what} must be a string, got {describe(value)}; using the default")
    return default


def vec_or(
    value: object,
    size: int,
    default: T,
    at: Where = "",
    issues: Issues = None,
    *,
    minimum: float | None = None,
    exclusive_minimum: float | None = None,
    what: str = "value",
) -> tuple[float, ...] | T:
    """A tuple of exactly `size` finite numbers within the bounds, else `default` (whole vector dropped)."""
    if value is MISSING:
        return default
    if not isinstance(value, list | tuple):
        report(issues, at, f"{what} must be an array of {size} numbers, got {describe(value)}; using the default")
        return default
    if len(value) != size:
        report(issues, at, f"{what} must have {size} numbers, got {len(value)}; using the default")
        return default
    numbers: list[float] = []
    for position, item in enumerate(value):
        item_at = join(at, position)
        if not is_number(item):
            report(issues, item_at, f"{what} item must be a finite number, got {describe(item)}; "
                   "the whole value uses the default")
            return default
        number = float(item)
        below = minimum is not None and number < minimum
        if below or (exclusive_minimum is not None and number <= exclusive_minimum):
            bound = f">= {minimum:g}" if minimum is not None else f"> {exclusive_minimum:g}"
            report(issues, item_at, f"{what} item {describe(item)} must be {bound}; the whole value uses the default")
            return default
        numbers.append(number)
    return tuple(numbers)


def str_list_or(value: object, default: T, at: Where = "", issues: Issues = None,
                what: str = "value") -> tuple[str, ...] | T:
    """A tuple of strings; non-string items are dropped one by one (reported), duplicates kept once."""
    if value is MISSING:
        return default
    if not isinstance(value, list | tuple):
        report(issues, at, f"{what} must be an array of strings, got {describe(value)}; using the default")
        return default
    kept: list[str] = []
    for position, item in enumerate(value):
        if not isinstance(item, str):
            report(issues, join(at, position), f"{what} item must be a string, got {describe(item)}; dropped")
        elif item in kept:
            report(issues, join(at, position), f"{what} item {describe(item)} is repeated; kept once", "warning")
        else:
            kept.append(item)
    return tuple(kept)


def index_list_or(
    value: object,
    default: T,
    at: Where = "",
    issues: Issues = None,
    *,
    maximum: int | None = None,
    what: str = "value",
) -> tuple[int, ...] | T:
    """A tuple of distinct non-negative integers (<= maximum); bad items dropped one by one (reported)."""
    if value is MISSING:
        return default
    if not isinstance(value, list | tuple):
        report(issues, at, f"{what} must be an array of integers, got {describe(value)}; using the default")
        return default
    kept: list[int] = []
    for position, item in enumerate(value):
        item_at = join(at, position)
        number = int_or(item, None, item_at, issues, minimum=0, maximum=maximum, what=f"{what} item")
        if number is None:
            continue
        if number in kept:
            report(issues, item_at, f"{what} item {describe(number)} is repeated; kept once", "warning")
            continue
        kept.append(number)
    return tuple(kept)


def index_or_none(value: object, count: int, at: Where, issues: Issues, what: str) -> int | None:
    """A glTFid into an array of `count` items; absence gives None silently, -1 (the READMEs' "none") with an info."""
    if value is MISSING:
        return None
    if isinstance(value, int | float) and not isinstance(value, bool) and value == -1:
        report(issues, at, f"{what} -1 means none; the schema wants the key omitted instead", "info")
        return None
    if not is_index(value):
        if is_number(value) and isinstance(value, float) and value.is_integer() and value >= 0:
            value = int(value)
        else:
            report(issues, at, f"{what} must be an index (integer >= 0), got {describe(value)}; dropped")
            return None
    if value >= count:
        report(issues, at, f"{what} {describe(value)} is out of range ({count} available); dropped")
        return None
    return value


# --- float32 values --------------------------------------------------------------------------------

_FLOAT32 = struct.Struct("<f")


def shortest_float32(value: float) -> float:
    """The shortest decimal that reads back as the same float32: 0.30000001192092896 -> 0.3.

    Blender keeps PropertyGroup floats as float32; widened to a Python float they carry binary noise that
    JSON would show. 6 to 9 significant digits are tried (9 always round-trip a float32), so the value
    written and read back into Blender is exactly the one the artist set. A value that is not a finite
    float32 is returned unchanged.
    """
    number = float(value)
    try:
        packed = _FLOAT32.pack(number)
        if not math.isfinite(number) or _FLOAT32.unpack(packed)[0] != number:
            return number
        for digits in range(6, 10):
            candidate = float(f"{number:.{digits}g}")
            if _FLOAT32.pack(candidate) == packed:
                return candidate
    except OverflowError:  # beyond the float32 range: not a PropertyGroup value
        pass
    return number


def sequence_items(value: object) -> Sequence[Any]:
    """The items of a JSON array, or nothing."""
    return value if isinstance(value, list | tuple) else ()
