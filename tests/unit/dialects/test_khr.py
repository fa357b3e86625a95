"""The KHR dialect (KHR_physics_rigid_bodies + KHR_implicit_shapes): our KHR files read into the model with
the values they mean, every value the model holds differently named with its pointer, written back in
KHR (newest revision) schema-valid with the same physics, and converted OMI <-> KHR losslessly wherever
both dialects can hold the value."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from omi_core import model
from omi_core.checks import canonical, schema_khr
from omi_core.read import reader
from omi_core.write import dialect_convert as convert
from omi_core.write import writer
from present import present
from property_inputs import omi_held

KHR_FILES = sorted((Path(__file__).resolve().parents[2] / "data" / "khr").glob("*.gltf"))


def _load(name: str) -> dict[str, Any]:
    value: dict[str, Any] = json.loads((KHR_FILES[0].parent / name).read_text(encoding="utf-8"))
    return value


def _khr_valid(gltf: dict[str, Any]) -> None:
    if schema_khr.unavailable_reason() is not None:
        pytest.skip(present(schema_khr.unavailable_reason()))
    assert [str(found) for found in schema_khr.khr_schema_errors(gltf)] == []


@pytest.mark.parametrize("path", KHR_FILES, ids=lambda path: path.name)
def test_our_khr_files_are_schema_valid(path: Any) -> None:
    gltf = json.loads(path.read_text(encoding="utf-8"))
    if path.name == "khr_differences.gltf":  # mass/inertia 0: infinite per KHR's README, below the schema's minimum
        gltf = convert.convert(gltf, "KHR").document
    _khr_valid(gltf)


@pytest.mark.parametrize("path", KHR_FILES, ids=lambda path: path.name)
def test_khr_read_write_read_keeps_the_physics(path: Any) -> None:
    gltf = json.loads(path.read_text(encoding="utf-8"))
    doc = reader.read_document(gltf)
    assert doc.nodes and "KHR_physics_rigid_bodies" in doc.revisions
    assert [found for found in doc.issues if found.severity == "error"] == []
    written = writer.write_document(doc, gltf, ("KHR",))
    _khr_valid(written)
    again = reader.read_document(written)
    assert again.nodes == doc.nodes
    assert writer.write_document(again, written, ("KHR",)) == written  # a fixed point


def test_shapes_motion_materials_filters() -> None:
    doc = reader.read_document(_load("shapes_and_motion.gltf"))
    dynamic = doc.nodes[0]
    assert dynamic.motion == model.Motion("dynamic", 5.0, (0.0, 0.1, 0.0), (1.0, 2.0, 3.0), (0.0, 0.0, 0.0, 1.0),
                                          (1.0, 0.0, 0.0), (0.0, 2.0, 0.0), 0.5)
    assert present(dynamic.collider).shape == model.Shape("sphere", radius=0.3)
    assert present(dynamic.collider).physics_material == model.PhysicsMaterial(0.8, 0.7, 0.1, "minimum", "maximum")
    assert present(dynamic.collider).collision_filter == model.CollisionFilter(("character",), ("landscape", "debris"))
    assert present(doc.nodes[1].motion).type == "kinematic"
    assert present(doc.nodes[2].collider).shape == model.Shape("capsule", height=1.0, radius_top=0.2, radius_bottom=0.3)
    assert present(present(doc.nodes[3].collider).collision_filter).not_collide_with_systems == ("character",)
    assert present(present(doc.nodes[4].collider).shape).radius_top == 0.0  # a cone
    # KHR's defaults, not OMI's, for what the file leaves out
    assert present(doc.nodes[5].collider).shape == model.Shape("capsule", height=0.5, radius_top=0.25,
                                                               radius_bottom=0.25)
    material = present(present(doc.nodes[6].collider).physics_material)
    assert material.friction_combine == "average"  # KHR: no default; OMI's


def test_geometry_revisions() -> None:
    mesh = reader.read_document(_load("mesh_geometry.gltf"))
    assert present(mesh.nodes[1].collider).shape == model.Shape("convex", mesh=0)
    assert present(mesh.nodes[3].collider).shape == model.Shape("trimesh", mesh=1)
    assert mesh.nodes[4].trigger == model.Trigger(None, (5, 6))
    assert present(mesh.nodes[6].trigger).shape == model.Shape("convex", mesh=0)
    node = reader.read_document(_load("node_geometry.gltf"))
    assert present(node.nodes[0].collider).shape == model.Shape("convex", mesh=0)
    assert present(node.nodes[1].collider).shape == model.Shape("trimesh", mesh=1)
    written = writer.write_document(node, _load("node_geometry.gltf"), ("KHR",))
    assert written["nodes"][0]["extensions"]["KHR_physics_rigid_bodies"]["collider"]["geometry"] == \
        {"mesh": 0, "convexHull": True}  # the newest revision


def test_joints() -> None:
    doc = reader.read_document(_load("joints.gltf"))
    joint = present(doc.nodes[1]).joint
    assert present(joint).connected_node == 3 and present(joint).enable_collision
    limits = present(joint).settings.limits
    assert [limit.linear_axes or limit.angular_axes for limit in limits] == [(0, 1, 2), (0,), (1, 2)]
    assert limits[2].stiffness == 100.0 and limits[0].stiffness is None  # absent: rigid
    assert [drive.type for drive in present(joint).settings.drives] == ["angular", "linear"]
    assert present(doc.nodes[5].joint).settings.name == "rope"
    assert not [found for found in doc.issues if "own node" in found.message]  # not a KHR rule


def test_what_the_model_holds_differently_is_named() -> None:
    doc = reader.read_document(_load("khr_differences.gltf"))
    by_pointer = {found.pointer: found.message for found in doc.issues}
    shapes = "/extensions/KHR_implicit_shapes/shapes"
    assert "thin box" in by_pointer[f"{shapes}/0/plane"] and "infinite" in by_pointer[f"{shapes}/0/plane"]
    assert present(present(doc.nodes[0].collider).shape).type == "box"
    assert present(present(doc.nodes[1].collider).shape).size == (4.0, 0.01, 2.0)
    assert (present(doc.nodes[2].motion).type, present(doc.nodes[2].motion).mass) == ("dynamic", math.inf)
    assert "infinite mass" in by_pointer["/nodes/2/extensions/KHR_physics_rigid_bodies/motion/mass"]
    assert present(doc.nodes[3].motion).inertia_diagonal == (math.inf, 1.0, math.inf)
    assert "infinite" in by_pointer["/nodes/3/extensions/KHR_physics_rigid_bodies/motion/inertiaDiagonal"]
    assert "computes" in by_pointer["/nodes/4/extensions/KHR_physics_rigid_bodies/motion"]
    assert present(doc.nodes[5].collider).shape == model.Shape("convex", mesh=0)


def test_omi_to_khr_to_omi_is_lossless_where_both_hold(spec_dir: Path) -> None:
    # OMI_physics_gravity has no KHR form: the conversion must name each gravity it drops (world and volumes).
    examples = [path for name in ("body", "shape", "joint", "gravity")
                for path in sorted(spec_dir.glob(f"OMI_physics_{name}/examples/**/*.gltf"))]
    for path in examples:
        gltf = json.loads(path.read_text(encoding="utf-8"))
        there = convert.convert(gltf, "KHR")
        _khr_valid(there.document)
        assert not any(name.startswith("OMI_") for name in there.document.get("extensionsUsed", []))
        back = convert.convert(there.document, "OMI")
        paths = {name: index for index, name in canonical.node_paths(gltf).items()}
        named = {found.pointer.split("/extensions")[0] for found in there.issues + back.issues}
        named |= {"world gravity" for found in there.lost if found.pointer == "/extensions/OMI_physics_gravity"}
        unexplained = [difference for difference in canonical.diff_physics(gltf, back.document)
                       if f"/nodes/{paths.get(difference.split('.')[0].split(':')[0])}" not in named
                       and difference.split(":")[0] not in named]
        assert unexplained == [], (path.name, [str(found) for found in there.issues])



def test_khr_to_omi_to_khr_is_lossless_where_both_hold() -> None:
    for path in KHR_FILES:
        gltf = json.loads(path.read_text(encoding="utf-8"))
        omi = convert.convert(gltf, "OMI")
        assert "KHR_physics_rigid_bodies" not in json.dumps(omi.document)
        back = convert.convert(omi.document, "KHR")
        first = reader.read_document(gltf, "KHR")
        again = reader.read_document(back.document, "KHR")
        assert again.nodes == omi_held(first.nodes), path.name  # OMI cannot spell infinite mass or inertia


def test_static_motion_with_mass_is_named_when_written_as_khr() -> None:
    doc = model.PhysicsDocument({0: model.NodePhysics(motion=model.Motion("static", mass=4.0),
                                                      collider=model.Collider(model.Shape("box")))})
    issues: list[Any] = []
    written = writer.write_document(doc, {"asset": {"version": "2.0"}, "nodes": [{}]}, ("KHR",), issues=issues)
    body = written["nodes"][0]["extensions"]["KHR_physics_rigid_bodies"]
    assert "motion" not in body and body["collider"] == {"geometry": {"shape": 0}}
    assert [found.pointer for found in issues] == ["/nodes/0/extensions/KHR_physics_rigid_bodies/motion"]
    assert "mass" in issues[0].message
    shape = written["extensions"]["KHR_implicit_shapes"]["shapes"][0]
    assert shape == {"type": "box", "box": {"size": [1.0, 1.0, 1.0]}}  # explicit sizes


def test_both_dialects_in_one_file() -> None:
    gltf = _load("joints.gltf")
    doc = reader.read_document(gltf)
    both = writer.write_document(doc, gltf, ("OMI", "KHR"))
    assert set(both["extensionsUsed"]) == {"OMI_physics_shape", "OMI_physics_body", "OMI_physics_joint",
                                           "KHR_implicit_shapes", "KHR_physics_rigid_bodies"}
    _khr_valid(both)
    assert reader.read_document(both, "KHR").nodes == doc.nodes
    # OMI has no "the engine computes the centre of mass": its copy holds the origin (noted on write)
    assert reader.read_document(both, "OMI").nodes == omi_held(doc.nodes)


def test_drive_gain_without_its_target_is_named() -> None:
    gltf = _load("joints.gltf")
    drive = gltf["extensions"]["KHR_physics_rigid_bodies"]["physicsJoints"][0]["drives"][1]
    del drive["positionTarget"]
    doc = reader.read_document(gltf)
    assert present(doc.nodes[1].joint).settings.drives[1].stiffness == 0.0
    found = [item for item in doc.issues if item.kind == "drive_gain_without_target"]
    assert [item.pointer for item in found] == \
        ["/extensions/KHR_physics_rigid_bodies/physicsJoints/0/drives/1/stiffness"]


def test_khr_rules_from_the_spec_text() -> None:
    gltf = _load("shapes_and_motion.gltf")
    shapes = gltf["extensions"]["KHR_implicit_shapes"]["shapes"]
    shapes[3]["cylinder"].update(radiusTop=0.0, radiusBottom=0.0)  # degenerate: prohibited
    gltf["nodes"][6]["extensions"]["KHR_physics_rigid_bodies"] = {"trigger": {}}  # `{}` is invalid in KHR
    gltf["nodes"][5]["extensions"]["KHR_physics_rigid_bodies"]["collider"] = {"physicsMaterial": 0}  # no geometry
    doc = reader.read_document(gltf)
    kinds = {found.pointer: found.kind for found in doc.issues if found.severity == "error"}
    assert kinds["/extensions/KHR_implicit_shapes/shapes/3/cylinder"] == "degenerate_shape"
    assert kinds["/nodes/6/extensions/KHR_physics_rigid_bodies/trigger"] == "trigger_needs_geometry"
    assert "/nodes/5/extensions/KHR_physics_rigid_bodies/collider" in kinds
    assert 3 not in doc.nodes and 5 not in doc.nodes and 6 not in doc.nodes
    assert present(present(doc.nodes[4].collider).shape).radius_top == 0.0  # a cone is not degenerate


def test_physics_joints_are_optional_in_khr_but_not_in_omi() -> None:
    body = {"collider": {"geometry": {"shape": 0}, "physicsMaterial": 0}, "motion": {"mass": 1.0}}
    gltf = {"asset": {"version": "2.0"}, "extensionsUsed": ["KHR_physics_rigid_bodies", "KHR_implicit_shapes"],
            "extensions": {"KHR_implicit_shapes": {"shapes": [{"type": "sphere", "sphere": {"radius": 0.5}}]},
                           "KHR_physics_rigid_bodies": {"physicsMaterials": [{"staticFriction": 0.5}]}},
            "nodes": [{"extensions": {"KHR_physics_rigid_bodies": body}}], "scenes": [{"nodes": [0]}]}
    doc = reader.read_document(gltf)
    assert [found.message for found in doc.issues if "physicsJoints" in found.message] == []
    issues: list[Any] = []
    written = writer.write_document(doc, gltf, ("KHR",), issues=issues)
    assert "physicsJoints" not in written["extensions"]["KHR_physics_rigid_bodies"]
    assert [str(found) for found in issues if "physicsJoints" in str(found)] == []
    omi = {"asset": {"version": "2.0"}, "extensionsUsed": ["OMI_physics_joint"],
           "extensions": {"OMI_physics_joint": {}}, "nodes": []}
    assert [found.message for found in reader.read_document(omi).issues if "physicsJoints" in found.message] == \
        ["physicsJoints is missing (the schema wants at least one)"]
