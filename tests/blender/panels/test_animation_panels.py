"""Every setting behind an Object Model pointer can be keyframed where the artist edits it: the panel
draws it in a layout with the keyframe decorator, and keyframe_insert on it makes its F-curve."""

from __future__ import annotations

import types

import addon_loader
import bpy
import pytest
from ui_recorder import Recorder

pytestmark = pytest.mark.usefixtures("omi_addon")

# The settings the export turns into Object Model pointers (tests/blender/animation_support.py keys them all).
ANIMATED = {
    "mass", "center_of_mass", "inertia_diagonal", "inertia_orientation", "linear_velocity", "angular_velocity",
    "gravity_factor", "size", "radius", "height", "radius_top", "radius_bottom", "min_angular", "max_angular",
    "min_linear", "max_linear", "stiffness", "damping", "max_force", "position_target_angular",
    "position_target_linear", "velocity_target", "static_friction", "dynamic_friction", "restitution",
}


def draw(panel, obj) -> Recorder:
    layout = Recorder()
    stand_in = types.SimpleNamespace(layout=layout, part=getattr(panel, "part", ""), kind=getattr(panel, "kind", ""))
    if hasattr(panel, "draw_part"):
        stand_in.draw_part = types.MethodType(panel.draw_part, stand_in)
    context = types.SimpleNamespace(object=obj, active_object=obj, scene=bpy.context.scene,
                                    selected_objects=[obj], window_manager=bpy.context.window_manager)
    panel.draw(stand_in, context)
    return layout


def keyable_fields(layout: Recorder) -> list:
    return [call for call in layout.walk() if call.kind == "prop" and call.prop_name in ANIMATED]


def decorated(call, root: Recorder) -> bool:
    """Whether the nearest layout at or above the field that says so draws decorators (Blender inherits it)."""
    parents: dict[int, Recorder] = {}
    stack = [root]
    while stack:
        below = stack.pop()
        for child in below.children:
            parents[id(child)] = below
            stack.append(child)
    layout: Recorder | None = call.owner
    while layout is not None:
        if "use_property_decorate" in layout.attributes:
            return layout.attributes["use_property_decorate"] is True
        layout = parents.get(id(layout))
    return False


@pytest.mark.parametrize("shape_type", ['BOX', 'SPHERE', 'CAPSULE', 'CYLINDER'])
def test_panel_fields_are_keyable_with_a_decorator(clean_scene, shape_type):
    editor = addon_loader.module("panels.properties_editor")
    fcurves = addon_loader.module("io.blender.animation.curves").fcurves
    bpy.ops.mesh.primitive_cube_add()
    obj = bpy.context.active_object
    settings = obj.omi_physics
    settings.use_motion = settings.use_collider = settings.use_joint = True
    settings.collider.shape.shape_type = shape_type
    for kind in ('LINEAR', 'ANGULAR'):
        limit = settings.joint.limits.add()
        limit.kind, limit.use_stiffness = kind, True
    for drive_type in ('LINEAR', 'ANGULAR'):
        drive = settings.joint.drives.add()
        drive.drive_type = drive_type
        drive.use_max_force = drive.use_position_target = drive.use_velocity_target = True
    library = bpy.context.scene.omi_physics.physics_materials
    library.add().name = "Ice"
    bpy.context.scene.omi_physics.physics_materials_active_index = 0
    seen = set()
    for panel in (editor.PHYSICS_PT_omi_body, editor.PHYSICS_PT_omi_body_velocity, editor.PHYSICS_PT_omi_body_mass,
                  editor.PHYSICS_PT_omi_collider, editor.PHYSICS_PT_omi_joint, editor.PHYSICS_PT_omi_materials):
        for limit_index in range(2):
            settings.joint.limits_active_index = settings.joint.drives_active_index = limit_index
            root = draw(panel, obj)
            for call in keyable_fields(root):
                assert decorated(call, root), (panel.__name__, call.prop_name)
                data, name = call.data, call.prop_name
                assert data.keyframe_insert(name, frame=1), name
                id_data = data.id_data
                path = data.path_from_id(name)
                assert any(curve.data_path == path for curve in fcurves(id_data)), path
                seen.add(name)
    shape_fields = {'BOX': {"size"}, 'SPHERE': {"radius"}}.get(shape_type, {"height", "radius_top", "radius_bottom"})
    assert ANIMATED - seen == {"size", "radius", "height", "radius_top", "radius_bottom"} - shape_fields
