"""Robot_skinned-like test files, made here instead of committed: a skinned mesh whose skin joints carry
physics bodies, joined to each other and to an ordinary body.

    Hook       static ordinary body (box), 3 m up
      HookJoint  ball joint (pin) holding Upper's origin; connectedNode: the bone node Upper
    Character  (becomes the armature)
      Upper      skin joint, dynamic 2 kg, turned -90 degrees about Z so the arm lies along +X
        UpperShape   its capsule, half way along the bone (a compound collider child)
        ElbowJoint   hinge about Z, limited to +-ELBOW_LIMIT; connectedNode: Lower
        Lower        skin joint, dynamic 1 kg, sphere collider on the bone node itself
      Arm        the skinned mesh: a square tube from x=0 to x=2, its first half on Upper, the rest on Lower

Released, the arm falls from the hook and swings; the elbow bends no more than its limit. The KHR file is
the OMI one converted by the add-on's own dialect conversion (io/omi/write/dialect_convert).
"""

from __future__ import annotations

import base64
import json
import math
import struct
from pathlib import Path
from typing import Any

import omi_core.write.dialect_convert

ELBOW_LIMIT = 0.6
HOOK, HOOK_JOINT, CHARACTER, UPPER, UPPER_SHAPE, LOWER, ELBOW, ARM = range(8)
BONE_NODES = {"Upper": UPPER, "Lower": LOWER}
RING_X = (0.0, 0.9, 1.1, 2.0)  # the tube's rings along x; the first two follow Upper, the last two Lower
_HALF = math.sqrt(0.5)


def _tube() -> tuple[list[tuple[float, float, float]], list[int], list[int]]:
    """Positions (glTF axes, world), joint per vertex (0 Upper, 1 Lower), triangle indices."""
    positions, joints = [], []
    for ring, x in enumerate(RING_X):
        for y, z in ((-0.1, -0.1), (0.1, -0.1), (0.1, 0.1), (-0.1, 0.1)):
            positions.append((x, 3.0 + y, z))
            joints.append(0 if ring < 2 else 1)
    indices = []
    for ring in range(len(RING_X) - 1):
        for side in range(4):
            a, b = ring * 4 + side, ring * 4 + (side + 1) % 4
            c, d = a + 4, b + 4
            indices += [a, b, d, a, d, c]
    return positions, joints, indices


def _inverse_bind(x: float) -> list[float]:
    """Inverse of a bone's world matrix (translation (x, 3, 0), turned -90 degrees about Z), column-major."""
    # world: R (x->-y... ) : local +Y -> world +X; the inverse maps world +X to local +Y.
    # R = [[0, 1, 0], [-1, 0, 0], [0, 0, 1]] (columns: local X -> world -Y, local Y -> world +X)
    # inverse = R^T with translation -R^T t
    rt = ((0.0, -1.0, 0.0), (1.0, 0.0, 0.0), (0.0, 0.0, 1.0))
    t = (x, 3.0, 0.0)
    moved = [-sum(rt[row][k] * t[k] for k in range(3)) for row in range(3)]
    rows = [[*rt[row], moved[row]] for row in range(3)] + [[0.0, 0.0, 0.0, 1.0]]
    return [rows[row][column] for column in range(4) for row in range(4)]


