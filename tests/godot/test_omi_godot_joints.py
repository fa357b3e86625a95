"""Our joint exports read by Godot 4 with omi-godot (the OMI group's Godot add-on, what Godot users install
for joints): each joint of the scene with every Blender constraint type becomes the Joint3D class omi-godot
makes of its limits, between the node Godot built for the joint's body (`node_a`) and the connected one
(`node_b`)."""

from __future__ import annotations

import pytest
import reference_exports
from godot_runner import GodotScene
from test_godot_builds import export

pytestmark = pytest.mark.usefixtures("omi_addon")

# Blender constraint type -> the class omi-godot builds from the `omi` export of it. The export writes each
# joint in Blender's axes turned to glTF's (Blender's Z is glTF's Y), so omi-godot's hinge (about glTF Z)
# and slider (along glTF X) only come out where the free axis is X; the rest are its generic joint.
CLASSES = {"FIXED": "Generic6DOFJoint3D", "POINT": "PinJoint3D", "HINGE": "Generic6DOFJoint3D",
           "SLIDER": "SliderJoint3D", "PISTON": "SliderJoint3D", "GENERIC": "Generic6DOFJoint3D",
           "GENERIC_SPRING": "Generic6DOFJoint3D", "MOTOR": "Generic6DOFJoint3D"}


def test_our_joints_load_as_omi_godot_joints(godot, omi_godot_project, tmp_path):
    reference_exports.build_constraints()
    exported = export(tmp_path, "constraints", 'OMI')
    scene = GodotScene(godot.run(exported.path, project=omi_godot_project))
    found = {}
    for index, node in enumerate(exported.nodes):
        joint = node.get("extensions", {}).get("OMI_physics_joint")
        if joint is None:
            continue
        kind = node["name"].split(".")[0].removesuffix("_Joint")
        built = scene.of(index)
        assert built is not None, f"Godot built no node for joint {node['name']!r}"
        bodies = (scene.of(exported.index(f"{kind}_B")).path, scene.of(exported.index(f"{kind}_A")).path)
        found[kind] = built.data["class"]
        assert (built.node_a, built.node_b) == bodies, (kind, built.data)
    assert found == CLASSES
