"""Import then export keeps a file's node structure: every spec example (current and legacy), through the
command-line tool, comes back with the same nodes, names, parents and the same OMI extensions on the same
nodes, or each node that differs is named in the import report (with why), before any export. Also files
shaped like the spec's joint examples that sit the joint under a static body (swing_and_slide,
pendulum_balls, rope_railing upstream: kept as they are), a collider on a scaled node (kept when the scale
is uniform, moved to a child when uneven) and a joint on a node that is also a body (moved to a child)."""

from __future__ import annotations

import json
import re
import struct
from pathlib import Path
from typing import Any

import pytest
import schema_check
from cli_support import blender_cli, write_gltf

OMI_PREFIX = "OMI_"
SPEC_EXAMPLES = sorted(schema_check.SPEC_DIR.rglob("*.gltf")) if schema_check.SPEC_DIR.is_dir() else []


def _load(path: Path) -> dict:
    data = path.read_bytes()
    if data[:4] == b"glTF":
        length = struct.unpack_from("<I", data, 12)[0]
        return json.loads(data[20:20 + length])
    return json.loads(data)


def _structure(document: dict, exact: bool = True) -> dict[str, tuple]:
    """node name -> (parent name, {OMI extension: its keys}) for every node; not `exact`: (parent name,
    whether it has OMI physics), for legacy files, which the export writes in the current revision (the
    import report says so once per revision)."""
    nodes = document.get("nodes", [])
    parent = {child: index for index, node in enumerate(nodes) for child in node.get("children", [])}
    found = {}
    for index, node in enumerate(nodes):
        owner = parent.get(index)
        extensions = {name: sorted(value) for name, value in (node.get("extensions") or {}).items()
                      if name.startswith(OMI_PREFIX) and isinstance(value, dict)}
        found[node.get("name", f"#{index}")] = (nodes[owner].get("name") if owner is not None else None,
                                                json.dumps(extensions, sort_keys=True) if exact else bool(extensions))
    return found


def _unreported(source: Path, tmp_path: Path) -> tuple[list[str], list[str]]:
    """(the nodes whose structure changed on import -> export, those of them the import report does not name)."""
    blend, exported = tmp_path / "scene.blend", tmp_path / "scene.gltf"
    imported = blender_cli("import", source, "--out", blend, "--verbose")
    assert imported.returncode in (0, 1) and blend.exists(), imported.stdout + imported.stderr
    written = blender_cli("export", blend, "--out", exported, "--verbose", "--gltf-option", "export_cameras=true",
                          "--gltf-option", "export_lights=true")
    assert written.returncode == 0, written.stdout + written.stderr
    reports = imported.stdout + imported.stderr  # said at import, before anyone exports
    exact = "legacy" not in source.parts
    before, after = _structure(_load(source), exact), _structure(_load(exported), exact)
    changed = [name for name in before if after.get(name) != before[name]]
    changed += [name for name in after if name not in before]
    predicted = set(re.findall(r"object '([^']+)': an export will", reports))
    assert predicted <= set(changed), f"the import predicted a change the export did not make: {predicted}"
    return changed, [name for name in changed if f"'{name}'" not in reports and f"{name!r}" not in reports]


@pytest.mark.parametrize("source", SPEC_EXAMPLES, ids=lambda path: str(path.relative_to(schema_check.SPEC_DIR)))
def test_spec_examples_keep_their_structure_or_say_what_changed(source, tmp_path):
    _changed, unreported = _unreported(source, tmp_path)
    assert unreported == []


def _body(motion: str | None = None, shape: int | None = 0) -> dict:
    body: dict[str, Any] = {}
    if motion is not None:
        body["motion"] = {"type": motion}
    if shape is not None:
        body["collider"] = {"shape": shape}
    return {"OMI_physics_body": body}


def _joint(connected: int, joint: int = 0) -> dict:
    return {"OMI_physics_joint": {"joint": joint, "connectedNode": connected}}


HINGE = {"limits": [{"linearAxes": [0, 1, 2], "min": 0, "max": 0}, {"angularAxes": [0, 1], "min": 0, "max": 0}]}
SLIDE = {"limits": [{"linearAxes": [0], "min": -0.25, "max": 1.75}, {"linearAxes": [1, 2], "min": 0, "max": 0},
                    {"angularAxes": [0, 1], "min": 0, "max": 0, "stiffness": 0.5}]}
TURN_45 = [0, 0, -0.38268343, 0.92387953]

