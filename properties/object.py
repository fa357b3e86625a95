"""The root of an object's OMI settings: `Object.omi_physics`."""

from __future__ import annotations

import bpy
from bpy.props import BoolProperty, IntProperty, PointerProperty, StringProperty

from .body import OMIColliderSettings, OMIMotionSettings, OMITriggerSettings
from .gravity import OMIGravitySettings
from .joint import OMIJointSettings
from .migrate import SETTINGS_VERSION
from .shape import copy_shape, is_untouched
from .units import OMIUnitSettings


def _shaped(settings: OMIObjectSettings, part: str) -> bool:
    """Whether the part's shape holds a setting; asked of what is stored first, since reading a part's shape
    stores an empty group for it (an import switches thousands of colliders on)."""
    stored = settings.get(part)
    shape = stored.get("shape") if stored is not None else None
    return shape is not None and bool(shape.keys()) and not is_untouched(getattr(settings, part).shape)


def _update_use_collider(self: OMIObjectSettings, _context: bpy.types.Context | None) -> None:
    """A collider switched on where only a trigger was shaped takes the trigger's shape (its fitted size)."""
    if self.use_collider and _shaped(self, "trigger") and is_untouched(self.collider.shape):
        copy_shape(self.trigger.shape, self.collider.shape)


def _update_use_trigger(self: OMIObjectSettings, _context: bpy.types.Context | None) -> None:
    """A trigger switched on where a collider was shaped takes the collider's shape (its fitted size), not
    the default 1 m box."""
    if self.use_trigger and _shaped(self, "collider") and is_untouched(self.trigger.shape):
        copy_shape(self.collider.shape, self.trigger.shape)


class OMIObjectSettings(bpy.types.PropertyGroup):
    """Everything OMI says about one object. Each part is off until enabled."""

    version: IntProperty(default=SETTINGS_VERSION, options={'HIDDEN'})  # see migrate.py
    use_motion: BoolProperty(
        name="Body",
        description="This object is a physics body: its transform is driven by the simulation",
        default=False,
    )
    motion: PointerProperty(type=OMIMotionSettings)
    use_collider: BoolProperty(
        name="Collider",
        description="This object has a solid shape that bodies collide with",
        default=False,
        update=_update_use_collider,
    )
    collider: PointerProperty(type=OMIColliderSettings)
    use_trigger: BoolProperty(
        name="Trigger",
        description="This object has a non-solid shape that detects bodies entering it",
        default=False,
        update=_update_use_trigger,
    )
    trigger: PointerProperty(type=OMITriggerSettings)
    use_joint: BoolProperty(
        name="Joint",
        description="This object is a joint frame connecting two bodies",
        default=False,
    )
    joint: PointerProperty(type=OMIJointSettings)
    use_gravity: BoolProperty(  # added in version 2 with a default that means "as before": no migration step
        name="Gravity Volume",
        description="This trigger changes the gravity of the bodies inside it (a gravity volume)",
        default=False,
    )
    gravity: PointerProperty(type=OMIGravitySettings)
    body_unknown_json: StringProperty(options={'HIDDEN'})  # the body extension object's keys beside its parts
    units: PointerProperty(type=OMIUnitSettings)  # the extension units' settings (properties/units.py)

    @property
    def has_physics(self) -> bool:
        return self.use_motion or self.use_collider or self.use_trigger or self.use_joint


CLASSES: tuple[type, ...] = (OMIObjectSettings,)
