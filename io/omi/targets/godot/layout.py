"""The import side of the `godot` targets: a file in their layout recognised (`mesh_children`, each body's
render mesh on a child of the same name) and read as they meant it (`as_written`: Godot's capsules).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, TypeGuard

from ...dialects.omi import SHAPE_EXTENSION
from ...json_types import get
from ...model import Issue
from .. import scale_bake
from .engine_form import GODOT, NAME, body_of, replaces


def as_written(document: dict[str, Any]) -> list[Issue]:
    """The import side of a document in this target's layout: its capsules (one `radius`, the full height,
    as `godot_shape` writes them on purpose) in the current form, in place; one note per capsule."""
    said: list[Issue] = []
    for index, shape in enumerate(_list(get(get(get(document, "extensions"), SHAPE_EXTENSION), "shapes"))):
        capsule = get(shape, "capsule")
        if not isinstance(capsule, dict) or {"radiusTop", "radiusBottom"} & set(capsule):
            continue
        radius, height = capsule.get("radius"), capsule.get("height")
        if not (_number(radius) and _number(height) and 0.0 <= 2.0 * radius <= height):
            continue  # not what this target writes: the reader says what it is
        del capsule["radius"]
        capsule.update(radiusTop=radius, radiusBottom=radius, height=height - 2.0 * radius)
        said.append(Issue(f"/extensions/{SHAPE_EXTENSION}/shapes/{index}/capsule",
                          f"written for {GODOT} (render meshes on child nodes of the same name): the capsule's "
                          f"`height` {height:g} is Godot's full height and `radius` {radius:g} both radii (read so)",
                          "info", f"{NAME}.capsule"))
    return said


def _list(value: object) -> list[Any]:
    return value if isinstance(value, list) else []


def _number(value: object) -> TypeGuard[float]:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def mesh_children(document: Mapping[str, Any]) -> dict[int, int]:
    """The import side: body node -> the child holding its render mesh in the `godot` layout (a mesh-less
    node Godot replaces, whose child of the same name holds only a mesh, at the node's origin, scaled by
    the body's baked scale if it has one)."""
    nodes = _list(get(document, "nodes"))
    targets = (get(channel, "target") for animation in _list(get(document, "animations"))
               for channel in _list(get(animation, "channels")))
    animated = {get(target, "node") for target in targets  # morph weights go with the mesh
                if isinstance(get(target, "node"), int) and get(target, "path") != "weights"}
    found: dict[int, int] = {}
    for index, node in enumerate(nodes):
        if not isinstance(node, Mapping) or node.get("mesh") is not None or not replaces(node):
            continue
        for child in _list(node.get("children")):
            other = nodes[child] if isinstance(child, int) and 0 <= child < len(nodes) else None
            if isinstance(other, Mapping) and child not in animated \
                    and _plain_mesh_child(other, node.get("name"), _baked(node)):
                found[index] = child
                break
    return found


def _baked(node: Mapping[str, Any]) -> bool:
    """Whether the node is a moving body with no scale of its own: the target may have baked its scale
    (scale_bake), which then sits on its mesh child."""
    motion = body_of(node).get("motion")
    return isinstance(motion, Mapping) and motion.get("type") in scale_bake.MOVING and "matrix" not in node \
        and node.get("scale") in (None, _IDENTITY["scale"])


_MESH_CHILD_KEYS = frozenset({"name", "mesh", "skin", "weights", "extras"})
_IDENTITY = {"translation": [0.0, 0.0, 0.0], "rotation": [0.0, 0.0, 0.0, 1.0], "scale": [1.0, 1.0, 1.0],
             "matrix": [1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0]}


def _plain_mesh_child(node: Mapping[str, Any], name: Any, scaled: bool) -> bool:
    """A child of the same name that holds only a mesh at its parent's origin (`scaled`: and maybe the
    parent's baked scale, three positive numbers)."""
    if node.get("mesh") is None or not name or node.get("name") != name:
        return False
    for key, value in node.items():
        if key in _MESH_CHILD_KEYS or (scaled and key == "scale" and isinstance(value, list) and len(value) == 3
                                       and all(type(v) in (int, float) and 0 < v < math.inf for v in value)):
            continue
        if key not in _IDENTITY or value != _IDENTITY[key]:
            return False
    return True
