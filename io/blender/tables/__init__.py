"""io/blender/tables."""
