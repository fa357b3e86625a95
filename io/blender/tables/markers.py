"""Markers the add-on puts on what it makes in Blender (ID properties), and the readers of them.

The rigid-body build (`rigid_body*`) marks what it generates and the importer marks shape stand-ins; the
export reads the same markers to leave those out. Small on purpose: the export side needs only these.
- GENERATED on objects and meshes made for Blender's simulation: never exported, deleted and remade at will;
- OWNER on a generated object: the object it was made for (a joint's world ANCHOR: the joint object);
- SHAPE_MESH on an object whose mesh data stands for its physics shape rather than visible geometry
  (the importer turns an empty collider node into such a mesh object): export writes no mesh for it; on a
  collection: the one the import puts those under another object in (SHAPE_COLLECTION, hidden);
- BONE_PART / BONE_TARGET on a ragdoll rig's objects (io/blender/bones): the export writes a part's physics
  on its bone's node and neither object as a node of its own.
"""

from __future__ import annotations

import bpy

GENERATED = "omi_generated"
SHAPE_MESH = "omi_shape_mesh"
OWNER = "omi_owner"
JOINT_CONSTRAINT = "joint"  # GENERATED value of a constraint object the build made for a joint object
STAND_IN = "body"  # GENERATED value of the rigid body simulating a body its own object cannot carry
ANCHOR = "world anchor"  # GENERATED value of the passive body a joint frame in no body holds to
STARTER = "start motion"  # GENERATED value of the motors (and their anchor) giving a body its starting velocities
FOLLOW = "OMI rigid body"  # the constraint between a non-mesh or nested body and its generated rigid body
GENERATED_COLLECTION = "OMI Rigid Bodies"
SHAPE_COLLECTION = "OMI Physics Shapes"  # the import's shape-node objects under a body: hidden, exported
BONE_PART = "omi_bone_part"  # on a rigid-body object standing for a bone's physics: the bone's name
BONE_TARGET = "omi_bone_target"  # on the empty under a bone part that the bone copies (the bone's own frame)
# ID properties that must never reach glTF extras
LOCKS = "omi_physics_locks"  # on a body: the transform locks the build set for infinite mass / inertia
BUILT = "omi_built"  # on an object with a rigid body: what the last build wrote into it (builder/built_values)
BUILT_BODIES = "omi_built_bodies"  # on a joint's constraint object: the bodies the last build joined (the objects)
BUILT_PARENT = "omi_built_parent"  # on a joint's frames (its object, its connected one): their parent at its build
STATIC_VALUES = "omi_static_values"  # on a datablock with imported physics keys: the file's static values (JSON)
DRIVEN = "omi_velocity_drivers"  # on a kinematic body: its delta transforms are driven at its velocity
ADOPTED = "omi_adopted"  # on an object whose other add-on's physics settings were adopted: that add-on's name
EDITS = "omi_edits"  # on an object with settings: counts the edits of its settings (the live link)
IN_STEP = "omi_in_step"  # on an object: the EDITS count its Blender rigid bodies were last built from
PRIVATE_PROPERTIES = (GENERATED, SHAPE_MESH, OWNER, BONE_PART, BONE_TARGET, LOCKS, BUILT, BUILT_BODIES, BUILT_PARENT,
                      STATIC_VALUES, DRIVEN, ADOPTED, EDITS, IN_STEP)


def is_generated(id_data: bpy.types.ID) -> bool:
    """True for objects and meshes generated for Blender's simulation: export skips them, clear deletes them."""
    return id_data.get(GENERATED) is not None


def is_adopted(obj: bpy.types.Object) -> bool:
    """True once Adopt turned the object's other add-on's settings into this add-on's (adopt/peer_props)."""
    return obj.get(ADOPTED) is not None


def is_shape_mesh(obj: bpy.types.Object) -> bool:
    """True when the object's mesh stands for its physics shape: not exported as visible geometry."""
    return obj.type == 'MESH' and bool(obj.get(SHAPE_MESH))


def mark_shape_mesh(obj: bpy.types.Object) -> None:
    """Declare the object's mesh a physics shape display: wire, not rendered, never exported as geometry."""
    obj[SHAPE_MESH] = True
    obj.display_type = 'WIRE'
    _hide_from_render(obj)


def unmark_shape_mesh(obj: bpy.types.Object) -> None:
    """Undo `mark_shape_mesh`: the mesh is the object's visible geometry again, rendered and exported."""
    if obj.get(SHAPE_MESH) is not None:
        del obj[SHAPE_MESH]
    obj.display_type = 'TEXTURED'
    for name in _RAY_VISIBILITY:
        setattr(obj, name, True)


def show_as_volume(obj: bpy.types.Object) -> None:
    """A trigger's own mesh: drawn as wire, so the volume never hides the scene, and not rendered; unlike a
    shape mesh it stays the node's mesh in an export."""
    obj.display_type = 'WIRE'
    _hide_from_render(obj)


_RAY_VISIBILITY = ("visible_camera", "visible_shadow", "visible_diffuse", "visible_glossy", "visible_transmission",
                   "visible_volume_scatter")


def _hide_from_render(obj: bpy.types.Object) -> None:
    # Ray visibility rather than hide_render: hide_render resyncs every collection on each change.
    for name in _RAY_VISIBILITY:
        setattr(obj, name, False)


def owner(obj: bpy.types.Object) -> object:
    """The object a generated object was made for (its OWNER property), or None."""
    return obj.get(OWNER)


def made_for(obj: bpy.types.Object) -> list[bpy.types.Object]:
    """The generated objects made for `obj` in its scene."""
    scene_objects = obj.users_scene[0].objects if obj.users_scene else ()
    return [made for made in scene_objects if is_generated(made) and made.get(OWNER) == obj]

