"""The model's slot for extension units: a node's (or the document's) values by unit name, each value the
unit's own frozen dataclass. Generic code carries it without naming an extension. No bpy here."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any


class UnitValues(Mapping[str, Any]):
    """The values of extension units on one node: unit name -> that unit's own frozen value (`io/omi/units`).

    Generic code carries these without naming an extension; only the unit reads its value. Immutable and
    hashable, so a NodePhysics holding them stays a value."""

    __slots__ = ("_values",)

    def __init__(self, values: Mapping[str, Any] | None = None) -> None:
        self._values = dict(values or {})

    def with_value(self, name: str, value: Any) -> UnitValues:
        """A copy in which `name` holds `value` (None: removed)."""
        values = dict(self._values)
        if value is None:
            values.pop(name, None)
        else:
            values[name] = value
        return UnitValues(values)

    def __getitem__(self, key: str) -> Any:
        return self._values[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, UnitValues):
            return NotImplemented
        return self._values == other._values

    def __hash__(self) -> int:
        return hash(tuple(sorted(self._values.items(), key=lambda item: item[0])))

    def __repr__(self) -> str:
        return f"UnitValues({self._values!r})" if self._values else "UnitValues()"


NO_UNIT_VALUES = UnitValues()
