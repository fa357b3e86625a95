"""Render a few frames of the simulated scene with Cycles on the CPU and lay them out on one PNG.

Small on purpose (640 x 360 a frame, few samples, no denoiser) so the demo stays fast on two cores. Each
frame carries its frame number and a caption (what happens in it), burnt in by Blender's render stamp. The
frames are read back and composed with numpy, then written through Blender's own image API: no imaging
library needed.
"""

from __future__ import annotations

import math
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

import bpy
import numpy as np
from mathutils import Vector

FRAME_SIZE = (640, 360)
SAMPLES = 16
COLUMNS = 2
GAP = 4  # pixels of background between frames
GAP_COLOUR = (1.0, 1.0, 1.0, 1.0)


def stage(scene: bpy.types.Scene, target: Vector, eye: Vector, lens: float = 30.0) -> None:
    """Camera, sun, sky and render settings: Cycles on the CPU, small, few samples, no denoiser."""
    camera = bpy.data.objects.new("DemoCamera", bpy.data.cameras.new("DemoCamera"))
    camera.data.lens = lens
    scene.collection.objects.link(camera)
    camera.location = eye
    camera.rotation_euler = (target - eye).to_track_quat('-Z', 'Y').to_euler()
    scene.camera = camera

    sun = bpy.data.objects.new("DemoSun", bpy.data.lights.new("DemoSun", 'SUN'))
    sun.data.energy = 3.0
    sun.data.angle = math.radians(10.0)
    sun.rotation_euler = (math.radians(40.0), math.radians(10.0), math.radians(30.0))
    scene.collection.objects.link(sun)

    world = bpy.data.worlds.new("DemoSky")
    world.use_nodes = True
    background = world.node_tree.nodes.get("Background")
    background.inputs["Color"].default_value = (0.55, 0.65, 0.8, 1.0)
    background.inputs["Strength"].default_value = 0.6
    scene.world = world

    render = scene.render
    render.engine = 'CYCLES'
    scene.cycles.device = 'CPU'
    scene.cycles.samples = SAMPLES
    scene.cycles.use_denoising = False
    scene.cycles.use_adaptive_sampling = False
    render.resolution_x, render.resolution_y = FRAME_SIZE
    render.resolution_percentage = 100
    render.image_settings.file_format = 'PNG'
    render.image_settings.color_mode = 'RGBA'
    render.film_transparent = False
    _stamp(render)


def _stamp(render: bpy.types.RenderSettings) -> None:
    """Burn the frame number and the caption (the stamp's note) into each frame, nothing else."""
    render.use_stamp = True
    for name in dir(render):
        if name.startswith("use_stamp_") and name not in ("use_stamp_labels",):
            setattr(render, name, name in ("use_stamp_frame", "use_stamp_note"))
    render.use_stamp_labels = False
    render.stamp_font_size = 16
    render.stamp_background = (0.0, 0.0, 0.0, 0.6)


def render_frames(scene: bpy.types.Scene, frames: Sequence[int], directory: Path,
                  before_render: Callable[[int], None] | None = None,
                  captions: Sequence[str] | None = None) -> list[Path]:
    """Render each frame (the rigid body cache must already hold it) to a PNG in `directory`, with its
    caption.

    `before_render(frame)` may change what is shown (material values, not objects: adding or removing
    objects would reset the rigid body cache).
    """
    paths = []
    for position, frame in enumerate(frames):
        scene.frame_set(frame)
        scene.render.stamp_note_text = captions[position] if captions is not None else ""
        if before_render is not None:
            before_render(frame)
        path = Path(directory) / f"frame_{frame:04d}.png"
        scene.render.filepath = str(path)
        bpy.ops.render.render(write_still=True)
        paths.append(path)
    return paths


def _pixels(path: Path) -> np.ndarray:
    """An image file's pixels, rows bottom to top (Blender's order), RGBA floats in 0..1."""
    image = bpy.data.images.load(str(path), check_existing=False)
    try:
        width, height = image.size
        pixels = np.empty(width * height * 4, dtype=np.float32)
        image.pixels.foreach_get(pixels)
        return pixels.reshape(height, width, 4)
    finally:
        bpy.data.images.remove(image)


def compose(tiles: Sequence[np.ndarray], columns: int = COLUMNS, gap: int = GAP) -> np.ndarray:
    """Tiles of one size in reading order (left to right, top to bottom), `gap` pixels apart.

    Arrays are bottom-to-top like Blender's pixels, so the first row of tiles goes at the top.
    """
    height, width = tiles[0].shape[:2]
    rows = math.ceil(len(tiles) / columns)
    sheet = np.empty((rows * height + (rows + 1) * gap, columns * width + (columns + 1) * gap, 4), np.float32)
    sheet[:] = GAP_COLOUR
    for index, tile in enumerate(tiles):
        row, column = divmod(index, columns)
        top = sheet.shape[0] - gap - row * (height + gap)  # counted from the bottom
        left = gap + column * (width + gap)
        sheet[top - height:top, left:left + width] = tile
    return sheet


def save_png(pixels: np.ndarray, path: Path) -> None:
    """Write RGBA float pixels (bottom-to-top rows) as an 8-bit PNG through Blender's image API."""
    height, width = pixels.shape[:2]
    image = bpy.data.images.new(path.stem, width=width, height=height, alpha=True)
    try:
        image.pixels.foreach_set(np.ascontiguousarray(pixels, dtype=np.float32).ravel())
        image.filepath_raw = str(path)
        image.file_format = 'PNG'
        image.save()
    finally:
        bpy.data.images.remove(image)


def contact_sheet(scene: bpy.types.Scene, frames: Sequence[int], path: Path, *,
                  captions: Sequence[str] | None = None,
                  before_render: Callable[[int], None] | None = None) -> Path:
    """Render `frames` (each with its caption) and save them as one contact sheet at `path`."""
    with tempfile.TemporaryDirectory(prefix="omi_demo_frames_") as directory:
        rendered = render_frames(scene, frames, Path(directory), before_render, captions)
        tiles = [_pixels(frame_path) for frame_path in rendered]
    save_png(compose(tiles), path)
    return path
