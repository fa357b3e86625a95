"""The property tests' inputs: hypothesis strategies that draw OMI-shaped documents (mostly valid, some of
every value garbage), spec examples mutated, and what OMI holds of a KHR file's nodes (`omi_held`). Shared by
tests/unit/read/test_reader_properties.py, tests/unit/dialects/test_khr_properties.py and writer_corpus.py."""

from __future__ import annotations

import copy
import dataclasses
import json
import math
import os
from typing import Any

import schema_check
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from omi_core import conventions, model
from omi_core.dialects import base, omi

MAX_EXAMPLES = 500 if os.environ.get("CI") else 100
SETTINGS = settings(max_examples=MAX_EXAMPLES, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                           HealthCheck.data_too_large])

EXAMPLE_FILES = sorted(schema_check.SPEC_DIR.glob("**/examples/**/*.gltf")) if schema_check.SPEC_DIR.is_dir() else []
EXAMPLES = [json.loads(path.read_text(encoding="utf-8")) for path in EXAMPLE_FILES]
CURRENT_EXAMPLES = [gltf for path, gltf in zip(EXAMPLE_FILES, EXAMPLES, strict=True) if "legacy" not in path.parts]

OMI_NAMES = omi.OMI.owns
OMI_KEYS = tuple(sorted({*base.all_keys(omi.OMI), *omi.LEGACY_KEYS}))  # the tables' keys
WORDS = ("box", "sphere", "capsule", "cylinder", "convex", "trimesh", "hull", "static", "kinematic", "dynamic",
         "rigid", "character", "vehicle", "trigger", "linear", "angular", "force", "acceleration", "average",
         "minimum", "maximum", "multiply", "", "a/b~c")

SPECIAL_NUMBERS = st.sampled_from([-1, 0, -0.0, 0.5, 1, 2, 3, 7, -2.5, 1e308, -1e308, 1e-320, 10**30, 2**63,
                                   math.nan, math.inf, -math.inf, 1.5, True, False])
SCALARS = st.one_of(SPECIAL_NUMBERS, st.integers(-3, 12), st.floats(allow_nan=True, allow_infinity=True),
                    st.sampled_from(WORDS), st.none(), st.text(max_size=5))
JSON_VALUES = st.recursive(
    SCALARS,
    lambda children: st.one_of(st.lists(children, max_size=5),
                               st.dictionaries(st.sampled_from(OMI_KEYS) | st.text(max_size=4), children, max_size=5)),
    max_leaves=12,
)


def mostly(valid: Any, garbage: Any=JSON_VALUES) -> Any:
    """Usually a plausible value, sometimes anything: deep rules are reached, the boundary still tested."""
    return st.integers(0, 9).flatmap(lambda pick: valid if pick < 8 else garbage)


SMALL_INDEX = mostly(st.integers(-1, 4), SCALARS)
NUMBER = mostly(st.floats(-5, 5) | st.sampled_from([0, 0.5, 1, 2]), SCALARS)
VEC3 = mostly(st.lists(NUMBER, min_size=3, max_size=3))
AXES = mostly(st.lists(st.integers(-1, 3), max_size=4))


def _object(**fields: Any) -> Any:
    return st.fixed_dictionaries({}, optional=fields)


SHAPE = mostly(st.one_of(
    st.builds(lambda shape_type, details, flat: {"type": shape_type, shape_type: details, **flat},
              st.sampled_from(WORDS[:7]),
              _object(size=VEC3, radius=NUMBER, radiusTop=NUMBER, radiusBottom=NUMBER, height=NUMBER,
                      mesh=SMALL_INDEX),
              _object(size=VEC3, radius=NUMBER, height=NUMBER, mesh=SMALL_INDEX)),
    _object(type=mostly(st.sampled_from(WORDS[:7]), SCALARS), size=VEC3, radius=NUMBER, height=NUMBER,
            mesh=SMALL_INDEX, isTrigger=mostly(st.booleans(), SCALARS)),
))
MOTION = _object(type=mostly(st.sampled_from(WORDS[7:14]), SCALARS), mass=NUMBER, centerOfMass=VEC3,
                 inertiaDiagonal=VEC3, inertiaOrientation=mostly(st.lists(NUMBER, min_size=4, max_size=4)),
                 linearVelocity=VEC3, angularVelocity=VEC3, gravityFactor=NUMBER)
