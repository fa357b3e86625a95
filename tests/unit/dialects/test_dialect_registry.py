"""Dialects, export targets and extension units are registered units (`io/omi/dialects/registry.py`).

A toy dialect registered from this folder (toy_dialect.py) is read, written, validated and converted by the
add-on's own reader, writer, `validate` and `convert`, with no change elsewhere; and no module of the add-on
spells a dialect's name outside its dialect module and the registry.
"""

from __future__ import annotations

import ast
import dataclasses
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import toy_dialect
from omi_core import model
from omi_core.cli import convert_file, validate_file
from omi_core.dialects import base, registry
from omi_core.read import reader
from omi_core.targets import form
from omi_core.write import dialect_convert, writer
from present import present

ROOT = Path(__file__).resolve().parents[3]

TOY_FILE = {
    "asset": {"version": "2.0"},
    "extensionsUsed": [toy_dialect.SHAPE, toy_dialect.BODY],
    "extensions": {toy_dialect.SHAPE: {"shapes": [{"type": "box", "box": {"size": [2.0, 1.0, 1.0]}}]}},
    "nodes": [{"name": "crate", "extensions": {toy_dialect.BODY: {"motion": {"type": "dynamic", "weight": 5.0},
                                                                  "collider": {"shape": 0}}}},
              {"name": "floor", "extensions": {toy_dialect.BODY: {"collider": {"shape": 0}}}}],
}


@pytest.fixture
def toy() -> Iterator[Any]:
    toy_dialect.register()
    yield toy_dialect
    toy_dialect.unregister()


def test_the_toy_is_read_by_the_reader(toy: Any) -> None:
    doc = reader.read_document(TOY_FILE)
    assert doc.issues == []
    crate = doc.nodes[0]
    assert present(crate.motion).mass == 5.0 and present(present(crate.collider).shape).size == (2.0, 1.0, 1.0)
    assert doc.nodes[1].motion is None and present(doc.nodes[1].collider).shape == present(crate.collider).shape


def test_the_toy_is_written_by_the_writer(toy: Any) -> None:
    written = writer.write_document(reader.read_document(TOY_FILE), TOY_FILE, (toy.NAME,))
    assert written == TOY_FILE  # the toy's own spelling back, a fixed point


def test_the_toy_is_validated(toy: Any, tmp_path: Path) -> None:
    validate_one = validate_file.validate_one
    path = tmp_path / "toy.gltf"
    path.write_text(json.dumps(TOY_FILE))
    assert validate_one((str(path), None))["issues"] == []
    broken = json.loads(json.dumps(TOY_FILE))
    broken["nodes"][0]["extensions"][toy.BODY]["motion"]["weight"] = -1
    path.write_text(json.dumps(broken))
    pointers = {(item["pointer"], item["severity"]) for item in validate_one((str(path), None))["issues"]}
    assert (f"/nodes/0/extensions/{toy.BODY}/motion/weight", "error") in pointers  # the tables' bound
    broken["nodes"][0]["extensions"][toy.BODY]["motion"]["weight"] = "heavy"
    path.write_text(json.dumps(broken))
    messages = [item["message"] for item in validate_one((str(path), None))["issues"]]
    assert "weight must be a number" in messages  # the toy's own schema check


def test_the_toy_is_converted_both_ways(toy: Any, tmp_path: Path) -> None:
    convert, convert_one = dialect_convert.convert, convert_file.convert_one
    omi_file = convert(TOY_FILE, "OMI")
    assert omi_file.source == toy.NAME and omi_file.lost == []
    omi_body = omi_file.document["nodes"][0]["extensions"]["OMI_physics_body"]
    assert omi_body["motion"] == {"type": "dynamic", "mass": 5.0}
    assert not any(name.startswith("TOY") for name in json.dumps(omi_file.document).split('"'))
    assert toy.NAME in dialect_convert.targets()
    source, target = tmp_path / "omi.gltf", tmp_path / "toy.gltf"
    source.write_text(json.dumps(omi_file.document))
    result = convert_one((str(source), str(target), toy.NAME, False, None))
    assert result["status"] == "written", result
    assert json.loads(target.read_text()) == TOY_FILE


