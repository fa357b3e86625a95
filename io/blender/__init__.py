"""The bpy side of the translations: axes, rigid bodies and constraints, collider meshes."""
