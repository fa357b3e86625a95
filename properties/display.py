"""How settings read in the UI: digits shown for each kind of quantity, one place for every panel.

With a unit, Blender counts `precision` as significant digits and drops trailing zeros, so a length
shows as Blender's own Location fields do (12.5 m, 0.125 m, 1.8 m); without one, it is decimals.
"""

LENGTH = 5  # like Blender's Location: 12.5 m, 0.0125 m
MASS = 4  # 12.5 kg, 0.025 kg
ANGLE = 3  # like Blender's Rotation: 22.5°, 7.25°
VELOCITY = 4  # 12.5 m/s
FACTOR = 3  # unitless ratios: friction 0.600, gravity factor 1.000
