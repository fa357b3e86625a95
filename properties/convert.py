"""PropertyGroups <-> OMI data model: the one place where an object's settings become model values.

The PropertyGroups hold Blender axes (Z-up, the object's local frame); the model holds glTF axes
(Y-up). Every axis change goes through `io/blender/tables/axes.py`. Materials and filters live in the scene
library and are referenced by name; in the model they are values carrying that name.

Problems are reported as `model.Issue`s whose pointer is a JSON pointer into the object's settings
(e.g. `/collider/physics_material`) and whose message names the object. Joints convert in
`convert_joint` (both directions there too); this module calls it for whole objects.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import bpy
from mathutils import Euler, Matrix

from ..io.blender.fit import DEFAULT_MIN_THICKNESS
from ..io.blender.tables import axes
from ..io.omi import model
from ..io.omi.dialects import registry
from . import library, object_physics, scene_physics, units
from .body import MOTION_TYPE_FROM_OMI, MOTION_TYPE_TO_OMI, OMIColliderSettings, OMIMotionSettings, OMITriggerSettings
from .convert_common import issue as _issue
from .convert_common import kept, kept_values
from .convert_common import pg_float as _float
from .convert_common import pg_vec as _vec
from .convert_gravity import apply_gravity, gravity_to_model
from .convert_joint import NodeResolver, apply_joint, joint_to_model
from .object import OMIObjectSettings
from .shape import SHAPE_TYPE_FROM_OMI, SHAPE_TYPE_TO_OMI, OMIShapeSettings, offset_matters, shape_extent
from .stored import store

_MESH_LIKE_TYPES = {'MESH', 'CURVE', 'SURFACE', 'META', 'FONT'}


def is_tagged(obj: bpy.types.Object) -> bool:
    """True when the object has any OMI part enabled."""
    settings = getattr(obj, "omi_physics", None)
    return bool(settings is not None and (settings.has_physics or units.has_values(obj)))


def object_scene(obj: bpy.types.Object) -> bpy.types.Scene:
    """The scene whose library the object's material and filter names refer to."""
    if obj.users_scene:
        return obj.users_scene[0]
    scene = bpy.context.scene
    assert scene is not None, "an object in no scene is being set up from the current scene"
    return scene


def shape_offset_matrix(shape_settings: OMIShapeSettings) -> Matrix | None:
    """The shape's placement relative to its object, or None when the shape sits on the object's origin
    (an offset within a fit's rounding counts as none: `offset_matters`)."""
    if not shape_settings.use_offset or not offset_matters(
            shape_settings.offset_location, shape_settings.offset_rotation, shape_extent(shape_settings)):
        return None
    return Matrix.LocRotScale(tuple(shape_settings.offset_location), Euler(shape_settings.offset_rotation), None)


# --- PropertyGroups -> model -------------------------------------------------------------------------


def shape_to_model(pg: OMIShapeSettings, obj: bpy.types.Object, issues: list[model.Issue] | None = None,
                   pointer: str = "/shape") -> model.Shape:
    """A shape PropertyGroup as a glTF-space Shape. Convex/trimesh `mesh` is the bpy Object to use."""
    shape_type = SHAPE_TYPE_TO_OMI[pg.shape_type]
    unknown = kept(pg.unknown_json)
    type_unknown = _type_unknown(pg, shape_type, obj, issues, pointer)
    if shape_type == "box":
        return model.Shape("box", size=_vec(axes.size_to_gltf(_solid_box(pg.size, obj, issues, pointer))),
                           unknown=unknown, type_unknown=type_unknown)
    if shape_type == "sphere":
        return model.Shape("sphere", radius=_float(pg.radius), unknown=unknown, type_unknown=type_unknown)
    if shape_type in ("capsule", "cylinder"):
        # Local Blender Z is local glTF Y, and both radii keep their top/bottom meaning.
        return model.Shape(shape_type, height=_float(pg.height), radius_top=_float(pg.radius_top),
                           radius_bottom=_float(pg.radius_bottom), unknown=unknown, type_unknown=type_unknown)
    mesh_object = obj if pg.mesh_source == 'SELF' else pg.mesh_object
    if mesh_object is None:
        _issue(issues, f"{pointer}/mesh_object", obj, f"{shape_type} shape has no collision mesh object")
    elif mesh_object.type not in _MESH_LIKE_TYPES:
        _issue(issues, f"{pointer}/mesh_source", obj, f"{shape_type} shape: {mesh_object.name!r} has no mesh")
        mesh_object = None
    return model.Shape(shape_type, mesh=mesh_object, unknown=unknown, type_unknown=type_unknown)


