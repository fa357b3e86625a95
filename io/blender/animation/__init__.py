"""io/blender/animation."""
