"""The artist's session of issue 26 in a real window, then undo and redo: the overlay must draw after each step.

    xvfb-run -a -s "-screen 0 1280x960x24" \
        blender --factory-startup --python scripts/screenshots/overlay_undo.py -- OUT_DIR

Builds the session with the sidebar's operators (tests/blender/scenarios/test_artist_session.build_session, one undo
step), switches the overlay off and on, Sync to Blender, plays 60 frames (OMI_FAST_PLAY=1: frame_set
instead of the Play button), selects at frame 60, exports a .glb through File > Export, imports it into a
new scene through File > Import, then presses Ctrl+Z / Ctrl+Shift+Z over the viewport (xdotool) across
all of it, after switching scenes, and before toggling the overlay and moving the view. After each step:
draw calls in the next second, the lines held against a fresh walk of the scene, and the pixels of the
overlay's colours in a screenshot of the viewport (OUT_DIR/NN.png; OUT_DIR/results.json holds every row).
Last, the Overlays popover's legend over an empty scene: each role's square must show the overlay's colour.
Exits 1 naming each step where a scene with physics objects shown and the overlay on showed no overlay,
and each legend colour that differs; 2 when the script itself failed.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import bpy
import numpy as np

SCRIPTS_DIR = Path(__file__).resolve().parent
sys.path.insert(0, str(SCRIPTS_DIR))  # never the repo root: its io/ would shadow Python's io
sys.path.insert(0, str(SCRIPTS_DIR.parents[1] / "tests"))  # addon_loader

import addon_loader  # noqa: E402
import window_session  # noqa: E402

SETTLE = 1.0
MIN_PIXELS = 200  # overlay-coloured pixels a scene of a dozen colliders shows at the very least
OUT = Path(sys.argv[sys.argv.index("--") + 1]) if "--" in sys.argv[:-1] else Path("/tmp/omi_overlay_undo")


def session_module():
    path = SCRIPTS_DIR.parents[1] / "tests" / "blender" / "scenarios" / "test_artist_session.py"
    spec = importlib.util.spec_from_file_location("artist_session", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def overlay():
    return sys.modules[f"{addon_loader.ADDON_MODULE}.viewport.overlay"]


def role_colors() -> np.ndarray:
    geometry = sys.modules[f"{addon_loader.ADDON_MODULE}.viewport.geometry"]
    return np.array([color[:3] for color in geometry.ROLE_COLORS.values()]) * 255.0


def main_window() -> bpy.types.Window:
    return bpy.context.window_manager.windows[0]


def view3d() -> bpy.types.Area:
    return max((a for a in main_window().screen.areas if a.type == 'VIEW_3D'), key=lambda a: a.width * a.height)


def screen_height() -> int:
    return int(subprocess.run(["xdotool", "getdisplaygeometry"], check=True, capture_output=True,
                              text=True).stdout.split()[1])


def area_on_screen(window: bpy.types.Window, area: bpy.types.Area) -> tuple[int, int, int, int]:
    top = screen_height() - window.y - window.height
    return window.x + area.x, top + window.height - area.y - area.height, area.width, area.height


def viewport_pixels(name: str) -> np.ndarray:
    """The viewport's pixels on the screen, (n, 3) RGB 0-255; also saved as OUT/name.png."""
    x, y, width, height = area_on_screen(main_window(), view3d())
    png = OUT / f"{name}.png"
    subprocess.run(["import", "-window", "root", "-crop", f"{width}x{height}+{x}+{y}", "+repage", str(png)],
                   check=True)
    raw = subprocess.run(["convert", str(png), "-depth", "8", "rgb:-"], check=True, capture_output=True).stdout
    return np.frombuffer(raw, np.uint8).reshape(-1, 3).astype(np.float32)


def overlay_pixels(name: str) -> int:
    """Pixels of the viewport within a few levels of one of the overlay's colours (its lines' centres)."""
    pixels = viewport_pixels(name)
    near = np.zeros(len(pixels), bool)
    for color in role_colors():
        near |= np.abs(pixels - color).max(axis=1) < 12
    return int(near.sum())


def legend_colors() -> Iterator[float]:
    """The Overlays popover's legend over an empty scene (nothing else there has the overlay's colours):
    how many pixels show each role's colour as the overlay draws it, and the nearest colour shown."""
    with bpy.context.temp_override(**override()):
        bpy.ops.scene.new(type='EMPTY')
    area = view3d()
    header = next(region for region in area.regions if region.type == 'HEADER')
    x, y, _width, _height = area_on_screen(main_window(), area)
    subprocess.run(["xdotool", "mousemove", str(x + 420), str(y + header.height + 10)], check=True)
    yield from settle(0.5)
    with bpy.context.temp_override(window=main_window(), area=area, region=header):
        bpy.ops.wm.call_panel(name="VIEW3D_PT_omi_overlay", keep_open=True)
    yield from settle(2.0)
    pixels = viewport_pixels("legend")
    geometry = sys.modules[f"{addon_loader.ADDON_MODULE}.viewport.geometry"]
    legend = sys.modules[f"{addon_loader.ADDON_MODULE}.viewport.legend"]
    for role, _label in legend.LEGEND:
        color = np.array(geometry.ROLE_COLORS[role][:3]) * 255.0
        distance = np.abs(pixels - color).max(axis=1)
        nearest = pixels[int(distance.argmin())]
        row = {"role": role, "drawn": [round(c) for c in color], "matching_pixels": int((distance <= 4).sum()),
               "nearest_shown": [int(c) for c in nearest]}
        LEGEND_ROWS.append(row)
        print("OMI physics: legend swatch", json.dumps(row), flush=True)
    subprocess.run(["xdotool", "key", "Escape"], check=True)


