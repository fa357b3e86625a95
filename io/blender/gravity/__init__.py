"""OMI_physics_gravity on the Blender side: the scene's gravity as the world gravity (scene_gravity.py)."""
