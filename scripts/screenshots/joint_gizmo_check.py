"""The joint pivot gizmo in a real Blender window (run by scripts/joint_gizmo_check.sh under Xvfb).

A post and a door joined by Create Joint; the joint empty selected; xdotool moves the mouse onto the ring
the gizmo draws at the joint, presses, drags 100 px up and releases, as an artist does. Then Ctrl+Z over
the viewport. Passes (exit 0) when the drag ran `omi.joint_move_pivot`, the joint and its anchor moved up
together while the bodies stayed, and one undo put both back; exit 1 otherwise. How far 100 px moves the
pivot depends on when Blender sees the press (late on a loaded machine), so only the direction is checked.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator

import bpy
from bpy_extras import view3d_utils
from mathutils import Quaternion, Vector

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)  # never the repo root: io/ shadows Python's io
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "tests"))  # addon_loader
import window_session  # noqa: E402 - after the paths above

DRAG_PX = 100
TOLERANCE = 1e-4  # m


def view3d() -> tuple[bpy.types.Window, bpy.types.Area, bpy.types.Region]:
    window = bpy.context.window_manager.windows[0]
    area = max((a for a in window.screen.areas if a.type == 'VIEW_3D'), key=lambda a: a.width * a.height)
    return window, area, next(r for r in area.regions if r.type == 'WINDOW')


def on_screen(window: bpy.types.Window, region: bpy.types.Region, point: Vector) -> tuple[int, int]:
    """A region point on the X screen: Blender counts y up from the window's bottom, X down from the top."""
    screen_height = int(subprocess.run(["xdotool", "getdisplaygeometry"], check=True, capture_output=True,
                                       text=True).stdout.split()[1])
    window_top = screen_height - window.y - window.height
    return round(window.x + region.x + point.x), round(window_top + window.height - region.y - point.y)


def where(name: str) -> Vector:
    bpy.context.view_layer.update()  # after an undo the objects are new and their world matrices unset
    return bpy.data.objects[name].matrix_world.translation.copy()


def door_scene(window: bpy.types.Window, area: bpy.types.Area, region: bpy.types.Region) -> None:
    with bpy.context.temp_override(window=window, area=area, region=region):
        for name, motion, x in (("Post", 'STATIC', 0.0), ("Door", 'DYNAMIC', 2.5)):
            bpy.ops.mesh.primitive_cube_add(location=(x, 0.0, 1.0))
            bpy.context.active_object.name = name
            bpy.ops.omi.make_body(motion_type=motion)
        bpy.data.objects["Post"].select_set(True)
        assert bpy.ops.omi.create_joint(preset='HINGE', axis='Z') == {'FINISHED'}
        bpy.ops.object.select_all(action='DESELECT')
    joint = bpy.data.objects["Door.joint"]
    joint.select_set(True)
    bpy.context.view_layer.objects.active = joint
    view = region.data
    view.view_perspective = 'ORTHO'
    view.view_rotation = Quaternion((0.7071068, 0.7071068, 0.0, 0.0))  # the front view: X right, Z up
    view.view_location = joint.matrix_world.translation
    view.view_distance = 8.0


def steps() -> Iterator[float]:
    window, area, region = view3d()
    door_scene(window, area, region)
    yield 1.0
    bpy.ops.ed.undo_push(message="the door scene")
    anchor = bpy.data.objects["Door.joint"].omi_physics.joint.connected_object.name
    names = ("Door.joint", anchor, "Door", "Post")
    before = {name: where(name) for name in names}
    ring = view3d_utils.location_3d_to_region_2d(region, region.data, before["Door.joint"])
    x, y = on_screen(window, region, ring)
    drag = ["mousemove", str(x + 60), str(y), "sleep", "0.5", "mousemove", str(x), str(y), "sleep", "0.5",
            "mousedown", "1", "sleep", "0.3"]
    for step in range(1, 11):
        drag += ["mousemove", str(x), str(y - DRAG_PX * step // 10), "sleep", "0.1"]
    subprocess.Popen(["xdotool", *drag, "sleep", "0.3", "mouseup", "1"])  # in the background: Blender runs on
    yield 5.0
    moved = {name: where(name) - before[name] for name in names}
    ran = [op.bl_idname for op in bpy.context.window_manager.operators]
    print(f"OMI physics: gizmo drag moved the joint {tuple(round(v, 4) for v in moved['Door.joint'])} m, "
          f"its anchor {tuple(round(v, 4) for v in moved[anchor])} m; last operators {ran[-2:]}")
    failures = []
    if not ran or ran[-1] != "OMI_OT_joint_move_pivot":
        failures.append("the drag did not run omi.joint_move_pivot")
    if moved["Door.joint"].z <= 0.05 or abs(moved["Door.joint"].x) > TOLERANCE:
        failures.append("the joint did not move up")
    if (moved[anchor] - moved["Door.joint"]).length > TOLERANCE:
        failures.append("the anchor did not move with the joint")
    if any(moved[body].length > TOLERANCE for body in ("Door", "Post")):
        failures.append("a body moved")
    subprocess.run(["xdotool", "mousemove", str(x + 200), str(y + 150), "sleep", "0.3", "key", "ctrl+z"], check=True)
    yield 2.0
    back = {name: where(name) for name in names}
    if any((back[name] - before[name]).length > TOLERANCE for name in names):
        failures.append(f"Ctrl+Z did not put the pivot back: {back}")
    if failures:
        raise RuntimeError("; ".join(failures))
    print("OMI physics: joint gizmo check passed (drag, anchor with it, bodies still, one undo)")


window_session.start(steps(), first_interval=2.0)
