"""A compound body whose colliders have different collision filters: a Blender rigid body has one set of
collision collections, so the build can only pick one filter for the whole body; the import must say so
without -v (a warning), since it changes what collides.

Scene: a body of two boxes side by side falls onto the ground. 'Feet' (filter Solid) collides with the
ground's system, 'Ghost' (filter Ghostly) with nothing. The file means: the body lands on its feet. Blender
takes the first filter by name (Ghostly) for the whole body: it falls through, 1 m below the ground after
1 s. The warning names the body and both filters.
"""

from __future__ import annotations

import import_support as support
import pytest

pytestmark = pytest.mark.usefixtures("omi_addon")


def test_differing_filters_in_one_body_are_warned(tmp_path):
    filters = [{"name": "Solid", "collisionSystems": ["Bodies"], "collideWithSystems": ["Ground"]},
               {"name": "Ghostly", "collisionSystems": ["Ghosts"], "collideWithSystems": []},
               {"name": "GroundFilter", "collisionSystems": ["Ground"], "collideWithSystems": ["Bodies"]}]
    nodes = [{"name": "Ground", "translation": [0.0, -0.5, 0.0], "extensions": {support.BODY: {
                 "collider": {"shape": 0, "collisionFilter": 2}}}},
             {"name": "Body", "translation": [0.0, 2.0, 0.0], "children": [2, 3], "extensions": {support.BODY: {
                 "motion": {"type": "dynamic"}}}},
             {"name": "Feet", "translation": [-0.6, 0.0, 0.0], "extensions": {support.BODY: {
                 "collider": {"shape": 1, "collisionFilter": 0}}}},
             {"name": "Ghost", "translation": [0.6, 0.0, 0.0], "extensions": {support.BODY: {
                 "collider": {"shape": 1, "collisionFilter": 1}}}}]
    shapes = [{"type": "box", "box": {"size": [10.0, 1.0, 10.0]}}, {"type": "box", "box": {"size": [1.0, 1.0, 1.0]}}]
    doc = support.document(nodes, shapes, filters=filters, roots=[0, 1])
    imported = support.import_gltf(support.write_gltf(tmp_path, "filters", doc))
    warned = [text for text in imported.warnings if "different collision filters" in text]
    assert len(warned) == 1 and "'Body'" in warned[0] and "Ghostly" in warned[0] and "Solid" in warned[0], \
        imported.warnings
    body = imported.obj("Body")
    support.step(25)
    assert body.matrix_world.translation.z < -1.0  # measured: through the ground, as the warning says
