"""OMI Physics comes first in the Properties editor's Physics tab (`panels/panel_order.py`).

Blender draws a region's panels in the order their types were registered, and places a panel it meets for
the first time right after the one drawn before it; `bl_order` cannot put an add-on's panel first (it is
unsigned, and a tie goes after). So the add-on registers Blender's own Physics-tab panels again after its
own. Background Blender draws no region: these tests check what is registered again and that it stays whole;
the places on screen are checked in a window by scripts/screenshots/first_minute.py (the real-Blender job).
"""

from __future__ import annotations

import bpy
import pytest

pytestmark = pytest.mark.usefixtures("omi_addon")


def test_bl_order_cannot_put_a_panel_first() -> None:
    """Why the panels are registered again: a negative order reads as 0, the order of Blender's own panels."""
    assert bpy.types.Panel.bl_rna.properties["bl_order"].hard_min == 0


def test_blender_physics_panels_are_registered_again_after_ours(omi) -> None:
    moved = omi("panels.panel_order").blender_physics_panels()
    names = [cls.__name__ for cls in moved]
    for wanted in ("PHYSICS_PT_rigid_body", "PHYSICS_PT_rigid_body_settings", "PHYSICS_PT_rigid_body_constraint",
                   "PHYSICS_PT_rigid_body_constraint_limits_angular", "PHYSICS_PT_cloth", "PHYSICS_PT_softbody"):
        assert wanted in names
    assert "PHYSICS_PT_add" not in names  # header-less: Blender keeps its Enable Physics buttons on top
    assert not [name for name in names if "omi" in name]
    assert len(set(names)) == len(names)
    for index, cls in enumerate(moved):  # each sub-panel after its parent: registered, it finds it
        parent = getattr(cls, "bl_parent_id", "")
        assert not parent or parent in names[:index], f"{cls.__name__} before its parent {parent}"
    # Blender's own order kept among them: Rigid Body before its constraint, the sub-panels as Blender lists them
    assert names.index("PHYSICS_PT_rigid_body") < names.index("PHYSICS_PT_rigid_body_constraint")
    assert names.index("PHYSICS_PT_rigid_body_settings") < names.index("PHYSICS_PT_rigid_body_collisions")


def test_registering_again_leaves_every_panel_registered(omi) -> None:
    """Enabling the add-on again (a second `put_ours_first`) unregisters and registers the same panels: all
    stay registered, under their names."""
    panel_order = omi("panels.panel_order")
    before = [cls.__name__ for cls in panel_order.blender_physics_panels()]
    panel_order.put_ours_first()
    after = panel_order.blender_physics_panels()
    assert [cls.__name__ for cls in after] == before
    for cls in after:
        assert cls.is_registered
        assert getattr(bpy.types, cls.__name__) is cls