COLLIDER = _object(shape=SMALL_INDEX, physicsMaterial=SMALL_INDEX, collisionFilter=SMALL_INDEX)
TRIGGER = _object(shape=SMALL_INDEX, nodes=mostly(st.lists(SMALL_INDEX, max_size=4)), collisionFilter=SMALL_INDEX)
BODY = st.one_of(
    _object(motion=mostly(MOTION), collider=mostly(COLLIDER), trigger=mostly(TRIGGER)),
    _object(motion=mostly(MOTION), collider=mostly(COLLIDER), trigger=mostly(TRIGGER)),
    _object(type=mostly(st.sampled_from(WORDS[7:14]), SCALARS), mass=NUMBER, linearVelocity=VEC3,
            inertiaTensor=mostly(st.lists(NUMBER, min_size=9, max_size=9))),
    JSON_VALUES,
)
JOINT_NODE = st.fixed_dictionaries({"joint": SMALL_INDEX, "connectedNode": SMALL_INDEX},
                                   optional={"enableCollision": mostly(st.booleans(), SCALARS)})
LIMIT = _object(linearAxes=AXES, angularAxes=AXES, min=NUMBER, max=NUMBER, stiffness=NUMBER, damping=NUMBER)
DRIVE = _object(type=mostly(st.sampled_from(WORDS[14:16]), SCALARS),
                mode=mostly(st.sampled_from(WORDS[16:18]), SCALARS),
                axis=SMALL_INDEX, maxForce=NUMBER, positionTarget=NUMBER, velocityTarget=NUMBER,
                stiffness=NUMBER, damping=NUMBER)
MATERIAL = _object(staticFriction=NUMBER, dynamicFriction=NUMBER, restitution=NUMBER,
                   frictionCombine=mostly(st.sampled_from(WORDS[18:22]), SCALARS), restitutionCombine=SCALARS)
STRINGS = mostly(st.lists(mostly(st.sampled_from(["a", "b", "c"]), SCALARS), max_size=3))
FILTER = _object(collisionSystems=STRINGS, collideWithSystems=STRINGS, notCollideWithSystems=STRINGS)
NODE_EXTENSIONS = _object(OMI_physics_body=BODY, OMI_physics_joint=mostly(JOINT_NODE),
                          OMI_physics_shape=_object(shape=SMALL_INDEX), OMI_collider=_object(collider=SMALL_INDEX))


@st.composite
def omi_documents(draw: Any) -> dict[str, Any]:
    """A glTF document with a random node tree and random, often nearly valid, OMI content."""
    count = draw(st.integers(1, 7))
    nodes: list[dict[str, Any]] = [{"name": f"N{index}"} for index in range(count)]
    for index in range(1, count):  # mostly a tree, sometimes broken links
        parent = draw(mostly(st.none() | st.integers(0, index - 1), st.integers(-1, count + 1)))
        if isinstance(parent, int):
            nodes[parent if 0 <= parent < count else 0].setdefault("children", []).append(
                index if parent >= 0 else draw(st.integers(0, count + 1)))
    for index in range(count):
        node = nodes[index]
        if draw(st.booleans()):
            node["mesh"] = draw(st.integers(0, 1))
        extensions = draw(NODE_EXTENSIONS)
        if extensions:
            node["extensions"] = extensions
    parents = [index for index, node in enumerate(nodes) if node.get("children")]
    if parents and draw(st.booleans()):  # a compound trigger over (some of) a node's descendants
        owner = draw(st.sampled_from(parents))
        members = [child for child in nodes[owner]["children"] if 0 <= child < count]
        for member in members:
            nodes[member].setdefault("extensions", {})["OMI_physics_body"] = {"trigger": {"shape": draw(SMALL_INDEX)}}
        trigger = draw(st.sampled_from([{}, {"nodes": members}, {"nodes": [*members, draw(SMALL_INDEX)]}]))
        nodes[owner].setdefault("extensions", {})["OMI_physics_body"] = {"trigger": trigger}
    document_extensions = draw(st.fixed_dictionaries({
        "OMI_physics_shape": mostly(st.fixed_dictionaries({"shapes": st.lists(SHAPE, min_size=1, max_size=4)})),
        "OMI_physics_joint": mostly(st.fixed_dictionaries({"physicsJoints": st.lists(
            mostly(_object(limits=st.lists(LIMIT, max_size=3), drives=st.lists(DRIVE, max_size=2))),
            min_size=1, max_size=3)})),
    }, optional={
        "OMI_physics_body": _object(physicsMaterials=st.lists(mostly(MATERIAL), max_size=3),
                                    collisionFilters=st.lists(mostly(FILTER), max_size=3)),
        "OMI_collider": _object(colliders=st.lists(SHAPE, max_size=3)),
    }))
    return {"asset": {"version": "2.0"}, "extensionsUsed": list(OMI_NAMES), "extensions": document_extensions,
            "meshes": [{"name": "M0", "primitives": [{"attributes": {"POSITION": 0}}]}, {"name": "M1"}],
            "accessors": [{"count": 8}], "nodes": nodes}


