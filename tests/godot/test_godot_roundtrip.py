"""Blender -> Godot -> Blender: every scene of test_godot_builds exported with the `godot` target, loaded by
Godot 4 and written again by Godot's own exporter, imports into Blender with the same bodies (type, mass)
and the same shapes at the same places (1e-4 m; a collider with no body above is the static body Godot makes
of it), except what Godot 4.6's exporter loses: an Area3D's shape (it writes `"trigger": null`, said by the
import) and joints. Also: the files in tests/data/godot are what Godot writes."""

from __future__ import annotations

import json
from pathlib import Path

import bpy
import godot_checks
import import_support
import omi_core.model
import omi_core.read.reader
import pytest
from test_godot_builds import SCENES, export

pytestmark = pytest.mark.usefixtures("omi_addon")

HERE = Path(__file__).resolve().parent
DATA = HERE.parent / "data" / "godot"


def bodies(gltf: dict, doc, default_height) -> dict[str, tuple]:
    """Body name -> (motion type, mass, its shapes in world terms): each shape belongs to the nearest body
    at or above its node; a collider with no body above is a static body of its own (OMI's meaning, and
    what Godot builds and writes back)."""
    nodes = gltf.get("nodes", [])
    parent = {child: index for index, node in enumerate(nodes) for child in node.get("children", [])}
    world = import_support.gltf_world_matrices(gltf)
    found: dict[str, list] = {}
    kinds: dict[str, tuple] = {}
    for index, physics in doc.nodes.items():
        if physics.motion is not None:
            found.setdefault(nodes[index]["name"], [])
            kinds[nodes[index]["name"]] = (physics.motion.type,
                                           physics.motion.mass if physics.motion.type == "dynamic" else None)
    for index, physics in doc.nodes.items():
        if physics.collider is None or physics.collider.shape is None:
            continue
        owner = index
        while owner is not None and (owner not in doc.nodes or doc.nodes[owner].motion is None):
            owner = parent.get(owner)
        if owner is None:  # no body above: its compound marker, or else the collider itself, is a static body
            owner = next((up for up in _up(parent, index) if up in doc.nodes and doc.nodes[up].collider is not None
                          and doc.nodes[up].collider.shape is None), index)
            found.setdefault(nodes[owner]["name"], [])
            kinds[nodes[owner]["name"]] = ("static", None)
        shape, place = godot_checks.in_world(godot_checks.expected_shape(physics.collider.shape, default_height),
                                             world[index])
        found[nodes[owner]["name"]].append((shape, place))
    return {name: (*kinds[name], shapes) for name, shapes in found.items()}


def _up(parent: dict[int, int], index: int) -> list[int]:
    """The node's ancestors, nearest first."""
    found = []
    while index in parent and len(found) <= len(parent):
        index = parent[index]
        found.append(index)
    return found


def same_shapes(a: list, b: list) -> bool:
    return len(a) == len(b) and all(any(godot_checks.same_shape(sa, sb) and godot_checks.close(pa, pb)
                                        for sb, pb in b) for sa, pa in a)


@pytest.mark.parametrize("name", sorted(SCENES))
def test_blender_godot_blender_keeps_the_physics(godot, omi, tmp_path, name):
    reader, model = omi_core.read.reader, omi_core.model
    SCENES[name]()
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
        obj = bpy.data.objects[body]
        # a body whose centre of mass is off its origin simulates as a generated rigid body it follows
        follow = obj.constraints.get(omi("io.blender.tables.markers").FOLLOW)
        rigid_body = (follow.target if follow is not None else obj).rigid_body
        assert rigid_body is not None, body
        assert rigid_body.type == ('ACTIVE' if motion != "static" else 'PASSIVE'), body
        assert rigid_body.kinematic == (motion == "kinematic"), body
        if mass is not None:
            assert rigid_body.mass == pytest.approx(mass, rel=1e-6), body
    lost = [message for message in imported.warnings if "trigger must be an object, got null" in message]
    shaped_triggers = [index for index, physics in reader.read_document(omi_file.gltf).nodes.items()
                       if physics.trigger is not None and physics.trigger.shape is not None]
    assert bool(lost) == bool(shaped_triggers), imported.warnings  # Godot writes an Area3D's shape as null


def test_committed_godot_files_are_what_godot_writes(godot, tmp_path):
    godot.godot_script(HERE / "make_godot_files.gd", [], ["OUT/"], tmp_path)
    for path in sorted(DATA.iterdir()):
        made = tmp_path / path.name
        assert made.exists(), path.name
        if path.suffix == ".gltf":
            assert json.loads(made.read_text()) == json.loads(path.read_text()), path.name
        else:
            assert made.read_bytes() == path.read_bytes(), path.name


