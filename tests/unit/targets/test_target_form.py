"""An engine target is a `Target` value whose form is said in `io/omi/targets/form.py`'s vocabulary: a toy
engine registered from here, with a channel rewrite over keyed values, a step that moves render meshes to
children (their morph weights' channels follow) and bakes moving bodies' scale (`targets/scale_bake.py`),
is converted by the command line's `convert` with no other file of the add-on changed. And the Godot
target's own folder is imported by nothing but its registration."""

from __future__ import annotations

import ast
import base64
import json
import struct
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from omi_core.cli import convert_file
from omi_core.dialects import registry
from omi_core.dialects.omi import BODY_EXTENSION, SHAPE_EXTENSION
from omi_core.model import Issue
from omi_core.targets import form, scale_bake

ROOT = Path(__file__).resolve().parents[3]
RADIUS = f"/extensions/{SHAPE_EXTENSION}/shapes/0/sphere/radius"


def _diameters(_type: str, _still: Mapping[str, float], keyed: Mapping[str, form.Keys]) \
        -> tuple[dict[str, form.Keys], str | None]:
    """The toy engine plays a sphere's radius channel as its diameter."""
    interpolation, times, values = keyed["radius"]
    return {"radius": (interpolation, times, [2.0 * value for value in values])}, None


DIAMETERS = form.ChannelRewrite(SHAPE_EXTENSION, "shapes", frozenset({"sphere"}), ("radius",), _diameters,
                                "sphere channels", "the toy form", "diameters", "toy.channels")


def _step(document: dict[str, Any]) -> form.Form:
    """Render meshes on children of the same name; moving bodies' scale baked into their shapes."""
    nodes = document["nodes"]
    shapes = document["extensions"][SHAPE_EXTENSION]["shapes"]
    lost: list[str] = []
    changes, mesh_scales, part_moves = scale_bake.bake(nodes, shapes, lambda what, name: lost.append(name))
    moves = [form.NewNode(index, node.get("name"), scale=mesh_scales.get(index), takes_mesh=True)
             for index, node in enumerate(nodes) if "mesh" in node]
    return form.Form(changes, moves + scale_bake.part_nodes(nodes, part_moves),
                     [Issue("", "the toy engine ignores everything else", kind="toy")])


@pytest.fixture
def toy_engine() -> Iterator[str]:
    registry.register(registry.Target("TOY_ENGINE", 98, "Toy engine", "", (registry.default().name,),
                                      form=(DIAMETERS, _step)))
    yield "TOY_ENGINE"
    registry.unregister("TOY_ENGINE")


def _keys(document: dict[str, Any], numbers: list[float]) -> int:
    data = struct.pack(f"<{len(numbers)}f", *numbers)
    document["buffers"].append({"byteLength": len(data),
                                "uri": "data:application/octet-stream;base64," + base64.b64encode(data).decode()})
    document["bufferViews"].append({"buffer": len(document["buffers"]) - 1, "byteLength": len(data)})
    document["accessors"].append({"bufferView": len(document["bufferViews"]) - 1, "componentType": 5126,
                                  "count": len(numbers), "type": "SCALAR", "min": [min(numbers)],
                                  "max": [max(numbers)]})
    return len(document["accessors"]) - 1


def _scene() -> dict[str, Any]:
    """'Ball': a body with a render mesh, its sphere's radius and its morph weights animated; 'Crate': a
    moving body scaled 2 along X."""
    document: dict[str, Any] = {
        "asset": {"version": "2.0"}, "extensionsUsed": [SHAPE_EXTENSION, BODY_EXTENSION, "KHR_animation_pointer"],
        "extensions": {SHAPE_EXTENSION: {"shapes": [{"type": "sphere", "sphere": {"radius": 0.5}},
                                                    {"type": "box", "box": {"size": [1.0, 1.0, 1.0]}}]}},
        "meshes": [{"primitives": [], "weights": [0.0]}],
        "nodes": [{"name": "Ball", "mesh": 0, "extensions": {BODY_EXTENSION: {
                       "motion": {"type": "dynamic"}, "collider": {"shape": 0}}}},
                  {"name": "Crate", "scale": [2.0, 1.0, 1.0], "extensions": {BODY_EXTENSION: {
                      "motion": {"type": "dynamic"}, "collider": {"shape": 1}}}}],
        "scenes": [{"nodes": [0, 1]}], "buffers": [], "bufferViews": [], "accessors": []}
    times = _keys(document, [0.0, 1.0])
    samplers = [{"input": times, "output": _keys(document, [0.5, 1.0]), "interpolation": "LINEAR"},
                {"input": times, "output": _keys(document, [0.0, 1.0]), "interpolation": "LINEAR"}]
    document["animations"] = [{"samplers": samplers, "channels": [
        {"sampler": 0, "target": {"path": "pointer", "extensions": {"KHR_animation_pointer": {"pointer": RADIUS}}}},
        {"sampler": 1, "target": {"node": 0, "path": "weights"}}]}]
    return document


def _values(document: dict[str, Any], accessor: int) -> list[float]:
    view = document["bufferViews"][document["accessors"][accessor]["bufferView"]]
    data = base64.b64decode(document["buffers"][view["buffer"]]["uri"].split(",", 1)[1])
    return list(struct.unpack_from(f"<{document['accessors'][accessor]['count']}f", data, view.get("byteOffset", 0)))


