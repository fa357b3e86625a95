"""The viewport overlay: one GPU batch of every collider and joint line, rebuilt only when the scene changes.

A depsgraph handler marks the lines dirty (and drops cached mesh edges of objects whose geometry
changed); the draw callback rebuilds lines and batch on the next redraw only. Nothing here touches the
GPU in background mode, where Blender has none: the lines are still built, the batch is skipped.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, cast

import bpy
from bpy.app.handlers import persistent
from mathutils import Matrix

from ..properties import scene_physics
from . import gravity_lines, unit_lines
from .collect import MeshEdgeCache, OverlayLines, scene_lines

LINE_WIDTH = 1.5
# How much nearer the lines are drawn than the surfaces they lie on: 0.2% of their distance (perspective,
# where the depth buffer's steps grow with the distance too), 0.002% of the clip range (orthographic).
PERSPECTIVE_PULL = 0.002
ORTHOGRAPHIC_PULL = 2e-5
_LOG = logging.getLogger(__name__)


@dataclass
class OverlayState:
    """Session state of the overlay; holds arrays and a GPU batch, never Blender objects."""

    dirty: bool = True
    scene_key: int | None = None
    lines: OverlayLines | None = None
    batch: Any = None  # a gpu.types.GPUBatch (gpu exists only with a GPU)
    shader: Any = None  # a gpu.types.GPUShader
    mesh_cache: MeshEdgeCache = field(default_factory=MeshEdgeCache)
    rebuilds: int = 0
    draws: int = 0  # batches drawn: a draw-handler check counts them (tests, the screenshot script)
    failure: str = ""  # the last rebuild's error, said once on the console and in the sidebar

    def invalidate(self) -> None:
        self.dirty = True

    def reset(self) -> None:
        """Forget everything built from the data: after an undo, a redo or a file load every object may be
        new memory, so no line, batch or cached mesh edge of the old one is drawn or reused."""
        self.dirty = True
        self.scene_key = None
        self.lines = None
        self.batch = None
        self.mesh_cache.clear()


STATE = OverlayState()
_draw_handle = None


def gpu_available() -> bool:
    """False in background mode, where the gpu module refuses to draw."""
    return not bpy.app.background


def rebuild(scene: bpy.types.Scene, depsgraph: bpy.types.Depsgraph | None = None,
            objects: Iterable[bpy.types.Object] | None = None) -> OverlayLines:
    """Build the lines (and, with a GPU, the batch) for `objects` (default: all of `scene`'s) now."""
    objects = scene.objects if objects is None else objects
    lines = gravity_lines.with_gravity(scene_lines(objects, STATE.mesh_cache, depsgraph), objects)
    lines = unit_lines.with_units(lines, objects)
    STATE.lines = lines
    STATE.batch = _make_batch(lines) if gpu_available() else None
    STATE.dirty = False
    STATE.scene_key = scene.session_uid
    STATE.rebuilds += 1
    return lines


def _make_batch(lines: OverlayLines) -> Any:  # a gpu.types.GPUBatch or None (gpu exists only with a GPU)
    import gpu  # noqa: PLC0415 - only with a GPU
    from gpu_extras.batch import batch_for_shader  # noqa: PLC0415

    if STATE.shader is None:
        STATE.shader = gpu.shader.from_builtin('POLYLINE_FLAT_COLOR')
    if not len(lines.positions):
        return None
    return batch_for_shader(STATE.shader, 'LINES', {"pos": lines.positions, "color": lines.colors})


def pulled_nearer(projection: Matrix) -> Matrix:
    """The view's projection with every depth moved a little toward the eye: a fitted box lies on its
    mesh's own edges and faces, and drawn at their depth it z-fights them (the lines show in fragments)."""
    pulled = projection.copy()
    if pulled[3][3] == 0.0:  # perspective: depth is -m22 + m23 / distance; a larger |m23| is nearer
        pulled[2][3] *= 1.0 + PERSPECTIVE_PULL
    else:
        pulled[2][3] -= ORTHOGRAPHIC_PULL
    return pulled


def draw() -> None:
    """SpaceView3D POST_VIEW callback: rebuild when dirty, then draw the one batch."""
    context = bpy.context
    scene = context.scene
    if scene is None or not scene_physics(scene).show_overlay:
        return
    if STATE.dirty or STATE.scene_key != scene.session_uid:
        try:
            rebuild(scene, context.evaluated_depsgraph_get(), context.visible_objects)
        except Exception as error:  # a draw callback must not fail every redraw in silence
            STATE.reset()
            STATE.dirty = False  # tried for this state: the next change tries again
            STATE.scene_key = scene.session_uid
            if STATE.failure != str(error):
                _LOG.error("OMI physics: the overlay could not be drawn: %s: %s", type(error).__name__, error)
            STATE.failure = str(error)
            return
        STATE.failure = ""
    if STATE.batch is None:
        return
    import gpu  # noqa: PLC0415 - only with a GPU

    gpu.state.blend_set('ALPHA')
    gpu.state.depth_test_set('ALWAYS' if scene_physics(scene).overlay_in_front else 'LESS_EQUAL')
    # 4.2's stubs type viewport_get as returning None; it returns (x, y, width, height).
    _x, _y, width, height = cast(tuple[int, int, int, int], gpu.state.viewport_get())
    STATE.shader.bind()
    STATE.shader.uniform_float("viewportSize", (width, height))
    STATE.shader.uniform_float("lineWidth", LINE_WIDTH)
    gpu.matrix.push_projection()
    try:
        gpu.matrix.load_projection_matrix(pulled_nearer(gpu.matrix.get_projection_matrix()))
        STATE.batch.draw(STATE.shader)
    finally:
        gpu.matrix.pop_projection()
    STATE.draws += 1
    gpu.state.depth_test_set('NONE')
    gpu.state.blend_set('NONE')


@persistent
def on_depsgraph_update(_scene: bpy.types.Scene, depsgraph: bpy.types.Depsgraph) -> None:
    """Any change may move, add or retag a collider: mark dirty, and redraw the 3D viewports now (a click on a
    sidebar button redraws only the sidebar); drop mesh edges whose geometry changed."""
    STATE.invalidate()
    _redraw_viewports()
    if not STATE.mesh_cache.entries:  # nothing to forget (always so in background mode): skip the updates,
        return                        # which an import of thousands of objects makes long
    changed = {update.id.original.session_uid for update in depsgraph.updates
               if update.is_updated_geometry and isinstance(update.id, bpy.types.Object)
               and update.id.original is not None}
    if changed:
        STATE.mesh_cache.forget(changed)


def _redraw_viewports() -> None:
    window_manager = bpy.context.window_manager
    for window in window_manager.windows if window_manager is not None else ():
        screen = window.screen
        for area in screen.areas if screen is not None else ():
            if area.type == 'VIEW_3D':
                area.tag_redraw()


@persistent
def on_load(_filepath: str) -> None:
    STATE.reset()


@persistent
def on_undo(_scene: bpy.types.Scene, _depsgraph: bpy.types.Depsgraph | None = None) -> None:
    """Undo and redo replace the data the lines were built from (memfile undo re-reads changed IDs)."""
    STATE.reset()


@persistent
def on_frame_change(_scene: bpy.types.Scene, _depsgraph: bpy.types.Depsgraph | None = None) -> None:
    STATE.invalidate()


_HANDLERS = (
    (bpy.app.handlers.depsgraph_update_post, on_depsgraph_update),
    (bpy.app.handlers.load_post, on_load),
    (bpy.app.handlers.undo_post, on_undo),
    (bpy.app.handlers.redo_post, on_undo),
    (bpy.app.handlers.frame_change_post, on_frame_change),
)


def register() -> None:
    global _draw_handle  # noqa: PLW0603 - the one draw handle of this add-on
    for handlers, function in _HANDLERS:
        if function not in handlers:
            handlers.append(function)
    if _draw_handle is None:
        _draw_handle = bpy.types.SpaceView3D.draw_handler_add(draw, (), 'WINDOW', 'POST_VIEW')
    STATE.reset()


def unregister() -> None:
    global _draw_handle  # noqa: PLW0603
    if _draw_handle is not None:
        bpy.types.SpaceView3D.draw_handler_remove(_draw_handle, 'WINDOW')
        _draw_handle = None
    for handlers, function in _HANDLERS:
        if function in handlers:
            handlers.remove(function)
    STATE.reset()
    STATE.shader = None


def is_registered() -> bool:
    return _draw_handle is not None
