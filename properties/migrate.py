"""The stored settings' version, and the steps that upgrade older .blend files when they load.

Every object's `omi_physics` and every scene's `omi_physics` carry `version`. A file saved before
versions were stored (version 1) has no stored value: Blender then shows the property's default, so the
migration reads the stored ID property (`settings.get("version")`). `load_post` runs the steps from
the stored version up to `SETTINGS_VERSION`; `save_pre` stamps the current version on settings that never
had it written, so every file saved from now on says which layout it holds.

A step gets one object's or scene's settings group and rewrites what the file stored (its ID properties,
`group.get(...)` / `group[...]`, whatever the current PropertyGroups declare) into the next version's layout.

Defaults are part of the stored layout: settings store only values that differ from the declared
defaults (`stored.store`; an absent ID property reads as its property's default). So a CHANGE OF A
DEFAULT needs a new `SETTINGS_VERSION` and a step that writes the old default into every group of a file
saved before the bump that holds no value for that property (`name not in group`); otherwise those files
would silently read the new default.

Properties added with a default that means "as before" need no step and no new version: the `*unknown_json`
strings (keys kept from imported files, `properties/convert_common.kept`) read "" from older files, which
is "nothing kept", and an add-on of version 2 that does not declare them leaves them stored in the file.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable

import bpy
from bpy.app.handlers import persistent

from ..io.omi import model
from . import homes

SETTINGS_VERSION = 4
UNVERSIONED = 1  # what a settings group without a stored version holds
_KEY = "omi_physics"

_LOG = logging.getLogger(__name__)

Step = Callable[[bpy.types.PropertyGroup], None]


def _v1_to_v2(_group: bpy.types.PropertyGroup) -> None:
    """Version 2 stores the version itself; the layout of the settings did not change."""


def _v2_to_v3(_group: bpy.types.PropertyGroup) -> None:
    """Version 3 can leave a body's centre of mass to the engine (`motion.use_center_of_mass`). Its default,
    on, is what every motion of an older file meant (a stated centre, the origin unless edited, which KHR
    exports always wrote and OMI exports wrote unless it was the origin): nothing to rewrite."""


def _v3_to_v4(group: bpy.types.PropertyGroup) -> None:
    """Version 4 keeps a body's mass once: in its Blender rigid body when it has one that holds it."""
    if isinstance(group.id_data, bpy.types.Object):
        homes.migrate(group)


# from-version -> the step that turns that version's layout into the next one
STEPS: dict[int, Step] = {1: _v1_to_v2, 2: _v2_to_v3, 3: _v3_to_v4}


def _groups() -> Iterable[tuple[bpy.types.ID, bpy.types.PropertyGroup]]:
    """(owner, settings group) for every object and scene whose settings were ever written."""
    for owner in (*bpy.data.objects, *bpy.data.scenes):
        if owner.library is not None:
            continue  # linked from another file: read-only here, migrated in its own file
        group = getattr(owner, _KEY, None)
        if group is not None and group.keys():
            yield owner, group


def migrate_group(owner: bpy.types.ID, group: bpy.types.PropertyGroup) -> bool:
    """Bring one settings group up to SETTINGS_VERSION; False when it is from a newer add-on (left as is)."""
    stored = group.get("version", UNVERSIONED)
    if not isinstance(stored, int) or stored > SETTINGS_VERSION:
        _LOG.warning("%s%r holds OMI settings of version %r, newer than this add-on's %d: left unchanged",
                     model.LOG_PREFIX, owner.name, stored, SETTINGS_VERSION)
        return False
    for version in range(stored, SETTINGS_VERSION):
        STEPS[version](group)
    group["version"] = SETTINGS_VERSION
    return True


@persistent
def migrate_on_load(_filepath: str = "") -> None:
    """load_post: upgrade every object's and scene's settings to the current layout."""
    for owner, group in _groups():
        if group.get("version") != SETTINGS_VERSION:
            migrate_group(owner, group)


@persistent
def stamp_on_save(_filepath: str = "") -> None:
    """save_pre: write the current version where it was never written (new settings hold the current layout)."""
    for _owner, group in _groups():
        if group.get("version") is None:
            group["version"] = SETTINGS_VERSION


_HANDLERS = ((bpy.app.handlers.load_post, migrate_on_load), (bpy.app.handlers.save_pre, stamp_on_save))


def register() -> None:
    for handlers, handler in _HANDLERS:
        if handler not in handlers:
            handlers.append(handler)


def unregister() -> None:
    for handlers, handler in _HANDLERS:
        while handler in handlers:
            handlers.remove(handler)