def redraw() -> None:
    """The 3D viewports only: the overlay draws there, and redrawing every editor ten times a second in
    software GL under Xvfb made this step take minutes (undo and redo redraw the rest themselves)."""
    for window in bpy.context.window_manager.windows:
        for area in window.screen.areas:
            if area.type == 'VIEW_3D':
                area.tag_redraw()


def settle(seconds: float = SETTLE) -> Iterator[float]:
    for _ in range(int(seconds / 0.1)):
        redraw()
        yield 0.1


def physics_objects_shown() -> int:
    view_layer = bpy.context.view_layer
    return sum(1 for obj in bpy.context.scene.objects if obj.visible_get(view_layer=view_layer)
               and (obj.omi_physics.use_collider or obj.omi_physics.use_trigger or obj.omi_physics.use_joint))


def lines_match_the_scene() -> bool:
    """The lines the overlay holds are the ones a fresh walk of the scene gives (nothing stale kept)."""
    collect = sys.modules[f"{addon_loader.ADDON_MODULE}.viewport.collect"]
    gravity_lines = sys.modules[f"{addon_loader.ADDON_MODULE}.viewport.gravity_lines"]
    view_layer = bpy.context.view_layer
    objects = [obj for obj in bpy.context.scene.objects if obj.visible_get(view_layer=view_layer)]
    fresh = gravity_lines.with_gravity(collect.scene_lines(objects, None, bpy.context.evaluated_depsgraph_get()),
                                       objects)
    held = overlay().STATE.lines
    if held is None:
        return not len(fresh.positions)
    if held.positions.shape != fresh.positions.shape:
        return False
    return bool(np.allclose(np.sort(held.positions, axis=0), np.sort(fresh.positions, axis=0), atol=1e-4))


RESULTS: list[dict] = []
LEGEND_ROWS: list[dict] = []
MIN_SWATCH_PIXELS = 40  # a swatch is about 30 x 18 px at UI scale 1


def measure(step: str) -> Iterator[float]:
    state = overlay().STATE
    started = time.monotonic()
    yield from settle(0.5)
    draws = state.draws
    yield from settle()
    scene = bpy.context.scene
    row = {"step": step, "scene": scene.name, "frame": scene.frame_current,
           "show_overlay": scene.omi_physics.show_overlay, "physics_objects": physics_objects_shown(),
           "draws": state.draws - draws, "lines": 0 if state.lines is None else len(state.lines.positions) // 2,
           "lines_match": lines_match_the_scene(), "rebuilds": state.rebuilds, "failure": state.failure,
           "pixels": overlay_pixels(f"{len(RESULTS):02d}")}
    row["seconds"] = round(time.monotonic() - started, 1)
    RESULTS.append(row)
    print("OMI physics: overlay after", json.dumps(row), flush=True)


def blank(row: dict) -> bool:
    """A scene with physics objects shown and the overlay on, where the overlay did not draw its lines."""
    expected = row["physics_objects"] and row["show_overlay"]
    return bool(expected and (not row["draws"] or row["pixels"] < MIN_PIXELS or not row["lines_match"]))