def _buffers() -> dict[str, Any]:
    positions, joints, indices = _tube()
    count = len(positions)
    blobs = [
        struct.pack(f"<{3 * count}f", *(c for p in positions for c in p)),
        struct.pack(f"<{4 * count}H", *(v for j in joints for v in (j, 0, 0, 0))),
        struct.pack(f"<{4 * count}f", *(v for _ in joints for v in (1.0, 0.0, 0.0, 0.0))),
        struct.pack(f"<{len(indices)}H", *indices),
        struct.pack("<32f", *_inverse_bind(0.0), *_inverse_bind(1.0)),
    ]
    views, offset = [], 0
    for blob in blobs:
        views.append({"buffer": 0, "byteOffset": offset, "byteLength": len(blob)})
        offset += len(blob) + (-len(blob)) % 4
    data = b"".join(blob + b"\0" * ((-len(blob)) % 4) for blob in blobs)
    xs, ys, zs = zip(*positions, strict=True)
    return {
        "buffers": [{"byteLength": len(data),
                     "uri": "data:application/octet-stream;base64," + base64.b64encode(data).decode("ascii")}],
        "bufferViews": views,
        "accessors": [
            {"bufferView": 0, "componentType": 5126, "count": count, "type": "VEC3",
             "min": [min(xs), min(ys), min(zs)], "max": [max(xs), max(ys), max(zs)]},
            {"bufferView": 1, "componentType": 5123, "count": count, "type": "VEC4"},
            {"bufferView": 2, "componentType": 5126, "count": count, "type": "VEC4"},
            {"bufferView": 3, "componentType": 5123, "count": len(indices), "type": "SCALAR"},
            {"bufferView": 4, "componentType": 5126, "count": 2, "type": "MAT4"},
        ],
        "meshes": [{"name": "Arm", "primitives": [
            {"attributes": {"POSITION": 0, "JOINTS_0": 1, "WEIGHTS_0": 2}, "indices": 3}]}],
        "skins": [{"joints": [UPPER, LOWER], "inverseBindMatrices": 4, "skeleton": UPPER}],
    }


def omi_document() -> dict[str, Any]:
    """The character in the current OMI revision."""
    body, joint = "OMI_physics_body", "OMI_physics_joint"
    nodes = [
        {"name": "Hook", "translation": [0.0, 3.0, 0.0], "children": [HOOK_JOINT],
         "extensions": {body: {"motion": {"type": "static"}, "collider": {"shape": 0}}}},
        {"name": "HookJoint", "extensions": {joint: {"connectedNode": UPPER, "joint": 0}}},
        {"name": "Character", "children": [UPPER, ARM]},
        {"name": "Upper", "translation": [0.0, 3.0, 0.0], "rotation": [0.0, 0.0, -_HALF, _HALF],
         "children": [UPPER_SHAPE, LOWER, ELBOW],
         "extensions": {body: {"motion": {"type": "dynamic", "mass": 2.0}}}},
        {"name": "UpperShape", "translation": [0.0, 0.5, 0.0],
         "extensions": {body: {"collider": {"shape": 1, "physicsMaterial": 0}}}},
        {"name": "Lower", "translation": [0.0, 1.0, 0.0],
         "extensions": {body: {"motion": {"type": "dynamic", "mass": 1.0}, "collider": {"shape": 2}}}},
        {"name": "ElbowJoint", "translation": [0.0, 1.0, 0.0],
         "extensions": {joint: {"connectedNode": LOWER, "joint": 1}}},
        {"name": "Arm", "mesh": 0, "skin": 0},
    ]
    document = {
        "asset": {"version": "2.0"},
        "extensionsUsed": [body, "OMI_physics_shape", joint],
        "extensions": {
            "OMI_physics_shape": {"shapes": [
                {"type": "box", "box": {"size": [0.3, 0.3, 0.3]}},
                {"type": "capsule", "capsule": {"radiusBottom": 0.1, "radiusTop": 0.1, "height": 0.8}},
                {"type": "sphere", "sphere": {"radius": 0.15}},
            ]},
            body: {"physicsMaterials": [{"staticFriction": 0.8, "dynamicFriction": 0.7, "restitution": 0.1}]},
            joint: {"physicsJoints": [
                {"limits": [{"linearAxes": [0, 1, 2], "min": 0.0, "max": 0.0}]},
                {"limits": [{"linearAxes": [0, 1, 2], "min": 0.0, "max": 0.0},
                            {"angularAxes": [0, 1], "min": 0.0, "max": 0.0},
                            {"angularAxes": [2], "min": -ELBOW_LIMIT, "max": ELBOW_LIMIT}]},
            ]},
        },
        "nodes": nodes,
        "scenes": [{"nodes": [HOOK, CHARACTER]}],
        "scene": 0,
    }
    document.update(_buffers())
    return document


