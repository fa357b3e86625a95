"""Checks of a Blender scene's OMI settings: everything that would make an export wrong or non-portable.

`check_objects()` returns `Problem`s naming the offending object, for the Validate operator (the
export and the command line check the written file instead). It only reads; it never changes the scene.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

import bmesh
import bpy

from ..io.blender.adopt import peer_findings
from ..io.omi import model
from ..io.omi.conventions import HULL_VERTEX_LIMIT
from ..properties import gravity_checks, library, object_physics, scene_physics
from ..properties.shape import MESH_SHAPES, ROUND_SHAPES, OMIShapeSettings
from .common import MESH_LIKE_TYPES, body_object, motion_type_of
from .hierarchy import Descendants

HULL_POINT_LIMIT = HULL_VERTEX_LIMIT
SCALE_TOLERANCE = 1e-4


@dataclass(frozen=True)
class Problem:
    object_name: str
    code: str
    message: str
    severity: model.Severity = "warning"  # the spelling of io/omi's Issues; the list's enum is upper case


def hull_vertex_count(obj: bpy.types.Object, depsgraph: bpy.types.Depsgraph | None = None) -> int:
    """The number of points on the convex hull of the object's evaluated mesh."""
    evaluated = obj.evaluated_get(depsgraph) if depsgraph is not None else obj
    mesh = evaluated.to_mesh()
    try:
        if mesh is None:  # no geometry
            return 0
        if len(mesh.vertices) <= 3:
            return len(mesh.vertices)
        bm = bmesh.new()
        try:
            for vertex in mesh.vertices:
                bm.verts.new(vertex.co)  # type: ignore[arg-type]  # the stubs: a Vector is no Sequence[float]
            # the stubs type the element list as an invariant list[BMVert | BMEdge | BMFace]
            result = bmesh.ops.convex_hull(bm, input=bm.verts[:], use_existing_faces=False)  # type: ignore[arg-type]  # see above
            return len({v for v in result["geom"] if isinstance(v, bmesh.types.BMVert)})
        finally:
            bm.free()
    finally:
        evaluated.to_mesh_clear()


def _vertex_count(obj: bpy.types.Object, depsgraph: bpy.types.Depsgraph | None) -> int:
    evaluated = obj.evaluated_get(depsgraph) if depsgraph is not None else obj
    data = evaluated.data
    if isinstance(data, bpy.types.Mesh):
        return len(data.vertices)
    mesh = evaluated.to_mesh()
    try:
        return len(mesh.vertices) if mesh is not None else 0  # None: no geometry
    finally:
        evaluated.to_mesh_clear()


def _mesh_object(shape: OMIShapeSettings, obj: bpy.types.Object) -> bpy.types.Object | None:
    return obj if shape.mesh_source == 'SELF' else shape.mesh_object


def _check_shape(obj: bpy.types.Object, shape: OMIShapeSettings, role: str, depsgraph: bpy.types.Depsgraph | None,
                 problems: list[Problem]) -> None:
    name = obj.name
    scale = obj.matrix_world.to_scale()[:]
    if any(abs(s - 1.0) > SCALE_TOLERANCE for s in scale):
        uniform = max(scale) - min(scale) <= SCALE_TOLERANCE * max(1.0, *(abs(s) for s in scale))
        stretchable = shape.shape_type == 'BOX' or shape.shape_type in MESH_SHAPES  # stays what it is
        severity: model.Severity = "warning" if uniform or stretchable else "error"
        problems.append(Problem(name, "scaled_shape", (
            f"{role} shape is scaled ({', '.join(f'{s:.3g}' for s in scale)}): engines ignore or reject "
            "scaled shapes; apply the scale (Ctrl+A) or fit a child collider"), severity))
    if any(s < 0 for s in scale):
        problems.append(Problem(name, "mirrored_shape", f"{role} shape is mirrored (negative scale)", "error"))
    kind = shape.shape_type
    if kind == 'BOX' and min(shape.size) <= 0.0:
        problems.append(Problem(name, "degenerate_shape", f"{role} box has a zero size", "error"))
    elif kind == 'SPHERE' and shape.radius <= 0.0:
        problems.append(Problem(name, "degenerate_shape", f"{role} sphere has a zero radius", "error"))
    elif kind in ROUND_SHAPES:
        if max(shape.radius_top, shape.radius_bottom) <= 0.0:
            problems.append(Problem(name, "degenerate_shape", f"{role} {kind.lower()} has a zero radius", "error"))
        if not math.isclose(shape.radius_top, shape.radius_bottom, rel_tol=1e-6, abs_tol=1e-7):
            problems.append(Problem(name, "tapered_shape", (
                f"{role} {kind.lower()} is tapered: engines without tapered shapes approximate it with a hull")))
        if kind == 'CYLINDER':
            problems.append(Problem(name, "cylinder_shape", (
                f"{role} cylinder: not every engine has cylinders; a capsule or convex hull is more portable"),
                "info"))
    elif kind in MESH_SHAPES:
        source = _mesh_object(shape, obj)
        if source is None or source.type not in MESH_LIKE_TYPES:
            problems.append(Problem(name, "missing_mesh", f"{role} {kind.lower()} shape has no mesh", "error"))
        elif kind == 'CONVEX':
            count = _vertex_count(source, depsgraph)
            if count > HULL_POINT_LIMIT:
                count = hull_vertex_count(source, depsgraph)
            if count > HULL_POINT_LIMIT:
                problems.append(Problem(name, "hull_too_large", (
                    f"convex hull has {count} points: engines with a {HULL_POINT_LIMIT}-point limit simplify it; "
                    "refit with a vertex budget"), "warning"))
            elif count < 4:
                problems.append(Problem(name, "flat_hull", f"convex hull has {count} points: it has no volume"))
        elif role == "trigger":
            problems.append(Problem(name, "trimesh_trigger", (
                "trigger uses a triangle mesh: it has no inside, so overlaps are unreliable; use a convex hull")))


