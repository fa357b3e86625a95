"""Fit a collider (or trigger) shape to each selected mesh: on the object itself or on a new child."""

from __future__ import annotations

import bpy
from bpy.props import BoolProperty, EnumProperty, FloatProperty, IntProperty
from mathutils import Matrix, Vector

from ..io.blender.fit import DEFAULT_MIN_THICKNESS
from ..io.omi.conventions import HULL_VERTEX_LIMIT
from ..properties.shape import PRIMITIVE_SHAPES, SHAPE_TYPE_ITEMS, shape_extent
from .common import OperatorResult, in_object_mode, names, plural, selected_meshes
from .shaping import (
    COLLIDER_SUFFIX,
    HULL_SUFFIX,
    ROLE_ITEMS,
    TARGET_ITEMS,
    baked_mesh,
    collision_only,
    compensation,
    fit_primitive,
    hull_mesh,
    hull_points,
    new_child,
    part_settings,
    reuse_hull_object,
    set_offset,
    world_scale,
)

_ZERO = Vector((0.0, 0.0, 0.0))
DEFAULT_HULL_BUDGET = HULL_VERTEX_LIMIT


FIT_DESCRIPTIONS = {
    'BOX': "Fit a box to each selected mesh, along the object's own axes (flat meshes get the minimum "
           "thickness)",
    'SPHERE': "Fit the smallest sphere that holds each selected mesh",
    'CAPSULE': "Fit a capsule along each selected mesh's longest axis: its full height is the mesh's length",
    'CYLINDER': "Fit a cylinder along each selected mesh's longest axis, as tall as the mesh is long",
    'CONVEX': "Use the convex hull of each selected mesh (simplified to the vertex budget): any prop shape, "
              "fast to simulate",
    'TRIMESH': "Use the exact triangles of each selected mesh: static level geometry only, slow for bodies",
}


def _replace_mesh(obj: bpy.types.Object, mesh: bpy.types.Mesh) -> None:
    old = obj.data
    obj.data = mesh
    if isinstance(old, bpy.types.Mesh) and old.users == 0:  # a hull object holds a mesh
        bpy.data.meshes.remove(old)


