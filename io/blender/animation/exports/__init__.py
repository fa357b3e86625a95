"""Keyframed settings -> KHR_animation_pointer channels of the exported file."""
