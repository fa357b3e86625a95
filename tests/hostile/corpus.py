"""A corpus of hostile glTF files the project makes itself: each a kind of input that once crashed Blender,
hung, printed a traceback, or changed a value silently. Pure Python (json, struct, base64), no bpy.

`write_corpus(folder)` writes every case and returns {file name: Case}. A case says what `validate` must
find (error pointers), and the words the import and export reports must contain (the value named), so
the tests check each kind's handling without hard-coding whole reports.
"""

from __future__ import annotations

import base64
import json
import math
import struct
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

FLOAT, UINT16 = 5126, 5123
TRIANGLES, POINTS, LINES, LINE_STRIP, TRIANGLE_STRIP = 4, 0, 1, 3, 5
SHAPE, BODY, JOINT = "OMI_physics_shape", "OMI_physics_body", "OMI_physics_joint"


@dataclass
class Case:
    """One hostile file and what must be said about it."""

    document: Any
    binary: bytes | None = None  # a GLB's BIN chunk (the file is a .glb when given)
    raw: bytes | None = None  # the file's exact bytes, when JSON cannot say it (BOM, duplicate keys)
    side_files: dict[str, bytes] = field(default_factory=dict)  # e.g. a .bin next to the file
    validate_errors: tuple[str, ...] = ()  # JSON pointers validate must report as errors
    validate_words: tuple[str, ...] = ()  # words validate's messages must contain
    import_words: tuple[str, ...] = ()  # words the import report must contain (the value or node named)
    export_words: tuple[str, ...] = ()  # words the export report must contain
    import_fails: bool = False  # Blender's importer cannot open it: refused in one sentence
    export_lacks: tuple[str, ...] = ()  # JSON keys the export must not write (a value the file left to the engine)
    pending: str = ""  # not handled yet (what is missing): only "no crash, no traceback, bounded time" is checked


def _document(nodes: list[dict], **extra: Any) -> dict:
    scene_nodes = extra.pop("scene_nodes", list(range(len(nodes))))
    document: dict[str, Any] = {"asset": {"version": "2.0"}, "nodes": nodes, "scenes": [{"nodes": scene_nodes}],
                                "scene": 0}
    document.update(extra)
    return document


def _physics(nodes: list[dict], shapes: list[dict], **extra: Any) -> dict:
    document = _document(nodes, **extra)
    used = [SHAPE, BODY] + ([JOINT] if any(JOINT in node.get("extensions", {}) for node in nodes) else [])
    document["extensionsUsed"] = used
    document.setdefault("extensions", {})[SHAPE] = {"shapes": shapes}
    return document


def _body(motion: dict | None = None, shape: int | None = 0, **extra: Any) -> dict:
    body: dict[str, Any] = dict(extra)
    if motion is not None:
        body["motion"] = motion
    if shape is not None:
        body["collider"] = {"shape": shape}
    return {BODY: body}


def _box_body(name: str = "Crate", size: list[float] | None = None, **node: Any) -> dict:
    """A document with one dynamic box body (the common base of the value cases)."""
    return _physics([{"name": name, "extensions": _body({"type": "dynamic"}), **node}],
                    [{"type": "box", "box": {"size": size or [1, 1, 1]}}])


def _positions(points: list[tuple[float, float, float]]) -> bytes:
    return b"".join(struct.pack("<3f", *point) for point in points)


def _data_uri(data: bytes) -> str:
    return "data:application/octet-stream;base64," + base64.b64encode(data).decode("ascii")


