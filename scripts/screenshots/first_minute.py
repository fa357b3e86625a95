"""An artist's first minute in a real window, by clicks and keys only: the factory cube falls onto a plane.

    xvfb-run -a -s "-screen 0 1280x960x24" \
        blender --factory-startup --python scripts/screenshots/first_minute.py -- OUT_DIR

Every step is a real input event sent with xdotool, none an operator call: click empty space, then the
factory cube; N for the sidebar; click down its tab strip to Physics; click Dynamic, then Box (then a look at
the Properties editor's Physics tab: OMI Physics above Blender's Rigid Body panel); Shift+A, type "plane",
Enter; G Z -3 Enter and S 4 Enter; click Static, then Box; Space to play. A button is found by
hovering down its column and pressing Ctrl+C (Blender's Copy Python Command) until the clipboard names
it, so a click lands only on the button meant. After each tag the script waits without redrawing anything
itself: the overlay must take the new state on its own (rebuilt, its lines equal to a fresh walk of the
scene) and draw it (draw calls counted; the viewport saved as OUT_DIR/<step>.png, with the count of pixels
in the overlay's colours, for a look: the selection outline shares them, so no threshold is kept on it).
A frame-change handler records the cube's height while it plays.
Exits 1 naming the first step that failed (OUT_DIR/results.json holds every step), 2 when the script failed.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import bpy
import numpy as np
from bpy_extras.view3d_utils import location_3d_to_region_2d

SCRIPTS_DIR = Path(__file__).resolve().parent
sys.path.insert(0, str(SCRIPTS_DIR))  # never the repo root: its io/ would shadow Python's io
sys.path.insert(0, str(SCRIPTS_DIR.parents[1] / "tests"))  # addon_loader

import addon_loader  # noqa: E402
import window_session  # noqa: E402

OUT = Path(sys.argv[sys.argv.index("--") + 1]) if "--" in sys.argv[:-1] else Path("/tmp/omi_first_minute")
PLANE_Z = -3.0  # G Z -3: the plane 2 m below the factory cube's bottom face
LAST_FRAME = 48  # 2 s at 24 fps: a 2 m fall takes 0.64 s (frame 16), then it rests
WAIT = 3.0  # seconds the overlay gets to draw a change on its own
PLAY_TIMEOUT = 240.0  # seconds for 60 frames under software OpenGL


class StepError(Exception):
    """A step of the session did not do what the artist meant: the message names what was seen."""


RESULTS: list[dict] = []
HEIGHTS: dict[int, float] = {}


def addon(name: str):
    return sys.modules[f"{addon_loader.ADDON_MODULE}.{name}"]


def window() -> bpy.types.Window:
    return bpy.context.window_manager.windows[0]


def view3d() -> bpy.types.Area:
    return max((a for a in window().screen.areas if a.type == 'VIEW_3D'), key=lambda a: a.width * a.height)


def region(kind: str) -> bpy.types.Region:
    return next(r for r in view3d().regions if r.type == kind)


def screen_height() -> int:
    return int(subprocess.run(["xdotool", "getdisplaygeometry"], check=True, capture_output=True,
                              text=True).stdout.split()[1])


def on_screen(x: float, y: float) -> tuple[int, int]:
    """A point in window coordinates (y up from the bottom) on the screen (y down from the top)."""
    top = screen_height() - window().y - window().height
    return int(window().x + x), int(top + window().height - y)


def region_rect(area_region: bpy.types.Region) -> tuple[int, int, int, int]:
    """x, y (screen, top), width, height."""
    x, y = on_screen(area_region.x, area_region.y + area_region.height)
    return x, y, area_region.width, area_region.height


def xdotool(*args: str) -> None:
    subprocess.run(["xdotool", *args], check=True, timeout=30)


def click(x: int, y: int) -> Iterator[float]:
    xdotool("mousemove", str(x), str(y), "sleep", "0.3", "click", "1")
    yield 0.5


def keys(*names: str) -> Iterator[float]:
    """Keys pressed over the viewport, with the keyboard focus on the window under the mouse (no window
    manager runs under Xvfb to give it)."""
    x, y, width, height = region_rect(region('WINDOW'))
    xdotool("mousemove", str(x + width // 2), str(y + height - 120), "sleep", "0.3")
    where = subprocess.run(["xdotool", "getmouselocation", "--shell"], check=True, capture_output=True,
                           text=True, timeout=30).stdout
    xwindow = dict(line.split("=", 1) for line in where.split())["WINDOW"]
    xdotool("windowfocus", "--sync", xwindow)
    for name in names:
        xdotool("key", "--delay", "80", name)
        yield 0.3
    yield 0.5


def projected(obj: bpy.types.Object) -> tuple[int, int]:
    """Where the object's origin shows in the viewport, on the screen."""
    view = region('WINDOW')
    point = location_3d_to_region_2d(view, view3d().spaces.active.region_3d, obj.matrix_world.translation)
    if point is None:
        raise StepError(f"{obj.name} is behind the view")
    return on_screen(view.x + point.x, view.y + point.y)


