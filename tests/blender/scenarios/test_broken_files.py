"""A generated corpus of broken files: every OMI value of two rich documents (current and legacy revision),
replaced by a value of the wrong type or out of range, or deleted, imports through
bpy.ops.import_scene.gltf without an exception escaping and without a hook giving up; whatever changed
the physics is named in a warning, and every part the break does not touch arrives whole.

"Does not touch" is decided by the add-on's pure reader, independently of Blender: a node whose physics
reads the same from the broken file as from the valid one must get exactly the OMI settings it gets from
the valid file, and every node, mesh and material of the file must be there. test_import_broken.py holds
the hand-picked cases with their exact outcomes; this sweep covers every location the documents have.
"""

from __future__ import annotations

import copy
import dataclasses
import math
from collections.abc import Iterator
from typing import Any

import bpy
import import_support as support
import omi_core.read.reader
import pytest

pytestmark = pytest.mark.usefixtures("omi_addon")

BODY, SHAPE, JOINT = support.BODY, support.SHAPE, support.JOINT
COLLIDER = "OMI_collider"
DELETE = object()  # the mutation that removes a key


def current_document() -> dict:
    """Every kind of current-revision content: all six shapes, the three motion types with every motion
    field, materials, filters, single and compound triggers, a joint with limits and drives."""
    nodes = [
        {"name": "Ground", "translation": [0.0, -0.5, 0.0], "children": [14],
         "extensions": {BODY: {"motion": {"type": "static"},
                               "collider": {"shape": 0, "physicsMaterial": 0, "collisionFilter": 0}}}},
        {"name": "Crate", "translation": [0.0, 2.0, 0.0], "children": [2, 13],
         "extensions": {BODY: {"motion": {"type": "dynamic", "mass": 3.0, "linearVelocity": [1.0, 0.0, 0.0],
                                          "angularVelocity": [0.0, 2.0, 0.0], "gravityFactor": 0.5,
                                          "centerOfMass": [0.0, 0.1, 0.0], "inertiaDiagonal": [1.0, 2.0, 1.0],
                                          "inertiaOrientation": [0.0, 0.0, 0.0, 1.0]}}}},
        {"name": "CrateShape", "mesh": 0,
         "extensions": {BODY: {"collider": {"shape": 1, "physicsMaterial": 1}}}},
        {"name": "Ball", "translation": [2.0, 2.0, 0.0],
         "extensions": {BODY: {"motion": {"type": "dynamic"}, "collider": {"shape": 2}}}},
        {"name": "Pill", "translation": [4.0, 2.0, 0.0],
         "extensions": {BODY: {"motion": {"type": "kinematic", "linearVelocity": [0.0, 0.0, 1.0]},
                               "collider": {"shape": 3}}}},
        {"name": "Can", "translation": [6.0, 2.0, 0.0], "children": [6],
         "extensions": {BODY: {"motion": {"type": "dynamic", "mass": 0.5}}}},
        {"name": "CanShape", "extensions": {BODY: {"collider": {"shape": 4}}}},
        {"name": "Rock", "translation": [-2.0, 0.5, 0.0], "mesh": 0,
         "extensions": {BODY: {"motion": {"type": "static"}, "collider": {"shape": 5}}}},
        {"name": "Terrain", "translation": [-4.0, 0.5, 0.0], "mesh": 0,
         "extensions": {BODY: {"collider": {"shape": 6, "physicsMaterial": 0}}}},
        {"name": "Zone", "translation": [0.0, 1.0, 4.0],
         "extensions": {BODY: {"trigger": {"shape": 7, "collisionFilter": 1}}}},
        {"name": "Compound", "translation": [3.0, 1.0, 4.0], "children": [11, 12],
         "extensions": {BODY: {"trigger": {"nodes": [11, 12]}}}},
        {"name": "PartA", "translation": [0.5, 0.0, 0.0], "extensions": {BODY: {"trigger": {"shape": 7}}}},
        {"name": "PartB", "translation": [-0.5, 0.0, 0.0], "extensions": {BODY: {"trigger": {"shape": 2}}}},
        {"name": "CrateHinge", "translation": [0.0, -0.5, 0.0],
         "extensions": {JOINT: {"joint": 0, "connectedNode": 14, "enableCollision": True}}},
        {"name": "GroundAnchor", "translation": [0.0, 2.0, 0.0]},
    ]
    shapes = [
        {"type": "box", "box": {"size": [10.0, 1.0, 10.0]}},
        {"type": "box", "box": {"size": [1.0, 1.0, 1.0]}},
        {"type": "sphere", "sphere": {"radius": 0.4}},
        {"type": "capsule", "capsule": {"height": 1.0, "radiusTop": 0.3, "radiusBottom": 0.3}},
        {"type": "cylinder", "cylinder": {"height": 1.5, "radiusTop": 0.25, "radiusBottom": 0.25}},
        {"type": "convex", "convex": {"mesh": 0}},
        {"type": "trimesh", "trimesh": {"mesh": 0}},
        {"type": "box", "box": {"size": [2.0, 2.0, 2.0]}},
    ]
    joints = [{
        "limits": [{"linearAxes": [0, 1, 2], "min": 0.0, "max": 0.0},
                   {"angularAxes": [0, 2], "min": 0.0, "max": 0.0},
                   {"angularAxes": [1], "min": -1.0, "max": 1.0, "stiffness": 100.0, "damping": 2.0}],
        "drives": [{"type": "angular", "mode": "force", "axis": 1, "velocityTarget": 1.0, "maxForce": 10.0,
                    "damping": 1.0},
                   {"type": "linear", "mode": "acceleration", "axis": 0, "positionTarget": 0.5, "stiffness": 10.0}],
    }]
    materials = [{"staticFriction": 0.5, "dynamicFriction": 0.4, "restitution": 0.2, "frictionCombine": "minimum",
                  "restitutionCombine": "maximum"},
                 {"staticFriction": 0.9, "dynamicFriction": 0.8}]
    filters = [{"collisionSystems": ["ground"], "notCollideWithSystems": ["ghost"]},
               {"collisionSystems": ["zone"], "collideWithSystems": ["player"]}]
    return support.document(nodes, shapes, roots=[0, 1, 3, 4, 5, 7, 8, 9, 10], joints=joints, meshes=True,
                            materials=materials, filters=filters)


