"""Import then export keeps what the file says about motion, byte for byte: KHR's mass 0 and inertia 0
(infinite), OMI's mass 0, and starting velocities, in both dialects; and the damping the import builds
(none) is never named on export, while a Blender body's own damping is."""

from __future__ import annotations

import json

import bpy
import export_support
import import_support as support
import omi_core.checks.schema_khr
import pytest

pytestmark = pytest.mark.usefixtures("omi_addon")

KHR_BODY = "KHR_physics_rigid_bodies"
KHR_SHAPES = "KHR_implicit_shapes"
KEYS = ("mass", "inertiaDiagonal", "linearVelocity", "angularVelocity")
KHR_MOTIONS = {
    "Infinite": {"mass": 0, "inertiaDiagonal": [0, 0, 0], "linearVelocity": [1, 2, 3], "angularVelocity": [0.5, 0, 0]},
    "Upright": {"mass": 2.5, "inertiaDiagonal": [0, 0.4, 0], "linearVelocity": [0.1, 0, -0.2]},
}
OMI_MOTIONS = {
    "Massless": {"type": "dynamic", "mass": 0, "linearVelocity": [1, 2, 3], "angularVelocity": [4, 5, 6]},
    "Spun": {"type": "dynamic", "mass": 3, "angularVelocity": [0, 0.25, 0]},
}


def khr_file(tmp_path) -> dict:
    nodes = [{"name": name, "translation": [3.0 * index, 0.0, 0.0],
              "extensions": {KHR_BODY: {"motion": motion, "collider": {"geometry": {"shape": 0}}}}}
             for index, (name, motion) in enumerate(KHR_MOTIONS.items())]
    return {"asset": {"version": "2.0"}, "extensionsUsed": [KHR_BODY, KHR_SHAPES],
            "extensions": {KHR_SHAPES: {"shapes": [{"type": "sphere", "sphere": {"radius": 0.5}}]}},
            "nodes": nodes, "scenes": [{"nodes": list(range(len(nodes)))}], "scene": 0}


def omi_file() -> dict:
    nodes = [{"name": name, "translation": [3.0 * index, 0.0, 0.0],
              "extensions": {support.BODY: {"motion": motion, "collider": {"shape": 0}}}}
             for index, (name, motion) in enumerate(OMI_MOTIONS.items())]
    return support.document(nodes, [{"type": "sphere", "sphere": {"radius": 0.5}}])


def motions(gltf: dict, extension: str) -> dict[str, dict]:
    return {node["name"]: node["extensions"][extension]["motion"] for node in gltf["nodes"]
            if "motion" in node.get("extensions", {}).get(extension, {})}


def same_text(written: dict[str, dict], source: dict[str, dict]) -> dict[str, list[str]]:
    """The keys whose JSON text differs, per body."""
    return {name: [key for key in KEYS if json.dumps(written[name].get(key)) != json.dumps(motion.get(key))]
            for name, motion in source.items()}


@pytest.mark.parametrize("dialect", ["KHR", "OMI"])
def test_khr_infinite_values_and_velocities_survive_import_and_export(tmp_path, dialect):
    source = khr_file(tmp_path)
    imported = support.import_gltf(support.write_gltf(tmp_path, "khr", source))
    infinite = imported.obj("Infinite").omi_physics.motion
    assert infinite.infinite_mass and tuple(infinite.infinite_inertia) == (True, True, True)
    upright = imported.obj("Upright").omi_physics.motion
    assert tuple(upright.infinite_inertia) == (True, True, False)  # glTF X and Z are Blender X and Y
    bpy.context.scene.omi_physics.export_dialect = dialect
    exported = export_support.export(tmp_path, f"back_{dialect}")
    assert not [text for text in exported.messages if "damping" in text]
    if dialect == "KHR":
        assert same_text(motions(exported.gltf, KHR_BODY), KHR_MOTIONS) == {"Infinite": [], "Upright": []}
        schema_khr = omi_core.checks.schema_khr
        assert [str(found) for found in schema_khr.khr_schema_errors(exported.gltf)] == []
    else:  # OMI cannot spell infinite: named, and the velocities are kept
        written = motions(exported.gltf, support.BODY)
        assert json.dumps(written["Infinite"]["linearVelocity"]) == "[1, 2, 3]"
        assert "mass" not in written["Infinite"] and "inertiaDiagonal" not in written["Infinite"]
        named = [text for text in exported.messages if "infinite (KHR's 0)" in text]
        assert len(named) >= 2, exported.messages


def test_omi_mass_0_and_velocities_survive_import_and_export(tmp_path):
    support.import_gltf(support.write_gltf(tmp_path, "omi", omi_file()))
    exported = export_support.export(tmp_path, "back")
    assert same_text(motions(exported.gltf, support.BODY), OMI_MOTIONS) == {"Massless": [], "Spun": []}
    assert not [text for text in exported.messages if "damping" in text]


def test_imported_bodies_are_undamped_and_blender_damping_is_named_on_export(tmp_path):
    support.import_gltf(support.write_gltf(tmp_path, "omi", omi_file()))
    spun = bpy.data.objects["Spun"]
    assert (spun.rigid_body.linear_damping, spun.rigid_body.angular_damping) == (0.0, 0.0)
    bpy.ops.wm.read_homefile(use_empty=True)
    plain = export_support.mesh_object("Plain")
    export_support.add_rigid_body(plain)  # Blender's defaults: 0.04, 0.1
    damped = export_support.mesh_object("Damped", location=(3.0, 0.0, 0.0))
    export_support.add_rigid_body(damped)
    damped.rigid_body.linear_damping = 0.3
    still = export_support.mesh_object("Still", location=(6.0, 0.0, 0.0))
    export_support.add_rigid_body(still)
    still.rigid_body.linear_damping = still.rigid_body.angular_damping = 0.0
    exported = export_support.export(tmp_path, "authored")
    named = [text for text in exported.messages if "damping" in text]  # Blender's defaults damp too: both named
    assert len(named) == 1 and "'Damped'" in named[0] and "'Plain'" in named[0] and "'Still'" not in named[0], named
