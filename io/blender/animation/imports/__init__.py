"""Physics channels of an imported file -> keyframes on the settings and on Blender's rigid bodies."""