def _solid_box(size: Sequence[float], obj: bpy.types.Object, issues: list[model.Issue] | None,
               pointer: str) -> tuple[float, ...]:
    """A box's size with every side of 0 (which no file holds: it would read as the 1 m cube) given the
    fit's minimum thickness, centred, and named in a warning; Fit Box thickens flat meshes already."""
    flat = [axis for axis in range(3) if not size[axis] > 0.0]
    if not flat:
        return tuple(size)
    where = "/".join("XYZ"[axis] for axis in flat)
    _issue(issues, f"{pointer}/size", obj, f"box has no thickness along {where}: written "
                                          f"{DEFAULT_MIN_THICKNESS:g} m thick (fit the box again to choose how)")
    return tuple(DEFAULT_MIN_THICKNESS if axis in flat else float(size[axis]) for axis in range(3))


def _type_unknown(pg: OMIShapeSettings, shape_type: str, obj: bpy.types.Object, issues: list[model.Issue] | None,
                  pointer: str) -> model.Unknown:
    """The kept keys of the shape's per-type object; those kept for a type the shape no longer has are named
    (the writer leaves them out: they belong to the other type's object)."""
    found = kept(pg.type_unknown_json)
    for other, values in found.items():
        if other != shape_type:
            names = ", ".join(repr(key) for key in values) if isinstance(values, dict) else repr(values)
            _issue(issues, f"{pointer}/shape_type", obj, f"the file's {other} values {names} are not exported: the "
                   f"shape is now a {shape_type}")
    return found


def motion_to_model(pg: OMIMotionSettings) -> model.Motion:
    inertia = tuple(math.inf if infinite else value for value, infinite in zip(pg.inertia_diagonal, pg.infinite_inertia,
                                                                                 strict=True))
    return model.Motion(
        type=MOTION_TYPE_TO_OMI[pg.motion_type],
        mass=math.inf if pg.infinite_mass else _float(pg.mass),
        center_of_mass=_vec(axes.vec_to_gltf(pg.center_of_mass)) if pg.use_center_of_mass else None,
        inertia_diagonal=_vec(axes.size_to_gltf(inertia)),  # principal moments: Y and Z swap
        inertia_orientation=_vec(axes.quat_to_gltf(pg.inertia_orientation)),
        linear_velocity=_vec(axes.vec_to_gltf(pg.linear_velocity)),
        angular_velocity=_vec(axes.vec_to_gltf(pg.angular_velocity)),
        gravity_factor=_float(pg.gravity_factor),
        unknown=kept(pg.unknown_json),
    )


def _material(bl_scene: bpy.types.Scene, name: str, obj: bpy.types.Object, issues: list[model.Issue] | None,
              pointer: str) -> model.PhysicsMaterial | None:
    if not name:
        return None
    entry = library.find_material(bl_scene, name)
    if entry is None:
        _issue(issues, pointer, obj, f"physics material {name!r} is not in the scene library; using the default")
        return None
    return library.material_to_model(entry)


def _filter(bl_scene: bpy.types.Scene, name: str, obj: bpy.types.Object, issues: list[model.Issue] | None,
            pointer: str) -> model.CollisionFilter | None:
    if not name:
        return None
    entry = library.find_filter(bl_scene, name)
    if entry is None:
        _issue(issues, pointer, obj, f"collision filter {name!r} is not in the scene library; using the default")
        return None
    value = library.filter_to_model(entry)
    if entry.mode == 'ONLY' and not value.collide_with_systems:
        _issue(issues, pointer, obj, f"collision filter {name!r} collides only with an empty list: "
               "OMI reads that as colliding with everything")
    return value


