"""Room for Blender's glTF importer to parse the long integers of a file's JSON.

Python refuses to turn a decimal integer of more than 4,300 digits into an int (`sys.get_int_max_str_digits`,
a guard against quadratic time), and Blender's importer parses the JSON itself, before any hook of the
add-on sees the document: a velocity written as a 5,000-digit integer failed the whole import with
Blender's own "Bad glTF: json error: Exceeds the limit (4300 digits)". The add-on's import extension is
made before that parse, so it raises the limit to `IMPORT_DIGITS` for the import (parsing such a number
takes well under a second), and the add-on's reader then names the value at its pointer while the rest
imports. It is put back when the import ends (its last hook), or, if it failed before, on the next
event-loop turn. A number longer still keeps Blender's message: the add-on cannot reach that parse.
"""

from __future__ import annotations

import sys

import bpy

IMPORT_DIGITS = 100_000  # parsed in well under a second; ten times more takes seconds (the guard's reason)

_saved: list[int] = []  # the limit before the add-on raised it (empty: not raised)


def allow() -> None:
    """Let the importer's JSON parse integers of up to IMPORT_DIGITS digits (never lowering a limit)."""
    current = sys.get_int_max_str_digits()
    if _saved or current == 0 or current >= IMPORT_DIGITS:
        return
    _saved.append(current)
    sys.set_int_max_str_digits(IMPORT_DIGITS)
    if not bpy.app.background and not bpy.app.timers.is_registered(_restore_later):
        bpy.app.timers.register(_restore_later, first_interval=0.0)  # after the operator, even if it failed


def restore() -> None:
    """The limit as it was before `allow`."""
    if _saved:
        sys.set_int_max_str_digits(_saved.pop())


def _restore_later() -> None:
    restore()
