"""Blender rigid bodies and constraints built from the physics model: plan, shapes, steps, report."""