def _mesh_document(primitives: list[tuple[list, int, bool]], shape_type: str = "convex",
                   motion: str | None = "dynamic", name: str = "Hull") -> dict:
    """A body whose convex/trimesh shape uses mesh 0, made of the given primitives: (points, mode, has
    POSITION). Each primitive's positions sit in an inline buffer of their own."""
    buffers, views, accessors, mesh_primitives = [], [], [], []
    for points, mode, has_position in primitives:
        data = _positions(points)
        attributes: dict[str, int] = {}
        if has_position:
            buffers.append({"byteLength": len(data), "uri": _data_uri(data)})
            views.append({"buffer": len(buffers) - 1, "byteLength": len(data)})
            low = [min(p[i] for p in points) for i in range(3)] if points else [0, 0, 0]
            high = [max(p[i] for p in points) for i in range(3)] if points else [0, 0, 0]
            accessors.append({"bufferView": len(views) - 1, "componentType": FLOAT, "count": len(points),
                              "type": "VEC3", "min": low, "max": high})
            attributes["POSITION"] = len(accessors) - 1
        mesh_primitives.append({"attributes": attributes, "mode": mode})
    motion_json = {"type": motion} if motion else None
    document = _physics([{"name": name, "extensions": _body(motion_json)}],
                        [{"type": shape_type, shape_type: {"mesh": 0}}],
                        buffers=buffers, bufferViews=views, accessors=accessors,
                        meshes=[{"primitives": mesh_primitives}])
    if not buffers:
        del document["buffers"], document["bufferViews"], document["accessors"]
    return document


TETRA = [(0.0, 0.0, 0.0), (1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0)]
TETRA_TRIANGLES = [TETRA[i] for i in (0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3)]


def _chain(depth: int) -> dict:
    """A chain of `depth` nodes, each 1 cm above its parent, a dynamic box body at its end."""
    nodes: list[dict] = [{"name": f"N{i}", "children": [i + 1], "translation": [0, 0.01, 0]} for i in range(depth - 1)]
    nodes.append({"name": "Leaf", "translation": [0, 0.01, 0], "extensions": _body({"type": "dynamic"})})
    return _physics(nodes, [{"type": "box", "box": {"size": [0.1, 0.1, 0.1]}}], scene_nodes=[0])