def find_button(command: str, column: float, start: int = 0) -> Iterator[float]:
    """Hover down the sidebar at `column` (a fraction of its width left of the tab strip) from `start` px
    below its top, pressing Ctrl+C (Copy Python Command) until the clipboard holds `command`;
    returns the point on the screen. Only buttons answer, so the click that follows hits this one."""
    x, y, width, height = region_rect(region('UI'))
    manager = bpy.context.window_manager
    seen: list[str] = []
    for offset in range(start + 6, height - 10, 8):
        manager.clipboard = ""
        point = (x + int((width - 30) * column), y + offset)
        xdotool("mousemove", str(point[0]), str(point[1]), "sleep", "0.15", "key", "ctrl+c")
        yield 0.2
        if command in manager.clipboard:
            return point
        if manager.clipboard and manager.clipboard not in seen:
            seen.append(manager.clipboard)
    raise StepError(f"no button {command} in the sidebar's column at {column:.2f} of its width (found {seen})")


def open_physics_tab() -> Iterator[float]:
    """Click down the sidebar's tab strip until its tab is Physics (the tabs' places are not in Python)."""
    sidebar = region('UI')
    x, y, width, height = region_rect(sidebar)
    for offset in range(20, min(height, 600), 15):
        if sidebar.active_panel_category == "Physics":
            return
        yield from click(x + width - 10, y + offset)
    raise StepError("the sidebar never showed the Physics tab")


def lines_match_the_scene() -> bool:
    """The lines the overlay holds are the ones a fresh walk of the scene gives (nothing stale kept)."""
    collect, gravity_lines = addon("viewport.collect"), addon("viewport.gravity_lines")
    view_layer = bpy.context.view_layer
    objects = [obj for obj in bpy.context.scene.objects if obj.visible_get(view_layer=view_layer)]
    fresh = gravity_lines.with_gravity(collect.scene_lines(objects, None, bpy.context.evaluated_depsgraph_get()),
                                       objects)
    held = addon("viewport.overlay").STATE.lines
    if held is None:
        return not len(fresh.positions)
    return held.positions.shape == fresh.positions.shape and bool(
        np.allclose(np.sort(held.positions, axis=0), np.sort(fresh.positions, axis=0), atol=1e-4))


def overlay_pixels(name: str) -> int:
    """Pixels of the viewport within a few levels of one of the overlay's colours (saved as OUT/name.png)."""
    x, y, width, height = region_rect(region('WINDOW'))
    png = OUT / f"{name}.png"
    subprocess.run(["import", "-window", "root", "-crop", f"{width}x{height}+{x}+{y}", "+repage", str(png)],
                   check=True, timeout=60)
    raw = subprocess.run(["convert", str(png), "-depth", "8", "rgb:-"], check=True, capture_output=True,
                         timeout=60).stdout
    pixels = np.frombuffer(raw, np.uint8).reshape(-1, 3).astype(np.float32)
    near = np.zeros(len(pixels), bool)
    for color in addon("viewport.geometry").ROLE_COLORS.values():
        near |= np.abs(pixels - np.array(color[:3]) * 255.0).max(axis=1) < 12
    return int(near.sum())


def overlay_on_its_own(step: str, *, drawn: bool = True) -> Iterator[float]:
    """After a click: the overlay draws the new state with nothing else redrawing the viewport (`drawn`:
    and the state has lines to show)."""
    state = addon("viewport.overlay").STATE
    draws, rebuilds = state.draws, state.rebuilds
    yield WAIT
    lines = 0 if state.lines is None else len(state.lines.positions) // 2
    row = {"rebuilds": state.rebuilds - rebuilds, "draws": state.draws - draws, "lines": lines,
           "lines_match": lines_match_the_scene(), "pixels": overlay_pixels(step.replace(" ", "_"))}
    RESULTS[-1].update(row)
    if not row["rebuilds"] or not row["lines_match"] or (drawn and (not row["draws"] or not lines)):
        raise StepError(f"the overlay did not draw the new state on its own: {json.dumps(row)}")


