"""A moving body's own scale baked into its shapes and children: a step of a target's form, for an engine
whose simulated bodies keep no scale (Godot's physics server keeps a RigidBody3D's transform without it).

Such a node loses its scale; its shapes get the scaled sizes (as copies: another node may share a shape),
its children the scaled offsets, and its moved render mesh the scale. A mesh shape (convex hull, triangle
mesh) has no size to scale, but a collider node's own scale under a body is kept by such engines: that
collider or trigger moves to a new child node that carries the body's scale (`part_nodes`). The import side
gives a folded body its scale back (`unbake_parts`, a target's `Target.unbake_parts`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any

from .. import model
from ..dialects.omi import BODY_EXTENSION, OMI_SHAPE_FIELDS, SHAPE_EXTENSION
from .form import NewNode

MOVING = ("dynamic", "kinematic")
RADII = ("radius", "radiusTop", "radiusBottom")  # a round shape's radii, in the one-radius form or the spec's
SCALE_TOLERANCE = 1e-5  # relative: a scale read back from Blender's float32 matrices differs by a few ulps


def _same(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=SCALE_TOLERANCE)


def _uniform(scale: list[float]) -> bool:
    return _same(scale[0], scale[1]) and _same(scale[1], scale[2])


def _scaled_shape(shape: Mapping[str, Any], scale: list[float]) -> tuple[dict[str, Any], str | None]:
    """`shape` scaled, with its sizes written (a capsule's or cylinder's radii about its axis, Y; its height
    along it); why it cannot be exact, or None."""
    shape_type = str(shape.get("type"))
    details = dict(shape.get(shape_type) or {})
    for spec in OMI_SHAPE_FIELDS.get(shape_type, ()):  # absent sizes at their defaults, a one-radius form kept
        if spec.key not in details and not (spec.key in RADII and "radius" in details):
            details[spec.key] = spec.default
    sx, sy, sz = scale
    if shape_type == "box":
        details["size"] = [value * factor for value, factor in zip(details["size"], scale, strict=True)]
        return {"type": "box", "box": details}, None
    if shape_type == "sphere":
        details["radius"] *= max(scale)
        return {"type": "sphere", "sphere": details}, None if _uniform(scale) else "a sphere scaled unevenly"
    if shape_type in model.ROUND_SHAPE_TYPES:
        for key in RADII:
            if key in details:
                details[key] *= max(sx, sz)
        details["height"] *= sy
        return {"type": shape_type, shape_type: details}, None if _same(sx, sz) else f"a {shape_type} scaled unevenly"
    return dict(shape), None


def unscaled_shape(shape: Mapping[str, Any], scale: list[float]) -> dict[str, Any]:
    """The inverse of `_scaled_shape`: the import side folding a baked body back onto its own scale."""
    shape_type = str(shape.get("type"))
    details = dict(shape.get(shape_type) or {})
    if shape_type == "box" and isinstance(details.get("size"), list) and len(details["size"]) == 3:
        details["size"] = [value / factor for value, factor in zip(details["size"], scale, strict=True)]
    elif shape_type == "sphere" and isinstance(details.get("radius"), (int, float)):
        details["radius"] /= max(scale)
    elif shape_type in model.ROUND_SHAPE_TYPES:
        for key, factor in (*((radius, max(scale[0], scale[2])) for radius in RADII), ("height", scale[1])):
            if isinstance(details.get(key), (int, float)):
                details[key] /= factor
    return {**shape, shape_type: details} if shape_type in shape else dict(shape)


def unbake_parts(document_extensions: Mapping[str, Any] | None, node_extensions: Mapping[str, Any] | None,
                 scale: list[float]) -> None:
    """The import side of `bake` for one body given its scale back: its collider's and trigger's shapes at
    that scale again, as new entries of the document's shapes (another node may share the old one), in place."""
    shapes = ((document_extensions or {}).get(SHAPE_EXTENSION) or {}).get("shapes")
    body = (node_extensions or {}).get(BODY_EXTENSION) or {}
    for part in (body.get("collider"), body.get("trigger")):
        index = part.get("shape") if isinstance(part, dict) else None
        if isinstance(part, dict) and isinstance(shapes, list) and type(index) is int \
                and 0 <= index < len(shapes) and isinstance(shapes[index], dict):
            shapes.append(unscaled_shape(shapes[index], scale))
            part["shape"] = len(shapes) - 1


PartMove = tuple[int, str, dict[str, Any], list[float]]  # (body node, "collider"/"trigger", the part, scale)


def bake(nodes: list[dict[str, Any]], shapes: list[Any], losses: Callable[[str, str], None]) \
        -> tuple[dict[int, dict[str, Any]], dict[int, list[float]], list[PartMove]]:
    """Bake each moving body node's own scale. Returns the nodes' changed keys (None: removed), the scale
    for each body's moved mesh, and the mesh-shaped parts that go to a scaled child node (taken out of their
    body here); `losses(what, node name)` hears what is not exact. Shapes are appended to `shapes` (another
    node may share the unscaled one) and the body's parts point at them."""
    changes: dict[int, dict[str, Any]] = {}
    mesh_scales: dict[int, list[float]] = {}
    part_moves: list[PartMove] = []
    for index, node in enumerate(nodes):
        body = (node.get("extensions") or {}).get(BODY_EXTENSION) or {}
        motion = body.get("motion") if isinstance(body, Mapping) else None
        scale = node.get("scale")
        if not isinstance(motion, Mapping) or motion.get("type") not in MOVING or not scale or \
                [float(v) for v in scale] == [1.0, 1.0, 1.0]:
            continue
        scale = [float(v) for v in scale]
        name = str(node.get("name") or f"node {index}")
        changes.setdefault(index, {})["scale"] = None
        mesh_scales[index] = scale
        for part_name in ("collider", "trigger"):
            part = body.get(part_name)
            if isinstance(part, dict) and isinstance(part.get("shape"), int) and 0 <= part["shape"] < len(shapes):
                shape = shapes[part["shape"]]
                if isinstance(shape, Mapping) and shape.get("type") in model.MESH_SHAPE_TYPES:
                    part_moves.append((index, part_name, body.pop(part_name), scale))
                    continue
                scaled, loss = _scaled_shape(shapes[part["shape"]], scale)
                shapes.append(scaled)
                part["shape"] = len(shapes) - 1
                if loss is not None:
                    losses(loss, name)
        uneven = not _uniform(scale)
        for child in node.get("children") or []:
            other = nodes[child]
            if other.get("matrix") or (uneven and other.get("rotation") not in (None, [0.0, 0.0, 0.0, 1.0])):
                losses("a child turned inside an unevenly scaled body", str(other.get("name") or f"node {child}"))
            moved = changes.setdefault(child, {})
            if other.get("translation") is not None:
                moved["translation"] = [v * f for v, f in zip(other["translation"], scale, strict=True)]
            moved["scale"] = [v * f for v, f in zip(other.get("scale") or [1.0, 1.0, 1.0], scale, strict=True)]
    return changes, mesh_scales, part_moves


def part_nodes(nodes: list[dict[str, Any]], part_moves: list[PartMove]) -> list[NewNode]:
    """The scaled child nodes the mesh-shaped parts of `bake` move to, named after their body and part."""
    return [NewNode(index, part_child_name(nodes[index].get("name"), part_name), scale=scale,
                    extensions={BODY_EXTENSION: {part_name: part}})
            for index, part_name, part, scale in part_moves]


def part_child_name(name: object, part_name: str) -> str:
    """The name of the scaled child node a body's mesh-shaped collider or trigger moves to."""
    return f"{name or 'node'} {part_name}"
