"""Naming many things in one message line: the first few, then how many there are in all."""

from __future__ import annotations

from collections.abc import Sequence

FIRST_FEW = 5


def first_few(names: Sequence[str], most: int = FIRST_FEW) -> str:
    """'A, B' for a few names; 'A, B, C, D, E, ... (12)' for more, so a line stays readable on a big scene."""
    shown = ", ".join(repr(name) for name in names[:most])
    return shown if len(names) <= most else f"{shown}, ... ({len(names)})"


def plural(count: int, noun: str) -> str:
    """'1 body', '3 bodies', '2 colliders'."""
    if count == 1:
        return f"{count} {noun}"
    if noun.endswith("y") and noun[-2:-1] not in "aeiou":
        return f"{count} {noun[:-1]}ies"
    return f"{count} {noun}es" if noun.endswith(("s", "sh", "ch", "x")) else f"{count} {noun}s"
