"""Small helpers the authoring operators share: which objects they act on, and how they report."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Literal, Protocol

import bpy

from ..io.omi import named
from ..properties import object_physics

# The base of an operator mixin (a class whose users also subclass bpy.types.Operator): the type checker sees
# an Operator (its poll_message_set, report, layout), Blender a plain class (it registers only the users).
if TYPE_CHECKING:
    OperatorMixin = bpy.types.Operator
else:
    OperatorMixin = object

# What an operator's execute, invoke and modal return (Blender's operator result flags).
OperatorResult = set[Literal["RUNNING_MODAL", "CANCELLED", "FINISHED", "PASS_THROUGH", "INTERFACE"]]

MESH_LIKE_TYPES = frozenset({'MESH', 'CURVE', 'SURFACE', 'META', 'FONT'})


def selected_objects(context: bpy.types.Context) -> list[bpy.types.Object]:
    """The selected objects (empty outside the 3D viewport's data, e.g. in a file browser)."""
    return list(getattr(context, "selected_objects", None) or ())


def selected_meshes(context: bpy.types.Context) -> list[bpy.types.Object]:
    """Selected objects that have geometry a shape can be fitted to."""
    return [obj for obj in selected_objects(context) if obj.type in MESH_LIKE_TYPES]


def in_object_mode(context: bpy.types.Context) -> bool:
    """Edit mode keeps geometry in an edit-mesh that the data API does not see until it is left."""
    return getattr(context, "mode", 'OBJECT') == 'OBJECT'


plural = named.plural  # one home: the export and import messages count the same way


def uses(count: int) -> str:
    """The verb after `plural(count, ...)`: "1 shape uses", "2 shapes use"."""
    return "uses" if count == 1 else "use"


def scene_of(context: bpy.types.Context) -> bpy.types.Scene:
    """The scene an operator acts in (Blender runs operators in a scene; the polls that need one check it)."""
    scene = context.scene
    assert scene is not None, "an operator runs in a scene"
    return scene


def view_layer_of(context: bpy.types.Context) -> bpy.types.ViewLayer:
    """The view layer an operator acts in (a scene's operator always has one)."""
    view_layer = context.view_layer
    assert view_layer is not None, "an operator runs in a view layer"
    return view_layer


def names(objects: Iterable[bpy.types.Object], limit: int = 3) -> str:
    """A short, readable list of object names for a report."""
    listed = [obj.name for obj in objects]
    text = ", ".join(listed[:limit])
    return text + (f" and {len(listed) - limit} more" if len(listed) > limit else "")


def link_like(new_obj: bpy.types.Object, like: bpy.types.Object, context: bpy.types.Context) -> None:
    """Link a new object into the collections of `like` (or the active collection)."""
    active = context.collection
    if active is None:
        assert context.scene is not None, "an operator runs in a scene"
        active = context.scene.collection
    collections = list(like.users_collection) or [active]
    for collection in collections:
        collection.objects.link(new_obj)


def body_object(obj: bpy.types.Object | None) -> bpy.types.Object | None:
    """The body an object belongs to: itself or its nearest ancestor with motion settings."""
    while obj is not None:
        if object_physics(obj).use_motion:
            return obj
        obj = obj.parent
    return None


def motion_type_of(obj: bpy.types.Object) -> str:
    """'STATIC', 'KINEMATIC' or 'DYNAMIC': a shape without a body above it is static (spec default)."""
    body = body_object(obj)
    return object_physics(body).motion.motion_type if body is not None else 'STATIC'


class Rows(Protocol):
    """A CollectionProperty of PropertyGroups (bpy_prop_collection_idprop, which 4.2's stubs lack)."""

    def __len__(self) -> int: ...

    def remove(self, index: int) -> None: ...


def remove_active(collection: Rows, owner: bpy.types.bpy_struct, index_attr: str) -> bool:
    """Remove the row `owner.<index_attr>` points at and keep the index on a neighbour; False if none."""
    index = getattr(owner, index_attr)
    if not 0 <= index < len(collection):
        return False
    collection.remove(index)
    setattr(owner, index_attr, max(0, min(index, len(collection) - 1)))
    return True
