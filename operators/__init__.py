"""Authoring operators (fit colliders, bodies, joints, copy, sync, validate), one module per job."""

import bpy

from . import (
    adopt_peers,
    assign,
    body,
    copy,
    decompose,
    fit,
    gravity,
    joint,
    joint_pivot,
    library,
    naming,
    ragdoll,
    select,
    sync,
    validate,
)

_CLASSES: tuple[type, ...] = (
    *adopt_peers.CLASSES, *body.CLASSES, *assign.CLASSES, *copy.CLASSES, *decompose.CLASSES, *fit.CLASSES,
    *gravity.CLASSES, *joint.CLASSES,
    *joint_pivot.CLASSES, *library.CLASSES, *naming.CLASSES, *ragdoll.CLASSES, *select.CLASSES, *sync.CLASSES,
    *validate.CLASSES,
)


def register() -> None:
    for cls in _CLASSES:
        bpy.utils.register_class(cls)


def unregister() -> None:
    for cls in reversed(_CLASSES):
        bpy.utils.unregister_class(cls)