def test_convert_checks_the_file_with_the_target_dialects_schema(toy: Any, tmp_path: Path) -> None:
    """`convert --to TOY` checks what it wrote with the toy's own schema check (a unit whose check refuses
    everything: its finding is in the result), not the default dialect's."""
    refusing = dataclasses.replace(toy.UNIT, schema_check=lambda _document, _spec, _legacy: [
        model.Issue("/nodes/0", "the toy's schema refuses this", "error")])
    registry.register(refusing)
    source, target = tmp_path / "omi.gltf", tmp_path / "toy.gltf"
    source.write_text(json.dumps(dialect_convert.convert(TOY_FILE, "OMI").document))
    result = convert_file.convert_one((str(source), str(target), toy.NAME, False, None))
    assert "the converted file fails the schema: the toy's schema refuses this" in \
        [issue["message"] for issue in result["issues"]], result


def test_the_toy_leaves_with_its_registration(toy: Any) -> None:
    toy.unregister()
    assert toy.NAME not in registry.names() and toy.NAME not in dialect_convert.targets()
    doc = reader.read_document(TOY_FILE)
    assert doc.nodes == {}  # no dialect reads its extensions now
    toy.register()


def test_targets_have_stable_distinct_numbers() -> None:
    numbers = [target.number for target in registry.targets()]
    assert len(set(numbers)) == len(numbers)
    with pytest.raises(ValueError, match="taken"):
        registry.register(registry.Target("AGAIN", numbers[0], "again", "", (registry.default().name,)))


def test_kept_keys_are_spelled_by_the_dialect_that_keeps_them() -> None:
    """The model names no dialect: the registry says which keeps unknown keys (the spelling Blender stores them
    in); with none keeping them, the default's."""
    keeper = registry.get(registry.kept_keys_dialect())
    assert keeper.tables.keeps_unknown and keeper.name == "OMI"
    registry.register(dataclasses.replace(keeper, tables=dataclasses.replace(keeper.tables, keeps_unknown=False)))
    try:
        assert registry.kept_keys_dialect() == registry.default().name
    finally:
        registry.register(keeper)


def test_for_extensions_names_the_owning_dialect() -> None:
    default = registry.default()
    assert registry.for_extensions(default.owns[:1]) == (default,)
    assert registry.for_extensions(["EXT_unrelated"]) == ()


# --- no dialect name outside its module and the registry ------------------------------------------------------

ADDON_DIRS = ("io", "properties", "operators", "panels", "viewport")
ALLOWED = {"io/omi/dialects/registry.py", "io/omi/dialects/builtin.py"}  # the registry and the built-in units


def dialect_modules() -> set[str]:
    """The modules that declare a unit's name (`NAME = ...` at module level in io/omi/dialects, io/omi/targets)."""
    found = set()
    for path in [*(ROOT / "io" / "omi" / "dialects").glob("*.py"), *(ROOT / "io" / "omi" / "targets").glob("*.py")]:
        tree = ast.parse(path.read_text())
        if any(isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "NAME" for t in node.targets)
               for node in tree.body):
            found.add(str(path.relative_to(ROOT)))
    return found


def spelled_names(path: Path, names: set[str]) -> list[tuple[int, str]]:
    return [(node.lineno, node.value) for node in ast.walk(ast.parse(path.read_text()))
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.upper() in names]


def test_no_dialect_name_outside_its_module_and_the_registry() -> None:
    names = {name.upper() for name in registry.names()} | {"BOTH"}
    allowed = ALLOWED | dialect_modules()
    sources = [path for path in sorted(ROOT.glob("**/*.py")) if path.relative_to(ROOT).parts[0] in ADDON_DIRS
               and not any(part.startswith(".") for part in path.relative_to(ROOT).parts)] + [ROOT / "__init__.py"]
    assert len(sources) > 100 and "io/omi/dialects/omi.py" in allowed
    found = {str(path.relative_to(ROOT)): spelled for path in sources
             if str(path.relative_to(ROOT)) not in allowed and (spelled := spelled_names(path, names))}
    assert found == {}


def test_the_name_check_sees_a_spelled_name(tmp_path: Path) -> None:
    module = tmp_path / "module.py"
    module.write_text('if dialect == "KHR" or target == "both":\n    pass\n')
    assert spelled_names(module, {"KHR", "BOTH"}) == [(1, "KHR"), (1, "both")]


# --- no physics JSON in the Blender export: it gathers model values, io/omi/write writes them -----------------

