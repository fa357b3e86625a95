"""PropertyGroups holding OMI settings on objects and scenes, the session's authoring state, and typed accessors."""

from __future__ import annotations

import bpy

from . import body, gravity, joint, migrate, scene, session, shape
from . import object as object_settings

# Dependencies first: a PropertyGroup must be registered before one that points at it.
_CLASSES: tuple[type, ...] = (*shape.CLASSES, *gravity.CLASSES, *body.CLASSES, *joint.CLASSES, *scene.CLASSES,
                           *object_settings.CLASSES, *session.CLASSES)


def object_physics(obj: bpy.types.Object) -> object_settings.OMIObjectSettings:
    """The OMI settings of an object (typed accessor for `obj.omi_physics`)."""
    return obj.omi_physics  # type: ignore[attr-defined]


def scene_physics(bl_scene: bpy.types.Scene) -> scene.OMISceneSettings:
    """The OMI libraries and options of a scene (typed accessor for `scene.omi_physics`)."""
    return bl_scene.omi_physics  # type: ignore[attr-defined]


def register() -> None:
    for cls in _CLASSES:
        bpy.utils.register_class(cls)
    bpy.types.Object.omi_physics = bpy.props.PointerProperty(type=object_settings.OMIObjectSettings)
    bpy.types.Scene.omi_physics = bpy.props.PointerProperty(type=scene.OMISceneSettings)
    bpy.types.WindowManager.omi_authoring = bpy.props.PointerProperty(type=session.OMIAuthoringState)
    migrate.register()


def unregister() -> None:
    migrate.unregister()
    if hasattr(bpy.types.WindowManager, "omi_authoring"):
        del bpy.types.WindowManager.omi_authoring
    for owner in (bpy.types.Scene, bpy.types.Object):
        if hasattr(owner, "omi_physics"):
            del owner.omi_physics
    for cls in reversed(_CLASSES):
        bpy.utils.unregister_class(cls)