def legacy_document() -> dict:
    """The old revisions: OMI_collider (with isTrigger and a full-height capsule) and the body `type` enum
    with flat shapes on shape nodes."""
    nodes = [
        {"name": "OldFloor", "extensions": {COLLIDER: {"collider": 0}}},
        {"name": "OldPill", "translation": [2.0, 1.0, 0.0], "extensions": {COLLIDER: {"collider": 1}}},
        {"name": "OldSensor", "translation": [4.0, 1.0, 0.0], "extensions": {COLLIDER: {"collider": 2}}},
        {"name": "OldBody", "translation": [0.0, 3.0, 0.0], "children": [4],
         "extensions": {BODY: {"type": "rigid", "mass": 2.0, "linearVelocity": [0.0, 1.0, 0.0]}}},
        {"name": "OldBodyShape", "mesh": 0, "extensions": {SHAPE: {"shape": 0}}},
        {"name": "OldTrigger", "translation": [0.0, 1.0, 3.0], "children": [6],
         "extensions": {BODY: {"type": "trigger"}}},
        {"name": "OldTriggerShape", "extensions": {SHAPE: {"shape": 1}}},
    ]
    gltf = support.document(nodes, meshes=True, roots=[0, 1, 2, 3, 5])
    gltf["extensionsUsed"] = [COLLIDER, BODY, SHAPE]
    gltf["extensions"] = {
        COLLIDER: {"colliders": [{"type": "box", "size": [10.0, 0.2, 10.0]},
                                 {"type": "capsule", "radius": 0.25, "height": 1.5},
                                 {"type": "sphere", "radius": 0.5, "isTrigger": True}]},
        SHAPE: {"shapes": [{"type": "box", "size": [1.0, 1.0, 1.0]}, {"type": "sphere", "radius": 0.75}]},
    }
    return gltf


BASES = {"current": current_document, "legacy": legacy_document}

