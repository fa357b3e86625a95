"""The second hostile round (issue #27), files only: both dialects in one file, KHR values the add-on must not
pin or mislabel, and animation samplers and pointers that once changed values without a word. Made like
corpus.py's cases (pure Python, no bpy) and added to its corpus by `round_two_cases`.

The authoring cases of the round (Sync from Blender, a 5,000-deep parent chain, shared-mesh hulls, a capsule
of radius 0) need Blender's operators: they are tested in tests/blender (test_sync_keeps_settings,
test_deep_hierarchy, test_fit_shared_hulls, test_khr_export_names_objects); the command-line cases in
tests/blender/cli/test_cli_hostile_usage.py.
"""

from __future__ import annotations

import base64
import math
import struct
from typing import Any

from hostile.corpus import BODY, Case, _body, _physics

KHR_BODY, KHR_SHAPES = "KHR_physics_rigid_bodies", "KHR_implicit_shapes"
POINTER = "KHR_animation_pointer"
FLOAT = 5126
MASS = f"/nodes/0/extensions/{BODY}/motion/mass"


def _floats(values: list[float]) -> bytes:
    return b"".join(struct.pack("<f", value) for value in values)


def _animated(times: list[float], values: list[float], pointer: str = MASS, **extra: Any) -> dict:
    """A dynamic box 'Crate' whose mass (or `pointer`) is keyed at `times` with `values`, one inline buffer."""
    document = _physics([{"name": "Crate", "extensions": _body({"type": "dynamic", "mass": 2})}],
                        [{"type": "box", "box": {"size": [1, 1, 1]}}])
    data = _floats(times) + _floats(values)
    finite = [time for time in times if math.isfinite(time)] or [0.0]
    document.update(
        buffers=[{"byteLength": len(data),
                  "uri": "data:application/octet-stream;base64," + base64.b64encode(data).decode("ascii")}],
        bufferViews=[{"buffer": 0, "byteLength": 4 * len(times)},
                     {"buffer": 0, "byteOffset": 4 * len(times), "byteLength": 4 * len(values)}],
        accessors=[{"bufferView": 0, "componentType": FLOAT, "count": len(times), "type": "SCALAR",
                    "min": [min(finite)], "max": [max(finite)]},
                   {"bufferView": 1, "componentType": FLOAT, "count": len(values), "type": "SCALAR"}],
        animations=[{"name": "Keys", "samplers": [{"input": 0, "output": 1, "interpolation": "LINEAR"}],
                     "channels": [{"sampler": 0, "target": {"path": "pointer",
                                                            "extensions": {POINTER: {"pointer": pointer}}}}]}])
    document["extensionsUsed"].append(POINTER)
    document.update(extra)
    return document


def _mixed() -> dict:
    """OMI on the ball; KHR on the floor and the crate (the crate carries both, differing)."""
    document = _physics([{"name": "Ball", "extensions": _body({"type": "dynamic"})},
                         {"name": "Floor", "translation": [0, -1, 0],
                          "extensions": {KHR_BODY: {"collider": {"geometry": {"shape": 0}}}}},
                         {"name": "Crate", "translation": [2, 0, 0],
                          "extensions": {KHR_BODY: {"motion": {"mass": 3}, "collider": {"geometry": {"shape": 0}}},
                                         **_body({"type": "dynamic", "mass": 5})}}],
                        [{"type": "sphere", "sphere": {"radius": 0.25}}])
    document["extensionsUsed"] += [KHR_BODY, KHR_SHAPES]
    document["extensions"][KHR_SHAPES] = {"shapes": [{"type": "box", "box": {"size": [4, 0.5, 4]}}]}
    return document