def document(dialect: str) -> dict[str, Any]:
    """The character in `dialect` ("OMI" or "KHR")."""
    omi = omi_document()
    if dialect == "OMI":
        return omi
    conversion = omi_core.write.dialect_convert.convert(omi, dialect)
    assert not conversion.lost, conversion.lost
    return conversion.document


def write(directory: Path, dialect: str) -> Path:
    path = Path(directory) / f"character_{dialect.lower()}.gltf"
    path.write_text(json.dumps(document(dialect), indent=1))
    return path


def make_lying_figure() -> tuple[Any, Any, Any]:
    """A figure lying 1 m above a static ground box: an armature Hips -> Spine -> Head along +X, and a square
    tube skinned to it (each ring wholly on one bone). (armature, mesh, ground)."""
    import bpy  # here: the file writers above need no bpy

    scene = bpy.context.scene
    data = bpy.data.armatures.new("Figure")
    armature = bpy.data.objects.new("Figure", data)
    scene.collection.objects.link(armature)
    bpy.context.view_layer.objects.active = armature
    bpy.ops.object.mode_set(mode='EDIT')
    heads = {"Hips": (0.0, 0.4), "Spine": (0.4, 0.9), "Head": (0.9, 1.2)}
    previous = None
    for name, (start, end) in heads.items():
        bone = data.edit_bones.new(name)
        bone.head, bone.tail = (start, 0.0, 1.0), (end, 0.0, 1.0)
        bone.parent = previous
        bone.use_connect = previous is not None
        previous = bone
    bpy.ops.object.mode_set(mode='OBJECT')
    rings = [(-0.05, "Hips"), (0.35, "Hips"), (0.45, "Spine"), (0.85, "Spine"), (0.95, "Head"), (1.2, "Head")]
    positions, faces = [], []
    for x, _bone in rings:
        positions += [(x, y, 1.0 + z) for y, z in ((-0.1, -0.1), (0.1, -0.1), (0.1, 0.1), (-0.1, 0.1))]
    for ring in range(len(rings) - 1):
        for side in range(4):
            a, b = ring * 4 + side, ring * 4 + (side + 1) % 4
            faces.append((a, b, b + 4, a + 4))
    mesh_data = bpy.data.meshes.new("Body")
    mesh_data.from_pydata(positions, [], faces)
    mesh = bpy.data.objects.new("Body", mesh_data)
    scene.collection.objects.link(mesh)
    for name in heads:
        mesh.vertex_groups.new(name=name)
    for ring, (_x, bone) in enumerate(rings):
        mesh.vertex_groups[bone].add([ring * 4 + side for side in range(4)], 1.0, 'REPLACE')
    mesh.parent = armature
    modifier = mesh.modifiers.new("Armature", 'ARMATURE')
    modifier.object = armature
    ground = bpy.data.objects.new("Ground", bpy.data.meshes.new("Ground"))
    scene.collection.objects.link(ground)
    ground.location = (0.6, 0.0, -0.25)
    settings = ground.omi_physics
    settings.use_motion = True
    settings.motion.motion_type = 'STATIC'
    settings.use_collider = True
    settings.collider.shape.shape_type = 'BOX'
    settings.collider.shape.size = (4.0, 4.0, 0.5)
    return armature, mesh, ground


def make_ragdoll_on_ground(rigid_body: Any, omi: Any) -> Any:
    """An empty scene with the lying figure made a ragdoll by Make Ragdoll (box bones) over its static ground
    (the fixtures `rigid_body` and `omi` build the ground's rigid body); the armature."""
    import bpy

    bpy.ops.wm.read_homefile(use_empty=True)
    armature, _mesh, ground = make_lying_figure()
    rigid_body.build_rigid_bodies(bpy.context.scene, [ground], omi("properties.convert_build").SettingsPhysics(
        bpy.context.scene), [])
    bpy.context.view_layer.objects.active = armature
    armature.select_set(True)
    if bpy.ops.omi.make_ragdoll(bones='DEFORM', shape_type='BOX') != {'FINISHED'}:
        raise RuntimeError("Make Ragdoll did not finish on the lying figure")
    return armature