# Replacement values by the kind of value they replace: wrong JSON types, then out-of-range values.
WRONG_TYPES: dict[str, list[Any]] = {
    "number": ["text", None, [1.0], True, {}],
    "string": [7, None, "no-such-kind", ["dynamic"], {}],
    "bool": ["yes", 2, None],
    "array": ["text", {}, 3.0, [None, "a", {}], []],
    "object": [[], "text", 5, None],
}
OUT_OF_RANGE = [-1, 999, -0.5, 1e300, 0]


def _kind(value: Any) -> str:
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, list) else "object"


def _omi_locations(gltf: dict) -> Iterator[tuple[Any, ...]]:
    """Pointer tokens of every value inside the OMI extensions (numeric vectors: their first item only).
    The extension objects themselves are left whole: the glTF importer's own parser refuses a file whose
    extension is not an object, before any hook runs (test_import_broken covers that refusal)."""
    names = (BODY, SHAPE, JOINT, COLLIDER)
    roots: list[tuple[Any, ...]] = [("extensions", name) for name in names if name in gltf["extensions"]]
    roots += [("nodes", index, "extensions", name) for index, node in enumerate(gltf["nodes"])
              for name in names if name in node.get("extensions", {})]
    stack: list[tuple[tuple[Any, ...], Any]] = [(root, _at(gltf, root)) for root in reversed(roots)]
    while stack:
        tokens, value = stack.pop()
        if tokens not in roots:
            yield tokens
        if isinstance(value, dict):
            stack.extend(((*tokens, key), item) for key, item in reversed(value.items()))
        elif isinstance(value, list):
            numeric = value and all(_kind(item) == "number" for item in value)
            items = list(enumerate(value))[:1] if numeric else list(enumerate(value))
            stack.extend(((*tokens, index), item) for index, item in reversed(items))


def _at(gltf: Any, tokens: tuple[Any, ...]) -> Any:
    for token in tokens:
        gltf = gltf[token]
    return gltf


def _mutations(base: str) -> list[tuple[str, tuple[Any, ...], Any, bool]]:
    """(id, pointer tokens, new value or DELETE, whether the file is now invalid for certain): per location
    one value of a wrong type, for numbers also one that may be out of range, for object members the
    deletion; the values rotate over the locations. Only a wrong type is invalid for certain: a string may
    be free text (a collision system's name), an empty array a valid empty list, and a deleted member or
    another number may be valid."""
    gltf = BASES[base]()
    found = []
    for position, tokens in enumerate(_omi_locations(gltf)):
        kind = _kind(_at(gltf, tokens))
        choices = WRONG_TYPES[kind]
        wrong = choices[position % len(choices)]
        replacements = [(wrong, wrong != [] and not (kind == "string" and isinstance(wrong, str)))]
        if kind == "number":
            replacements.append((OUT_OF_RANGE[position % len(OUT_OF_RANGE)], False))
        if isinstance(tokens[-1], str):
            replacements.append((DELETE, False))
        pointer = "/" + "/".join(str(token) for token in tokens)
        found += [(f"{base}:{pointer}={'DELETE' if new is DELETE else repr(new)}", tokens, new, invalid)
                  for new, invalid in replacements]
    return found


CASES = [case for base in BASES for case in _mutations(base)]


def _pointers(message: str) -> list[str]:
    """The JSON pointers a log message names."""
    return [word.strip("():,'") for word in message.split() if word.strip("(").startswith("/")]


def _broken(base: str, tokens: tuple[Any, ...], new: Any) -> dict:
    gltf = copy.deepcopy(BASES[base]())
    parent = _at(gltf, tokens[:-1])
    if new is DELETE:
        del parent[tokens[-1]]
    else:
        parent[tokens[-1]] = copy.deepcopy(new)
    return gltf


def _plain(value: Any) -> Any:
    """A model value with Blender references as names and floats rounded, comparable across imports.
    Library entries' own names are left out: the import names entries in order, so dropping one renames the
    next, and the model says a name is no part of the physics."""
    if dataclasses.is_dataclass(value):
        return {field.name: _plain(getattr(value, field.name)) for field in dataclasses.fields(value)
                if field.name != "name"}
    if isinstance(value, tuple | list):
        return [_plain(item) for item in value]
    if isinstance(value, bpy.types.ID):
        return f"<{value.name}>"
    if isinstance(value, float):
        return round(value, 5) if math.isfinite(value) else str(value)
    return value


