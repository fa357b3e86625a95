"""The Khronos glTF validator as a fixture (`validate`: a file's report), and a scene with every kind of physics
the exporter writes (`physics_scene`): tests/blender/export/test_export_validator.py and the tests that validate
their own exports import them.

Needs Node.js; the `gltf-validator` npm package is installed once into a temporary directory (never the
repository). Skips when Node.js, npm or the package cannot be had.
"""

from __future__ import annotations

import fcntl
import json
import math
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest
from export_support import add_constraint, add_rigid_body, empty, mesh_object, tag_motion, tag_shape

VALIDATOR_VERSION = "2.0.0-dev.3.10"


VALIDATOR_DIR = Path(tempfile.gettempdir()) / "omi-gltf-validator"


SCRIPT = """
const fs = require('fs');
const path = require('path');
const validator = require(process.argv[2]);
const file = process.argv[3];
const load = (uri) => new Promise((resolve, reject) => {
    fs.readFile(path.resolve(path.dirname(file), decodeURIComponent(uri)),
                (error, data) => error ? reject(error.toString()) : resolve(new Uint8Array(data)));
});
validator.validateBytes(new Uint8Array(fs.readFileSync(file)), {uri: path.basename(file), maxIssues: 0,
                                                                externalResourceFunction: load})
    .then((report) => console.log(JSON.stringify(report)))
    .catch((error) => { console.error(String(error)); process.exit(2); });
"""


@pytest.fixture(scope="module")
def validate():
    node = shutil.which("node")
    if node is None:
        pytest.skip("Node.js is not installed")
    module = VALIDATOR_DIR / "node_modules" / "gltf-validator"
    script = VALIDATOR_DIR / "validate_omi_test.js"
    VALIDATOR_DIR.mkdir(parents=True, exist_ok=True)
    # One process at a time installs and writes the script: parallel workers (pytest -n) and other
    # checkouts on the machine share this folder.
    with open(VALIDATOR_DIR.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not module.is_dir():
            npm = shutil.which("npm")
            if npm is None:
                pytest.skip("npm is not installed")
            try:
                subprocess.run([npm, "install", "--no-audit", "--no-fund", "--prefix", str(VALIDATOR_DIR),
                                f"gltf-validator@{VALIDATOR_VERSION}"], check=True, capture_output=True, timeout=300)
            except (subprocess.SubprocessError, OSError) as error:
                pytest.skip(f"could not install gltf-validator: {error}")
        if not script.is_file() or script.read_text() != SCRIPT:
            partial = script.with_suffix(f".{os.getpid()}.tmp")
            partial.write_text(SCRIPT)
            partial.replace(script)  # atomic: a validator run elsewhere never reads a half-written script

    def run(path: Path) -> dict:
        completed = subprocess.run([node, str(script), str(module), str(path)], capture_output=True, text=True,
                                   timeout=120, check=False)
        assert completed.returncode == 0, completed.stderr
        return json.loads(completed.stdout)

    return run


def physics_scene() -> None:
    """Every kind of physics the exporter writes, in one scene."""
    for index, shape in enumerate(('BOX', 'SPHERE', 'CAPSULE', 'CYLINDER', 'CONVEX', 'TRIMESH')):
        obj = mesh_object(f"Tagged{shape}", "ico", location=(2 * index, 0, 0), scale=(1, 1.5, 2))
        tag_motion(obj, ('STATIC', 'KINEMATIC', 'DYNAMIC')[index % 3])
        settings = tag_shape(obj, "collider", shape)
        settings.use_offset = index % 2 == 1
        settings.offset_location = (0.1, 0.2, 0.3)
    proxy = mesh_object("Proxy", "ico", location=(0, 5, 0))
    statue = mesh_object("Statue", "cube", location=(0, 5, 0))
    tag_shape(statue, "collider", 'CONVEX', mesh_source='OBJECT', mesh_object=proxy)
    group = empty("Alarm", location=(0, -5, 0))
    group.omi_physics.use_trigger = True
    group.omi_physics.trigger.is_compound = True
    for index in range(2):
        member = empty(f"Beam{index}", location=(index, 0, 0), parent=group)
        tag_shape(member, "trigger", 'BOX')
        group.omi_physics.trigger.nodes.add().target = member
    previous = None
    for index, kind in enumerate(('FIXED', 'HINGE', 'SLIDER', 'PISTON', 'GENERIC_SPRING', 'MOTOR')):
        link = mesh_object(f"Link{index}", "cube", location=(2 * index, 10, 0), rotation=(0, 0, 0.3 * index))
        add_rigid_body(link, 'PASSIVE' if index == 0 else 'ACTIVE', ('BOX', 'CONE', 'CONVEX_HULL')[index % 3])
        if previous is not None:
            add_constraint(f"Joint{index}", kind, previous, link, location=(2 * index - 1, 10, 0),
                           rotation=(0.2, 0.4, math.pi / 3), use_spring_x=True, use_motor_ang=True,
                           use_limit_lin_x=True, use_limit_ang_x=True, use_limit_ang_z=True)
        previous = link
