"""The Object Model tables (io/omi/dialects/pointers.py) against the specs' own pointer tables, and the pointer
checks of animation channels on small documents."""

from __future__ import annotations

import copy
import re
import struct
from typing import Any

from omi_core.dialects import pointers
from omi_core_loader import KHR_DIR, SPEC_DIR
from present import present

ROW = re.compile(r"^\|\s*`(/[^`]+)`\s*\|\s*`(\w+)`\s*\|")


def spec_rows(*readmes: Any) -> set[tuple[str, str]]:
    """(pointer template, type) of every row of the specs' Object Model tables, read-only ones left out."""
    rows = set()
    for readme in readmes:
        for line in readme.read_text().splitlines():
            found = ROW.match(line)
            if found and not found.group(1).endswith(".length"):
                rows.add((found.group(1), found.group(2)))
    return rows


def test_omi_table_is_the_specs_table() -> None:
    readmes = [SPEC_DIR / "OMI_physics_shape" / "README.md", SPEC_DIR / "OMI_physics_body" / "README.motion.md",
               SPEC_DIR / "OMI_physics_body" / "README.collider.md", SPEC_DIR / "OMI_physics_joint" / "README.md"]
    ours = {(template.text, template.type if template.type != "bool" else "boolean")
            for template in pointers.OMI_POINTERS}
    spec = spec_rows(*readmes)
    # the joint README's /joint/enableCollision is KHR's spelling; OMI keeps enableCollision beside `joint`
    erratum = ("/nodes/{}/extensions/OMI_physics_joint/joint/enableCollision", "boolean")
    assert erratum in spec
    assert ours == (spec - {erratum}) | {("/nodes/{}/extensions/OMI_physics_joint/enableCollision", "boolean")}


def test_khr_table_is_the_specs_table() -> None:
    readmes = [KHR_DIR / "KHR_implicit_shapes" / "README.md", KHR_DIR / "KHR_physics_rigid_bodies" / "README.md"]
    ours = {(template.text, template.type if template.type != "bool" else "boolean")
            for template in pointers.KHR_POINTERS}
    assert ours == spec_rows(*readmes)


def test_gravity_table_is_the_specs_table() -> None:
    readme = SPEC_DIR / "OMI_physics_gravity" / "README.md"
    row = re.compile(r"^\|\s*`(/[^`]+)`\s*\|\s*`([\w\[\]]+)`\s*\|")
    spec = {found.groups() for line in readme.read_text().splitlines() if (found := row.match(line))}
    assert len(spec) == 13
    assert {(template.text, template.type) for template in pointers.GRAVITY_POINTERS} == spec


def test_match_and_pointer_of_are_inverse() -> None:
    for template in pointers.all_pointers():
        nested = (2,) * template.text.count("{}")
        concrete = pointers.pointer_of(template, 7, nested[1:])
        found = pointers.match(concrete)
        index = 7 if "{}" in template.text else 0  # a document-level value (world gravity) has no index
        assert found is not None and found.template == template and found.index == index, concrete
    assert pointers.match("/nodes/1/extensions/OMI_physics_body/motion/type") is None
    assert pointers.match("/nodes/01/extensions/OMI_physics_body/motion/mass") is None
    assert pointers.match("/nodes/1/translation") is None


def _document(values: list[float], kind: str = "SCALAR", pointer: str = "") -> dict[str, Any]:
    """A document with one dynamic body, one box shape and one channel animating `pointer`."""
    data = struct.pack(f"<{2 + len(values)}f", 0.0, 1.0, *values)
    return {
        "asset": {"version": "2.0"},
        "nodes": [{"extensions": {"OMI_physics_body": {"motion": {"type": "dynamic"}, "collider": {"shape": 0}}}}],
        "extensions": {"OMI_physics_shape": {"shapes": [{"type": "box", "box": {}}]}},
        "buffers": [{"byteLength": len(data)}],
        "bufferViews": [{"buffer": 0, "byteLength": len(data)}],
        "accessors": [{"bufferView": 0, "componentType": 5126, "count": 2, "type": "SCALAR", "min": [0.0],
                       "max": [1.0]},
                      {"bufferView": 0, "byteOffset": 8, "componentType": 5126, "count": 2, "type": kind}],
        "animations": [{"channels": [{"sampler": 0, "target": {"path": "pointer", "extensions": {
            "KHR_animation_pointer": {"pointer": pointer}}}}],
            "samplers": [{"input": 0, "output": 1}]}],
    }


def test_check_animation() -> None:
    mass = "/nodes/0/extensions/OMI_physics_body/motion/mass"
    size = "/extensions/OMI_physics_shape/shapes/0/box/size"
    assert pointers.check_animation(_document([1.0, 2.0], pointer=mass)) == []
    assert pointers.check_animation(_document([1.0] * 6, "VEC3", pointer=size)) == []
    where = "/animations/0/channels/0/target/extensions/KHR_animation_pointer/pointer"
    [issue] = pointers.check_animation(_document([1.0] * 6, "VEC3", pointer=mass))
    assert (issue.pointer, issue.severity) == (where, "error") and "VEC3" in issue.message
    [issue] = pointers.check_animation(_document([1.0, 2.0], pointer=mass.replace("/0/", "/3/")))
    assert issue.severity == "error" and "does not exist" in issue.message
    sphere = "/extensions/OMI_physics_shape/shapes/0/sphere/radius"
    [issue] = pointers.check_animation(_document([1.0, 2.0], pointer=sphere))
    assert "does not exist" in issue.message  # the shape is a box: it has no sphere object
    [issue] = pointers.check_animation(_document([1.0, 2.0], pointer=mass.replace("mass", "type")))
    assert issue.severity == "warning" and "not a physics property" in issue.message
    other = _document([1.0, 2.0], pointer="/materials/0/alphaCutoff")
    assert pointers.check_animation(other) == []  # not physics: not ours to judge


def test_resolve_gives_defaults_for_absent_keys() -> None:
    document = _document([1.0, 2.0])
    found = pointers.match("/nodes/0/extensions/OMI_physics_body/motion/gravityFactor")
    assert pointers.resolve(document, present(found)) == (True, 1.0)
    found = pointers.match("/extensions/OMI_physics_shape/shapes/0/box/size")
    assert pointers.resolve(document, present(found)) == (True, [1.0, 1.0, 1.0])
    broken = copy.deepcopy(document)
    del broken["nodes"][0]["extensions"]["OMI_physics_body"]["motion"]
    found = pointers.match("/nodes/0/extensions/OMI_physics_body/motion/mass")
    assert pointers.resolve(broken, present(found))[0] is False