def _structure_cases() -> dict[str, Case]:
    cases: dict[str, Case] = {}
    cycle = _box_body()
    cycle["nodes"] = [{"name": "A", "children": [1]}, {"name": "B", "children": [0]}]
    cycle["scenes"][0]["nodes"] = [0]
    cases["cycle.gltf"] = Case(cycle, validate_errors=("/nodes/1/children/0",), import_words=("(a cycle)",))
    own_child = _box_body()
    own_child["nodes"][0]["children"] = [0]
    cases["own_child.gltf"] = Case(own_child, validate_errors=("/nodes/0/children/0",),
                                   import_words=("'Crate'", "lists itself as a child"))
    two_parents = _document([{"name": "A", "children": [2]}, {"name": "B", "children": [2]}, {"name": "C"}],
                            scene_nodes=[0, 1])
    cases["two_parents.gltf"] = Case(two_parents, validate_errors=("/nodes/1/children/0",),
                                     import_words=("node 2 already has a parent",))
    dangling = _document([{"name": "A"}], scene_nodes=[0, 5])
    cases["dangling_scene_node.gltf"] = Case(dangling, validate_errors=("/scenes/0/nodes/1",),
                                             import_words=("scene node 5 does not exist",))
    cases["deep_chain.gltf"] = Case(_chain(20_000), validate_words=("20000 levels deep", "stops at about"),
                                    import_words=("20000 levels deep", "recursion limit is raised"))
    too_deep = 100_001  # one level past gltf_structure.MAX_DEPTH
    cases["too_deep_chain.gltf"] = Case(_chain(too_deep), validate_errors=("/nodes",),
                                        validate_words=(f"{too_deep} levels deep",), import_fails=True)

    data = _positions(TETRA_TRIANGLES)
    past_view = _mesh_document([(TETRA_TRIANGLES, TRIANGLES, True)], name="PastView")
    past_view["accessors"][0]["count"] = 100
    cases["accessor_past_view.gltf"] = Case(past_view, validate_errors=("/accessors/0",),
                                            import_words=("/accessors/0", "primitive emptied"))
    past_buffer = _mesh_document([(TETRA_TRIANGLES, TRIANGLES, True)], name="PastBuffer")
    past_buffer["bufferViews"][0]["byteLength"] = len(data) * 4
    past_buffer["accessors"][0]["count"] = 48
    cases["view_past_buffer.gltf"] = Case(past_buffer, validate_errors=("/bufferViews/0",),
                                          import_words=("/bufferViews/0", "primitive emptied"))
    short_glb = _mesh_document([(TETRA_TRIANGLES, TRIANGLES, True)], name="ShortGlb")
    short_glb["buffers"] = [{"byteLength": len(data)}]
    cases["short_bin_chunk.glb"] = Case(short_glb, binary=data[:48], validate_errors=("/buffers/0",),
                                        import_words=("holds 48 bytes", "primitive emptied"))
    short_file = _mesh_document([(TETRA_TRIANGLES, TRIANGLES, True)], name="ShortFile")
    short_file["buffers"] = [{"byteLength": len(data), "uri": "short.bin"}]
    cases["short_bin_file.gltf"] = Case(short_file, side_files={"short.bin": data[:40]},
                                        validate_errors=("/buffers/0",), import_words=("holds 40 bytes",))
    missing_file = _mesh_document([(TETRA_TRIANGLES, TRIANGLES, True)], name="MissingFile")
    missing_file["buffers"] = [{"byteLength": len(data), "uri": "nowhere.bin"}]
    cases["missing_bin_file.gltf"] = Case(missing_file, validate_errors=("/buffers/0/uri",),
                                          import_words=("'nowhere.bin'", "primitive emptied"))
    bad_base64 = _mesh_document([(TETRA_TRIANGLES, TRIANGLES, True)], name="BadBase64")
    bad_base64["buffers"][0]["uri"] = "data:application/octet-stream;base64,@@not*base64@@"
    cases["bad_base64.gltf"] = Case(bad_base64, validate_errors=("/buffers/0/uri",),
                                    import_words=("not valid base64", "primitive emptied"))
    bom = _box_body("Bom")
    cases["utf8_bom.gltf"] = Case(bom, raw=b"\xef\xbb\xbf" + json.dumps(bom).encode("utf-8"),
                                  validate_errors=("",), validate_words=("byte order mark",), import_fails=True)
    surrogate = _box_body("placeholder")
    text = json.dumps(surrogate).replace('"placeholder"', '"Bad\\ud800Name"')
    cases["lone_surrogate_name.gltf"] = Case(surrogate, raw=text.encode("ascii"), validate_errors=("/nodes/0/name",),
                                             import_words=("renamed 'Bad?Name'",))
    return cases


