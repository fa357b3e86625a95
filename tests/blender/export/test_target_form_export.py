"""A registered engine target's form on the Blender export (io/blender/export/target_form.py), with no change
to the add-on: a toy engine registered from here has its channels sampled LINEAR (a `LinearSamplers`),
rewrites a sphere's radius channel over its sampled keys (a `ChannelRewrite`), moves bodies' render meshes to
children (a shape-key channel follows its mesh) and bakes a moving body's scale into its shape
(`targets/scale_bake.py`): the same form `convert` applies (tests/unit/targets/test_target_form.py)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import bpy
import export_support as build
import omi_core.dialects.omi
import omi_core.dialects.registry
import omi_core.model
import omi_core.targets.form
import omi_core.targets.scale_bake
import pytest

form = omi_core.targets.form
SHAPES = omi_core.dialects.omi.SHAPE_EXTENSION


def _diameters(_type: str, _still: Mapping[str, float], keyed: Mapping[str, Any]) -> tuple[dict[str, Any], None]:
    """The toy engine plays a sphere's radius channel as its diameter."""
    interpolation, times, values = keyed["radius"]
    return {"radius": (interpolation, times, [2.0 * value for value in values])}, None


def _step(document: dict[str, Any]) -> Any:
    """Render meshes of bodies on children of the same name; moving bodies' scale baked into their shapes."""
    nodes = document["nodes"]
    shapes = document["extensions"][SHAPES]["shapes"]
    changes, mesh_scales, part_moves = omi_core.targets.scale_bake.bake(nodes, shapes, lambda what, name: None)
    moves = [form.NewNode(index, node.get("name"), scale=mesh_scales.get(index), takes_mesh=True)
             for index, node in enumerate(nodes) if node.get("mesh") is not None and node.get("extensions")]
    return form.Form(changes, moves + omi_core.targets.scale_bake.part_nodes(nodes, part_moves),
                     [omi_core.model.Issue("", "the toy engine ignores everything else", kind="toy")])


@pytest.fixture
def toy_engine(omi_addon):
    registry = omi_core.dialects.registry
    rewrite = form.ChannelRewrite(SHAPES, "shapes", frozenset({"sphere"}), ("radius",), _diameters,
                                  "sphere channels", "the toy form", "diameters", "toy.channels")
    registry.register(registry.Target("TOY_ENGINE", 98, "Toy engine", "", (registry.default().name,),
                                      form=(form.LinearSamplers("Toy engine", "toy.linear"), rewrite, _step)))
    yield "TOY_ENGINE"
    registry.unregister("TOY_ENGINE")
    bpy.context.scene.omi_physics.export_dialect = registry.default().name


def test_a_toy_engines_form_runs_on_the_export(clean_scene, tmp_path, toy_engine):
    blob = build.mesh_object("Blob", location=(0.0, 0.0, 2.0), scale=(2.0, 2.0, 2.0))
    blob.shape_key_add(name="Basis")
    squash = blob.shape_key_add(name="Squash")
    for point in squash.data:
        point.co.z *= 0.5
    build.tag_motion(blob)
    build.tag_shape(blob, "collider", 'BOX', size=(1.0, 1.0, 1.0))
    ball = build.mesh_object("Ball", location=(0.0, 3.0, 2.0))
    build.tag_motion(ball)
    sphere = build.tag_shape(ball, "collider", 'SPHERE', radius=0.5)
    for frame, value in ((1, 0.5), (25, 1.0)):
        squash.value = sphere.radius = value
        squash.keyframe_insert("value", frame=frame)
        sphere.keyframe_insert("radius", frame=frame)
    bpy.context.scene.omi_physics.export_dialect = toy_engine
    exported = build.export(tmp_path, "toy", 'GLB', check=False)

    [body, moved] = [index for index, node in enumerate(exported.nodes) if node.get("name") == "Blob"]
    assert exported.children(body)[-1] == moved  # the render mesh moved to a child
    assert "mesh" not in exported.nodes[body] and exported.nodes[moved].get("mesh") is not None
    assert "scale" not in exported.nodes[body] and exported.nodes[moved]["scale"] == [2.0, 2.0, 2.0]  # baked
    box = exported.shape(exported.nodes[body]["extensions"][omi_core.dialects.omi.BODY_EXTENSION]["collider"]["shape"])
    assert box["box"]["size"] == pytest.approx([2.0, 2.0, 2.0])  # into its shape
    keyed = [(channel["target"], animation["samplers"][channel["sampler"]])
             for animation in exported.gltf["animations"] for channel in animation["channels"]]
    [(weights, squashed)] = [(target, sampler) for target, sampler in keyed if target.get("path") == "weights"]
    assert weights == {"node": moved, "path": "weights"}  # its shape keys' channel followed it
    [(radius, sampler)] = [(target, sampler) for target, sampler in keyed if target.get("path") == "pointer"]
    assert radius["extensions"]["KHR_animation_pointer"]["pointer"].endswith("/sphere/radius")
    assert sampler["interpolation"] == "LINEAR"  # its form's LinearSamplers: Blender's Bézier keys sampled LINEAR
    diameters = list(exported.accessor(sampler["output"]).ravel())  # keyed as the weights were, doubled
    assert diameters == pytest.approx([2.0 * value for value in exported.accessor(squashed["output"]).ravel()])
    assert diameters[0] == pytest.approx(1.0) and diameters[-1] == pytest.approx(2.0)

    assert exported.said("the toy engine ignores everything else")