def collider_to_model(pg: OMIColliderSettings, obj: bpy.types.Object, bl_scene: bpy.types.Scene,
                      issues: list[model.Issue] | None = None) -> model.Collider:
    return model.Collider(
        shape=None if pg.is_compound else shape_to_model(pg.shape, obj, issues, "/collider/shape"),
        physics_material=_material(bl_scene, pg.physics_material, obj, issues, "/collider/physics_material"),
        collision_filter=_filter(bl_scene, pg.collision_filter, obj, issues, "/collider/collision_filter"),
        unknown=kept(pg.unknown_json),
    )


def trigger_to_model(pg: OMITriggerSettings, obj: bpy.types.Object, bl_scene: bpy.types.Scene,
                     issues: list[model.Issue] | None = None) -> model.Trigger:
    """A single-shape trigger, or a compound whose members are the listed objects (empty slots skipped)."""
    members: list[bpy.types.Object] = []
    if pg.is_compound:
        for index, item in enumerate(pg.nodes):
            if item.target is None:
                _issue(issues, f"/trigger/nodes/{index}", obj, "compound trigger member slot is empty; skipped")
            else:
                members.append(item.target)
    return model.Trigger(
        shape=None if pg.is_compound else shape_to_model(pg.shape, obj, issues, "/trigger/shape"),
        nodes=tuple(members),
        collision_filter=_filter(bl_scene, pg.collision_filter, obj, issues, "/trigger/collision_filter"),
        unknown=kept(pg.unknown_json),
    )


def node_from_object(obj: bpy.types.Object, issues: list[model.Issue] | None = None,
                     bl_scene: bpy.types.Scene | None = None) -> model.NodePhysics:
    """The enabled parts of `obj.omi_physics` as glTF-space model values (shape offsets excluded).

    `bl_scene` holds the library the material and filter names refer to; without it the object's first
    scene is looked up, which scans every object of every scene (pass it when converting many objects).
    """
    settings = object_physics(obj)
    bl_scene = bl_scene if bl_scene is not None else object_scene(obj)
    return model.NodePhysics(
        motion=motion_to_model(settings.motion) if settings.use_motion else None,
        collider=collider_to_model(settings.collider, obj, bl_scene, issues) if settings.use_collider else None,
        trigger=trigger_to_model(settings.trigger, obj, bl_scene, issues) if settings.use_trigger else None,
        joint=joint_to_model(settings.joint, obj, issues) if settings.use_joint else None,
        unknown=kept(settings.body_unknown_json),
        gravity=gravity_to_model(settings.gravity, obj, shape_to_model, issues) if settings.use_gravity else None,
        extensions=units.values_from_object(obj),
    )


# --- model -> PropertyGroups -------------------------------------------------------------------------

MeshResolver = Callable[[model.MeshRef], "bpy.types.Object | None"]


def _default_mesh_object(ref: model.MeshRef, obj: bpy.types.Object) -> bpy.types.Object | None:
    """Without a resolver a mesh reference is a bpy Object, or a Mesh used by `obj` itself."""
    if isinstance(ref, bpy.types.Object):
        return ref
    if isinstance(ref, bpy.types.Mesh) and obj.data == ref:
        return obj
    return None


