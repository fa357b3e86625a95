"""Godot's physics against Blender's on the same exported scenes: every scene of test_godot_builds, simulated
for 3 s by Godot 4 (the `godot` target's file, its own importer and physics, GodotPhysics3D at 60 Hz) and by
Blender (Bullet, 24 fps x 10 substeps, after importing the `omi` export of the same scene); where each
dynamic body ends must agree. Bodies whose outcome depends on what Godot ignores (joints, gravity factors:
the export names them) are left out, each kind with its reason.

The throwaway Godot project pulls at 9.81 m/s^2 and does not damp (tests/godot/godot_runner.PROJECT), as
Blender's import of an OMI file does; Godot's own defaults (9.8, damping 0.1) are the artist's to set.
"""

from __future__ import annotations

import bpy
import import_support
import omi_core.read.reader
import pytest
from godot_runner import GodotScene
from mathutils import Vector
from test_godot_builds import SCENES, export

pytestmark = pytest.mark.usefixtures("omi_addon")

SECONDS = 3.0
GODOT_RATE = 60  # Godot's physics ticks per second (its default)
BLENDER_FPS = 24  # the imported scene's frame rate; Bullet steps 10 substeps a frame (240 Hz)
G = 9.81
# Tolerances (vertical, sideways) in metres, from measurements in Godot 4.6.3 and Blender that this test
# prints (-s):
# - a body at rest sits ~1 cm lower in Godot than in Blender (its contacts sink in by about that much,
#   Bullet's stay on the surface; 16 mm at the top of the demo's stack of four): REST = 0.02 vertically;
# - a body that lands on a rounded or faceted bottom slides a few cm in Bullet (the cylinder 9 cm, the
#   icosphere hull 8 cm) and none in Godot: SLIDE = 0.1 sideways;
# - a body that falls freely for 3 s: both integrators step semi-implicitly, each a little ahead of the
#   exact fall by g*t*dt/2, so they part by g*t*(1/60 - 1/240)/2 = 0.18 m (measured 0.18): FALL;
# - the rotated, unevenly scaled box tumbles on landing and ends ~0.2 m apart: TUMBLE = 0.35 sideways;
# - a shape Godot cannot hold (a cone or tapered capsule gets one radius; the export says so) rests up to
#   6 cm apart: SHAPE = 0.07 vertically;
# - the top boxes of the demo's stack sit on three and four contacts, each sinking in Godot: the top one 16 mm
#   lower on the 5.0 wheel, 26 mm in Debian's Blender 5.2.2 (whose Bullet settles the stack a little higher):
#   STACK = 0.035 vertically;
# - the scaled icosphere hull, written with its 12 welded points (not the render mesh's 60 split ones), rests
#   3 cm higher in Godot than in Blender (it rested within 1 cm with the split points; a hull Godot did not
#   scale would be 0.4 m smaller): HULL = 0.045 vertically.
REST, SLIDE, TUMBLE, SHAPE, STACK, HULL = 0.02, 0.1, 0.35, 0.07, 0.035, 0.045
FALL = G * SECONDS * (1 / GODOT_RATE - 1 / (BLENDER_FPS * 10)) / 2 + REST
SPECIAL = {("transformed", "ScaledBox"): (REST, TUMBLE), ("transformed", "ScaledHull"): (HULL, SLIDE),
           ("shapes_and_bodies", "Cone"): (SHAPE, SLIDE),
           ("settings", "Pill"): (SHAPE, SLIDE), ("demo", "Box3"): (STACK, SLIDE), ("demo", "Box4"): (STACK, SLIDE)}
# Bodies left out, and why (measured apart after 3 s in brackets).
LEFT_OUT = {
    ("demo", "Ball"): "rolls into the door, which Godot does not hinge (0.13 m)",
    # Both land on the scene's triangle-mesh ground, where Bullet pushes box corners and hull vertices
    # sideways off the triangles' inner edges: Blender's Cart slides 0.38 m while Godot's stays put (the
    # compound Cart of `transformed`, on a box floor, agrees to 1 cm), and the Rock tips over differently.
    ("settings", "Rock"): "an 8-point convex hull on the triangle-mesh ground (1.06 m)",
    ("settings", "Cart"): "a compound of two boxes on the triangle-mesh ground (0.38 m, Blender's slides)",
}


