"""`omi_physics_cli.py validate` checks the animation channels that target physics values: an animated
export of the add-on is clean; a channel whose pointer leads nowhere or whose accessor has the wrong type
is an error at the channel's pointer."""

from __future__ import annotations

import json

import pytest
from animation_support import animated_scene
from cli_support import lines, run_cli
from export_support import export

pytestmark = pytest.mark.usefixtures("omi_addon")
WHERE = "/animations/0/channels/{}/target/extensions/KHR_animation_pointer/pointer"


def test_validate_checks_physics_channels(clean_scene, tmp_path):
    animated_scene()
    exported = export(tmp_path, "animated")
    clean = run_cli("validate", exported.path, "--no-progress")
    assert clean.returncode == 0, clean.stdout
    document = json.loads(exported.path.read_text())
    animation = document["animations"][0]
    pointers = [channel["target"]["extensions"]["KHR_animation_pointer"] for channel in animation["channels"]]
    mass = next(position for position, pointer in enumerate(pointers) if pointer["pointer"].endswith("/mass"))
    size = next(position for position, pointer in enumerate(pointers) if pointer["pointer"].endswith("/box/size"))
    pointers[mass]["pointer"] = pointers[mass]["pointer"].replace("/nodes/", "/nodes/9")
    animation["samplers"][animation["channels"][size]["sampler"]]["output"] = \
        animation["samplers"][animation["channels"][mass]["sampler"]]["output"]  # a SCALAR for a float3
    broken = tmp_path / "broken.gltf"
    broken.write_text(json.dumps(document))
    result = run_cli("validate", broken, "--no-progress")
    assert result.returncode == 1
    output = lines(result.stdout)
    assert any(line.startswith(f"{broken}: error {WHERE.format(mass)}: ") and "does not exist" in line
               for line in output), output
    assert any(line.startswith(f"{broken}: error {WHERE.format(size)}: ") and "float3" in line for line in output), \
        output
