"""`convert --to godot` of animated capsules and cylinders (io/omi/write/channel_rewrite.py): Godot 4.6
plays a shape's channels in its own form (tests/godot measures it), one radius and a capsule's full height,
so the channels of `radiusTop`, `radiusBottom` and `height` become Godot's `radius` and `height` channels.
Before, they were written as they were: a capsule's animated height played two radii short, and its
`radiusTop` channel pointed at a key the converted shape no longer has."""

from __future__ import annotations

import base64
import json
import struct
from pathlib import Path
from typing import Any

import pytest
from cli_run import run
from omi_core.animation import one_radius
from omi_core.targets.godot import channels as godot_channels

SHAPES = "/extensions/OMI_physics_shape/shapes"



def _document(shape: dict[str, Any], channels: dict[str, tuple[list[float], list[float]]],
              interpolation: str = "LINEAR") -> Any:
    """A dynamic body 'Pill' with `shape`, each pointer of `channels` keyed (times, values)."""
    document: dict[str, Any] = {
        "asset": {"version": "2.0"},
        "extensionsUsed": ["OMI_physics_shape", "OMI_physics_body", "KHR_animation_pointer"],
        "extensions": {"OMI_physics_shape": {"shapes": [shape]}},
        "nodes": [{"name": "Pill", "extensions": {"OMI_physics_body": {"motion": {"type": "dynamic"},
                                                                     "collider": {"shape": 0}}}}],
        "scenes": [{"nodes": [0]}], "buffers": [], "bufferViews": [], "accessors": [],
        "animations": [{"name": "Keys", "samplers": [], "channels": []}]}
    for pointer, (times, values) in channels.items():
        for numbers in (times, values):
            data = struct.pack(f"<{len(numbers)}f", *numbers)
            document["buffers"].append({"byteLength": len(data), "uri": "data:application/octet-stream;base64,"
                                        + base64.b64encode(data).decode()})
            document["bufferViews"].append({"buffer": len(document["buffers"]) - 1, "byteLength": len(data)})
            document["accessors"].append({"bufferView": len(document["bufferViews"]) - 1, "componentType": 5126,
                                          "count": len(numbers), "type": "SCALAR",
                                          **({"min": [min(numbers)], "max": [max(numbers)]}
                                             if numbers is times else {})})
        animation = document["animations"][0]
        animation["samplers"].append({"input": len(document["accessors"]) - 2,
                                      "output": len(document["accessors"]) - 1, "interpolation": interpolation})
        animation["channels"].append({"sampler": len(animation["samplers"]) - 1, "target": {
            "path": "pointer", "extensions": {"KHR_animation_pointer": {"pointer": f"{SHAPES}/0/{pointer}"}}}})
    return document


def _channels(path: Any) -> dict[str, list[float]]:
    """Pointer -> its key times, then its values, of a written file (its buffers are data: URIs)."""
    document = json.loads(path.read_text(encoding="utf-8"))

    def numbers(accessor: int) -> list[float]:
        view = document["bufferViews"][document["accessors"][accessor]["bufferView"]]
        data = base64.b64decode(document["buffers"][view["buffer"]]["uri"].split(",", 1)[1])
        count = document["accessors"][accessor]["count"]
        return list(struct.unpack_from(f"<{count}f", data, view.get("byteOffset", 0)))

    found = {}
    for animation in document.get("animations", []):
        for channel in animation["channels"]:
            sampler = animation["samplers"][channel["sampler"]]
            keys = numbers(sampler["input"]) + numbers(sampler["output"])
            found[channel["target"]["extensions"]["KHR_animation_pointer"]["pointer"]] = keys
    return found