def shape_values(shape: model.Shape, obj: bpy.types.Object, kept_type: Callable[[], str], *,
                 resolve_mesh: MeshResolver | None = None, issues: list[model.Issue] | None = None,
                 pointer: str = "/shape") -> dict | None:
    """A glTF-space Shape as a shape PropertyGroup's values (its offset left out); None for an unknown type
    (`kept_type`: the type the settings keep then, for the message)."""
    if shape.type not in SHAPE_TYPE_FROM_OMI:
        _issue(issues, f"{pointer}/shape_type", obj, f"unknown shape type {shape.type!r}; kept {kept_type()}")
        return None
    values = {"shape_type": SHAPE_TYPE_FROM_OMI[shape.type], "size": axes.size_to_blender(shape.size),
              "radius": shape.radius, "height": shape.effective_height, "radius_top": shape.radius_top,
              "radius_bottom": shape.radius_bottom, "unknown_json": shape.unknown.text,
              "type_unknown_json": shape.type_unknown.text}
    if shape.type not in model.MESH_SHAPE_TYPES:
        return values
    mesh_object = None
    if shape.mesh is not None:
        mesh_object = resolve_mesh(shape.mesh) if resolve_mesh is not None else _default_mesh_object(shape.mesh, obj)
    if mesh_object is not None and mesh_object.type not in _MESH_LIKE_TYPES:
        _issue(issues, f"{pointer}/mesh_object", obj, f"{shape.type} shape: {mesh_object.name!r} has no mesh")
        mesh_object = None
    elif mesh_object is None:
        _issue(issues, f"{pointer}/mesh_object", obj, f"{shape.type} shape: mesh {shape.mesh!r} not found")
    if mesh_object is None:
        values.update(mesh_source='OBJECT', mesh_object=None)
    elif mesh_object == obj:
        values["mesh_source"] = 'SELF'
    else:
        values.update(mesh_source='OBJECT', mesh_object=mesh_object)
    return values


def apply_shape(shape: model.Shape, pg: OMIShapeSettings, obj: bpy.types.Object, *,
                resolve_mesh: MeshResolver | None = None, issues: list[model.Issue] | None = None,
                pointer: str = "/shape") -> None:
    """Write a glTF-space Shape into a shape PropertyGroup (its offset is left as it is)."""
    values = shape_values(shape, obj, lambda: pg.shape_type, resolve_mesh=resolve_mesh, issues=issues,
                          pointer=pointer)
    if values is not None:
        store(pg, values)


def motion_values(motion: model.Motion) -> dict:
    """The settings of a motion; infinite mass and inertia (math.inf in the model) are switches of their own."""
    inertia = axes.size_to_blender(motion.inertia_diagonal)
    return {
        "motion_type": MOTION_TYPE_FROM_OMI.get(motion.type, 'DYNAMIC'),
        "mass": model.DEFAULT_MASS if math.isinf(motion.mass) else motion.mass,
        "infinite_mass": math.isinf(motion.mass),
        "use_center_of_mass": motion.center_of_mass is not None,  # None: the engine computes it
        "center_of_mass": axes.vec_to_blender(motion.center_of_mass or model.ZERO3),
        "inertia_diagonal": tuple(0.0 if math.isinf(value) else value for value in inertia),
        "infinite_inertia": tuple(math.isinf(value) for value in inertia),
        "inertia_orientation": axes.quat_to_blender(motion.inertia_orientation),
        "linear_velocity": axes.vec_to_blender(motion.linear_velocity),
        "angular_velocity": axes.vec_to_blender(motion.angular_velocity),
        "gravity_factor": motion.gravity_factor,
        "unknown_json": motion.unknown.text,
    }


def apply_motion(motion: model.Motion, pg: OMIMotionSettings) -> None:
    store(pg, motion_values(motion))


def _trigger_members(trigger: model.Trigger, obj: bpy.types.Object, resolve_node: NodeResolver,
                     issues: list[model.Issue] | None) -> list[bpy.types.Object]:
    members = []
    for index, ref in enumerate(trigger.nodes):
        member = resolve_node(ref)
        if member is None:
            _issue(issues, f"/trigger/nodes/{index}", obj, f"compound trigger member {ref!r} not found; dropped")
        else:
            members.append(member)
    if trigger.shape is not None and trigger.nodes:
        _issue(issues, "/trigger/nodes", obj, "trigger has both a shape and member nodes; the members are unused")
    return members


def _part_values(part: model.Collider | model.Trigger, settings: OMIObjectSettings, name: str, obj: bpy.types.Object, *,
                 resolve_mesh: MeshResolver | None, issues: list[model.Issue] | None) -> dict:
    """A collider's or trigger's (`name`) own values and its shape's (an unknown shape type leaves the shape as
    it is)."""
    values: dict = {"is_compound": part.shape is None, "unknown_json": part.unknown.text}
    if part.shape is not None:
        shape = shape_values(part.shape, obj, lambda: getattr(settings, name).shape.shape_type,
                             resolve_mesh=resolve_mesh, issues=issues, pointer=f"/{name}/shape")
        if shape is not None:
            values["shape"] = shape
    return values


