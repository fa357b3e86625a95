"""Blender -> Godot -> Blender: a scene exported with the `godot` target, loaded by Godot 4 and written
again by Godot's own exporter, imports into Blender with the same bodies (type, mass) and the same shapes
at the same places (1e-4 m), except what Godot 4.6's exporter loses: an Area3D's shape (it writes
`"trigger": null`), said by the import. Also: the files in tests/data/godot are what Godot writes."""

from __future__ import annotations

import json
from pathlib import Path

import bpy
import godot_checks
import godot_scenes
import import_support
import pytest
from test_godot_builds import export

pytestmark = pytest.mark.usefixtures("omi_addon")

HERE = Path(__file__).resolve().parent
DATA = HERE.parent / "data" / "godot"


def bodies(gltf: dict, doc, default_height) -> dict[str, tuple]:
    """Body name -> (motion type, mass, its shapes in world terms, sorted): each shape belongs to the
    nearest body at or above its node."""
    nodes = gltf.get("nodes", [])
    parent = {child: index for index, node in enumerate(nodes) for child in node.get("children", [])}
    world = godot_checks.world_matrices(gltf)
    found: dict[str, list] = {}
    for index, physics in doc.nodes.items():
        if physics.motion is not None:
            found.setdefault(nodes[index]["name"], [])
    for index, physics in doc.nodes.items():
        owner = index
        while owner is not None and (owner not in doc.nodes or doc.nodes[owner].motion is None):
            owner = parent.get(owner)
        if owner is None or physics.collider is None or physics.collider.shape is None:
            continue
        shape, place = godot_checks.in_world(godot_checks.expected_shape(physics.collider.shape, default_height),
                                             world[index])
        found[nodes[owner]["name"]].append((shape, place))
    result = {}
    for index, physics in doc.nodes.items():
        if physics.motion is not None:
            name = nodes[index]["name"]
            mass = physics.motion.mass if physics.motion.type == "dynamic" else None
            result[name] = (physics.motion.type, mass, found[name])
    return result


def same_shapes(a: list, b: list) -> bool:
    return len(a) == len(b) and all(any(godot_checks.same_shape(sa, sb) and godot_checks.close(pa, pb)
                                        for sb, pb in b) for sa, pa in a)


@pytest.mark.parametrize("name", ["shapes_and_bodies", "transformed"])
def test_blender_godot_blender_keeps_the_physics(godot, omi, tmp_path, name):
    reader, model = omi("io.omi.read.reader"), omi("io.omi.model")
    getattr(godot_scenes, f"build_{name}")()
    omi_file = export(tmp_path, name, 'OMI')
    godot_file = export(tmp_path, name, 'GODOT')
    log = godot.godot_script(HERE / "reexport.gd", [godot_file.path], [godot_file.path.name, "OUT/back.gltf"],
                             tmp_path / "godot")
    back_path = tmp_path / "godot" / "back.gltf"
    assert back_path.exists(), log
    back = json.loads(back_path.read_text())
    before = bodies(omi_file.gltf, reader.read_document(omi_file.gltf), model.default_height)
    after = bodies(back, reader.read_document(back), model.default_height)
    assert sorted(after) == sorted(before)
    for body, (motion, mass, shapes) in before.items():
        got = after[body]
        assert got[0] == motion and (mass is None or got[1] == pytest.approx(mass, rel=1e-6)), body
        assert same_shapes(shapes, got[2]), (body, shapes, got[2])

    imported = import_support.import_gltf(back_path)  # and into Blender: the same Blender rigid bodies
    assert not imported.failures
    for body, (motion, mass, _shapes) in before.items():
        rigid_body = bpy.data.objects[body].rigid_body
        assert rigid_body is not None, body
        assert rigid_body.type == ('ACTIVE' if motion != "static" else 'PASSIVE'), body
        assert rigid_body.kinematic == (motion == "kinematic"), body
        if mass is not None:
            assert rigid_body.mass == pytest.approx(mass, rel=1e-6), body
    lost = [message for message in imported.warnings if "trigger must be an object, got null" in message]
    assert bool(lost) == (name == "shapes_and_bodies"), imported.warnings  # the Trigger's Area3D shape


def test_committed_godot_files_are_what_godot_writes(godot, tmp_path):
    godot.godot_script(HERE / "make_godot_files.gd", [], ["OUT/"], tmp_path)
    for path in sorted(DATA.iterdir()):
        made = tmp_path / path.name
        assert made.exists(), path.name
        if path.suffix == ".gltf":
            assert json.loads(made.read_text()) == json.loads(path.read_text()), path.name
        else:
            assert made.read_bytes() == path.read_bytes(), path.name


