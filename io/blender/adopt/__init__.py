"""io/blender/adopt."""
