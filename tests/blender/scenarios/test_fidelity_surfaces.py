"""What Blender does with restitution, combine modes and gravityFactor, measured after the real importer:
the numbers docs/guide.md's "What Blender cannot express" quotes.

- Restitution: Bullet multiplies the two bodies' restitution. A ball dropped 1 m with combine 'multiply'
  (0.4 on a floor of 1) comes back up e^2 = 0.16 m, as the file says (measured 0.18 m).
- Restitution does not keep the energy the product gives: from 2 m, 1 on 1 rebounds to 2.20 m (energy added),
  0.5 on 0.5 (e = 0.25) to 0.18 m where e^2 h says 0.125 m; the import names it.
- Combine modes: 'average' of 0.8 and 0 means e = 0.4 (0.16 m back up); Bullet's product is 0, so the
  Blender ball stays down. The import names it.
- gravityFactor: Blender has one gravity for the world; a body whose file says 0 falls as any other
  (0.31 m in its first 0.25 s).
Tolerance: 3 cm on heights: measured 0.18 m for the 0.16 m rebound (Bullet's contact margin lets the ball
leave the floor a little higher), and the fall is 0.5 cm ahead after 0.25 s at 240 Hz substeps.
"""

from __future__ import annotations

import import_support as support
import pytest

pytestmark = pytest.mark.usefixtures("omi_addon")


def drop_scene(tmp_path, combine: str, ball: float, floor: float, gravity_factor: float = 1.0, *,
               height: float = 1.0):
    materials = [{"restitution": ball, "restitutionCombine": combine},
                 {"restitution": floor, "restitutionCombine": combine}]
    nodes = [{"name": "Floor", "translation": [0.0, -0.5, 0.0], "extensions": {support.BODY: {
                 "collider": {"shape": 0, "physicsMaterial": 1}}}},
             {"name": "Ball", "translation": [0.0, height + 0.25, 0.0], "extensions": {support.BODY: {
                 "motion": {"type": "dynamic", "gravityFactor": gravity_factor},
                 "collider": {"shape": 1, "physicsMaterial": 0}}}}]
    shapes = [{"type": "box", "box": {"size": [10.0, 1.0, 10.0]}}, {"type": "sphere", "sphere": {"radius": 0.25}}]
    doc = support.document(nodes, shapes, materials=materials)
    return support.import_gltf(support.write_gltf(tmp_path, f"drop_{combine}_{ball}_{floor}", doc))


def rebound(imported, frames: int = 48) -> float:
    """How high the ball's bottom comes back up after its first landing (m above the floor)."""
    ball = imported.obj("Ball")
    scene = support.bpy.context.scene
    scene.frame_end = max(scene.frame_end, frames)
    scene.rigidbody_world.point_cache.frame_end = max(scene.rigidbody_world.point_cache.frame_end, frames)
    heights = []
    support.step(1)
    for frame in range(1, frames + 1):
        scene.frame_set(frame)
        heights.append(ball.matrix_world.translation.z - 0.25)
    landed = next(i for i in range(1, len(heights)) if heights[i] > heights[i - 1] and heights[i - 1] < 0.1)
    return max(heights[landed:])


def test_restitution_multiplies_in_blender_as_the_file_says(tmp_path):
    assert rebound(drop_scene(tmp_path, "multiply", 0.4, 1.0)) == pytest.approx(0.16, abs=0.03)


def test_restitution_that_gains_energy_is_named(tmp_path):
    """The analytic rebound is e^2 h; Bullet's is higher than the drop itself at e = 1, and 40 % above e^2 h at
    0.5 on 0.5: the import says Blender approximates restitution, once, naming the bodies."""
    imported = drop_scene(tmp_path, "multiply", 1.0, 1.0, height=2.0)
    assert rebound(imported, 72) > 2.0 + 0.1  # energy added (measured 2.20 m)
    named = [note for note in imported.notes if "approximate restitution (" in note]
    assert len(named) == 1 and "('Floor', 'Ball')" in named[0] and "2.20 m" in named[0], imported.notes
    half = drop_scene(tmp_path, "multiply", 0.5, 0.5, height=2.0)
    assert rebound(half, 72) > 0.25 * 0.25 * 2.0 + 0.03  # measured 0.176 m against 0.125 m


def test_no_bounce_no_restitution_note(tmp_path):
    assert not any("restitution (" in note for note in drop_scene(tmp_path, "multiply", 0.0, 0.0).notes)


def test_average_restitution_becomes_bullets_product(tmp_path):
    imported = drop_scene(tmp_path, "average", 0.8, 0.0)
    assert rebound(imported) < 0.02  # the file means e = 0.4: 0.16 m back up
    assert any("restitution combine modes other than 'multiply'" in note for note in imported.notes)


def test_gravity_factor_is_not_simulated(tmp_path):
    imported = drop_scene(tmp_path, "multiply", 0.0, 0.0, gravity_factor=0.0)
    ball = imported.obj("Ball")
    support.step(7)  # 0.25 s
    assert ball.matrix_world.translation.z == pytest.approx(1.25 - 0.5 * 9.81 * 0.25 ** 2, abs=0.03)
    assert any("gravity factor ('Ball')" in note for note in imported.notes)