def _imported_settings(gltf: dict, convert) -> dict[str, Any]:
    """Node name -> the OMI settings its object got, as plain values."""
    return {node["name"]: _plain(convert.node_from_object(bpy.data.objects[node["name"]], bl_scene=bpy.context.scene))
            for node in gltf["nodes"] if node["name"] in bpy.data.objects}


@pytest.fixture(scope="module")
def baselines(tmp_path_factory, omi) -> dict[str, dict]:
    """Per base document: the reader's physics per node, the import's warnings and settings per node."""
    reader, convert = omi_core.read.reader, omi("properties.convert")
    found = {}
    for base, make in BASES.items():
        gltf = make()
        imported = support.import_gltf(support.write_gltf(tmp_path_factory.mktemp(base), base, gltf))
        assert imported.result == {'FINISHED'} and imported.failures == []
        found[base] = {"nodes": reader.read_document(gltf).nodes, "warnings": set(imported.warnings),
                       "settings": _imported_settings(gltf, convert)}
    return found


def test_the_bases_import_with_physics_on_every_node(baselines):
    """The sweep means something only if the valid files carry physics everywhere it looks."""
    for base, make in BASES.items():
        gltf = make()
        with_physics = {node["name"] for node in gltf["nodes"] if "extensions" in node}
        settings = baselines[base]["settings"]
        assert set(settings) == {node["name"] for node in gltf["nodes"]}
        empty = [name for name in with_physics if all(part is None for part in settings[name].values())]
        assert empty == [], f"{base}: imported without OMI settings: {empty}"


def test_the_corpus_covers_every_kind_of_break():
    assert len(CASES) > 200
    kinds = {_kind(new) if new is not DELETE else "delete" for _case, _tokens, new, _invalid in CASES}
    assert kinds == {"number", "string", "bool", "array", "object", "delete"}
    assert {tokens[0] for _case, tokens, _new, _invalid in CASES} == {"extensions", "nodes"}
    assert sum(invalid for *_rest, invalid in CASES) > 100


@pytest.mark.parametrize(("case", "tokens", "new", "invalid"), CASES, ids=[case[0] for case in CASES])
def test_broken_file_imports_with_warnings_and_keeps_every_valid_part(omi, baselines, tmp_path, case, tokens,  # noqa: PLR0917
                                                                      new, invalid):
    base = case.split(":", 1)[0]
    reader, convert = omi_core.read.reader, omi("properties.convert")
    gltf = _broken(base, tokens, new)
    imported = support.import_gltf(support.write_gltf(tmp_path, "broken", gltf))  # raises if an exception escapes

    assert imported.result == {'FINISHED'}
    assert imported.failures == [], imported.failures  # no hook step gave up
    baseline = baselines[base]
    # every node, mesh and material of the file is there
    assert {node["name"] for node in gltf["nodes"]} <= set(bpy.data.objects.keys())
    for node in gltf["nodes"]:
        if "mesh" in node:
            obj = bpy.data.objects[node["name"]]
            assert obj.type == 'MESH' and len(obj.data.polygons) == 12, node["name"]
            assert obj.data.materials[0].name.startswith("Crate paint")
    # what the reader reads the same arrives the same; what it reads differently is warned about
    read = reader.read_document(gltf).nodes
    settings = _imported_settings(gltf, convert)
    untouched = [index for index in range(len(gltf["nodes"])) if read.get(index) == baseline["nodes"].get(index)]
    for index in untouched:
        name = gltf["nodes"][index]["name"]
        assert settings[name] == baseline["settings"][name], f"{name} changed although {case} does not touch it"
    if invalid:
        pointer = "/" + "/".join(str(token) for token in tokens)
        related = [text for text in imported.warnings if text not in baseline["warnings"]
                   and any(pointer.startswith(found) or found.startswith(pointer) for found in _pointers(text))]
        assert related, f"{case}: no warning at or around {pointer}"
