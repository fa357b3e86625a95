"""The icons the panels pass around as `draw.Icon` are icons of the running Blender, and the enum items whose
icons the sidebar and the Joint panel cast to `draw.Icon` use only those: the type check takes the cast on
trust, and Blender draws an unknown icon name as an error in the console and no icon."""

from __future__ import annotations

import typing

import bpy


def blender_icons() -> set[str]:
    parameter = bpy.types.UILayout.bl_rna.functions["label"].parameters["icon"]
    return {item.identifier for item in parameter.enum_items}


def test_every_draw_icon_is_a_blender_icon(omi):
    declared = set(typing.get_args(omi("panels.draw").Icon))
    assert declared  # the Literal's members are read
    assert declared - blender_icons() == set()


def test_the_cast_enum_items_use_draw_icons(omi):
    declared = set(typing.get_args(omi("panels.draw").Icon))
    items = [*omi("properties.body").MOTION_TYPE_ITEMS, *omi("properties.shape").SHAPE_TYPE_ITEMS]
    assert {item[3] for item in items} - declared == set()