BLENDER_SIDE = ("io/blender", "properties", "operators", "panels", "viewport")  # and the hook modules, io/*.py
GLTF_CORE_KEYS = {"name", "mesh", "nodes", "extensions", "extras", "children"}  # glTF's own, not the physics'
# Names of the units' constants that hold extension names (besides every *_EXTENSION and *_EXTENSIONS)
NAME_CONSTANTS = {"BODY", "JOINT", "SHAPE", "LEGACY_COLLIDER", "GRAVITY", "OMI_EXTENSIONS", "ALL_OMI_EXTENSIONS"}
NOT_PHYSICS = {"ANIMATION_POINTER_EXTENSION"}  # glTF's KHR_animation_pointer: no unit's, the channels' carrier
# What the check still finds on the Blender side, by module: (the words it finds, why they are there). An entry
# that no longer offends fails the test: take it out.
_FIELD_NAMES = "model or PropertyGroup attribute names (values passed as keyword arguments), not JSON"
KNOWN: dict[str, tuple[set[str], str]] = {
    "io/blender/adopt/from_eoin.py": ({"mass"}, _FIELD_NAMES),
    "io/blender/animation/exports/sample.py": ({"shape"}, _FIELD_NAMES),
    "io/blender/builder/built_values.py": ({"mass", "restitution", "damping"}, "labels of Blender's rigid-body values"),
    "io/blender/import_repair.py": ({"mode", "type"}, "glTF's own primitive and accessor keys"),
    "io/import_nodes.py": ({"type", "min", "max"}, "glTF's own accessor keys"),
    "operators/sync_edits.py": ({"damping", "mass"}, "Blender's rigid-body values an edit changed"),
    "panels/draw.py": ({"stiffness"}, "the PropertyGroup properties the panel draws"),
    "properties/animated_settings.py": ({"motion", "shape", "joint"},
                                        "the settings' groups, named as the model's parts"),
    "properties/convert.py": ({"size", "height", "radius", "mass", "shape", "motion", "collider", "trigger"},
                              _FIELD_NAMES),
    "properties/convert_gravity.py": ({"radius", "shape"}, _FIELD_NAMES),
    "properties/convert_joint.py": ({"mode", "axis"}, _FIELD_NAMES),
    "properties/homes.py": ({"mass", "motion"},
                            "a stored ID property and the build's record of Blender's values (built_values)"),
    "properties/object.py": ({"shape"}, "a stored ID property"),
}


def physics_keys() -> set[str]:
    """Every key and extension name a registered dialect (or extension unit) writes, glTF's own words aside."""
    found: set[str] = set()
    for name in registry.names():
        found |= set(base.all_keys(registry.get(name).tables)) | set(registry.owned_names(name))
    return found - GLTF_CORE_KEYS


def json_spellings(path: Path, keys: set[str]) -> list[tuple[int, str]]:
    """Where a module spells physics JSON: an extension name in any string (docstrings aside), a key of
    `keys` used as one (a subscript, a dict display's key, a keyword of dict(), the first argument of
    get/pop/setdefault, either side of `in`), or a constant holding extension names."""
    tree = ast.parse(path.read_text())
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef) and node.body
                  and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}
    names = {key for key in keys if "_" in key and key[0].isupper()}  # the extension names
    used_as_key: list[ast.AST] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Subscript):
            used_as_key.append(node.slice)
        elif isinstance(node, ast.Dict):
            used_as_key.extend(key for key in node.keys if key is not None)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.args \
                and node.func.attr in ("get", "pop", "setdefault"):
            used_as_key.append(node.args[0])
        elif isinstance(node, ast.Compare) and any(isinstance(op, ast.In | ast.NotIn) for op in node.ops):
            used_as_key.extend((node.left, *node.comparators))
    found = [(node.lineno, node.value) for node in used_as_key
             if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in keys]
    found += [(node.lineno, keyword.arg) for node in ast.walk(tree) if isinstance(node, ast.Call)
              and isinstance(node.func, ast.Name) and node.func.id == "dict"
              for keyword in node.keywords if keyword.arg in keys]
    found += [(node.lineno, node.value) for node in ast.walk(tree) if isinstance(node, ast.Constant)
              and isinstance(node.value, str) and id(node) not in docstrings
              and any(name in node.value for name in names)]
    found += [(node.lineno, node.attr) for node in ast.walk(tree) if isinstance(node, ast.Attribute)
              and _holds_names(node.attr)]
    found += [(node.lineno, alias.name) for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
              for alias in node.names if _holds_names(alias.name)]
    return sorted(set(found))


def _holds_names(name: str) -> bool:
    """Whether a constant of this name holds extension names."""
    return name not in NOT_PHYSICS and (name in NAME_CONSTANTS or name.endswith(("_EXTENSION", "_EXTENSIONS")))


