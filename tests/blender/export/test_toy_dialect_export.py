"""A dialect registered from the test folder (tests/unit/toy_dialect.py, built from the add-on's own io.omi
modules) is an export target of the Blender exporter with no change elsewhere: the dialog offers it, the
export writes its spelling (bodies, shapes, a joint and its document-level items) and no other dialect's, and
the add-on's reader reads the file back. Registered as the default dialect, it is what the export gathers in:
the still values and the animated ones, without a trace of OMI."""

from __future__ import annotations

import dataclasses
import json
import sys
from pathlib import Path

import bpy
import omi_core.dialects.registry
import omi_core.read.reader
import pytest
from animation_support import animated_scene, channels
from export_support import empty, export, mesh_object, tag_motion, tag_shape

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "unit"))  # the toy lives with the unit tests
import toy_dialect

pytestmark = pytest.mark.usefixtures("omi_addon")


@pytest.fixture
def toy(clean_scene):
    registry = omi_core.dialects.registry
    toy_dialect.register()
    yield toy_dialect.UNIT
    bpy.context.scene.omi_physics.export_dialect = registry.targets()[0].name
    registry.unregister(toy_dialect.NAME)


def hinged_scene() -> None:
    crate = mesh_object("Crate", location=(0.0, 0.0, 2.0))
    tag_motion(crate, 'DYNAMIC', mass=5.0)
    tag_shape(crate, "collider", 'BOX', size=(2.0, 1.0, 1.0))
    floor = mesh_object("Floor")
    tag_shape(floor, "collider", 'BOX', size=(2.0, 1.0, 1.0))
    hinge = empty("Hinge", location=(0.0, 0.0, -1.0), parent=crate)
    hinge.omi_physics.use_joint = True
    hinge.omi_physics.joint.connected_object = floor
    limit = hinge.omi_physics.joint.limits.add()
    limit.kind, limit.axis_x, limit.axis_y, limit.axis_z = 'LINEAR', True, True, True


def test_a_registered_target_is_offered_and_exported(omi, toy, tmp_path):
    scene = bpy.context.scene
    hinged_scene()
    scene.omi_physics.export_dialect = toy_dialect.NAME  # the dialog's choice: a TypeError unless it is offered
    assert scene.omi_physics.export_dialect == toy_dialect.NAME
    result = export(tmp_path, check=False)  # the OMI schemas do not know the toy's extensions
    gltf = result.gltf
    text = json.dumps(gltf)
    assert not [name for name in gltf["extensionsUsed"] if not name.startswith("TOY_")]
    assert "OMI_physics" not in text and "KHR_physics" not in text
    nodes = {node["name"]: node for node in gltf["nodes"]}
    crate = nodes["Crate"]["extensions"][toy_dialect.BODY]
    assert crate["motion"] == {"type": "dynamic", "weight": 5.0}  # the toy's spelling of the mass
    shapes = gltf["extensions"][toy_dialect.SHAPE]["shapes"]
    assert shapes[crate["collider"]["shape"]]["box"]["size"] == pytest.approx([2.0, 1.0, 1.0])
    joint = nodes["Hinge"]["extensions"][toy_dialect.JOINT]
    assert joint["connectedNode"] == gltf["nodes"].index(nodes["Floor"])
    assert gltf["extensions"][toy_dialect.JOINT]["physicsJoints"][joint["joint"]]["limits"]
    read = omi_core.read.reader.read_document(gltf)
    masses = [node.motion.mass for node in read.nodes.values() if node.motion is not None]
    assert masses == [5.0]
    assert toy.schema_check(gltf, None, False) == []


def test_the_toy_beside_the_home_dialect(omi, toy, tmp_path):
    """A target of two dialects, the home one (the gather hooks' spelling) and the toy: both are written, the
    toy's made from the home one's placement, as KHR beside OMI."""
    registry = omi_core.dialects.registry
    both = registry.Target("TOYBOTH", 91, "Home and toy", "", (registry.default().name, toy_dialect.NAME))
    registry.register(both)
    try:
        hinged_scene()
        bpy.context.scene.omi_physics.export_dialect = both.name
        gltf = export(tmp_path, check=False).gltf
        for name in (toy_dialect.BODY, toy_dialect.SHAPE, toy_dialect.JOINT, *registry.default().tables.extensions):
            assert name in gltf["extensionsUsed"], name
        home, toy_read = (omi_core.read.reader.read_document(gltf, dialect).nodes
                          for dialect in (registry.default().name, toy_dialect.NAME))
        assert home == toy_read
    finally:
        registry.unregister(both.name)


@pytest.fixture
def toy_home(toy):
    """The toy as the registry's default dialect (the built-in default registered as before afterwards)."""
    registry = omi_core.dialects.registry
    default = registry.default()
    registry.register(dataclasses.replace(default, default=False))
    registry.register(dataclasses.replace(toy, default=True))
    assert registry.default().name == toy_dialect.NAME
    yield registry.default()
    registry.register(default)


def test_the_default_dialect_is_what_the_export_writes_and_samples_in(omi, toy_home, tmp_path):
    """Still values and keyframed ones (every Object Model value the animated scene keys): the channels point
    into the toy's extensions, and nothing in the file is OMI's."""
    keyed = animated_scene()
    bpy.context.scene.omi_physics.export_dialect = toy_dialect.NAME
    result = export(tmp_path, fmt="GLB", check=False)
    assert "OMI_physics" not in json.dumps(result.gltf)
    found = channels(result)
    assert len(found) == len(keyed), result.messages
    assert all("/extensions/TOY_" in pointer for pointer in found), sorted(found)
