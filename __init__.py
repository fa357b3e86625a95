"""OMI Physics for glTF: author, export and import OMI physics in Blender.

Blender calls register()/unregister() (which also register the command line, `blender --command
omi_physics`); the glTF add-on looks up the user-extension classes, the
dialog draw functions and the pre/post export callbacks on this module by name.
"""

from . import operators, panels, properties, viewport
from .io import cli_blender
from .io.gltf_export import glTF2_post_export_callback, glTF2_pre_export_callback, glTF2ExportUserExtension
from .io.gltf_import import glTF2ImportUserExtension
from .panels.gltf_dialogs import draw_export, draw_import
from .properties import animated_settings

__all__ = [
    "draw_export",
    "draw_import",
    "glTF2ExportUserExtension",
    "glTF2ImportUserExtension",
    "glTF2_post_export_callback",
    "glTF2_pre_export_callback",
    "register",
    "unregister",
]

# animated_settings: the settings' paths and conversions, handed to the animation import and export
_MODULES = (properties, animated_settings, operators, panels, viewport, cli_blender)


def register() -> None:
    for module in _MODULES:
        module.register()


def unregister() -> None:
    for module in reversed(_MODULES):
        module.unregister()
