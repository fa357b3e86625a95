"""What the speed work relies on: an import stores only the settings that differ from their defaults
(`properties/stored.py`), and an export writes a repeated value once and copies it (`export_json`), so
every node must still get its own values."""

from __future__ import annotations

import bpy
import pytest
from export_support import add_constraint, add_rigid_body, export, mesh_object
from import_support import document, import_gltf, write_gltf
from present import present

pytestmark = pytest.mark.usefixtures("omi_addon")


def _default(group, name: str):
    prop = group.bl_rna.properties[name]
    return tuple(prop.default_array) if getattr(prop, "is_array", False) else prop.default


def test_import_stores_only_values_that_differ_from_the_defaults(tmp_path):
    nodes = [
        {"name": "Heavy", "extensions": {"OMI_physics_body": {"motion": {"type": "dynamic", "mass": 3.0},
                                                              "collider": {"shape": 0}}}},
        {"name": "Plain", "extensions": {"OMI_physics_body": {"motion": {"type": "dynamic"},
                                                              "collider": {"shape": 0}}}},
    ]
    path = write_gltf(tmp_path, "repeated", document(nodes, [{"type": "box", "box": {"size": [1.0, 1.0, 1.0]}}]))
    assert import_gltf(path, rigid_bodies=False).result == {'FINISHED'}

    heavy = bpy.data.objects["Heavy"].omi_physics
    assert heavy.motion.mass == pytest.approx(3.0)
    assert "mass" in heavy.motion
    for name in heavy.motion.bl_rna.properties.keys():  # noqa: SIM118 - RNA collections iterate values
        if name == "rna_type" or heavy.motion.bl_rna.properties[name].type in {'POINTER', 'COLLECTION'}:
            continue
        stored = name in heavy.motion
        value = getattr(heavy.motion, name)
        value = tuple(value) if hasattr(value, "__len__") and not isinstance(value, str) else value
        assert stored == (value != _default(heavy.motion, name)), name  # stored exactly where not the default
    plain = bpy.data.objects["Plain"].omi_physics
    # a group that would hold only defaults is not made (a read would make it); OMI's absent centre of mass is
    # the origin, stated, which is the Set Center switch's default
    assert "motion" not in plain and plain.motion.use_center_of_mass
    assert plain.use_motion and plain.motion.motion_type == 'DYNAMIC' and plain.motion.mass == _default(
        plain.motion, "mass")


def test_import_of_plain_bodies_makes_no_empty_groups(tmp_path):
    """Reading a settings group stores it, empty: the import's own reads (the units it switches off, the kept
    extensions it clears, the shapes a switched-on collider compares) must not leave one on every object."""
    nodes = [{"name": "Plain", "extensions": {"OMI_physics_body": {"motion": {"type": "dynamic"},
                                                                   "collider": {"shape": 0}}}}]
    path = write_gltf(tmp_path, "plain", document(nodes, [{"type": "box", "box": {"size": [2.0, 1.0, 1.0]}}]))
    assert import_gltf(path, rigid_bodies=False).result == {'FINISHED'}
    plain = bpy.data.objects["Plain"].omi_physics
    assert plain.get("units") is None
    assert plain.get("trigger") is None
    assert set(plain["collider"]["shape"].keys()) == {"size"}  # the shape's one value that is no default


def test_a_stored_value_is_rewritten_even_with_its_default(omi):
    store = omi("properties.stored").store
    obj = bpy.data.objects.new("Rewritten", None)
    bpy.context.scene.collection.objects.link(obj)
    try:
        motion = obj.omi_physics.motion
        default_mass = _default(motion, "mass")
        store(motion, {"mass": default_mass + 2.0})
        assert motion.mass == pytest.approx(default_mass + 2.0)
        store(motion, {"mass": default_mass})  # held already: written, so it reads the default again
        assert motion.mass == pytest.approx(default_mass)
    finally:
        bpy.data.objects.remove(obj)


def test_bodies_differing_only_in_mass_and_joints_of_equal_settings_keep_their_own_values(clean_scene, tmp_path):
    masses = {"A": 2.0, "B": 3.0, "C": 2.0, "D": 7.5}
    for index, (name, mass) in enumerate(masses.items()):
        add_rigid_body(mesh_object(name, "cube", location=(3.0 * index, 0, 2)), 'ACTIVE', 'BOX', mass=mass)
    add_rigid_body(mesh_object("Floor", "cube", location=(0, 0, -2)), 'PASSIVE', 'BOX')
    add_constraint("HingeAB", 'HINGE', bpy.data.objects["A"], bpy.data.objects["B"], location=(1.5, 0, 2))
    add_constraint("HingeCD", 'HINGE', bpy.data.objects["C"], bpy.data.objects["D"], location=(7.5, 0, 2))
    result = export(tmp_path)

    for name, mass in masses.items():
        assert result.body(name)["motion"] == {"type": "dynamic", "mass": pytest.approx(mass)}, name
    joints = [(index, result.joint(index)) for index, node in enumerate(result.nodes) if result.joint(index)]
    assert len(joints) == 2
    assert joints[0][1]["joint"] == joints[1][1]["joint"]  # equal settings: one document-level joint
    connected = [joint["connectedNode"] for _index, joint in joints]
    assert len(set(connected)) == 2  # ... but each joint names its own connected node
    for index, joint in joints:
        owners = (present(result.parent(index)), present(result.parent(joint["connectedNode"])))
        bodies = {result.nodes[owner]["name"] for owner in owners}
        assert bodies in ({"A", "B"}, {"C", "D"}), (result.nodes[index]["name"], bodies)