def record_height(scene: bpy.types.Scene, depsgraph: bpy.types.Depsgraph | None = None) -> None:
    cube = bpy.data.objects.get("Cube")
    if cube is not None and depsgraph is not None:
        HEIGHTS[scene.frame_current] = cube.evaluated_get(depsgraph).matrix_world.translation.z


def select_cube() -> Iterator[float]:
    x, y, width, height = region_rect(region('WINDOW'))
    yield from click(x + width - 150, y + height - 60)  # empty floor: deselects all
    if bpy.context.selected_objects:
        raise StepError(f"a click on empty space left {[o.name for o in bpy.context.selected_objects]} selected")
    yield from click(*projected(bpy.data.objects["Cube"]))
    if bpy.context.active_object is None or bpy.context.active_object.name != "Cube" or \
            [o.name for o in bpy.context.selected_objects] != ["Cube"]:
        raise StepError("a click on the cube did not select it alone")


def open_sidebar() -> Iterator[float]:
    yield from keys("n")
    if not view3d().spaces.active.show_region_ui:
        raise StepError("N over the viewport did not open the sidebar")
    yield from open_physics_tab()


def tag(motion: str, start: int = 0) -> Iterator[float]:
    point = yield from find_button(f"omi.make_body(motion_type='{motion}')", 5 / 6 if motion == 'DYNAMIC' else 1 / 6,
                                   start)
    yield from click(*point)
    obj = bpy.context.active_object
    settings = obj.omi_physics
    if not settings.use_motion or settings.motion.motion_type != motion:
        raise StepError(f"{obj.name} is not a {motion.lower()} body after the click")
    RESULTS[-1]["button_y"] = point[1]
    yield from overlay_on_its_own(f"tag {motion.lower()}", drawn=motion == 'STATIC')  # the cube has no lines yet


def fit_box() -> Iterator[float]:
    start = RESULTS[-2].get("button_y", region_rect(region('UI'))[1]) - region_rect(region('UI'))[1]
    point = yield from find_button("omi.fit_collider(shape_type='BOX')", 1 / 4, start)
    yield from click(*point)
    obj = bpy.context.active_object
    settings = obj.omi_physics
    if not settings.use_collider or settings.collider.shape.shape_type != 'BOX':
        raise StepError(f"{obj.name} has no box collider after the click")
    yield from overlay_on_its_own("fit box")


