"""What the rigid-body build is fed: each object's physics as model values, never its settings.

The caller hands the build a `PhysicsOf`, a function giving any object's physics (None: it has none); the
build asks it for the objects it builds and for those it meets on the way (a body's descendants, a joint's
connected body, bodies built before). The import answers from the document it read, Sync to Blender from
the settings converted to the model first (`properties/convert_build.py`).

The values are the model's: glTF axes, spec meanings; only references are Blender's (a joint's connected
node is an object, None when it is connected to nothing; a convex/trimesh shape's mesh is the object holding
it). A shape's offset on its object, which the model leaves to the node tree, comes beside them in Blender
axes. The build turns glTF axes into Blender's once (`tables/axes.py`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

import bpy
from mathutils import Matrix

from ...omi import model


@dataclass(frozen=True, eq=False)
class ObjectPhysics:
    """One object's physics for the build."""

    physics: model.NodePhysics
    collider_offset: Matrix | None = None  # the collider shape's place on its object (Blender axes); None: origin


PhysicsOf = Callable[[bpy.types.Object], "ObjectPhysics | None"]


class Parts(NamedTuple):
    """Which parts an object's physics has."""

    motion: bool
    collider: bool
    shaped: bool  # a collider with a shape of its own
    trigger: bool
    joint: bool


NO_PARTS = Parts(False, False, False, False, False)


def parts_of(physics: model.NodePhysics | None) -> Parts:
    if physics is None:
        return NO_PARTS
    collider = physics.collider
    return Parts(physics.motion is not None, collider is not None, collider is not None and collider.shape is not None,
                 physics.trigger is not None, physics.joint is not None)


class Switches:
    """Each object's physics and `Parts`, asked once per build."""

    def __init__(self, physics_of: PhysicsOf) -> None:
        self._physics_of = physics_of
        self._found: dict[bpy.types.Object, ObjectPhysics | None] = {}
        self._parts: dict[bpy.types.Object, Parts] = {}

    def physics(self, obj: bpy.types.Object) -> ObjectPhysics | None:
        if obj in self._found:
            return self._found[obj]
        found = self._found[obj] = self._physics_of(obj)
        return found

    def __call__(self, obj: bpy.types.Object) -> Parts:
        found = self._parts.get(obj)
        if found is None:
            physics = self.physics(obj)
            found = self._parts[obj] = parts_of(None if physics is None else physics.physics)
        return found
