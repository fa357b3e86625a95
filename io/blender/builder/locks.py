"""Transform locks the build sets for infinite mass and inertia (Blender hands them to Bullet as linear
and angular factors of 0), recorded on the object so a rebuild or Clear takes back only its own."""

from __future__ import annotations

import bpy

from ..tables.markers import LOCKS


def lock(obj: bpy.types.Object, location: tuple[bool, ...], rotation: tuple[bool, ...]) -> None:
    # The newest stubs type lock_location/lock_rotation as a bpy_prop_array of nothing (no items, no tuple taken).
    obj.lock_location = tuple(old or new for old, new in zip(obj.lock_location, location, strict=True))  # type: ignore[call-overload,assignment]  # see above
    obj.lock_rotation = tuple(old or new for old, new in zip(obj.lock_rotation, rotation, strict=True))  # type: ignore[call-overload,assignment]  # see above
    obj[LOCKS] = [int(value) for value in (*location, *rotation)]


def release_locks(obj: bpy.types.Object) -> None:
    """Undo the locks an earlier build set (the user's own locks stay)."""
    made = obj.get(LOCKS)
    if made is None:
        return
    # The newest stubs type lock_location/lock_rotation as a bpy_prop_array of nothing (no items, no tuple taken).
    obj.lock_location = tuple(old and not made[i] for i, old in enumerate(obj.lock_location))  # type: ignore[arg-type,assignment,var-annotated]  # see above
    obj.lock_rotation = tuple(old and not made[3 + i] for i, old in enumerate(obj.lock_rotation))  # type: ignore[arg-type,assignment,var-annotated]  # see above
    del obj[LOCKS]