def panels_in_order() -> Iterator[float]:
    """Properties > Physics (the tab set from Python: a look, not a step of the minute): the first field met
    down the editor is OMI Physics', not Blender's Rigid Body panel's, which the cube has now. Hovering down the
    editor with Ctrl+Shift+C (Copy Data Path) until a field of either answers; the editor saved as a PNG."""
    area = next(a for a in window().screen.areas if a.type == 'PROPERTIES')
    area.spaces.active.context = 'PHYSICS'
    yield 2.0
    main = next(r for r in area.regions if r.type == 'WINDOW')
    x, y, width, height = region_rect(main)
    subprocess.run(["import", "-window", "root", "-crop", f"{width}x{height}+{x}+{y}", "+repage",
                    str(OUT / "properties_physics.png")], check=True, timeout=60)
    manager = bpy.context.window_manager
    for offset in range(6, height - 10, 10):
        manager.clipboard = ""
        xdotool("mousemove", str(x + width * 3 // 4), str(y + offset), "sleep", "0.15", "key", "ctrl+shift+c")
        yield 0.2
        first = manager.clipboard
        if first.startswith(("omi_physics.", "rigid_body.")):
            RESULTS[-1].update({"first_field": first, "at_px": offset})
            if not first.startswith("omi_physics."):
                raise StepError(f"Blender's Rigid Body panel is above OMI Physics (its {first} is {offset} px down)")
            return
    raise StepError("no field of OMI Physics or of Blender's Rigid Body panel in the Properties editor")


def add_plane() -> Iterator[float]:
    before = set(bpy.data.objects)
    yield from keys("shift+a")
    yield 1.0
    xdotool("type", "--delay", "120", "plane")
    yield 1.5
    yield from keys("Return")
    added = [obj for obj in bpy.data.objects if obj not in before]
    if len(added) != 1 or added[0].type != 'MESH' or len(added[0].data.vertices) != 4:
        raise StepError(f"Shift+A, 'plane', Enter added {[o.name for o in added]}, not one plane")
    yield from keys("g", "z", "minus", "3", "Return", "s", "4", "Return")
    plane = added[0]
    if abs(plane.location.z - PLANE_Z) > 1e-4 or abs(plane.scale.x - 4.0) > 1e-4:
        raise StepError(f"G Z -3 and S 4 left the plane at {tuple(plane.location)} scaled {tuple(plane.scale)}")


def play() -> Iterator[float]:
    scene = bpy.context.scene
    RESULTS[-1]["sync_mode"] = scene.sync_mode
    bpy.app.handlers.frame_change_post.append(record_height)
    yield from keys("space")
    started = time.monotonic()
    while scene.frame_current < LAST_FRAME:
        if time.monotonic() - started > PLAY_TIMEOUT:
            raise StepError(f"played only to frame {scene.frame_current} in {PLAY_TIMEOUT:.0f} s")
        if not bpy.context.screen.is_animation_playing:
            raise StepError(f"not playing (frame {scene.frame_current}) after Space over the viewport")
        yield 0.2
    yield from keys("space")  # stops where it is
    RESULTS[-1]["seconds_playing"] = round(time.monotonic() - started, 1)


def landed() -> Iterator[float]:
    """The cube (2 m) rests on the plane: its centre 1 m above it, still over the last frames."""
    yield 0.1
    frames = sorted(HEIGHTS)
    heights = [round(HEIGHTS[frame], 4) for frame in frames]
    RESULTS[-1].update({"frames": len(frames), "first_z": heights[0] if heights else None,
                        "last_z": heights[-1] if heights else None, "lowest_z": min(heights, default=None)})
    if len(frames) < LAST_FRAME // 2:
        raise StepError(f"only {len(frames)} frames were played (frames skipped: the simulation steps one at a time)")
    rest = PLANE_Z + 1.0
    if abs(heights[-1] - rest) > 0.05:
        raise StepError(f"the cube ended at z = {heights[-1]:.3f}, not resting on the plane at {rest:.1f}")
    if max(heights[-10:]) - min(heights[-10:]) > 0.005:
        raise StepError(f"the cube still moves over the last frames: {heights[-10:]}")


def steps() -> Iterator[float]:
    scene = bpy.context.scene
    sequence = (
        ("select the default cube", select_cube),
        ("open the sidebar's Physics tab", open_sidebar),
        ("click Dynamic", lambda: tag('DYNAMIC')),
        ("click Box on the cube", fit_box),
        ("Properties > Physics: OMI Physics above Rigid Body", panels_in_order),
        ("add a plane (Shift+A, G, S)", add_plane),
        ("click Static on the plane", lambda: tag('STATIC')),
        ("click Box on the plane", fit_box),
        ("press Space to play", play),
        ("the cube fell and landed on the plane", landed),
    )
    if "Cube" not in bpy.data.objects:
        raise StepError("no factory cube: start Blender with --factory-startup")
    scene.frame_set(1)
    for name, step in sequence:
        RESULTS.append({"step": name})
        started = time.monotonic()
        try:
            yield from step()
        except StepError as failure:
            RESULTS[-1]["failure"] = str(failure)
            subprocess.run(["import", "-window", "root", str(OUT / "failed.png")], check=False, timeout=60)
            return
        finally:
            RESULTS[-1]["seconds"] = round(time.monotonic() - started, 1)
        print("OMI physics: first minute:", json.dumps(RESULTS[-1]), flush=True)


def report() -> int:
    (OUT / "results.json").write_text(json.dumps({"steps": RESULTS, "heights": HEIGHTS}, indent=1))
    failed = [row for row in RESULTS if "failure" in row]
    for row in failed:
        print(f"OMI physics: first minute: step '{row['step']}' failed: {row['failure']}", flush=True)
    if not failed:
        print(f"OMI physics: first minute passed in {sum(row['seconds'] for row in RESULTS):.0f} s", flush=True)
    return 1 if failed else 0


OUT.mkdir(parents=True, exist_ok=True)
window_session.start(steps(), first_interval=2.0, finish=report, error_code=2, keep_scene=True)