def _convert(tmp_path: Path, document: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    source, out = tmp_path / "in.gltf", tmp_path / "out.gltf"
    source.write_text(json.dumps(document), encoding="utf-8")
    status = run("convert", str(source), "--to", "godot", "--out", str(out))
    assert status == 0 and out.exists()
    return _channels(out), json.loads(out.read_text(encoding="utf-8"))["extensions"]["OMI_physics_shape"]["shapes"][0]


def test_a_capsules_height_and_radii_become_godots_full_height_and_radius(tmp_path: Path,
                                                                          capsys: pytest.CaptureFixture[str]) -> None:
    shape = {"type": "capsule", "capsule": {"height": 1.0, "radiusTop": 0.3, "radiusBottom": 0.3}}
    channels, written = _convert(tmp_path, _document(shape, {
        "capsule/height": ([0.0, 1.0], [1.0, 2.0]),
        "capsule/radiusTop": ([0.0, 1.0], [0.3, 0.6]), "capsule/radiusBottom": ([0.0, 1.0], [0.3, 0.6])}))
    assert written == {"type": "capsule", "capsule": {"radius": 0.3, "height": pytest.approx(1.6)}}
    assert set(channels) == {f"{SHAPES}/0/capsule/radius", f"{SHAPES}/0/capsule/height"}, channels
    assert channels[f"{SHAPES}/0/capsule/radius"] == pytest.approx([0.0, 1.0, 0.3, 0.6])
    assert channels[f"{SHAPES}/0/capsule/height"] == pytest.approx([0.0, 1.0, 1.6, 3.2])  # mid + both radii
    assert "0 errors, 0 warnings" in capsys.readouterr().out  # meaning kept: nothing to warn about


def test_a_radius_keyed_alone_gives_the_full_height_a_channel_too(tmp_path: Path) -> None:
    """Godot's full height grows with the radius: a channel of the radius alone needs a height channel."""
    shape = {"type": "capsule", "capsule": {"height": 1.0, "radiusTop": 0.3, "radiusBottom": 0.3}}
    channels, _written = _convert(tmp_path, _document(shape, {"capsule/radiusTop": ([0.0, 2.0], [0.3, 0.5]),
                                                              "capsule/radiusBottom": ([1.0], [0.4])}))
    assert channels[f"{SHAPES}/0/capsule/radius"] == pytest.approx([0.0, 1.0, 2.0, 0.4, 0.4, 0.5])
    assert channels[f"{SHAPES}/0/capsule/height"] == pytest.approx([0.0, 1.0, 2.0, 1.7, 1.8, 1.9])


def test_a_cylinders_radii_become_its_one_radius_and_its_height_stays(tmp_path: Path) -> None:
    shape = {"type": "cylinder", "cylinder": {"height": 2.0, "radiusTop": 0.5, "radiusBottom": 0.5}}
    channels, _written = _convert(tmp_path, _document(shape, {"cylinder/radiusTop": ([0.0, 1.0], [0.5, 1.0]),
                                                              "cylinder/height": ([0.0, 1.0], [2.0, 3.0])}))
    assert channels == {f"{SHAPES}/0/cylinder/radius": pytest.approx([0.0, 1.0, 0.5, 1.0]),
                        f"{SHAPES}/0/cylinder/height": pytest.approx([0.0, 1.0, 2.0, 3.0])}


def test_cubicspline_keys_are_sampled_linear_then_take_godots_form(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """Godot rejects CUBICSPLINE: the target's form samples the curve into LINEAR keys first, which the
    rewrite then turns into Godot's form (before, the channel was named and left as it was)."""
    shape = {"type": "capsule", "capsule": {"height": 1.0, "radiusTop": 0.3, "radiusBottom": 0.3}}
    channels, _written = _convert(tmp_path, _document(shape, {"capsule/height": ([0.0, 1.0], [0, 1, 0, 0, 2, 0])},
                                                      "CUBICSPLINE"))
    assert set(channels) == {f"{SHAPES}/0/capsule/height"}
    keys = channels[f"{SHAPES}/0/capsule/height"]
    times, heights = keys[:len(keys) // 2], keys[len(keys) // 2:]
    assert len(times) == 61 and times[30] == pytest.approx(0.5)  # a key every 1/60 s
    assert [heights[0], heights[30], heights[-1]] == pytest.approx([1.6, 2.1, 2.6])  # zero tangents: eased, + radii
    assert "not in Godot's form" not in capsys.readouterr().out


def test_the_converted_channels_validate_and_read_back_as_the_spec_values(tmp_path: Any, capsys: Any) -> None:
    """Godot's `radius` pointer of a shape in Godot's form is no Object Model row, but the import reads it
    (with the full height) as the spec's values: validate does not call it unknown, and the inverse gives the
    keys back."""
    shape = {"type": "capsule", "capsule": {"height": 1.0, "radiusTop": 0.3, "radiusBottom": 0.3}}
    _convert(tmp_path, _document(shape, {"capsule/height": ([0.0, 1.0], [1.0, 2.0]),
                                         "capsule/radiusTop": ([0.0, 1.0], [0.3, 0.6]),
                                         "capsule/radiusBottom": ([0.0, 1.0], [0.3, 0.6])}))
    capsys.readouterr()
    run("validate", str(tmp_path / "out.gltf"))
    assert "is not a physics property" not in capsys.readouterr().out
    keyed = {"height": ("LINEAR", [0.0, 1.0], [1.0, 2.0]), "radiusTop": ("LINEAR", [0.0, 1.0], [0.3, 0.6]),
             "radiusBottom": ("LINEAR", [0.0, 1.0], [0.3, 0.6])}
    godot, reason = godot_channels.round_shape_keys("capsule", {"height": 1.0, "radiusTop": 0.3, "radiusBottom": 0.3},
                                                    keyed)
    back, reason = one_radius.from_one_radius("capsule", {"radius": 0.3, "height": 1.6}, godot)
    assert reason is None
    approximately: dict[str, Any] = {key: (kind, times, pytest.approx(values))
                                     for key, (kind, times, values) in back.items()}
    assert approximately == keyed