# Shaped like the upstream joint examples (their meshes left out): the joint node under the static body.
STATIC_SIDE_JOINTS: dict[str, Any] = {
    "swing_and_slide": ([
        {"name": "TopBody", "translation": [0, 1, 0], "children": [1], "extensions": _body("static")},
        {"name": "CustomJoint", "translation": [-0.75, 0, 0], "extensions": _joint(2)},
        {"name": "Ball", "translation": [-1.6, 0.15, 0], "rotation": TURN_45, "extensions": _body("dynamic", 1)},
    ], [SLIDE]),
    "pendulum_balls": ([
        {"name": "Bar", "translation": [0, 2, 0], "children": [1, 2], "extensions": _body("static")},
        {"name": "PinA", "translation": [-0.5, 0, 0], "extensions": _joint(3)},
        {"name": "PinB", "translation": [0.5, 0, 0], "extensions": _joint(4)},
        {"name": "BallA", "translation": [-0.5, 2, 0], "extensions": _body("dynamic", 1)},
        {"name": "BallB", "translation": [0.5, 2, 0], "extensions": _body("dynamic", 1)},
    ], [HINGE]),
    "rope_railing": ([
        {"name": "PostLeft", "children": [1], "extensions": _body("static")},
        {"name": "PostLeftJoint", "translation": [0.5, 1, 0], "extensions": _joint(2)},
        {"name": "Rope0", "translation": [0.5, 1, 0], "children": [3], "extensions": _body("dynamic", 1)},
        {"name": "Rope0Joint", "translation": [0.5, 0, 0], "extensions": _joint(4)},
        {"name": "Rope1", "translation": [1.0, 1, 0], "children": [5], "extensions": _body("dynamic", 1)},
        {"name": "Rope1Joint", "translation": [0.5, 0, 0], "extensions": _joint(6)},
        {"name": "PostRight", "translation": [1.5, 0, 0], "children": [7], "extensions": _body("static")},
        {"name": "PostRightAttachment", "translation": [0, 1, 0]},
    ], [HINGE]),
}


def _document(nodes: list[dict], joints: list | None = None) -> dict:
    """The nodes with a box (shape 0) and a ball (shape 1); roots are the nodes nobody lists as a child."""
    children = {child for node in nodes for child in node.get("children", [])}
    document: dict[str, Any] = {
                "asset": {"version": "2.0"}, "extensionsUsed": ["OMI_physics_shape", "OMI_physics_body"],
                "extensions": {"OMI_physics_shape": {"shapes": [{"type": "box", "box": {"size": [1, 0.2, 0.2]}},
                                                                {"type": "sphere", "sphere": {"radius": 0.25}}]}},
                "nodes": nodes, "scenes": [{"nodes": [i for i in range(len(nodes)) if i not in children]}],
                "scene": 0}
    if joints:
        document["extensionsUsed"].append("OMI_physics_joint")
        document["extensions"]["OMI_physics_joint"] = {"physicsJoints": joints}
    return document


@pytest.mark.parametrize("example", list(STATIC_SIDE_JOINTS))
def test_joints_under_a_static_body_stay_there(tmp_path, example):
    nodes, joints = STATIC_SIDE_JOINTS[example]
    source = write_gltf(tmp_path / f"{example}.gltf", _document(nodes, joints))
    assert _unreported(source, tmp_path) == ([], [])


def test_what_the_export_restructures_is_said_at_import(tmp_path):
    uniform = [{"name": "Scaled", "scale": [2, 2, 2], "extensions": _body()}]
    assert _unreported(write_gltf(tmp_path / "uniform.gltf", _document(uniform)), tmp_path) == ([], [])
    # Primitive shapes on an unevenly scaled node go to an unscaled child, at their scaled size.
    uneven = [{"name": "Stretched", "scale": [1, 3, 1], "extensions": _body(shape=1)}]
    assert _unreported(write_gltf(tmp_path / "uneven.gltf", _document(uneven)), tmp_path) == \
        (["Stretched", "Stretched.collider"], [])
    # A joint on a body's own node (against the spec): the joint goes to a child node of its own.
    busy = [{"name": "Wall", "extensions": _body("static")},
            {"name": "Door", "translation": [0, 1, 0], "extensions": {**_body("dynamic"), **_joint(0)}}]
    assert _unreported(write_gltf(tmp_path / "busy.gltf", _document(busy, [HINGE])), tmp_path) == \
        (["Door", "Door.joint"], [])
    # A scaled joint node: a joint frame takes no scale, so the joint goes to an unscaled child.
    scaled_joint = [{"name": "Wall", "children": [1], "extensions": _body("static")},
                    {"name": "Pin", "scale": [2, 2, 2], "extensions": _joint(2)},
                    {"name": "Door", "translation": [0, 1, 0], "extensions": _body("dynamic")}]
    assert _unreported(write_gltf(tmp_path / "scaled_joint.gltf", _document(scaled_joint, [HINGE])), tmp_path) == \
        (["Pin", "Pin.joint"], [])
    slider = [
        {"name": "Rail", "extensions": _body("static")},
        {"name": "Carriage", "translation": [0.5, 2, 0], "children": [2], "extensions": _body("dynamic")},
        {"name": "Slider", "translation": [-0.5, 0, 0], "extensions": _joint(0)}]
    limits = {"limits": [{"linearAxes": [0], "min": -1, "max": 1}, {"linearAxes": [1, 2], "min": 0, "max": 0},
                         {"angularAxes": [0, 1, 2], "min": 0, "max": 0}]}
    # The limits are measured from the Slider to the Rail's own frame: the Rail stays the connected node.
    assert _unreported(write_gltf(tmp_path / "slider.gltf", _document(slider, [limits])), tmp_path) == ([], [])
