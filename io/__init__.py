"""Translations between glTF JSON, the OMI data model and Blender. Never import this as top-level `io`."""
