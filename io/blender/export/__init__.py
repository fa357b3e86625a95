"""io/blender/export."""