def jointed_or_scaled_gravity(gltf: dict, doc) -> set[str]:
    """Names of the bodies a joint holds (either side) or whose gravity factor is not 1: Godot ignores both."""
    nodes = gltf.get("nodes", [])
    parent = {child: index for index, node in enumerate(nodes) for child in node.get("children", [])}

    def owner(index: int | None) -> int | None:
        while index is not None and (index not in doc.nodes or doc.nodes[index].motion is None):
            index = parent.get(index)
        return index

    found = set()
    for index, physics in doc.nodes.items():
        if physics.motion is not None and physics.motion.gravity_factor != 1.0:
            found.add(nodes[index]["name"])
        if physics.joint is not None:
            for end in (owner(index), owner(physics.joint.connected_node)):
                if end is not None:
                    found.add(nodes[end]["name"])
    return found


def blender_positions(path, names: list[str], seconds: float = SECONDS) -> dict[str, Vector]:
    """Bullet's positions (glTF axes) after `seconds`, on an import of `path`."""
    imported = import_support.import_gltf(path)
    scene = bpy.context.scene
    last = 1 + round(seconds * BLENDER_FPS)
    scene.frame_start, scene.frame_end = 1, last
    scene.rigidbody_world.point_cache.frame_end = last
    for frame in range(1, last + 1):
        scene.frame_set(frame)
    found = {}
    for name in names:
        x, y, z = imported.obj(name).matrix_world.translation
        found[name] = Vector((x, z, -y))
    return found


@pytest.mark.parametrize("name", sorted(SCENES))
def test_bodies_end_where_blender_puts_them(godot, omi, tmp_path, name):
    reader = omi_core.read.reader
    SCENES[name]()
    omi_file = export(tmp_path, name, 'OMI')
    godot_file = export(tmp_path, name, 'GODOT')
    doc = reader.read_document(omi_file.gltf)
    ignored = jointed_or_scaled_gravity(omi_file.gltf, doc)
    bodies = {omi_file.gltf["nodes"][index]["name"]: index for index, physics in doc.nodes.items()
              if physics.motion is not None and physics.motion.type == "dynamic"}
    compared = sorted(body for body in bodies if body not in ignored and (name, body) not in LEFT_OUT)
    if not compared:
        pytest.skip(f"no dynamic body free of what Godot ignores ({sorted(bodies)} are held by joints or "
                    "have a gravity factor)" if bodies else "no dynamic body")
    dump = godot.run(godot_file.path, physics_frames=round(SECONDS * GODOT_RATE))
    assert dump["physics_frames"] == round(SECONDS * GODOT_RATE) and dump["physics_ticks_per_second"] == GODOT_RATE
    start, end = GodotScene(dump), GodotScene(dump, "stepped")
    bullet = blender_positions(omi_file.path, compared)
    report, failures = [], []
    for body in compared:
        before, after = Vector(start.of(bodies[body]).origin), Vector(end.of(bodies[body]).origin)
        apart = after - bullet[body]
        falling = bullet[body].y < before.y - 5.0  # nothing below it: a free fall
        vertical, sideways = SPECIAL.get((name, body), (FALL if falling else REST, SLIDE))
        report.append(f"{body}: apart {apart.length:.3f} m (vertical {apart.y:+.3f}, sideways "
                      f"{apart.xz.length:.3f}), fell {before.y - after.y:.2f} m in Godot")
        if abs(apart.y) > vertical or apart.xz.length > sideways:
            failures.append(report[-1])
    print(f"{name} ({dump['physics_engine']}):", *report, sep="\n  ")
    moved = [b for b in bodies if (Vector(start.of(bodies[b]).origin) - Vector(end.of(bodies[b]).origin)).length > 0.2]
    assert moved, ("no body moved: Godot's physics did not run", report)
    assert not failures, failures