class OMI_OT_fit_collider(bpy.types.Operator):
    """Fit a collider shape to each selected mesh (box oriented to the object, round shapes along the
longest axis, convex hull within a vertex budget, or the exact triangles)"""

    bl_idname = "omi.fit_collider"
    bl_label = "Fit Collider"
    bl_options = {'REGISTER', 'UNDO'}

    shape_type: EnumProperty(name="Shape", items=SHAPE_TYPE_ITEMS, default='BOX')
    role: EnumProperty(name="As", items=ROLE_ITEMS, default='COLLIDER')
    target: EnumProperty(name="On", items=TARGET_ITEMS, default='SELF')
    use_vertex_budget: BoolProperty(
        name="Limit Hull Vertices",
        description="Simplify convex hulls with more vertices than the budget (many engines accept at most 255)",
        default=True,
    )
    vertex_budget: IntProperty(name="Vertex Budget", default=DEFAULT_HULL_BUDGET, min=4, soft_max=1024)
    min_thickness: FloatProperty(
        name="Min Thickness",  # "Minimum Thickness" was cut in the Adjust Last Operation panel
        description=("A box is at least this thick along every axis, grown behind the faces of a flat mesh "
                     "(a plane): a box without thickness stops nothing and no file format holds one"),
        default=DEFAULT_MIN_THICKNESS, min=0.0, soft_min=0.001, soft_max=1.0, subtype='DISTANCE', unit='LENGTH',
    )

    @classmethod
    def description(cls, _context: bpy.types.Context, properties: bpy.types.OperatorProperties) -> str:
        """Each Fit button says what its shape fits (the six buttons are one operator)."""
        return FIT_DESCRIPTIONS.get(properties.shape_type, cls.__doc__ or "")

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        if not in_object_mode(context):
            cls.poll_message_set("Switch to Object Mode: the fit reads the evaluated mesh")
            return False
        if not selected_meshes(context):
            cls.poll_message_set("Select mesh objects to fit colliders to")
            return False
        return True

    def draw(self, _context: bpy.types.Context) -> None:
        layout = self.layout
        assert layout is not None, "Blender draws an operator's options in its layout"
        layout.use_property_split = True
        for name in ("shape_type", "role", "target"):
            layout.prop(self, name)
        if self.shape_type == 'BOX':
            layout.prop(self, "min_thickness")
        if self.shape_type == 'CONVEX':
            layout.prop(self, "use_vertex_budget")
            row = layout.row()
            row.active = self.use_vertex_budget
            row.prop(self, "vertex_budget")

    @property
    def budget(self) -> int | None:
        return self.vertex_budget if self.use_vertex_budget else None

    def execute(self, context: bpy.types.Context) -> OperatorResult:
        depsgraph = context.evaluated_depsgraph_get()
        objects = selected_meshes(context)
        self._hulls: dict[tuple[object, int | None], tuple[bpy.types.Mesh | None, int, int]] = {}
        failed, loose, simplified, scaled, flat = [], [], [], [], []
        window_manager = context.window_manager
        assert window_manager is not None, "Blender has its window manager"
        window_manager.progress_begin(0, len(objects))
        try:
            for step, obj in enumerate(objects):
                try:
                    outcome = self.fit_one(context, obj, depsgraph)
                except ValueError:
                    failed.append(obj)
                    continue
                finally:
                    window_manager.progress_update(step + 1)
                if outcome == "loose":
                    loose.append(obj)
                elif outcome == "thickened":
                    flat.append(obj)
                elif outcome == "simplified":
                    simplified.append(obj)
                if self.target == 'SELF' and any(abs(s - 1.0) > 1e-4 for s in world_scale(obj)[:]):
                    scaled.append(obj)
        finally:
            window_manager.progress_end()
        done = len(objects) - len(failed)
        kind = {item[0]: item[1] for item in SHAPE_TYPE_ITEMS}[self.shape_type].lower()
        where = " on new children" if self.target == 'CHILD' else ""
        self.report({'INFO'}, f"Fitted {plural(done, kind + ' ' + self.role.lower())}{where}")
        if simplified:
            self.report({'INFO'}, f"{names(simplified)}: hull simplified to {self.vertex_budget} vertices")
        if flat:
            self.report({'WARNING'}, f"{names(flat)}: flat or thin, so the box was made {self.min_thickness:.3g} m "
                                     "thick behind its faces; change Min Thickness in the Adjust Last "
                                     "Operation panel")
        if loose:
            self.report({'WARNING'}, f"{names(loose)}: non-uniform scale, the {kind} encloses the mesh but "
                                     "is not tight; apply the scale for an exact fit")
        if scaled:
            self.report({'WARNING'}, f"{names(scaled)}: scaled, so the shape inherits the scale; apply the "
                                     "scale or fit on a new child")
        if failed:
            self.report({'WARNING'}, f"{names(failed)}: no vertices to fit to")
        return {'FINISHED'} if done else {'CANCELLED'}

    def fit_one(self, context: bpy.types.Context, obj: bpy.types.Object, depsgraph: bpy.types.Depsgraph) -> str:
        """Fit one object; returns 'exact', 'loose' (enclosing, not tight), 'thickened' (a flat or thin box
        given the minimum thickness) or 'simplified' (hull budget)."""
        if self.target == 'CHILD':
            return self.fit_child(context, obj, depsgraph)
        shape = part_settings(obj, self.role).shape
        if self.shape_type in PRIMITIVE_SHAPES:
            fitted = fit_primitive(obj, shape, self.shape_type, depsgraph, min_thickness=self.min_thickness)
            set_offset(shape, fitted.center, fitted.rotation, shape_extent(shape))
            return "thickened" if fitted.thickened else "exact"
        shape.shape_type = self.shape_type
        set_offset(shape, _ZERO, None)
        if self.shape_type == 'CONVEX':
            mesh, kept, full = self.simplified_hull(obj, depsgraph)
            if kept < full:
                assert mesh is not None, "simplified_hull makes a mesh when it left vertices out"
                hull_obj = reuse_hull_object(obj, shape)
                if hull_obj is None:
                    hull_obj = new_child(context, obj, obj.name + HULL_SUFFIX, mesh, Matrix.Identity(4))
                    collision_only(hull_obj)
                else:
                    _replace_mesh(hull_obj, mesh)
                shape.mesh_source = 'OBJECT'
                shape.mesh_object = hull_obj
                return "simplified"
        shape.mesh_source = 'SELF'
        shape.mesh_object = None
        return "exact"

    def simplified_hull(self, obj: bpy.types.Object,
                        depsgraph: bpy.types.Depsgraph) -> tuple[bpy.types.Mesh | None, int, int]:
        """(hull mesh or None when nothing was left out, hull vertices kept, vertices of the full hull).
        Objects that show one mesh unchanged (no modifiers, no shape keys) share one hull: one computation
        and one mesh for a thousand instances of a rock, not a thousand equal meshes."""
        data = obj.data
        assert data is not None, "a mesh-like object (selected_meshes) has its data"
        same = not obj.modifiers and getattr(data, "shape_keys", None) is None
        key = (data, self.budget)
        if same and key in self._hulls:
            return self._hulls[key]
        points, full = hull_points(obj, self.budget, depsgraph)
        mesh = hull_mesh((data.name if same else obj.name) + HULL_SUFFIX, points) if len(points) < full else None
        found = (mesh, len(points), full)
        if same:
            self._hulls[key] = found
        return found

    def fit_child(self, context: bpy.types.Context, obj: bpy.types.Object, depsgraph: bpy.types.Depsgraph) -> str:
        """A new child whose world scale is 1, holding the shape with the parent's scale in its lengths."""
        scale = world_scale(obj)
        name = obj.name + COLLIDER_SUFFIX
        outcome = "exact"
        if self.shape_type in PRIMITIVE_SHAPES:
            child = new_child(context, obj, name, None, Matrix.Identity(4))
            child.empty_display_type = 'PLAIN_AXES'
            child.empty_display_size = 0.1
            shape = part_settings(child, self.role).shape
            fitted = fit_primitive(obj, shape, self.shape_type, depsgraph, scale, min_thickness=self.min_thickness)
            rotation = fitted.rotation
            rotation_matrix = rotation.to_matrix().to_4x4() if rotation is not None else Matrix.Identity(4)
            # the newest stubs' Matrix.Translation takes no Vector
            child.matrix_basis = Matrix.Translation(fitted.center) @ compensation(scale) @ rotation_matrix  # type: ignore[arg-type]  # the newest stubs' Translation takes no Vector
            outcome = "thickened" if fitted.thickened else "exact" if fitted.exact else "loose"
        else:
            if self.shape_type == 'CONVEX':
                points, full = hull_points(obj, self.budget, depsgraph)
                mesh = hull_mesh(name, points * scale[:])
                outcome = "simplified" if len(points) < full else "exact"
            else:
                mesh = baked_mesh(obj, depsgraph, scale)
            child = new_child(context, obj, name, mesh, compensation(scale))
            collision_only(child)
            shape = part_settings(child, self.role).shape
            shape.shape_type = self.shape_type
            shape.mesh_source = 'SELF'
        set_offset(shape, _ZERO, None)
        return outcome


CLASSES: tuple[type, ...] = (OMI_OT_fit_collider,)
