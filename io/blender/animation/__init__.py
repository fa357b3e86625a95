"""Physics animation on the Blender side, both directions.

`settings` is the settings' side of the Object Model table (registered by the properties layer, which alone
knows the PropertyGroups' paths); `curves` and `static_values` are shared; `imports/` keys an imported file's
channels, `exports/` samples keyframed settings into channels. The pure part (the keys' affine map, the
document with a value moved) is `io/omi/animation`. The export session imports `exports/`; nothing here
imports the export session (it hands in its placement functions).
"""