def test_a_toy_engine_is_converted_through_its_form(toy_engine: str, tmp_path: Path) -> None:
    source, out = tmp_path / "scene.gltf", tmp_path / "toy.gltf"
    source.write_text(json.dumps(_scene()), encoding="utf-8")
    result = convert_file.convert_one((str(source), str(out), toy_engine, False, None))
    assert result["status"] == "written", result
    written = json.loads(out.read_text(encoding="utf-8"))
    nodes = written["nodes"]
    assert [node.get("name") for node in nodes] == ["Ball", "Crate", "Ball"]
    assert "mesh" not in nodes[0] and nodes[0]["children"] == [2] and nodes[2]["mesh"] == 0  # the mesh moved
    assert "scale" not in nodes[1]  # the crate's scale is in its shape
    shapes = written["extensions"][SHAPE_EXTENSION]["shapes"]
    assert shapes[nodes[1]["extensions"][BODY_EXTENSION]["collider"]["shape"]]["box"]["size"] == [2.0, 1.0, 1.0]
    channels = {json.dumps(channel["target"], sort_keys=True): channel["sampler"]
                for channel in written["animations"][0]["channels"]}
    samplers = written["animations"][0]["samplers"]
    weights = channels.pop(json.dumps({"node": 2, "path": "weights"}, sort_keys=True))  # followed its mesh
    assert _values(written, samplers[weights]["output"]) == [0.0, 1.0]
    [(target, radius)] = channels.items()
    assert json.loads(target)["extensions"]["KHR_animation_pointer"]["pointer"] == RADIUS
    assert _values(written, samplers[radius]["output"]) == [1.0, 2.0]  # rewritten: the diameters
    messages = [issue["message"] for issue in result["issues"]]
    assert f"sphere channels rewritten in the toy form (diameters): {RADIUS.rsplit('/', 2)[0]}" in messages
    assert "the toy engine ignores everything else" in messages


def test_a_channel_rewrite_after_a_step_is_refused() -> None:
    """The export rewrites the sampled channels before the finished document's steps run: a form says so."""
    with pytest.raises(ValueError, match="channel rewrites come before its steps"):
        registry.register(registry.Target("TOY_ENGINE", 98, "Toy engine", "", (registry.default().name,),
                                          form=(_step, DIAMETERS)))
    assert "TOY_ENGINE" not in registry.target_names()


def test_linear_samplers_are_part_of_the_form_and_come_first() -> None:
    """Whether the export writes a target's physics channels LINEAR is what its form says (it once was a flag
    of its own beside the form); the channel rewrites read LINEAR keys, so that part comes first."""
    assert not registry.target("godot").cubic_channels and not registry.target("godot_omi").cubic_channels
    assert registry.target(registry.default().name).cubic_channels
    with pytest.raises(ValueError, match="interpolation, then its channel rewrites come before its steps"):
        registry.register(registry.Target("TOY_ENGINE", 98, "Toy engine", "", (registry.default().name,),
                                          form=(DIAMETERS, form.LinearSamplers("Toy engine", "toy.linear"))))
    assert "TOY_ENGINE" not in registry.target_names()


# --- the Godot target's folder: imported by its registration alone --------------------------------------------

GODOT = ("io", "omi", "targets", "godot")
REGISTRATION = ROOT / "io" / "omi" / "dialects" / "builtin.py"


def imported(path: Path) -> set[tuple[str, ...]]:
    """The add-on modules a file imports, as package paths (`from ..targets import godot` gives both)."""
    return imported_from(path.read_text(encoding="utf-8"), path.relative_to(ROOT).with_suffix("").parts[:-1])


def imported_from(text: str, package: tuple[str, ...]) -> set[tuple[str, ...]]:
    found: set[tuple[str, ...]] = set()
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.ImportFrom) and node.level > 0:
            base = package[:len(package) - (node.level - 1)] if node.level > 1 else package
            target = (*base, *(node.module.split(".") if node.module else ()))
            found.add(target)
            found.update((*target, alias.name) for alias in node.names)
    return found


def godot_importers() -> list[str]:
    sources = [path for path in ROOT.glob("**/*.py") if not any(part.startswith(".") for part in
                                                                path.relative_to(ROOT).parts)
               and path.relative_to(ROOT).parts[0] in ("io", "properties", "operators", "panels", "viewport")]
    assert len(sources) > 100
    return sorted(str(path.relative_to(ROOT)) for path in sources
                  if path.relative_to(ROOT).parts[:4] != GODOT and path != REGISTRATION
                  and any(module[:4] == GODOT for module in imported(path)))


def test_nothing_but_its_registration_imports_the_godot_target() -> None:
    assert godot_importers() == []
    assert any(module[:4] == GODOT for module in imported(REGISTRATION))


def test_the_import_check_sees_an_import() -> None:
    write = ("io", "omi", "write")
    assert (*GODOT, "layout") in imported_from("from ..targets.godot import layout\n", write)
    assert GODOT in imported_from("from ..targets import godot\n", write)
    assert not any(module[:4] == GODOT for module in imported_from("from ..targets import form\n", write))
