"""Reference exports: scenes exported as .gltf + .bin, compared byte for byte with files captured before a
refactoring (tests/data/reference_exports/<Blender major.minor>/).

The scenes: the demo (scripts/demo/demo_scene.py), the .blend round trip's scene with every kind of setting,
plain Blender rigid bodies joined by every Blender constraint type (exported through adoption), and
every spec example imported and exported again.

    .venv/bin/python tests/blender/reference_exports.py    # (re)capture for the running Blender version
"""

from __future__ import annotations

import hashlib
import json
import math
import sys
from collections.abc import Callable
from pathlib import Path

import bpy
import every_setting_scene
import numpy as np

TESTS_DIR = Path(__file__).resolve().parent.parent
REFERENCE_ROOT = TESTS_DIR / "data" / "reference_exports"
SPEC_DIR = TESTS_DIR / "data" / "omi-spec"
CONSTRAINT_TYPES = ('FIXED', 'POINT', 'HINGE', 'SLIDER', 'PISTON', 'GENERIC', 'GENERIC_SPRING', 'MOTOR')


def version_dir() -> Path:
    return REFERENCE_ROOT / "{}.{}".format(*bpy.app.version[:2])


def build_constraints() -> None:
    """Pairs of plain rigid bodies, one pair per Blender constraint type, with limits, springs and motors."""
    import export_support as support

    bpy.ops.wm.read_homefile(use_empty=True)
    for index, kind in enumerate(CONSTRAINT_TYPES):
        x = 3.0 * index
        first = support.mesh_object(f"{kind}_A", location=(x, 0.0, 1.0))
        second = support.mesh_object(f"{kind}_B", location=(x, 0.0, 3.0))
        support.add_rigid_body(first, 'PASSIVE', 'BOX')
        support.add_rigid_body(second, 'ACTIVE', 'CAPSULE', mass=2.0, friction=0.4)
        values: dict = {}
        if kind in ('HINGE',):
            values = {"use_limit_ang_z": True, "limit_ang_z_lower": -0.5, "limit_ang_z_upper": 1.0}
        elif kind in ('SLIDER', 'PISTON'):
            values = {"use_limit_lin_x": True, "limit_lin_x_lower": -0.25, "limit_lin_x_upper": 0.75}
            if kind == 'PISTON':
                values |= {"use_limit_ang_x": True, "limit_ang_x_lower": -0.3, "limit_ang_x_upper": 0.2}
        elif kind in ('GENERIC', 'GENERIC_SPRING'):
            values = {"use_limit_lin_x": True, "limit_lin_x_lower": -1.0, "limit_lin_x_upper": 1.0,
                      "use_limit_lin_y": True, "limit_lin_y_lower": 0.0, "limit_lin_y_upper": 0.0,
                      "use_limit_ang_z": True, "limit_ang_z_lower": -math.pi / 4, "limit_ang_z_upper": 0.1}
            if kind == 'GENERIC_SPRING':
                values |= {"use_spring_x": True, "spring_stiffness_x": 30.0, "spring_damping_x": 0.5,
                           "use_spring_ang_z": True, "spring_stiffness_ang_z": 12.0, "spring_damping_ang_z": 0.25}
        elif kind == 'MOTOR':
            values = {"use_motor_ang": True, "motor_ang_target_velocity": 2.0, "motor_ang_max_impulse": 3.0,
                      "use_motor_lin": True, "motor_lin_target_velocity": -1.0, "motor_lin_max_impulse": 0.5}
        support.add_constraint(f"{kind}_Joint", kind, first, second, location=(x, 0.0, 2.0),
                               rotation=(0.0, 0.3, 0.2), **values)


def build_demo() -> None:
    import demo_scene

    demo_scene.build_scene()


def build_settings() -> None:

    bpy.ops.wm.read_homefile(use_empty=True)
    every_setting_scene.build_scene()


def spec_examples() -> list[str]:
    return sorted(str(path.relative_to(SPEC_DIR)) for path in SPEC_DIR.rglob("*.gltf")) if SPEC_DIR.is_dir() else []


def spec_builder(name: str) -> Callable[[], None]:
    def build() -> None:
        import import_support

        import_support.import_gltf(SPEC_DIR / name)

    return build


def scenes() -> dict[str, Callable[[], None]]:
    """Reference name -> a function that builds the scene to export."""
    built: dict[str, Callable[[], None]] = {"demo": build_demo, "settings": build_settings,
                                            "constraints": build_constraints}
    for name in spec_examples():
        built["spec__" + name.replace("/", "__").removesuffix(".gltf")] = spec_builder(name)
    return built


def accessor_digests(exported) -> list[str]:
    """SHA-256 of each accessor's bytes. Triangle index accessors are digested in sorted triangle order:
    Blender's exporter writes a smooth-shaded mesh's triangles in an order that changes from run to run
    (the same code exporting the same scene twice), so only the set of triangles is a fact about the file."""
    indices = {primitive["indices"] for mesh in exported.gltf.get("meshes", []) for primitive in mesh["primitives"]
               if "indices" in primitive and primitive.get("mode", 4) == 4}
    digests = []
    for index in range(len(exported.gltf.get("accessors", []))):
        data = exported.accessor(index)
        if index in indices:
            triangles = data.reshape(-1, 3)
            data = triangles[np.lexsort(triangles.T[::-1])]
        digests.append(hashlib.sha256(data.tobytes()).hexdigest())
    return digests


def export(name: str, directory: Path) -> tuple[str, list[str]]:
    """Build the scene and export it as <directory>/<name>.gltf + .bin; return the .gltf text and the
    digests of its accessors."""
    import export_support

    scenes()[name]()
    exported = export_support.export(directory, name, 'GLTF_SEPARATE')
    return exported.path.read_text(), accessor_digests(exported)


def capture() -> None:
    target = version_dir()
    target.mkdir(parents=True, exist_ok=True)
    digests = {}
    for name in scenes():
        text, digests[name] = export(name, target)
        (target / f"{name}.gltf").write_text(text)
        (target / f"{name}.bin").unlink(missing_ok=True)
    (target / "accessor_sha256.json").write_text(json.dumps(digests, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    sys.path[:0] = [str(TESTS_DIR), str(TESTS_DIR / "blender"), str(TESTS_DIR / "blender" / "scenarios"),
                    str(TESTS_DIR.parent / "scripts"), str(TESTS_DIR.parent / "scripts" / "demo")]
    import addon_loader
    import omi_core_loader

    addon_loader.enable()
    omi_core_loader.install()  # `omi_core`, as the tests name the add-on's core
    capture()
    sys.stdout.flush()
    import os

    os._exit(0)


def by_use(gltf: dict, digests: list[str]) -> dict:
    """The document with each mesh's accessor numbers replaced by what they hold (the accessor's description
    and data digest), and the accessor, buffer view and buffer arrays left out (their layout is Blender's)."""
    def accessor(index: int) -> dict:
        described = {key: value for key, value in gltf["accessors"][index].items()
                     if key not in ("bufferView", "byteOffset")}
        return {"accessor": described, "data": digests[index]}

    out = {key: value for key, value in gltf.items() if key not in ("accessors", "bufferViews", "buffers")}
    out["meshes"] = [{**mesh, "primitives": [
        {**primitive,
         "attributes": {key: accessor(value) for key, value in primitive["attributes"].items()},
         **({"indices": accessor(primitive["indices"])} if "indices" in primitive else {})}
        for primitive in mesh["primitives"]]} for mesh in gltf.get("meshes", [])]
    return out
