"""The third hostile round (issue #35), command-line cases: JSON that is no glTF object, integers too long for
Python's int(), animation pointers whose node index is not ASCII digits. Pure Python, no bpy: like
cli_corpus.py, `write_round_three(folder, good)` lays out each case's files (one subfolder each) and returns
the cases; tests/blender/scenarios/test_hostile_cli_outputs.py runs them. The URI cases of the round are in
tests/blender/cli/test_cli_uris.py, the interrupted and out-of-memory runs there too.
"""

from __future__ import annotations

import base64
import json
import math
import struct
from pathlib import Path
from typing import Any

from hostile.cli_corpus import CliCase
from hostile.round_two import _animated, _mixed

BODY = "OMI_physics_body"
INDEX_TOKENS = {"superscript": "\u00b2", "fullwidth": "\uff11", "arabic_indic": "\u0661", "leading_zero": "01"}


def _velocity_of_digits(good: dict[str, Any], digits: int) -> str:
    """The good document with a dynamic body whose linearVelocity's x is an integer of `digits` digits."""
    document = json.loads(json.dumps(good))
    document["nodes"][0]["extensions"][BODY]["motion"] = {"type": "dynamic", "linearVelocity": [0, 0, 0]}
    return json.dumps(document).replace('"linearVelocity": [0, 0, 0]', f'"linearVelocity": [{"9" * digits}, 0, 0]')


