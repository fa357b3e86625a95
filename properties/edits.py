"""Which settings were edited since the live link last built: every setting's update callback notes its
object here, cheaply, and the link (`operators/live_link.py`) builds them once per depsgraph update.

The note is twofold: the object's name in this session's set (what to build next), and its edit count in
the object's own data (`built_values.edits`), which an undo, a redo or a saved file carries with it.
"""

from __future__ import annotations

import inspect
import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import bpy

from ..io.blender.tables.markers import EDITS

Update = Callable[[Any, Any], None]


@dataclass
class Edited:
    """This session's edits not built yet; names, never Blender objects (they die on undo and load)."""

    objects: set[str] = field(default_factory=set)
    library: bool = False  # a physics material or collision filter changed: its users may need a build
    paused: bool = False  # an export gathering or an import writing: nothing is noted, nothing built meanwhile
    # The objects an import has just made (session ids): their rigid bodies and constraints are as its build
    # recorded them, so the link's next look for edits made in Blender's panels passes over them (between the
    # import's last step and that look only the importer's own steps run).
    settled: set[int] = field(default_factory=set)

    def take(self) -> tuple[set[str], bool]:
        objects, library = self.objects, self.library
        self.objects, self.library = set(), False
        return objects, library


EDITED = Edited()


def note(obj: bpy.types.Object) -> None:
    """Count an edit of the object's settings (once until its next build) and ask for a depsgraph update.
    An export's own passing changes (settings held at their static values while it samples) are no edits."""
    name = obj.name
    if EDITED.paused or name in EDITED.objects:
        return
    EDITED.objects.add(name)
    if obj.library is None:
        count = obj.get(EDITS, 0)
        obj[EDITS] = (count if isinstance(count, int) else 0) + 1
    obj.update_tag(refresh={'OBJECT'})  # a depsgraph update (the overlay redraws, the link builds) and no more


@contextmanager
def paused() -> Iterator[None]:
    """No edits noted meanwhile: an import writes settings it builds from itself and marks in step."""
    before = EDITED.paused
    EDITED.paused = True
    try:
        yield
    finally:
        EDITED.paused = before


def _update_setting(self: bpy.types.PropertyGroup, _context: bpy.types.Context | None) -> None:
    if EDITED.paused:  # before anything else: an import writes thousands of settings meanwhile
        return
    owner = self.id_data
    if isinstance(owner, bpy.types.Object):
        note(owner)
    else:
        EDITED.library = True


def notes_only(update: Update) -> bool:
    """Whether a setting's update callback only notes the edit (nothing while `paused`)."""
    return update is _update_setting


def _both(first: Update) -> Update:
    def update(self: Any, context: Any) -> None:
        first(self, context)
        _update_setting(self, context)

    update.noting_edits = True  # type: ignore[attr-defined]  # a marker: never wrapped twice
    return update


def follow(classes: Iterable[type]) -> None:
    """Give every setting of these PropertyGroups (before they are registered) the update that notes edits."""
    for cls in classes:
        annotations = inspect.get_annotations(cls)
        for name, written in annotations.items():
            # postponed annotations are text until Blender reads them: read here, in the class's module
            deferred = eval(written, vars(sys.modules[cls.__module__])) if isinstance(written, str) else written
            annotations[name] = deferred
            keywords = getattr(deferred, "keywords", None)
            if not isinstance(keywords, dict) or deferred.function in (bpy.props.PointerProperty,
                                                                        bpy.props.CollectionProperty):
                continue
            existing = keywords.get("update")
            if existing is None:
                keywords["update"] = _update_setting
            elif existing is not _update_setting and not getattr(existing, "noting_edits", False):
                keywords["update"] = _both(existing)
        cls.__annotations__ = annotations