def _mesh_cases() -> dict[str, Case]:
    cases: dict[str, Case] = {}
    cases["convex_one_vertex.gltf"] = Case(_mesh_document([([(0.0, 0.0, 0.0)], TRIANGLES, True)], name="Lonely"),
                                           validate_errors=("/meshes/0/primitives/0",),
                                           validate_words=("no triangles",),
                                           import_words=("'Lonely'", "no triangles", "the last 1 left out"))
    cases["triangles_not_multiple_of_3.gltf"] = Case(
        _mesh_document([(TETRA_TRIANGLES[:11], TRIANGLES, True)], name="Ragged"),
        validate_words=("not a multiple of 3",), import_words=("the last 2 left out",))  # a warning: Blender copes
    cases["no_position.gltf"] = Case(_mesh_document([([], TRIANGLES, False)], name="Blind"),
                                     validate_errors=("/meshes/0",),
                                     import_words=("Blind", "POSITION"))
    cases["lines_shape.gltf"] = Case(_mesh_document([(TETRA, LINES, True)], name="Wire"),
                                     validate_words=("LINES",), import_words=("Wire", "LINES"))
    cases["points_shape.gltf"] = Case(_mesh_document([(TETRA, POINTS, True)], name="Dots"),
                                      validate_words=("POINTS",), import_words=("Dots", "POINTS"))
    cases["empty_primitive.gltf"] = Case(_mesh_document([([], TRIANGLES, True)], name="Empty"),
                                         validate_words=("no triangles",), import_words=("Empty", "no triangles"))
    flat = [(0.0, 0.0, 0.0), (1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (1.0, 1.0, 0.0), (0.0, 1.0, 0.0), (1.0, 0.0, 0.0)]
    cases["coplanar_hull.gltf"] = Case(_mesh_document([(flat, TRIANGLES, True)], name="Flat"),
                                       validate_words=("flat",), import_words=("Flat", "flat"))
    line = [(0.0, 0.0, 0.0), (1.0, 1.0, 1.0), (2.0, 2.0, 2.0)]
    cases["collinear_hull.gltf"] = Case(_mesh_document([(line, TRIANGLES, True)], name="Stick"),
                                        validate_words=("line",), import_words=("Stick", "line"))
    cases["two_primitive_hull.gltf"] = Case(
        _mesh_document([(TETRA_TRIANGLES, TRIANGLES, True),
                        ([(p[0] + 3, p[1], p[2]) for p in TETRA_TRIANGLES], TRIANGLES, True)], name="Pair"),
        validate_words=("primitives",), import_words=("Pair", "primitives"))
    cases["trimesh_dynamic.gltf"] = Case(_mesh_document([(TETRA_TRIANGLES, TRIANGLES, True)], "trimesh",
                                                        name="Crumpled"),
                                         validate_words=("trimesh",), import_words=("Crumpled", "trimesh"))
    strip = _mesh_document([(TETRA[:1], TRIANGLE_STRIP, True)], motion=None, name="Strip")
    cases["short_strip.gltf"] = Case(strip, validate_errors=("/meshes/0/primitives/0",),
                                     import_words=("'Strip'", "TRIANGLE_STRIP primitive with 1 indices"))
    return cases


def _huge_hull_case(vertices: int) -> Case:
    """A convex hull of `vertices` points on a sphere-ish spiral (far above the spec's 255)."""
    points = []
    for i in range(vertices):
        z = 1 - 2 * (i + 0.5) / vertices
        radius, angle = math.sqrt(1 - z * z), i * 2.399963
        points.append((radius * math.cos(angle), radius * math.sin(angle), z))
    triangles = [points[i] for i in range(vertices - vertices % 3)]
    return Case(_mesh_document([(triangles, TRIANGLES, True)], name="Porcupine"),
                validate_words=("255",), import_words=("Porcupine", "255"))


def _value_cases() -> dict[str, Case]:
    cases: dict[str, Case] = {}
    cases["zero_box_side.gltf"] = Case(_box_body("Sheet", [1, 0, 1]),
                                       validate_errors=(f"/extensions/{SHAPE}/shapes/0/box/size/1",),
                                       import_words=("box size",))
    cases["underflow_box_side.gltf"] = Case(_box_body("Thin", [1, 1e-46, 1]), validate_words=("float32",),
                                            import_words=("'Thin'", "becomes 0"),
                                            export_words=("'Thin'", "no thickness", "0.02 m thick"))
    cases["beyond_float32_size.gltf"] = Case(_box_body("Giant", [1e39, 1, 1]), validate_words=("float32",),
                                             import_words=("'Giant'", "[1e+39, 1, 1] is beyond float32"))
    cases["far_translation.gltf"] = Case(_box_body("Far", translation=[1e39, 0, 0]), validate_words=("float32",),
                                         import_words=("'Far'", "at the origin"))
    cases["zero_quaternion.gltf"] = Case(_box_body("Spinless", rotation=[0, 0, 0, 0]), validate_words=("rotation",),
                                         import_words=("'Spinless'", "half turn"))
    cases["tiny_quaternion.gltf"] = Case(_box_body("Tiny", rotation=[1e-30, 0, 0, 1e-30]),
                                         validate_words=("rotation",), import_words=("'Tiny'", "half turn"))
    shear = _box_body("Sheared", matrix=[1, 0, 0, 0, 0.5, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])
    cases["shear_matrix.gltf"] = Case(shear, validate_words=("shear",), import_words=("'Sheared'", "shear"))
    mass = _box_body("Heavy")
    mass["nodes"][0]["extensions"][BODY]["motion"]["mass"] = 1e39
    cases["mass_beyond_float32.gltf"] = Case(mass, validate_words=("float32",),
                                             import_words=("'Heavy'", "mass 1e+39 is beyond float32"))
    camera = _box_body("Eye", camera=0)
    camera["cameras"] = [{"type": "perspective", "perspective": {"yfov": 0.8, "znear": 0.1}}]
    cases["physics_on_camera.gltf"] = Case(camera, export_words=("'Eye'", "leaves out cameras"))
    return cases


def _forward_cases() -> dict[str, Case]:
    cases: dict[str, Case] = {}
    newer = _box_body("Future")
    body = newer["nodes"][0]["extensions"][BODY]
    body["motion"]["linearDamping"] = 0.3
    body["collider"]["isSensor"] = False
    body["collider"]["extras"] = {"author": "x"}
    newer["extensions"][SHAPE]["shapes"][0]["box"]["margin"] = 0.01
    newer["extensions"][BODY] = {"physicsSettings": [{"substeps": 4}]}
    cases["unknown_keys.gltf"] = Case(newer, validate_words=("linearDamping", "isSensor", "margin", "physicsSettings",
                                                             "`extras` of the collider", "kept as it is"),
                                      import_words=("linearDamping", "isSensor", "margin", "physicsSettings",
                                                    "kept as it is"))
    servo = _physics([{"name": "Base", "extensions": _body({"type": "static"})},
                      {"name": "Arm", "extensions": _body({"type": "dynamic"}), "translation": [0, 1, 0]},
                      {"name": "Hinge", "extensions": {JOINT: {"connectedNode": 0, "joint": 0}}}],
                     [{"type": "box", "box": {"size": [0.2, 0.2, 0.2]}}], scene_nodes=[0, 1])
    servo["extensions"][JOINT] = {"physicsJoints": [{
        "limits": [{"linearAxes": [0, 1, 2], "min": 0, "max": 0}, {"angularAxes": [0, 1], "min": 0, "max": 0}],
        "drives": [{"type": "angular", "mode": "servo", "axis": 2, "targetVelocity": 1, "damping": 1}]}]}
    servo["nodes"][1]["children"] = [2]
    cases["unknown_drive_mode.gltf"] = Case(servo, validate_words=("servo", "kept"),
                                            import_words=("'servo'", "read as force", "written back"))
    twice = _box_body("Twice")
    text = json.dumps(twice)
    inner = json.dumps(twice["nodes"][0]["extensions"])
    duplicated = text.replace(f'"extensions": {inner}', f'"extensions": {inner}, "extensions": {{}}', 1)
    cases["duplicate_extensions_key.gltf"] = Case(twice, raw=duplicated.encode("utf-8"),
                                                  validate_errors=("/nodes/0/extensions",), validate_words=("twice",),
                                                  import_words=("/nodes/0/extensions", "twice"))
    return cases


SLIDER_LIMITS = [{"linearAxes": [1, 2], "min": 0, "max": 0}, {"linearAxes": [0], "min": -1, "max": 1},
                 {"angularAxes": [0, 1, 2], "min": 0, "max": 0}]  # slides 1 m either way along X
HINGE_LIMITS = [{"linearAxes": [0, 1, 2], "min": 0, "max": 0}, {"angularAxes": [0, 1], "min": 0, "max": 0},
                {"angularAxes": [2], "min": -0.5, "max": 0.5}]  # turns 0.5 rad either way about Z


def turn_z(angle: float) -> list[float]:
    """A glTF rotation of `angle` radians about Z."""
    return [0.0, 0.0, math.sin(angle / 2), math.cos(angle / 2)]


def joint_document(limits: list[dict], rail: dict, joint: dict | None = None, carriage: dict | None = None) -> dict:
    """A static 'Rail' (node 0) and a dynamic 'Carriage' (node 1) joined by 'Joint' (node 2, under the
    carriage); `rail`, `joint` and `carriage` add to the nodes (their transforms)."""
    document = _physics([{"name": "Rail", "extensions": _body({"type": "static"}), **rail},
                         {"name": "Carriage", "extensions": _body({"type": "dynamic"}), "children": [2],
                          **(carriage or {})},
                         {"name": "Joint", "extensions": {JOINT: {"connectedNode": 0, "joint": 0}}, **(joint or {})}],
                        [{"type": "box", "box": {"size": [0.2, 0.2, 0.2]}}], scene_nodes=[0, 1])
    document["extensions"][JOINT] = {"physicsJoints": [{"limits": limits}]}
    return document


def _joint_cases() -> dict[str, Case]:
    """Bodies that start outside their own joint's limits (engines snap them on the first step)."""
    words = ("'Joint'", "'Rail'")
    return {
        "slider_outside_limit.gltf": Case(joint_document(SLIDER_LIMITS, {"translation": [1.5, 0, 0]}),
                                          validate_words=("1.5 m along the joint's X axis", "0.5 m beyond"),
                                          import_words=(*words, "0.5 m beyond the limit's max 1 m")),
        "hinge_outside_limit.gltf": Case(joint_document(HINGE_LIMITS, {"rotation": turn_z(0.7)}),
                                         validate_words=("about the joint's Z axis", "11.5° beyond"),
                                         import_words=(*words, "11.5° beyond the limit's max 28.6°")),
    }


CASE_MAKERS: tuple[Callable[[], dict[str, Case]], ...] = (_structure_cases, _mesh_cases, _value_cases,
                                                            _forward_cases, _joint_cases)


def make_corpus(huge_hull_vertices: int = 500_000) -> dict[str, Case]:
    from hostile.round_two import round_two_cases  # round_two builds on this module's helpers

    cases: dict[str, Case] = {}
    for maker in (*CASE_MAKERS, round_two_cases):
        cases.update(maker())
    if huge_hull_vertices:
        cases["huge_hull.gltf"] = _huge_hull_case(huge_hull_vertices)
    return cases


def glb(document: Any, binary: bytes | None) -> bytes:
    payload = json.dumps(document).encode("utf-8")
    payload += b" " * (-len(payload) % 4)
    chunks = [(b"JSON", payload)]
    if binary is not None:
        chunks.append((b"BIN\x00", binary + b"\x00" * (-len(binary) % 4)))
    body = b"".join(struct.pack("<I4s", len(data), kind) + data for kind, data in chunks)
    return struct.pack("<4sII", b"glTF", 2, 12 + len(body)) + body


def write_corpus(folder: Path, huge_hull_vertices: int = 500_000) -> dict[str, Case]:
    """Write every case into `folder` (side files next to them); {file name: Case}."""
    folder.mkdir(parents=True, exist_ok=True)
    cases = make_corpus(huge_hull_vertices)
    for name, case in cases.items():
        if case.raw is not None:
            data = case.raw
        elif name.endswith(".glb"):
            data = glb(case.document, case.binary)
        else:
            data = json.dumps(case.document).encode("utf-8")
        (folder / name).write_bytes(data)
        for side_name, side_data in case.side_files.items():
            (folder / side_name).write_bytes(side_data)
    return cases


if __name__ == "__main__":
    import sys

    written = write_corpus(Path(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 500_000)
    print(f"{len(written)} files in {sys.argv[1]}")