def write_round_three(folder: Path, good: dict[str, Any]) -> dict[str, CliCase]:
    cases: dict[str, CliCase] = {}

    def case(name: str, built: CliCase, text: str) -> None:
        cases[name] = built
        (folder / name).mkdir(parents=True, exist_ok=True)
        (folder / name / "in.gltf").write_text(text, encoding="utf-8")

    for kind, text, said in (("array", f"[{json.dumps(good)}]", "an array"), ("null", "null", "null"),
                             ("string", '"glTF"', "a string")):
        for command, extra in (("validate", ()), ("upgrade", ("--out", "out.gltf")),
                               ("convert", ("--to", "KHR", "--out", "out.gltf")), ("import", ("--out", "x.blend"))):
            case(f"{kind}_json_{command}", CliCase([command, "in.gltf", *extra], 2,
                                                   (f"in.gltf: error: cannot read: the file holds {said}, not a glTF "
                                                    "object",)), text)

    pointer = f"/nodes/0/extensions/{BODY}/motion/linearVelocity/0"
    text = _velocity_of_digits(good, 5000)
    for command, extra in (("validate", ()), ("upgrade", ("--out", "out.gltf")),
                           ("convert", ("--to", "KHR", "--out", "out.gltf"))):
        said = f"error {pointer}: linearVelocity item must be a finite number"
        case(f"digits_5000_{command}", CliCase([command, "in.gltf", *extra], 1, (said,)), text)
    case("digits_5000_import", CliCase(["import", "in.gltf", "--out", "x.blend"], 1, (  # Blender's parse allowed
        f"({pointer}): linearVelocity item must be a finite number", "8 objects, 6 with OMI physics, 1 error"),
        check=lambda where: (where / "x.blend").is_file()), text)
    case("digits_200000_import", CliCase(["import", "in.gltf", "--out", "x.blend"], 1, (  # beyond the add-on's room
        "Blender could not import it", "digits")), _velocity_of_digits(good, 200_000))

    for name, token in INDEX_TOKENS.items():
        animated = json.dumps(_animated([0, 1], [1, 2], pointer=f"/nodes/{token}/extensions/{BODY}/motion/mass"),
                              ensure_ascii=False)
        said = f"/nodes/{token}/extensions/{BODY}/motion/mass is not a physics property"
        case(f"index_{name}_validate", CliCase(["validate", "in.gltf"], 0, (said,)), animated)
        case(f"index_{name}_convert", CliCase(  # not re-pointed to node 1: named as animating nothing
            ["convert", "in.gltf", "--to", "KHR", "--out", "out.gltf"], 1,
            (f"1 animation channel(s) point into {BODY}, which the KHR output does not have",)), animated)
        case(f"index_{name}_convert_forced", CliCase(  # and forced, dropped rather than left dangling
            ["convert", "in.gltf", "--to", "KHR", "--force", "--out", "out.gltf"], 1, ("the channels are dropped",),
            check=lambda where: _pointers(where / "out.gltf") == []), animated)
        case(f"index_{name}_import", CliCase(["import", "in.gltf", "--out", "x.blend", "--verbose"], 0, ()), animated)
    for name, joints, status, said in (
            ("skin_joint_99", [0, 99], 1, "error /skins/0/joints/1: joint 99 is not a node index (Blender's glTF "
                                          "importer cannot open the file)"),
            ("skin_joint_twice", [0, 1, 0], 1, "error /skins/0/joints/2: node 0 is a joint of this skin twice")):
        case(f"{name}_validate", CliCase(["validate", "in.gltf"], status, (said,)), json.dumps({**good, "skins": [
            {"joints": joints}]}))
    case("skin_joint_99_import", CliCase(["import", "in.gltf", "--out", "x.blend"], 1, (
        "in.gltf: error: Blender's glTF importer cannot open it: joint 99 is not a node index (/skins/0/joints/1)",)),
         json.dumps({**good, "skins": [{"joints": [0, 99]}]}))

    required = json.dumps({**good, "extensionsUsed": [*good["extensionsUsed"], "KHR_physics_soft_bodies"],
                           "extensionsRequired": ["KHR_physics_soft_bodies", "OMI_physics_body"]})
    case("required_unknown_validate", CliCase(["validate", "in.gltf"], 1, (
        "error /extensionsRequired/0: requires KHR_physics_soft_bodies, which neither Blender's glTF importer nor "
        "this add-on reads",)), required)
    case("required_unknown_import", CliCase(["import", "in.gltf", "--out", "x.blend"], 1, (
        "Blender's glTF importer cannot open it: requires KHR_physics_soft_bodies",)), required)
    mixed = json.dumps(_mixed())  # node 2 'Crate' carries OMI mass 5 and KHR mass 3
    for target in ("KHR", "OMI"):
        case(f"mixed_disagree_to_{target.lower()}", CliCase(
            ["convert", "in.gltf", "--to", target, "--out", "out.gltf"], 1,
            ("error /nodes/2/extensions: node 2 'Crate' carries both OMI and KHR physics that differ: convert writes "
             "the OMI physics and the KHR copy's values are lost", "NOT written"),
            check=lambda where: not (where / "out.gltf").exists()), mixed)
    gravity = _animated([0, 1], [9.8, 1.6], pointer="/extensions/OMI_physics_gravity/gravity")
    gravity["extensionsUsed"].append("OMI_physics_gravity")
    gravity["extensions"]["OMI_physics_gravity"] = {"gravity": 9.8, "direction": [0, -1, 0]}
    gravity["animations"][0]["channels"].append(json.loads(json.dumps(gravity["animations"][0]["channels"][0])))
    case("gravity_channels_to_khr_forced", CliCase(
        ["convert", "in.gltf", "--to", "KHR", "--force", "--out", "out.gltf"], 1,
        ("error /animations/0/channels/0/target/extensions/KHR_animation_pointer/pointer: 2 animation channel(s) "
         "point into OMI_physics_gravity, which the KHR output does not have: the channels are dropped too",),
        check=lambda where: _pointers(where / "out.gltf") == []), json.dumps(gravity))
    for target, label in (("godot", "Godot 4"), ("OMI", "OMI")):
        case(f"dropped_volume_channel_to_{target.lower()}_forced", CliCase(
            ["convert", "in.gltf", "--to", target, "--force", "--out", "out.gltf"], 1,
            ("error /animations/0/channels/0/target/extensions/KHR_animation_pointer/pointer: 1 animation channel(s) "
             f"point into OMI_physics_gravity at values the {label} output does not have (first: "
             "/nodes/0/extensions/OMI_physics_gravity/gravity): the channels are dropped too",
             "error /nodes/0/extensions/OMI_physics_gravity: OMI_physics_gravity on a node that is not a trigger"),
            check=lambda where: _only_the_mass_channel(where / "out.gltf")),
             json.dumps(dropped_volume_channel(good)))
    for name, priority, kept in (("1e20", 1e20, "2147483647"), ("2_31", 2 ** 31, "2147483647"),
                                 ("10_30", 10 ** 30, "2147483647"), ("minus_2_63", -2 ** 63, "-2147483648")):
        said = (f"warning /nodes/6/extensions/OMI_physics_gravity/priority: priority {int(priority)} is beyond a "
                f"32-bit integer, which Blender stores: it becomes {kept}")
        case(f"gravity_priority_{name}_validate", CliCase(["validate", "in.gltf"], 0, (said,)),
             json.dumps(gravity_volume(good, priority)))
    case("gravity_beyond_float32_validate", CliCase(["validate", "in.gltf"], 0, (
        "warning /extensions/OMI_physics_gravity/gravity: gravity 1e+39 is beyond float32",
        "warning /nodes/6/extensions/OMI_physics_gravity/gravity: gravity 1e+308 is beyond float32")),
         json.dumps(gravity_volume(good, 0, 1e308, 1e39)))
    case("nan_inverse_bind_matrix_validate", CliCase(["validate", "in.gltf"], 1, (
        "error /skins/0/inverseBindMatrices: the inverse bind matrices of 1 joint(s) (first: joint 1) hold NaN",)),
         json.dumps(nan_bind_matrices(good)))
    gravity_at = "/nodes/6/extensions/OMI_physics_gravity"
    for name, pointer, values, volume, said in (
            ("priority_keyed_1_5", f"{gravity_at}/priority", [1.5, 2.0], {}, "keys priority at 1.5, which is not an "
                                                                             "integer; channel not imported"),
            ("points_keyed_5_per_key", f"{gravity_at}/line/points", [0.0] * 10,
             {"type": "line", "line": {"points": [0, 0, 0, 0, 1, 0]}},
             "keys 5 numbers per key for points, which wants 3 per point and at least 2 points")):
        animated = _animated([0, 1], values, pointer=pointer)
        document = {**gravity_volume(good, 0), **{key: animated[key] for key in ("buffers", "bufferViews",
                                                                                  "accessors", "animations")}}
        document["extensionsUsed"].append("KHR_animation_pointer")
        document["nodes"][6]["extensions"]["OMI_physics_gravity"].update(volume)
        if volume:
            del document["nodes"][6]["extensions"]["OMI_physics_gravity"]["directional"]
        case(f"gravity_{name}_validate", CliCase(["validate", "in.gltf"], 1, (said,)), json.dumps(document))
    return cases