def _omi_paths(gltf: dict[str, Any]) -> list[tuple[Any, ...]]:
    """Paths (tuples of keys) to every value inside the OMI extension objects of a document."""
    roots: list[tuple[str | int, ...]] = [
        ("extensions", name) for name in OMI_NAMES if name in gltf.get("extensions", {})]
    for index, node in enumerate(gltf.get("nodes", [])):
        roots += [("nodes", index, "extensions", name) for name in OMI_NAMES if name in node.get("extensions", {})]
    found: list[tuple[Any, ...]] = []

    def walk(value: Any, path: Any) -> None:
        found.append(path)
        if isinstance(value, dict):
            for key, child in value.items():
                walk(child, (*path, key))
        elif isinstance(value, list):
            for position, child in enumerate(value):
                walk(child, (*path, position))

    for root in roots:
        walk(value_at(gltf, root), root)
    return found


def value_at(value: Any, path: Any) -> Any:
    for token in path:
        value = value[token]
    return value


@st.composite
def mutated_examples(draw: Any, examples: list[dict[str, Any]]) -> dict[str, Any]:
    """A spec example with 1-4 values replaced, deleted, retyped or OMI keys added."""
    gltf = copy.deepcopy(draw(st.sampled_from(examples)))
    for _ in range(draw(st.integers(1, 4))):
        paths = _omi_paths(gltf)
        if not paths:
            break
        path = draw(st.sampled_from(paths))
        parent, key = (value_at(gltf, path[:-1]), path[-1]) if len(path) > 1 else (None, None)
        target = value_at(gltf, path)
        action = draw(st.sampled_from(["replace", "delete", "add", "stringify"]))
        if action == "add" and isinstance(target, dict):
            target[draw(st.sampled_from(OMI_KEYS))] = draw(JSON_VALUES)
        elif action == "delete" and parent is not None and len(path) > 2:
            del parent[key]
        elif action == "stringify" and parent is not None:
            parent[key] = json.dumps(target, allow_nan=True)
        elif parent is not None:
            parent[key] = draw(JSON_VALUES)
    value: dict[str, Any] = gltf
    return value


def omi_held(nodes: dict[int, Any]) -> dict[int, Any]:
    """The nodes as OMI holds them: KHR's infinite mass and inertia (math.inf) are left out (named on write); a
    centre of mass left to the engine (None) is OMI's absent key, the origin (noted on write); a drive type or
    mode the spec does not know is the field's fallback with the file's spelling kept."""
    def finite(motion: Any) -> Any:
        if motion is None:
            return motion
        if motion.center_of_mass is None:
            motion = dataclasses.replace(motion, center_of_mass=model.ZERO3)
        if math.isinf(motion.mass):
            motion = dataclasses.replace(motion, mass=model.DEFAULT_MASS)
        if any(math.isinf(value) for value in motion.inertia_diagonal):
            motion = dataclasses.replace(motion, inertia_diagonal=model.ZERO3)
        return motion

    held_choice = conventions.held_choice

    # KHR keeps an unknown drive type or mode as is; OMI reads its fallback and keeps the spelling
    def held(drive: Any) -> Any:
        spelled = {key: value for key, value, choices in (("type", drive.type, model.DRIVE_TYPES),
                                                          ("mode", drive.mode, model.DRIVE_MODES))
                   if value not in choices}
        if not spelled:
            return drive
        return dataclasses.replace(drive, type=held_choice(drive.type, model.DRIVE_TYPES),
                                   mode=held_choice(drive.mode, model.DRIVE_MODES),
                                   unknown=model.Unknown(spelled, omi.NAME))

    def joint(value: Any) -> Any:
        if value is None or not any(held(drive) is not drive for drive in value.settings.drives):
            return value
        settings = dataclasses.replace(value.settings, drives=tuple(held(drive) for drive in value.settings.drives))
        return dataclasses.replace(value, settings=settings)

    return {index: dataclasses.replace(node, motion=finite(node.motion), joint=joint(node.joint))
            for index, node in nodes.items()}
