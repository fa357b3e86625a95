"""PropertyGroups holding OMI settings on objects and scenes, the session's authoring state, and typed accessors."""

from __future__ import annotations

import bpy

from . import body, edits, gravity, joint, migrate, scene, session, shape, unit_bindings, units
from . import object as object_settings

# Dependencies first: a PropertyGroup must be registered before one that points at it.
_CLASSES: tuple[type, ...] = (*shape.CLASSES, *gravity.CLASSES, *body.CLASSES, *joint.CLASSES, *scene.CLASSES,
                           units.OMIUnitSettings, *object_settings.CLASSES, *session.CLASSES)
# The settings whose edits the live link builds: an object's, and the library entries objects name.
_FOLLOWED: tuple[type, ...] = (*shape.CLASSES, *gravity.CLASSES, *body.CLASSES, *joint.CLASSES,
                               *object_settings.CLASSES, scene.OMIPhysicsMaterial, scene.OMISystemName,
                               scene.OMICollisionFilter)


def object_physics(obj: bpy.types.Object) -> object_settings.OMIObjectSettings:
    """The OMI settings of an object (typed accessor for `obj.omi_physics`)."""
    return obj.omi_physics  # type: ignore[attr-defined]  # added by register (_add_setting)


def scene_physics(bl_scene: bpy.types.Scene) -> scene.OMISceneSettings:
    """The OMI libraries and options of a scene (typed accessor for `scene.omi_physics`)."""
    return bl_scene.omi_physics  # type: ignore[attr-defined]  # added by register (_add_setting)


def _add_setting(owner: type[bpy.types.ID], name: str, group: type[bpy.types.PropertyGroup]) -> None:
    """Blender adds a setting to one of its own types as a class attribute holding a deferred property (the
    stubs know no such attribute: the typed accessors above read it)."""
    setattr(owner, name, bpy.props.PointerProperty(type=group))


def register() -> None:
    edits.follow(_FOLLOWED)
    for cls in _CLASSES:
        if cls is units.OMIUnitSettings:
            bpy.utils.register_class(cls)
            unit_bindings.register()  # each unit's settings below it, before the object settings point at it
            continue
        bpy.utils.register_class(cls)
    _add_setting(bpy.types.Object, "omi_physics", object_settings.OMIObjectSettings)
    _add_setting(bpy.types.Scene, "omi_physics", scene.OMISceneSettings)
    _add_setting(bpy.types.WindowManager, "omi_authoring", session.OMIAuthoringState)
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
        if cls is units.OMIUnitSettings:
            unit_bindings.unregister()