def _check_collider(obj: bpy.types.Object, scene: bpy.types.Scene, depsgraph: bpy.types.Depsgraph | None,
                    descendants: Descendants, problems: list[Problem]) -> None:
    collider = object_physics(obj).collider
    if not collider.is_compound:
        _check_shape(obj, collider.shape, "collider", depsgraph, problems)
        if collider.shape.shape_type == 'TRIMESH':
            motion = motion_type_of(obj)
            if motion == 'DYNAMIC':
                problems.append(Problem(obj.name, "trimesh_dynamic", (
                    "triangle mesh collider on a dynamic body: engines cannot simulate it; "
                    "use a convex hull or a convex decomposition"), "error"))
            elif motion == 'KINEMATIC':
                problems.append(Problem(obj.name, "trimesh_kinematic", (
                    "triangle mesh collider on a kinematic body: most engines cannot move triangle meshes")))
    elif not any(object_physics(child).use_collider for child in descendants.of(obj)):
        problems.append(Problem(obj.name, "empty_compound", "compound collider has no collider below it"))
    if collider.physics_material and library.find_material(scene, collider.physics_material) is None:
        problems.append(Problem(obj.name, "missing_material", (
            f"physics material {collider.physics_material!r} is not in the scene library"), "error"))
    _check_filter_name(obj, collider.collision_filter, scene, problems)


def _check_filter_name(obj: bpy.types.Object, name: str, scene: bpy.types.Scene, problems: list[Problem]) -> None:
    if not name:
        return
    entry = library.find_filter(scene, name)
    if entry is None:
        problems.append(Problem(obj.name, "missing_filter", (
            f"collision filter {name!r} is not in the scene library"), "error"))


def _check_trigger(obj: bpy.types.Object, scene: bpy.types.Scene, depsgraph: bpy.types.Depsgraph | None,
                   descendants: Descendants, problems: list[Problem]) -> None:
    trigger = object_physics(obj).trigger
    if trigger.is_compound:
        if not len(trigger.nodes):
            problems.append(Problem(obj.name, "empty_compound_trigger", "compound trigger lists no parts", "error"))
        below = set(descendants.of(obj))
        for index, node in enumerate(trigger.nodes):
            target = node.target
            if target is None:
                problems.append(Problem(obj.name, "dangling_trigger_node", (
                    f"compound trigger part {index + 1} points at no object"), "error"))
            elif target not in below:
                problems.append(Problem(obj.name, "dangling_trigger_node", (
                    f"compound trigger part {target.name!r} is not a child of the trigger"), "error"))
            elif not object_physics(target).use_trigger or object_physics(target).trigger.is_compound:
                problems.append(Problem(obj.name, "dangling_trigger_node", (
                    f"compound trigger part {target.name!r} has no trigger shape of its own"), "error"))
    else:
        _check_shape(obj, trigger.shape, "trigger", depsgraph, problems)
    _check_filter_name(obj, trigger.collision_filter, scene, problems)


def _check_motion(obj: bpy.types.Object, descendants: Descendants, problems: list[Problem]) -> None:
    settings = object_physics(obj)
    motion = settings.motion
    if motion.motion_type == 'DYNAMIC':
        if motion.mass <= 0.0:
            problems.append(Problem(obj.name, "massless_body", "dynamic body has no mass", "error"))
        if not settings.use_collider and not any(
                object_physics(child).use_collider for child in descendants.of(obj)):
            problems.append(Problem(obj.name, "body_without_collider", (
                "dynamic body has no collider: it falls through everything")))
        if body_object(obj.parent) is not None:
            problems.append(Problem(obj.name, "nested_body", (
                "dynamic body inside another body: engines move it on its own, and Blender simulates it from a "
                "generated rigid body, unparented, that the object follows"), "info"))
    if motion.use_center_of_mass and any(abs(c) > 1e-9 for c in motion.center_of_mass):
        problems.append(Problem(obj.name, "center_of_mass", (
            "center of mass is offset: not every engine supports it"), "info"))


