"""Authoring operators (fit colliders, bodies, joints, copy, sync, validate), one module per job."""

import bpy

from . import (
    adopt_peers,
    assign,
    body,
    copy,
    decompose,
    export_check,
    fit,
    gravity,
    joint,
    joint_pivot,
    library,
    live_link,
    naming,
    physics_only,
    ragdoll,
    seat,
    select,
    spawn_point,
    sync,
    validate,
    vehicle_body,
    vehicle_thruster,
    vehicle_wheel,
)

_CLASSES: tuple[type, ...] = (
    *adopt_peers.CLASSES, *body.CLASSES, *assign.CLASSES, *copy.CLASSES, *decompose.CLASSES, *export_check.CLASSES,
    *fit.CLASSES,
    *gravity.CLASSES, *joint.CLASSES,
    *joint_pivot.CLASSES, *library.CLASSES, *naming.CLASSES, *physics_only.CLASSES, *ragdoll.CLASSES,
    *select.CLASSES, *sync.CLASSES,
    *validate.CLASSES, *vehicle_body.CLASSES, *vehicle_wheel.CLASSES, *vehicle_thruster.CLASSES, *seat.CLASSES,
    *spawn_point.CLASSES,
)


def register() -> None:
    for cls in _CLASSES:
        bpy.utils.register_class(cls)
    live_link.register()


def unregister() -> None:
    live_link.unregister()
    for cls in reversed(_CLASSES):
        bpy.utils.unregister_class(cls)
