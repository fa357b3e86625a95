"""Screenshots of the add-on's UI from a real Blender with a window: run by scripts/screenshots.sh.

    xvfb-run -a -s "-screen 0 1600x1200x24" \
        blender --factory-startup --python scripts/screenshots/screenshots.py -- OUT_DIR

Builds the demo scene with the add-on's operators (demo_scene.py), then, one step per timer tick so
Blender redraws in between, shows each part of the UI and captures the screen with ImageMagick's
`import -window root` (`bpy.ops.screen.screenshot` writes a black image under Xvfb), cropped to the
editor, region or window that shows it. Blender's layout is the factory one: the Properties editor
and the sidebar have their default widths at UI scale 1.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import bpy
from mathutils import Vector

SCRIPTS_DIR = Path(__file__).resolve().parent
sys.path.insert(0, str(SCRIPTS_DIR))  # never the repo root: its io/ would shadow Python's io
sys.path.insert(0, str(SCRIPTS_DIR.parent / "demo"))  # demo_scene: the screenshots show the demo's scene
sys.path.insert(0, str(SCRIPTS_DIR.parents[1] / "tests"))  # addon_loader

import addon_loader  # noqa: E402
import demo_scene  # noqa: E402
import screenshots_gravity  # noqa: E402
import screenshots_ragdoll  # noqa: E402
import window_session  # noqa: E402

SETTLE = 1.5  # seconds between a UI change and its capture: a few redraws under software OpenGL
VIEW_EYE = Vector((5.5, -7.5, 4.0))  # the demo's camera (scripts/demo/demo.py)
VIEW_TARGET = Vector((-0.6, 0.7, 1.0))
Rect = tuple[int, int, int, int]  # x, y (from the screen's top), width, height


def out_dir() -> Path:
    args = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []
    path = Path(args[0]) if args else SCRIPTS_DIR.parents[1] / "docs"
    path.mkdir(parents=True, exist_ok=True)
    return path


def capture(path: Path, rect: Rect, *, max_height: int | None = None, scale: int = 100) -> None:
    """The screen, cropped to `rect` (its top `max_height` px), as a small PNG (a 256-colour palette)."""
    x, y, width, height = rect
    height = min(height, max_height or height)
    full = path.with_suffix(".full.png")
    subprocess.run(["import", "-window", "root", str(full)], check=True)
    subprocess.run(["convert", str(full), "-crop", f"{width}x{height}+{x}+{y}", "+repage", "-resize", f"{scale}%",
                    "+dither", "-colors", "256", "-strip", f"PNG8:{path}"], check=True)
    full.unlink()
    print(f"OMI physics: screenshot {path} ({width}x{height} px of the screen)")


def screen_height() -> int:
    return int(subprocess.run(["xdotool", "getdisplaygeometry"], check=True, capture_output=True,
                              text=True).stdout.split()[1])


def on_screen(window: bpy.types.Window, x: int, y: int, width: int, height: int) -> Rect:
    """A rectangle in window coordinates on the screen: Blender counts y up from the bottom, X down from the top."""
    window_top = screen_height() - window.y - window.height
    return window.x + x, window_top + window.height - y - height, width, height


def area_rect(window: bpy.types.Window, area: bpy.types.Area) -> Rect:
    return on_screen(window, area.x, area.y, area.width, area.height)


def region_rect(window: bpy.types.Window, region: bpy.types.Region) -> Rect:
    return on_screen(window, region.x, region.y, region.width, region.height)


def find_area(kind: str) -> tuple[bpy.types.Window, bpy.types.Area]:
    window = bpy.context.window_manager.windows[0]
    area = max((area for area in window.screen.areas if area.type == kind), key=lambda a: a.width * a.height)
    return window, area


def make_active(name: str) -> None:
    obj = bpy.data.objects[name]
    demo_scene.select(obj, active=obj)


def redraw() -> None:
    for window in bpy.context.window_manager.windows:
        for area in window.screen.areas:
            area.tag_redraw()


def show_tab(window: bpy.types.Window, region: bpy.types.Region, category: str) -> Iterator[float]:
    """Click down the sidebar's tab strip until its tab is `category` (Python cannot set the active tab)."""
    x, y, width, height = region_rect(window, region)
    for offset in range(20, min(height, 600), 15):
        if region.active_panel_category == category:
            return
        subprocess.run(["xdotool", "mousemove", str(x + width - 10), str(y + offset), "sleep", "0.2",
                        "click", "1"], check=True)
        yield SETTLE / 3
    raise RuntimeError(f"the sidebar never showed the {category!r} tab")


def settle(seconds: float = SETTLE) -> Iterator[float]:
    """Redraw every editor for a while: panels slide to their places only as regions redraw."""
    for _ in range(int(seconds / 0.1)):
        redraw()
        yield 0.1


