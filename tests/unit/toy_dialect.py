"""A toy dialect registered from the test folder: the OMI structure under extension names of its own
(`TOY_physics_*`), with a body's mass spelled `weight`, and a schema check of its own.

It shows what a dialect unit is: its tables (a `base.Dialect`, here OMI's with a few changes) and the
functions of its structure (here OMI's, which read the names and keys from the tables), registered with
the registry together with an export target. Nothing outside this module knows it: the reader, the writer,
`validate` and `convert` find it in the registry (tests/unit/dialects/test_dialect_registry.py).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from omi_core import model
from omi_core.dialects import omi, registry
from omi_core.read import omi as read_omi
from omi_core.write import omi as write_omi

NAME = "TOY"
BODY, SHAPE, JOINT = "TOY_physics_body", "TOY_physics_shape", "TOY_physics_joint"


def build() -> tuple[registry.DialectUnit, registry.Target]:
    """The toy's dialect unit and export target (registered by the pure tests, and in Blender by
    tests/blender/export/test_toy_dialect_export.py: `omi_core` is the add-on's own core there)."""
    toy = dataclasses.replace(
        omi.OMI, name=NAME, body_extension=BODY, shape_extension=SHAPE, joint_extension=JOINT,
        homes={"shapes": SHAPE, "physicsMaterials": BODY, "collisionFilters": BODY, "physicsJoints": JOINT},
        motion_fields=tuple(dataclasses.replace(spec, key="weight") if spec.attr == "mass" else spec
                            for spec in omi.OMI.motion_fields),
        legacy_extensions=(), keeps_unknown=False)

    def schema_check(document: Any, _spec_dir: str | None, _legacy: bool) -> list[Any]:
        """The toy's schema: a body's `weight` is a number."""
        found = []
        for index, node in enumerate(document.get("nodes") or []):
            motion = ((node.get("extensions") or {}).get(BODY) or {}).get("motion") or {}
            if "weight" in motion and not isinstance(motion["weight"], int | float):
                found.append(model.Issue(f"/nodes/{index}/extensions/{BODY}/motion/weight",
                                         "weight must be a number"))
        return found

    unit = registry.DialectUnit(toy, read_omi.read, write_omi.node_extensions, schema_check=schema_check)
    return unit, registry.Target(NAME, 90, "Toy", "The toy dialect of the tests", (NAME,))


UNIT, TARGET = build()
TOY = UNIT.tables


def register() -> None:
    registry.register(UNIT)
    registry.register(TARGET)


def unregister() -> None:
    registry.unregister(NAME)
