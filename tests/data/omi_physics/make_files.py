"""Write the glTF files of tests/data/omi_physics with the PyPI package `omi_physics` (a real OMI reader,
writer and engine), so the add-on is tested on what that writer writes, not on our idea of it.

    python3 -m venv /tmp/omi_physics_venv && /tmp/omi_physics_venv/bin/pip install omi_physics==0.4.0
    /tmp/omi_physics_venv/bin/python tests/data/omi_physics/make_files.py

`omi_physics.omi_gltf.export_extensions` writes the extension blocks only (document-level and per node);
the rest of the glTF (nodes, asset) is the application's, so this script writes it as an application built
on the package would, naming the package and its version in `asset.generator` (the package itself does
not write one). Run with numpy alone; nothing else is needed.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import omi_physics
from omi_physics import model
from omi_physics.omi_gltf import NodeBody, PhysicsDocument, export_extensions, load_document

HERE = Path(__file__).resolve().parent


def _gltf(doc: PhysicsDocument, nodes: list[dict]) -> dict:
    top, per_node = export_extensions(doc)
    for index, extensions in per_node.items():
        if extensions:
            nodes[index]["extensions"] = extensions
    used = sorted({*top, *(name for extensions in per_node.values() for name in extensions)})
    return {"asset": {"version": "2.0", "generator": f"omi_physics {omi_physics.__version__}"},
            "extensionsUsed": used, "extensions": top, "scene": 0,
            "scenes": [{"nodes": [index for index in range(len(nodes)) if not any(
                index in node.get("children", []) for node in nodes)]}], "nodes": nodes}


def shapes_file() -> dict:
    """One body per shape kind; the capsule is the issue's: mid-height 1.0, radius 0.5."""
    doc = PhysicsDocument(shapes=[model.Shape.capsule(1.0, 0.5), model.Shape.sphere(0.25),
                                  model.Shape.box((1.0, 2.0, 3.0)), model.Shape.cylinder(2.0, 0.5),
                                  model.Shape.box((20.0, 1.0, 20.0))])
    for index, shape in enumerate(range(4)):
        doc.node_bodies[index] = NodeBody(motion=model.Motion(type=model.DYNAMIC, mass=2.0),
                                          collider=model.Collider(shape=shape))
    doc.node_bodies[4] = NodeBody(collider=model.Collider(shape=4))
    names = ["Capsule", "Ball", "Crate", "Drum", "Floor"]
    nodes = [{"name": name, "translation": [2.0 * index, 3.0, 0.0]} for index, name in enumerate(names[:4])]
    nodes.append({"name": "Floor"})
    return _gltf(doc, nodes)


def joints_file() -> dict:
    """A door on a hinge (one angular axis free within limits, the linear axes locked), and a slider."""
    hinge = model.Joint(limits=[model.JointLimit(linearAxes=(0, 1, 2), min=0.0, max=0.0),
                                model.JointLimit(angularAxes=(1, 2), min=0.0, max=0.0),
                                model.JointLimit(angularAxes=(0,), min=-1.5, max=1.5)])
    slider = model.Joint(limits=[model.JointLimit(linearAxes=(1, 2), min=0.0, max=0.0),
                                 model.JointLimit(angularAxes=(0, 1, 2), min=0.0, max=0.0),
                                 model.JointLimit(linearAxes=(0,), min=-2.0, max=2.0)])
    doc = PhysicsDocument(shapes=[model.Shape.box((0.1, 2.0, 1.0)), model.Shape.box((1.0, 1.0, 1.0))],
                          joints=[hinge, slider])
    doc.node_bodies[0] = NodeBody(collider=model.Collider(shape=1))  # Frame (static)
    doc.node_bodies[1] = NodeBody(motion=model.Motion(type=model.DYNAMIC, mass=10.0),
                                  collider=model.Collider(shape=0),
                                  joint=model.JointAttach(joint=0, connectedNode=0))
    doc.node_bodies[2] = NodeBody(motion=model.Motion(type=model.DYNAMIC, mass=1.0),
                                  collider=model.Collider(shape=1),
                                  joint=model.JointAttach(joint=1, connectedNode=0, enableCollision=True))
    nodes = [{"name": "Frame", "translation": [0.0, 1.0, 0.5]}, {"name": "Door", "translation": [0.0, 1.0, 0.5]},
             {"name": "Carriage", "translation": [1.0, 1.0, 0.5]}]  # each joint's bodies start within its limits
    return _gltf(doc, nodes)


def main() -> int:
    for name, document in (("omi_physics_shapes.gltf", shapes_file()), ("omi_physics_joints.gltf", joints_file())):
        text = json.dumps(document)
        (HERE / name).write_text(text + "\n", encoding="utf-8")
        load_document(json.loads(text))  # the writer reads its own file back
        print(f"wrote {HERE / name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
