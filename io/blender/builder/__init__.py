"""io/blender/build."""