def blender_side() -> list[Path]:
    """The add-on's modules above io/omi: io/blender, the hooks (io/*.py), properties, operators, panels, viewport."""
    return sorted([*(ROOT / "io").glob("*.py"),
                   *(path for folder in BLENDER_SIDE for path in (ROOT / folder).glob("**/*.py"))])


def test_the_blender_side_spells_no_physics_json() -> None:
    """The export gathers model values and the import takes them (every key is the dialect units'); the Blender
    side asks the registry and the units for names and keys. What it still spells is KNOWN, with why."""
    keys = physics_keys()
    assert {"mass", "connectedNode", "shapes", "OMI_physics_body"} <= keys and "name" not in keys
    sources = blender_side()
    assert len(sources) > 100 and ROOT / "io" / "blender" / "export" / "scene.py" in sources
    found = {str(path.relative_to(ROOT)): {spelled for _line, spelled in found}
             for path in sources if (found := json_spellings(path, keys))}
    assert found == {path: words for path, (words, _why) in KNOWN.items()}


def dialect_imports(path: Path) -> list[tuple[int, str]]:
    """Where a module imports a dialect's own module (`dialects.omi`, `dialects.khr`, ...: a registered
    dialect's tables) instead of asking the registry."""
    dialects = {module.split("/")[-1].removesuffix(".py") for module in dialect_modules()
                if module.startswith("io/omi/dialects/")}
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module is not None:
            if node.module.split(".")[-1] in dialects and node.module.split(".")[-2:-1] == ["dialects"]:
                found.append((node.lineno, node.module))
            elif node.module.endswith("dialects"):
                found += [(node.lineno, alias.name) for alias in node.names if alias.name in dialects]
    return found


def test_the_blender_side_asks_the_registry_for_a_dialect() -> None:
    """io/blender, the hooks, properties, operators, panels and viewport find a dialect through the registry
    (`registry.get`, `default`, `dialect_of`), never by importing its module."""
    assert {"omi", "khr"} <= {module.split("/")[-1].removesuffix(".py") for module in dialect_modules()}
    found = {str(path.relative_to(ROOT)): spelled for path in blender_side() if (spelled := dialect_imports(path))}
    assert found == {}


def test_the_dialect_import_check_sees_an_import(tmp_path: Path) -> None:
    module = tmp_path / "module.py"
    module.write_text("from ..omi.dialects.khr import KHR\nfrom ..omi.dialects import omi, registry\n"
                      "from ..omi.dialects import pointers\n")
    assert dialect_imports(module) == [(1, "omi.dialects.khr"), (2, "omi")]


def test_the_json_check_sees_a_spelled_key(tmp_path: Path) -> None:
    module = tmp_path / "module.py"
    module.write_text('body["mass"] = 1\nx = {"connectedNode": 2}\ny = dict(z, connectedNode=3)\n'
                      'if "trigger" in body or body.get("collider"):\n    w = "OMI_physics_body"\n'
                      'v = model.BODY_EXTENSION\nfield(fields, "mass")\nfrom .omi import JOINT_EXTENSION\n'
                      'from .gravity import GRAVITY\nu = pointers.ANIMATION_POINTER_EXTENSION\n')
    assert [line for line, _key in json_spellings(module, physics_keys())] == [1, 2, 3, 4, 4, 5, 6, 8, 9]


def test_a_target_is_its_form_and_one_registration() -> None:
    """A registered target's form (node changes, new nodes, what it drops) is run by convert's applier."""

    def step(document: dict[str, Any]) -> form.Form:
        first = document["nodes"][0]
        return form.Form({0: {"scale": [2.0, 2.0, 2.0]}}, [form.NewNode(0, f"{first['name']} mesh", takes_mesh=True)],
                         [model.Issue("", "the toy engine ignores everything", kind="toy")])

    registry.register(registry.Target("TOY_ENGINE", 99, "Toy engine", "", (registry.default().name,), form=(step,)))
    try:
        gltf = {"asset": {"version": "2.0"}, "meshes": [{"primitives": []}],
                "nodes": [{"name": "crate", "mesh": 0}], "scenes": [{"nodes": [0]}]}
        done = dialect_convert.convert(gltf, "TOY_ENGINE")
    finally:
        registry.unregister("TOY_ENGINE")
    assert done.document["nodes"] == [{"name": "crate", "scale": [2.0, 2.0, 2.0], "children": [1]},
                                      {"mesh": 0, "name": "crate mesh"}]
    assert [issue.message for issue in done.issues] == ["the toy engine ignores everything"]