def dropped_volume_channel(good: dict[str, Any]) -> dict:
    """A gravity volume on the static 'Ground' (no trigger: the reader drops it) keyed by the first of two
    channels; the second keys the dynamic 'Door''s mass. Converted, the first animates nothing."""
    animated = _animated([0, 1], [9.8, 1.6], pointer="/nodes/0/extensions/OMI_physics_gravity/gravity")
    document = {**gravity_volume(good, 0), **{key: animated[key] for key in ("buffers", "bufferViews", "accessors",
                                                                              "animations")}}
    document["extensionsUsed"].append("KHR_animation_pointer")
    nodes = document["nodes"]
    nodes[0]["extensions"]["OMI_physics_gravity"] = nodes[6]["extensions"].pop("OMI_physics_gravity")
    animation = document["animations"][0]
    animation["samplers"].append(dict(animation["samplers"][0]))
    animation["channels"].append({"sampler": 1, "target": {"path": "pointer", "extensions": {
        "KHR_animation_pointer": {"pointer": f"/nodes/1/extensions/{BODY}/motion/mass"}}}})
    return document


def nan_bind_matrices(good: dict[str, Any]) -> dict:
    """The good document with a skin of two joints (its nodes 0 and 1) whose second inverse bind matrix is NaN."""
    identity = [1.0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]
    data = struct.pack("<32f", *identity, *([math.nan] * 16))
    document = json.loads(json.dumps(good))
    buffers = document.setdefault("buffers", [])
    views, accessors = document.setdefault("bufferViews", []), document.setdefault("accessors", [])
    buffers.append({"byteLength": len(data), "uri": "data:application/octet-stream;base64,"
                                                     + base64.b64encode(data).decode("ascii")})
    views.append({"buffer": len(buffers) - 1, "byteLength": len(data)})
    accessors.append({"bufferView": len(views) - 1, "componentType": 5126, "count": 2, "type": "MAT4"})
    document["skins"] = [{"joints": [0, 1], "inverseBindMatrices": len(accessors) - 1}]
    return document


def gravity_volume(good: dict[str, Any], priority: float, strength: float = 9.8, world: float = 9.8) -> dict:
    """The good document with world gravity and a directional volume on its trigger node 6 'Zone'."""
    document = json.loads(json.dumps(good))
    document["extensionsUsed"].append("OMI_physics_gravity")
    document.setdefault("extensions", {})["OMI_physics_gravity"] = {"gravity": world, "direction": [0, -1, 0]}
    document["nodes"][6]["extensions"]["OMI_physics_gravity"] = {
        "type": "directional", "gravity": strength, "priority": priority, "directional": {"direction": [0, -1, 0]}}
    return document


def _only_the_mass_channel(path: Path) -> bool:
    """The written file keeps the mass channel, renumbered onto its own sampler, and nothing else animated."""
    [animation] = json.loads(path.read_text(encoding="utf-8"))["animations"]
    return _pointers(path) == [f"/nodes/1/extensions/{BODY}/motion/mass"] and len(animation["samplers"]) == 1 \
        and animation["channels"][0]["sampler"] == 0


def _pointers(path: Path) -> list[str]:
    """The animation pointers of a written file (a converted channel is never re-pointed to a real node)."""
    document = json.loads(path.read_text(encoding="utf-8"))
    return [channel["target"]["extensions"]["KHR_animation_pointer"]["pointer"]
            for animation in document.get("animations", []) for channel in animation["channels"]]