def apply_node_to_object(node: model.NodePhysics, obj: bpy.types.Object, *, scene: bpy.types.Scene,
                         resolve_node: NodeResolver, resolve_mesh: MeshResolver | None = None,
                         issues: list[model.Issue] | None = None) -> None:
    """Write a glTF-space NodePhysics into `obj.omi_physics`: the inverse of `node_from_object`.

    Parts present are enabled and written, absent parts are disabled (their values kept). Materials
    and filters are added to (or found in) `scene`'s library. Shape offsets are not touched. Only values
    that differ from the defaults are stored where none is stored yet (`stored`).
    """
    settings = object_physics(obj)
    if node.is_empty and node.unknown:
        _issue(issues, "/body", obj, f"its body holds only keys this add-on does not read ({', '.join(node.unknown)}): "
               "with no motion, collider or trigger the object has no physics to export them with; export leaves "
               "them out")
    values: dict = {"body_unknown_json": node.unknown.text, "use_motion": node.motion is not None}
    if node.motion is not None:
        values["motion"] = motion_values(node.motion)

    values["use_collider"] = node.collider is not None
    if node.collider is not None:
        collider = values["collider"] = _part_values(node.collider, settings, "collider", obj,
                                                     resolve_mesh=resolve_mesh, issues=issues)
        material = node.collider.physics_material
        collider["physics_material"] = "" if material is None else library.material_from_model(scene, material)
        collision_filter = node.collider.collision_filter
        collider["collision_filter"] = (
            "" if collision_filter is None else library.filter_from_model(scene, collision_filter, issues)
        )

    values["use_trigger"] = node.trigger is not None
    members: list[bpy.types.Object] = []
    if node.trigger is not None:
        trigger = values["trigger"] = _part_values(node.trigger, settings, "trigger", obj,
                                                   resolve_mesh=resolve_mesh, issues=issues)
        members = _trigger_members(node.trigger, obj, resolve_node, issues)
        collision_filter = node.trigger.collision_filter
        trigger["collision_filter"] = (
            "" if collision_filter is None else library.filter_from_model(scene, collision_filter, issues)
        )
    values["use_joint"] = node.joint is not None
    store(settings, values)
    if node.trigger is not None and (members or settings.get("trigger") is not None):  # stored already
        trigger_pg = settings.trigger
        trigger_pg.nodes.clear()
        for member in members:
            trigger_pg.nodes.add().target = member

    if node.joint is not None:
        apply_joint(node.joint, settings.joint, obj, resolve_node=resolve_node, issues=issues)
    apply_gravity(node.gravity, settings, obj, shape_values, resolve_mesh=resolve_mesh, issues=issues)
    units.apply_values(node.extensions, obj, resolve_node)


# --- document-level keys kept from imported files -------------------------------------------------------

def apply_document_unknown(doc: model.PhysicsDocument, bl_scene: bpy.types.Scene) -> None:
    """Store a read document's kept document-level keys on the scene (merged per key: a later import's wins)."""
    if not doc.unknown:
        return
    options = scene_physics(bl_scene)
    stored = kept(options.document_unknown_json).fresh()
    keeper = registry.kept_keys_dialect()
    for name, values in doc.unknown.items():
        if values.dialect == keeper:
            stored[name] = {**(stored.get(name) or {}), **values.fresh()}
    options.document_unknown_json = kept_values(stored).text


def document_unknown(bl_scene: bpy.types.Scene) -> dict[str, model.Unknown]:
    """The scene's kept document-level keys, by extension name (what `apply_document_unknown` stored)."""
    stored = kept(scene_physics(bl_scene).document_unknown_json)
    return {name: kept_values(values) for name, values in stored.items() if isinstance(values, dict) and values}
