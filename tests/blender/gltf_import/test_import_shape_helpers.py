"""Helper objects the import makes for shape nodes (issue 26 item 4): an offset or scaled collider is a
node of its own in glTF, and the import makes a wire mesh object for it. It lives in a collection hidden in
the viewport (still simulated, still drawn by the physics overlay, still exported), and a round trip
grows no node."""

from __future__ import annotations

import bpy
from export_support import export, mesh_object, tag_motion, tag_shape
from import_support import import_gltf
from ui_recorder import draw_panel, make_context


def artist_scene():
    crate = mesh_object("Crate", location=(0.0, 0.0, 1.0))
    tag_motion(crate)
    tag_shape(crate, "collider", 'BOX', size=(1.0, 1.0, 1.0), use_offset=True, offset_location=(0.0, 0.0, 0.3))
    slab = mesh_object("Slab", location=(3.0, 0.0, 1.0), scale=(2.0, 1.0, 0.5))
    tag_shape(slab, "collider", 'SPHERE', radius=0.5)  # a sphere on a scaled object: a node of its own
    wall = bpy.data.objects.new("Wall", None)  # a collider with no mesh of its own: the artist's object
    bpy.context.scene.collection.objects.link(wall)
    wall.location = (0.0, 5.0, 1.0)
    tag_shape(wall, "collider", 'BOX', size=(4.0, 0.2, 2.0))


def shown(obj: bpy.types.Object) -> bool:
    return obj.visible_get(view_layer=bpy.context.view_layer)


def test_import_helpers_are_hidden_and_a_round_trip_grows_no_node(omi, clean_scene, tmp_path):
    artist_scene()
    first = export(tmp_path, "first", "GLB")
    helpers = [node["name"] for node in first.gltf["nodes"] if node["name"].endswith(".collider")]
    assert sorted(helpers) == ["Crate.collider", "Slab.collider"]  # glTF puts an offset shape on a node
    imported = import_gltf(first.path)
    for name in helpers:
        helper = imported.obj(name)
        assert helper.display_type == 'WIRE' and not shown(helper), name  # out of the artist's way
        assert helper.parent is not None and shown(helper.parent)
        assert helper.omi_physics.use_collider
    assert shown(imported.obj("Wall"))  # a collider object of its own is what the artist works on
    body = imported.obj("Crate")
    assert body.rigid_body is not None and body.rigid_body.collision_shape == 'COMPOUND'
    assert imported.obj("Crate.collider").rigid_body is not None  # the compound's part: still simulated
    second = export(tmp_path, "second", "GLB")
    assert len(second.gltf["nodes"]) == len(first.gltf["nodes"])
    assert sorted(node["name"] for node in second.gltf["nodes"]) == sorted(node["name"] for node in first.gltf["nodes"])
    again = import_gltf(second.path)
    third = export(tmp_path, "third", "GLB")
    assert len(third.gltf["nodes"]) == len(first.gltf["nodes"])
    assert not shown(again.obj("Crate.collider"))


def test_the_overlay_still_draws_a_hidden_helpers_shape(omi, clean_scene, tmp_path):
    artist_scene()
    imported = import_gltf(export(tmp_path, "scene", "GLB").path)
    assert not shown(imported.obj("Crate.collider"))
    lines = omi("viewport.overlay").rebuild(bpy.context.scene, bpy.context.evaluated_depsgraph_get())
    assert lines.shapes == 3  # Crate's offset box, Slab's sphere, the wall: hidden helpers included


def test_a_body_shows_its_hidden_collider_and_selects_it(omi, clean_scene, tmp_path):
    """The body's own Collider switch is off (its collider is on the hidden child): the Properties editor and
    the sidebar say where the collider is, with a button that selects the helper, so nobody fits a second one."""
    artist_scene()
    imported = import_gltf(export(tmp_path, "scene", "GLB").path)
    crate = imported.obj("Crate")
    assert not crate.omi_physics.use_collider
    for panel in (omi("panels.properties_editor").PHYSICS_PT_omi, omi("panels.sidebar").VIEW3D_PT_omi_active):
        shown = draw_panel(panel, make_context(crate))
        buttons = shown.operator_calls("omi.select_object")
        assert [call.kwargs["properties"].name for call in buttons] == ["Crate.collider"], panel.__name__
        assert "Collider on Crate.collider (hidden)" in [call.kwargs.get("text") for call in buttons]
    assert bpy.ops.omi.select_object(name="Crate.collider") == {'FINISHED'}
    assert bpy.context.view_layer.objects.active.name == "Crate.collider"  # its settings in the Properties editor
    assert draw_panel(omi("panels.properties_editor").PHYSICS_PT_omi,
                      make_context(imported.obj("Wall"))).operator_calls("omi.select_object") == []
