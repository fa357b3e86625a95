"""A scripted session in a Blender window (under Xvfb): its steps are a generator, each `yield` the seconds
until the next, driven by a persistent timer so Blender draws and handles events between them.

Shared by scripts/screenshots/screenshots.py, overlay_undo.py and joint_gizmo_check.py. Blender does not stop on an
exception raised in a timer, so one ends the process with the traceback and a failing exit code.
"""

from __future__ import annotations

import os
import sys
import traceback
from collections.abc import Callable, Iterator

import addon_loader
import bpy


def start(steps: Iterator[float], *, first_interval: float, finish: Callable[[], int | None] | None = None,
          error_code: int = 1, keep_scene: bool = False) -> None:
    """Enable the add-on in an emptied factory scene (`keep_scene`: with its cube, camera and light) and run
    `steps` from a timer. At their end: exit with `finish()`'s code (None, or no `finish`: quit Blender
    normally); on an exception: exit `error_code`."""

    def tick() -> float | None:
        try:
            return next(steps)
        except StopIteration:
            code = finish() if finish is not None else None
            if code is None:
                bpy.ops.wm.quit_blender()
            else:
                sys.stdout.flush()
                os._exit(code)
        except Exception:
            traceback.print_exc()
            sys.stdout.flush()
            os._exit(error_code)
        return None

    bpy.context.preferences.view.show_splash = False
    addon_loader.enable()
    for factory_object in [] if keep_scene else list(bpy.data.objects):  # the factory cube, camera and light
        bpy.data.objects.remove(factory_object)
    bpy.app.timers.register(tick, first_interval=first_interval, persistent=True)
