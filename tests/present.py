"""`present(x)`: a value the test expects to be there (a model's optional part, a regex match), typed without
its None, so a test reads `present(node.collider).shape`; a None fails the test at that line."""

from __future__ import annotations

from typing import TypeVar

T = TypeVar("T")


def present(value: T | None) -> T:
    assert value is not None
    return value
