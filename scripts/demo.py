"""The main job on a built-in demo scene: build a physics scene, export it as glTF, show the result."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import bpy

sys.path.insert(0, str(Path(__file__).resolve().parent))
import addon_loader

OUT_DIR = Path(__file__).resolve().parent.parent / "out" / "demo"


def build_scene() -> None:
    bpy.ops.wm.read_homefile(use_empty=True)
    bpy.ops.mesh.primitive_cube_add(size=1.0, location=(0.0, 0.0, 3.0))
    box = bpy.context.object
    box.name = "FallingBox"
    settings = box.omi_physics
    settings.use_motion = True
    settings.motion.motion_type = 'DYNAMIC'
    settings.motion.mass = 2.0
    settings.use_collider = True

    bpy.ops.mesh.primitive_plane_add(size=10.0)
    floor = bpy.context.object
    floor.name = "Floor"
    floor.omi_physics.use_collider = True
    floor.omi_physics.collider.shape.size = (10.0, 10.0, 0.1)


def main() -> None:
    addon_loader.enable()
    build_scene()
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    path = OUT_DIR / "demo.gltf"
    bpy.ops.export_scene.gltf(filepath=str(path), export_format='GLTF_SEPARATE')
    document = json.loads(path.read_text())
    physics = {
        "extensionsUsed": document.get("extensionsUsed", []),
        "extensions": {k: v for k, v in document.get("extensions", {}).items() if k.startswith("OMI_")},
        "nodes": {n.get("name"): n.get("extensions", {}) for n in document.get("nodes", [])},
    }
    print(json.dumps(physics, indent=2))
    print(f"demo written to {path}")


if __name__ == "__main__":
    main()