def press(keys: str) -> Iterator[float]:
    x, y, width, height = area_on_screen(main_window(), view3d())
    # first away from any report popup (a warning opens one that takes the keys), then over the viewport
    subprocess.run(["xdotool", "mousemove", str(x + width - 60), str(y + 120), "sleep", "0.3",
                    "mousemove", str(x + width // 2 + 200), str(y + height - 150), "sleep", "0.3"], check=True)
    # the keyboard focus back on Blender's window (a closed file browser window took it along; no window
    # manager under Xvfb gives it back)
    where = subprocess.run(["xdotool", "getmouselocation", "--shell"], check=True, capture_output=True,
                           text=True).stdout
    window = dict(line.split("=", 1) for line in where.split())["WINDOW"]
    subprocess.run(["xdotool", "windowfocus", "--sync", window, "sleep", "0.2", "key", keys], check=True)
    yield from settle(0.5)


def override() -> dict:
    area = view3d()
    return {"window": main_window(), "area": area, "region": next(r for r in area.regions if r.type == 'WINDOW')}


def file_dialog(operator, path: Path) -> Iterator[float]:
    """File > Export / Import as an artist does it: the browser, a file name, the Export/Import button."""
    with bpy.context.temp_override(**override()):
        operator('INVOKE_DEFAULT')
    yield from settle()
    dialog = bpy.context.window_manager.windows[-1]
    browser = next(area for area in dialog.screen.areas if area.type == 'FILE_BROWSER')
    params = browser.spaces.active.params
    params.directory = str(path.parent).encode()
    params.filename = path.name
    yield from settle(0.5)
    with bpy.context.temp_override(window=dialog, area=browser,
                                   region=next(r for r in browser.regions if r.type == 'WINDOW')):
        bpy.ops.file.execute()
    yield from settle(3.0)
    yield from press("Escape")  # the import's warning opens a report popup, which takes the keys


def play(scene: bpy.types.Scene, last: int) -> Iterator[float]:
    """The Play button until frame `last` (OMI_FAST_PLAY: frame by frame, for iterating on this script)."""
    scene.frame_start, scene.frame_end = 1, last
    if os.environ.get("OMI_FAST_PLAY"):
        for frame in range(1, last + 1):
            scene.frame_set(frame)
        return
    with bpy.context.temp_override(**override()):
        bpy.ops.screen.animation_play()
    while scene.frame_current < last and bpy.context.screen.is_animation_playing:
        yield 0.2
    with bpy.context.temp_override(**override()):
        if bpy.context.screen.is_animation_playing:
            bpy.ops.screen.animation_cancel(restore_frame=False)


def undo_push(message: str) -> None:
    with bpy.context.temp_override(**override()):
        bpy.ops.ed.undo_push(message=message)


def steps() -> Iterator[float]:
    if os.environ.get("OMI_LEGEND_ONLY"):  # only the legend's colours, for iterating on this script
        yield from legend_colors()
        return
    session = session_module()
    with bpy.context.temp_override(**override()):
        session.build_session()
    undo_push("the artist's scene")
    original = bpy.context.scene  # its Python object is stale after an undo: names are kept for later
    original_name = original.name
    yield from measure("built")
    original.omi_physics.show_overlay = False
    undo_push("overlay off")
    original.omi_physics.show_overlay = True
    undo_push("overlay on")
    yield from measure("overlay on")
    with bpy.context.temp_override(**override()):
        bpy.ops.omi.sync_to_rigid_bodies('EXEC_DEFAULT', True)
    yield from measure("synced")
    yield from play(original, 60)
    session.select(bpy.data.objects["Ball"])
    undo_push("select at frame 60")  # an undo step with the timeline at frame 60
    yield from measure("played")
    glb = OUT / "session.glb"
    yield from file_dialog(bpy.ops.export_scene.gltf, glb)
    yield from measure("exported")
    with bpy.context.temp_override(**override()):
        bpy.ops.scene.new('EXEC_DEFAULT', True, type='EMPTY')
    yield from measure("new scene")
    yield from file_dialog(bpy.ops.import_scene.gltf, glb)
    imported_name = bpy.context.scene.name
    yield from measure("imported")
    for number in range(1, 9):  # back across the import, the new scene, frame 60, Sync, the overlay switch
        yield from press("ctrl+z")
        yield from measure(f"undo {number}")
    for number in range(1, 9):
        yield from press("ctrl+shift+z")
        yield from measure(f"redo {number}")
    for name, scene in (("switched to the first scene", original_name),
                        ("switched to the imported scene", imported_name)):
        main_window().scene = bpy.data.scenes[scene]
        yield from measure(name)
        yield from press("ctrl+z")
        yield from measure(f"undo after {name}")
        yield from press("ctrl+shift+z")
        yield from measure(f"redo after {name}")
    # An undo brings the window back to the scene where the undone step happened (above: the emptied
    # imported scene); a step in the first scene to undo there, with its physics in view.
    main_window().scene = bpy.data.scenes[original_name]
    yield from settle(0.5)
    for name in ("Ball", "Crate"):
        with bpy.context.temp_override(**override()):
            session.select(bpy.data.objects[name])
        undo_push(f"select {name}")
    yield from press("ctrl+z")
    yield from measure("undo in the first scene")
    bpy.context.scene.omi_physics.show_overlay = False
    yield from settle(0.5)
    bpy.context.scene.omi_physics.show_overlay = True
    yield from measure("undo, then the overlay off and on")
    view = view3d().spaces.active.region_3d
    view.view_distance *= 1.3
    yield from measure("undo, then the view moved")
    yield from legend_colors()


def report() -> int:
    """The measured rows to OUT/results.json; 1 when the overlay did not show or a swatch is off."""
    (OUT / "results.json").write_text(json.dumps({"steps": RESULTS, "legend": LEGEND_ROWS}, indent=1))
    failed = [row for row in RESULTS if blank(row)]
    for row in failed:
        print("OMI physics: the overlay did not show after", row["step"], flush=True)
    off = [row for row in LEGEND_ROWS if row["matching_pixels"] < MIN_SWATCH_PIXELS]
    for row in off:
        print("OMI physics: the legend's swatch differs from the overlay's colour:", row["role"], flush=True)
    return 1 if failed or off else 0


OUT.mkdir(parents=True, exist_ok=True)
window_session.start(steps(), first_interval=SETTLE, finish=report, error_code=2)