def _check_joint(obj: bpy.types.Object, problems: list[Problem]) -> None:
    settings = object_physics(obj)
    joint = settings.joint
    own_body = body_object(obj)
    if settings.use_motion or settings.use_collider or settings.use_trigger:
        problems.append(Problem(obj.name, "joint_not_alone", (
            "a joint must be on its own object, not on a body or shape; create it with Create Joint")))
    if own_body is None:
        problems.append(Problem(obj.name, "joint_without_body", "joint is not inside a body", "error"))
    connected = joint.connected_object
    if connected is None:
        problems.append(Problem(obj.name, "joint_unconnected", "joint is connected to nothing", "error"))
        return
    other_body = body_object(connected)
    if other_body is None:
        problems.append(Problem(obj.name, "joint_connected_no_body", (
            f"joint's connected object {connected.name!r} is not inside a body"), "error"))
    elif other_body == own_body:
        problems.append(Problem(obj.name, "joint_same_body", "joint connects a body to itself", "error"))
    bodies = [body for body in (own_body, other_body) if body is not None]
    if bodies and not any(object_physics(body).motion.motion_type == 'DYNAMIC' for body in bodies):
        problems.append(Problem(obj.name, "joint_without_dynamic_body", (
            "joint joins no dynamic body: it cannot move anything"), "error"))
    if not len(joint.limits) and not len(joint.drives):
        problems.append(Problem(obj.name, "joint_empty", "joint has no limits and no drives: it does nothing"))
    for index, limit in enumerate(joint.limits):
        if not limit.axes:
            problems.append(Problem(obj.name, "limit_without_axes", f"joint limit {index + 1} has no axis", "error"))
        if not (limit.use_min or limit.use_max):
            problems.append(Problem(obj.name, "limit_unbounded", (
                f"joint limit {index + 1} has neither minimum nor maximum: it limits nothing")))


def _check_filters(scene: bpy.types.Scene, problems: list[Problem]) -> None:
    """Library filters whose mask lists nothing (the two-list conflict cannot be stored; see write_filter)."""
    for entry in scene_physics(scene).collision_filters:
        if entry.mode != 'ALL' and not any(item.name and item.use for item in entry.listed_systems):
            problems.append(Problem("", "filter_empty_mask", (
                f"collision filter {entry.name!r} lists no systems to collide with or ignore: "
                "it is exported as 'collide with all'")))


def _check_peers(objects: list[bpy.types.Object], problems: list[Problem]) -> None:
    """What the file cannot hold as the artist set it up: another add-on's settings, Blender's damping."""
    for found in peer_findings.unadopted(objects):
        problems.append(Problem(found.obj.name, "PEER_NOT_ADOPTED", (
            f"carries {found.peer} physics settings that export does not read; {peer_findings.ADOPT_HINT}")))
    for obj, linear, angular in peer_findings.damped(objects):
        problems.append(Problem(obj.name, "BLENDER_DAMPING", (
            f"Blender damps this body (translation {linear:.3g}, rotation {angular:.3g}); "
            "glTF has no damping, so engines use their own"), "info"))


def check_objects(objects: Iterable[bpy.types.Object], scene: bpy.types.Scene,
                  depsgraph: bpy.types.Depsgraph | None = None) -> list[Problem]:
    """Every problem of the objects' OMI settings, errors first, then by object name."""
    problems: list[Problem] = []
    objects = list(objects)
    _check_peers(objects, problems)
    descendants = Descendants()
    members: set[str] | None = None  # compound trigger members, found once a gravity volume needs them
    for obj in objects:
        settings = object_physics(obj)
        if settings.use_motion:
            _check_motion(obj, descendants, problems)
        if settings.use_collider:
            _check_collider(obj, scene, depsgraph, descendants, problems)
        if settings.use_trigger:
            _check_trigger(obj, scene, depsgraph, descendants, problems)
        if settings.use_joint:
            _check_joint(obj, problems)
        if settings.use_gravity:
            if members is None:
                members = gravity_checks.compound_members(scene.objects)
            problems += [Problem(obj.name, *found) for found in gravity_checks.gravity_findings(obj, members)]
    if members is not None:
        problems.append(Problem(scene.name, "GRAVITY_NOT_SIMULATED", gravity_checks.SIMULATION_NOTE, "info"))
    _check_filters(scene, problems)
    order = {"error": 0, "warning": 1, "info": 2}
    problems.sort(key=lambda p: (order[p.severity], p.object_name, p.code))
    return problems


def check_scene(scene: bpy.types.Scene, depsgraph: bpy.types.Depsgraph | None = None) -> list[Problem]:
    return check_objects(scene.objects, scene, depsgraph)