def _unknown_drive() -> dict:
    """A KHR slider whose drive type the spec does not know."""
    document: dict[str, Any] = {
        "asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0, 1]}],
        "extensionsUsed": [KHR_BODY, KHR_SHAPES],
        "extensions": {KHR_SHAPES: {"shapes": [{"type": "box", "box": {"size": [1, 1, 1]}}]},
                       KHR_BODY: {"physicsJoints": [{"limits": [{"linearAxes": [1, 2], "min": 0, "max": 0}],
                                                     "drives": [{"type": "spinny", "mode": "force", "axis": 0,
                                                                 "velocityTarget": 1, "damping": 2}]}]}},
        "nodes": [{"name": "Rail", "extensions": {KHR_BODY: {"collider": {"geometry": {"shape": 0}}}},
                   "children": [2]},
                  {"name": "Cart", "translation": [0, 1, 0], "extensions": {
                      KHR_BODY: {"motion": {}, "collider": {"geometry": {"shape": 0}}}}},
                  {"name": "CartJoint", "extensions": {KHR_BODY: {"joint": {"connectedNode": 1, "joint": 0}}}}],
    }
    document["scenes"][0]["nodes"] = [0, 1]
    return document


def _khr_motion_off_centre() -> dict:
    """A KHR body with `motion: {}` and its collider on an offset child: the engine computes its centre of mass."""
    return {
        "asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0]}],
        "extensionsUsed": [KHR_BODY, KHR_SHAPES],
        "extensions": {KHR_SHAPES: {"shapes": [{"type": "box", "box": {"size": [1, 1, 1]}}]}},
        "nodes": [{"name": "Lopsided", "children": [1], "extensions": {KHR_BODY: {"motion": {}}}},
                  {"name": "Weight", "translation": [2, 0, 0],
                   "extensions": {KHR_BODY: {"collider": {"geometry": {"shape": 0}}}}}],
    }


def round_two_cases() -> dict[str, Case]:
    cases: dict[str, Case] = {}
    cases["mixed_dialects.gltf"] = Case(_mixed(), validate_words=("'Crate'", "both OMI and KHR"),
                                        import_words=("'Crate'", "both OMI and KHR", "OMI physics is read"))
    cases["khr_unknown_drive_type.gltf"] = Case(_unknown_drive(), validate_words=("'spinny'", "reads it as 'linear'"),
                                                import_words=("'spinny'", "reads it as 'linear'"))
    cases["khr_motion_off_centre.gltf"] = Case(_khr_motion_off_centre(), export_lacks=("centerOfMass",))
    at = "/animations/0/samplers/0/input"
    cases["anim_nan_time.gltf"] = Case(_animated([0.0, math.nan, 1.0], [1.0, 2.0, 3.0]),
                                       validate_errors=(at,), validate_words=("NaN",), import_words=(at, "NaN"))
    cases["anim_unsorted_times.gltf"] = Case(_animated([0.0, 2.0, 1.0], [1.0, 2.0, 3.0]),
                                             validate_errors=(at,), validate_words=("do not increase",),
                                             import_words=(at, "do not increase"))
    cases["anim_duplicate_times.gltf"] = Case(_animated([0.0, 1.0, 1.0], [1.0, 2.0, 3.0]),
                                              validate_errors=(at,), validate_words=("do not increase",),
                                              import_words=(at, "do not increase"))
    cases["anim_negative_time.gltf"] = Case(_animated([-1.0, 0.0, 1.0], [1.0, 2.0, 3.0]),
                                            validate_errors=(at,), validate_words=("negative",),
                                            import_words=(at, "negative"))
    out = "/animations/0/samplers/0/output"
    cases["anim_bad_mass_keys.gltf"] = Case(_animated([0.0, 1.0, 2.0, 3.0], [1.0, math.nan, math.inf, -2.0]),
                                            validate_errors=(out,), validate_words=("mass",),
                                            import_words=(out, "mass"))
    channel = "/animations/0/channels/0/target/extensions/KHR_animation_pointer/pointer"
    cases["anim_hash_pointer.gltf"] = Case(_animated([0.0, 1.0], [1.0, 2.0], pointer="#" + MASS),
                                           validate_errors=(channel,), validate_words=("'#",),
                                           import_words=(channel, "'#"))
    cases["anim_empty_pointer.gltf"] = Case(_animated([0.0, 1.0], [1.0, 2.0], pointer=""),
                                            validate_errors=(channel,), validate_words=("empty",),
                                            import_words=(channel, "empty"))
    return cases
