"""What an import builds, written down so that two commits' imports can be compared value for value: a change
made for speed must build the same scene.

`make DIR` writes the files: the import benchmark's scene (`import_ratio`'s file, 2,000 bodies) and the
demo's scene as .glb, .gltf and KHR .glb. `dump DIR OUT.json` imports each file of DIR with the add-on into
an empty scene and writes, per file: every object (type, parent, data, collections, rounded world matrix,
visibility), its Blender rigid body and constraint (every RNA value), its settings (every stored ID
property) and the scene's (the physics libraries, the rigid body world), the meshes' vertex counts and
rounded bounds, and the import's log lines. `compare A.json B.json` prints the first differences.

Run: .venv/bin/python benchmarks/import_snapshot.py make DIR; ... dump DIR before.json; (change);
     ... dump DIR after.json; ... compare before.json after.json
"""

from __future__ import annotations

import json
import logging
import sys
from pathlib import Path
from typing import Any

import bench_common
import bpy

DIGITS = 5


def _plain(value: Any, depth: int = 0) -> Any:
    """An RNA or ID-property value as JSON (floats rounded; IDs by name; structs by their values)."""
    if isinstance(value, float):
        return round(value, DIGITS)
    if isinstance(value, (bool, int, str)) or value is None:
        return value
    if isinstance(value, bpy.types.ID):
        return f"ID:{value.name}"
    if hasattr(value, "to_dict"):  # an ID property group
        return _plain(value.to_dict(), depth)
    if hasattr(value, "to_list"):
        return _plain(value.to_list(), depth)
    if isinstance(value, dict):
        return {str(key): _plain(item, depth) for key, item in sorted(value.items())}
    if isinstance(value, bpy.types.bpy_struct):
        return _rna(value, depth + 1)
    try:
        return [_plain(item, depth) for item in value]
    except TypeError:
        return repr(value)


def _rna(struct: Any, depth: int = 0) -> Any:
    if struct is None or depth > 8:
        return None
    values = {}
    for prop in struct.bl_rna.properties:
        name = prop.identifier
        if name in ("rna_type", "id_data"):
            continue
        value = getattr(struct, name, None)
        if prop.type == 'POINTER' and not isinstance(value, (bpy.types.ID, bpy.types.PropertyGroup)) \
                and value is not None:
            continue  # nested structs of Blender's (the constraint's object pointers are IDs)
        values[name] = _plain(value, depth)
    return values


def _object(obj: bpy.types.Object) -> dict[str, Any]:
    mesh = obj.data if isinstance(obj.data, bpy.types.Mesh) else None
    return {
        "type": obj.type, "parent": obj.parent.name if obj.parent else None, "parent_type": obj.parent_type,
        "data": obj.data.name if obj.data else None, "collections": sorted(c.name for c in obj.users_collection),
        "matrix": _plain([list(row) for row in obj.matrix_world]),
        "matrix_parent_inverse": _plain([list(row) for row in obj.matrix_parent_inverse]),
        "display_type": obj.display_type, "hide_render": obj.hide_render, "hide_viewport": obj.hide_viewport,
        "hide_select": obj.hide_select, "show_in_front": obj.show_in_front,
        "mesh": None if mesh is None else [len(mesh.vertices), len(mesh.polygons),
                                           _plain([list(corner) for corner in obj.bound_box])],
        "rigid_body": _rna(obj.rigid_body), "constraint": _rna(obj.rigid_body_constraint),
        "id_properties": _plain(dict(obj.items())),
        "settings": _rna(getattr(obj, "omi_physics", None)),
        "constraints": [_rna(constraint) for constraint in obj.constraints],
        "animation": None if obj.animation_data is None or obj.animation_data.action is None else
        obj.animation_data.action.name,
    }


class _Lines(logging.Handler):
    """The log's messages, kept."""

    def __init__(self, level: int) -> None:
        super().__init__(level)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())


def dump_file(path: Path) -> dict[str, Any]:
    bpy.ops.wm.read_homefile(use_empty=True)
    handler = _Lines(level=logging.INFO)
    lines = handler.lines
    logger = logging.getLogger("glTFImporter")
    logger.addHandler(handler)
    try:
        bpy.ops.import_scene.gltf(filepath=str(path))
    finally:
        logger.removeHandler(handler)
    bpy.context.view_layer.update()
    scene = bpy.context.scene
    world = scene.rigidbody_world
    return {
        "objects": {obj.name: _object(obj) for obj in sorted(bpy.data.objects, key=lambda obj: obj.name)},
        "scene_settings": _rna(getattr(scene, "omi_physics", None)),
        "rigidbody_world": None if world is None else _rna(world),
        "collections": {c.name: sorted(o.name for o in c.objects) for c in bpy.data.collections},
        "meshes": sorted(mesh.name for mesh in bpy.data.meshes),
        "materials": sorted(material.name for material in bpy.data.materials),
        "actions": sorted(action.name for action in bpy.data.actions),
        "log": sorted(line for line in lines if "OMI" in line),
    }


def make(folder: Path) -> None:
    import export_benchmark  # noqa: PLC0415

    folder.mkdir(parents=True, exist_ok=True)
    bench_common.enable_addon()
    export_benchmark.build_scene(2000, shared=True)
    export_benchmark.choose_dialect("OMI")
    bpy.ops.export_scene.gltf(filepath=str(folder / "bodies.glb"), export_format='GLB')
    sys.path.insert(0, str(bench_common.HERE.parent / "scripts" / "demo"))
    import demo  # noqa: PLC0415
    import demo_animation  # noqa: PLC0415
    import demo_scene  # noqa: PLC0415

    demo_scene.build_scene()
    demo_animation.animate_door()
    result = demo.DemoResult(folder)
    demo.export(folder, result)


def main() -> None:
    command, *arguments = sys.argv[1:]
    bench_common.quiet_gltf_logs()
    if command == "make":
        make(Path(arguments[0]))
    elif command == "dump":
        bench_common.enable_addon()
        files = sorted(path for path in Path(arguments[0]).iterdir() if path.suffix in (".glb", ".gltf"))
        Path(arguments[1]).write_text(json.dumps({path.name: dump_file(path) for path in files}, indent=0,
                                                 sort_keys=True))
    elif command == "compare":
        before, after = (json.loads(Path(name).read_text()) for name in arguments[:2])
        differences = list(_differences(before, after, ""))
        for line in differences[:40]:
            print(line)
        print(f"{len(differences)} difference(s)")
        sys.exit(1 if differences else 0)


def _differences(before: Any, after: Any, where: str):
    if isinstance(before, dict) and isinstance(after, dict):
        for key in sorted(set(before) | set(after)):
            if key not in before or key not in after:
                yield f"{where}/{key}: only in {'after' if key not in before else 'before'}"
            else:
                yield from _differences(before[key], after[key], f"{where}/{key}")
    elif before != after:
        yield f"{where}: {before!r} -> {after!r}"


if __name__ == "__main__":
    main()