def steps(out: Path) -> Iterator[float]:
    """Each yield hands control back to Blender for that many seconds (it redraws meanwhile)."""
    window, view3d = find_area('VIEW_3D')
    with bpy.context.temp_override(window=window, area=view3d,
                                   region=next(r for r in view3d.regions if r.type == 'WINDOW')):
        demo_scene.build_scene(fresh=False)  # the factory layout stays; its objects were removed
    yield from settle()
    space = view3d.spaces.active
    space.show_region_ui = True
    space.shading.type = 'SOLID'
    _, properties = find_area('PROPERTIES')
    properties.spaces.active.context = 'PHYSICS'
    view = space.region_3d  # looking at the scene from the demo's camera position, a little closer
    view.view_location = VIEW_TARGET
    view.view_rotation = (VIEW_EYE - VIEW_TARGET).to_track_quat('Z', 'Y')
    view.view_distance = (VIEW_EYE - VIEW_TARGET).length * 0.95
    sidebar = next(region for region in view3d.regions if region.type == 'UI')
    yield from settle()
    yield from show_tab(window, sidebar, "Physics")

    hinge = bpy.data.objects[demo_scene.ROLES.door_joint].omi_physics.joint
    hinge.limits_active_index = len(hinge.limits) - 1  # the hinge's angle range
    make_active("Ball")
    yield from settle()
    for name, file, height in (("Floor", "properties_collider.png", 660), ("Ball", "properties_body.png", 935),
                               (demo_scene.ROLES.door_joint, "properties_joint.png", 830)):
        make_active(name)
        yield from settle()
        capture(out / file, area_rect(window, properties), max_height=height)

    objects = bpy.data.objects
    demo_scene.select(objects[demo_scene.ROLES.door_post], objects[demo_scene.ROLES.door],
                      active=objects[demo_scene.ROLES.door])  # two bodies: the joint buttons are on
    yield from settle()
    capture(out / "sidebar.png", region_rect(window, sidebar), max_height=620)
    capture(out / "physics_objects.png", region_rect(window, sidebar))  # the whole sidebar: the list is below
    space.show_region_ui = False
    demo_scene.select()  # no selection outline over the overlay's colours
    yield from settle()
    capture(out / "overlay.png", area_rect(window, view3d), scale=60)
    yield from overlay_legend(window, view3d, out)
    yield from screenshots_gravity.steps(out, window, view3d, properties, sidebar, settle=settle, capture=capture,
                                         make_active=make_active, area_rect=area_rect, region_rect=region_rect)
    yield from screenshots_ragdoll.steps(out, window, view3d, properties, settle=settle, capture=capture,
                                         make_active=make_active, area_rect=area_rect)

    for operator, file, height, scroll in ((bpy.ops.export_scene.gltf, "gltf_export.png", 300, False),
                                           (bpy.ops.import_scene.gltf, "gltf_import.png", None, True)):
        with bpy.context.temp_override(window=window, area=view3d):
            operator('INVOKE_DEFAULT')
        yield from settle(SETTLE * 2)
        dialog = bpy.context.window_manager.windows[-1]
        browser = next(area for area in dialog.screen.areas if area.type == 'FILE_BROWSER')
        options = next(region for region in browser.regions if region.type == 'TOOL_PROPS')
        if scroll:  # the section is drawn last: wheel down to it
            x, y, width, tall = region_rect(dialog, options)
            subprocess.run(["xdotool", "mousemove", str(x + width // 2), str(y + tall // 2), "sleep", "0.2",
                            "click", "--repeat", "30", "--delay", "30", "5",
                            "mousemove", str(x + width + 200), str(y + tall // 2)], check=True)  # no tooltip
            yield from settle()
        capture(out / file, region_rect(dialog, options), max_height=height)
        with bpy.context.temp_override(window=dialog):
            bpy.ops.wm.window_close()
        yield from settle()


def overlay_legend(window: bpy.types.Window, view3d: bpy.types.Area, out: Path) -> Iterator[float]:
    """The add-on's sub-panel of the viewport's Overlays popover (the colour legend; its switch is in the
    sub-panel's header there) opened on its own over the scene; then an undo, after which the overlay must
    still draw."""
    header = next(region for region in view3d.regions if region.type == 'HEADER')
    x, y, _width, height = region_rect(window, header)
    overlay = addon_module("viewport.overlay")
    drawn = overlay.STATE.draws
    subprocess.run(["xdotool", "mousemove", str(x + 420), str(y + height + 10)], check=True)
    yield from settle(SETTLE / 3)  # Blender places the popover where it last saw the mouse
    with bpy.context.temp_override(window=window, area=view3d, region=header):  # the popover's OMI sub-panel
        bpy.ops.wm.call_panel(name="VIEW3D_PT_omi_overlay", keep_open=True)
    yield from settle(SETTLE * 2)
    capture(out / "overlay_legend.png", area_rect(window, view3d), scale=60)
    subprocess.run(["xdotool", "key", "Escape"], check=True)
    yield from settle()
    if overlay.STATE.draws <= drawn:
        raise RuntimeError("the physics overlay did not draw")
    # An undo (Ctrl+Z over the viewport, as an artist presses it), then the overlay draws again.
    x, y, width, height = area_rect(window, view3d)
    bpy.ops.ed.undo_push(message="the demo scene")
    bpy.data.objects[demo_scene.ROLES.ball].location.x += 0.5  # a step to undo
    bpy.ops.ed.undo_push(message="ball moved")
    subprocess.run(["xdotool", "mousemove", str(x + width // 2), str(y + height // 2), "key", "ctrl+z"], check=True)
    yield from settle()
    drawn = overlay.STATE.draws
    yield from settle()
    if overlay.STATE.draws <= drawn or not overlay.STATE.lines or not len(overlay.STATE.lines.positions):
        raise RuntimeError("the physics overlay stopped drawing after an undo")
    print(f"OMI physics: the overlay drew {overlay.STATE.draws - drawn} times in the second after an undo, "
          f"{len(overlay.STATE.lines.positions) // 2} lines")


def addon_module(name: str):
    return sys.modules[f"{addon_loader.ADDON_MODULE}.{name}"]


window_session.start(steps(out_dir()), first_interval=SETTLE)
