"""Physics Only: a collider's mesh becomes a collision proxy: wire, not rendered, and its node exported with no
render mesh while the physics keeps its shape; and back."""

from __future__ import annotations

import bpy
import export_support as support
import pytest

pytestmark = pytest.mark.usefixtures("omi_addon")


def test_a_physics_only_collider_exports_no_render_mesh_and_keeps_its_shape(clean_scene, tmp_path):
    bpy.ops.mesh.primitive_cube_add(size=2.0)
    proxy = bpy.context.active_object
    proxy.name = "Proxy"
    assert bpy.ops.omi.fit_collider(shape_type='BOX') == {'FINISHED'}
    assert bpy.ops.omi.physics_only() == {'FINISHED'}
    assert proxy.display_type == 'WIRE' and not proxy.visible_camera
    exported = support.export(tmp_path, "proxy")
    node = exported.node("Proxy")
    assert "mesh" not in node  # no renderer draws it
    assert exported.shape(exported.body("Proxy")["collider"]["shape"])["box"]["size"] == pytest.approx([2, 2, 2])
    assert bpy.ops.omi.physics_only(physics_only=False) == {'FINISHED'}
    assert proxy.display_type == 'TEXTURED' and proxy.visible_camera
    assert "mesh" in support.export(tmp_path, "visible").node("Proxy")
