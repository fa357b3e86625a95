"""The gravity volumes' screenshots (scripts/screenshots/screenshots.py runs these steps after the demo's): a
planet made a point-gravity volume by Make Gravity Volume, a directional pad and a line volume with one point (which
validation rejects), shown in Properties > Physics, in the sidebar and in the overlay's field arrows."""

from __future__ import annotations

import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import bpy
from mathutils import Vector

PLANET_AT = Vector((14.0, 10.0, 2.0))


def build() -> None:
    """The planet (a static ball with a point gravity child), a pad and a broken line volume beside it."""
    bpy.ops.object.select_all(action='DESELECT')
    bpy.ops.mesh.primitive_uv_sphere_add(radius=1.5, location=PLANET_AT)
    planet = bpy.context.active_object
    planet.name = "Planet"
    settings = planet.omi_physics
    settings.use_motion = settings.use_collider = True
    settings.motion.motion_type = 'STATIC'
    settings.collider.shape.shape_type = 'SPHERE'
    settings.collider.shape.radius = 1.5
    bpy.ops.omi.gravity_volume_from_selection(gravity_type='POINT', reach=2.5)
    bpy.ops.object.empty_add(location=PLANET_AT + Vector((-7.0, -1.0, -1.5)))
    pad = bpy.context.active_object
    pad.name = "Launch Pad"
    pad.omi_physics.use_trigger = pad.omi_physics.use_gravity = True
    pad.omi_physics.trigger.shape.size = (2.0, 2.0, 1.0)
    pad.omi_physics.gravity.direction = (0.6, 0.0, 0.8)
    pad.omi_physics.gravity.strength = 15.0
    pad.omi_physics.gravity.priority = 1000
    pad.omi_physics.gravity.stop = True
    bpy.ops.object.empty_add(location=PLANET_AT + Vector((-3.5, -4.0, -1.5)))
    line = bpy.context.active_object
    line.name = "Broken Line"
    line.omi_physics.use_trigger = line.omi_physics.use_gravity = True
    line.omi_physics.gravity.gravity_type = 'LINE'
    line.omi_physics.gravity.points.add()


def steps(out: Path, window: Any, view3d: Any, properties: Any, sidebar: Any, *, settle: Callable[[], Iterator[float]],
          capture: Callable[..., None], make_active: Callable[[str], None],
          area_rect: Callable[..., Any], region_rect: Callable[..., Any]) -> Iterator[float]:
    """Build the gravity scene and capture its three pictures (the caller's helpers passed in)."""
    with bpy.context.temp_override(window=window, area=view3d,
                                   region=next(r for r in view3d.regions if r.type == 'WINDOW')):
        build()
    space = view3d.spaces.active
    view = space.region_3d
    view.view_location = PLANET_AT + Vector((-3.0, -1.0, -1.0))
    view.view_distance = 16.0
    make_active("Planet Gravity")
    yield from settle()
    capture(out / "properties_gravity.png", area_rect(window, properties), max_height=760)
    space.show_region_ui = True
    make_active("Broken Line")
    yield from settle()
    x, y, width, tall = region_rect(window, sidebar)  # the gravity panel is the last: wheel down to it
    subprocess.run(["xdotool", "mousemove", str(x + width // 2), str(y + tall // 2), "sleep", "0.2",
                    "click", "--repeat", "30", "--delay", "30", "5",
                    "mousemove", str(x - 200), str(y + tall // 2)], check=True)  # away: no tooltip in the shot
    yield from settle()
    capture(out / "sidebar_gravity.png", region_rect(window, sidebar))
    space.show_region_ui = False
    bpy.ops.object.select_all(action='DESELECT')
    yield from settle()
    capture(out / "overlay_gravity.png", area_rect(window, view3d), scale=60)
