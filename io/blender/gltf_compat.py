"""The few io_scene_gltf2 classes and lists the export hooks need, found lazily on every supported version.

io_scene_gltf2 renamed most of its modules between Blender 4.2 (`gltf2_blender_extras.py`,
`gltf2_io_binary_data.py`, ...) and 5.0 (`extras.py`, `binary_data.py`, ...). So nothing here is imported
at module level: the glTF data classes are taken from the module of a live node the exporter hands to a
hook, and the other modules are looked up under the same package root by each known name in turn.
"""

from __future__ import annotations

import importlib
import sys
from types import CodeType, FrameType, ModuleType
from typing import Any

_IMPORT_BINARY_MODULES = ("io.imp.gltf2_io_binary",)
_EXTRAS_MODULES = ("blender.com.extras", "blender.com.gltf2_blender_extras")
_BINARY_DATA_MODULES = ("io.exp.binary_data", "io.exp.gltf2_io_binary_data")
_DEFAULT_ROOT = "io_scene_gltf2"


def package_root(gltf_object: Any = None) -> str:
    """The glTF add-on's package name ('io_scene_gltf2', or bl_ext.* if it is installed as an extension)."""
    module_name = type(gltf_object).__module__ if gltf_object is not None else ""
    for marker in (".io.com.", ".blender."):
        if marker in module_name:
            return module_name.split(marker)[0]
    return _DEFAULT_ROOT


def _first_module(root: str, names: tuple[str, ...]) -> ModuleType | None:
    for name in names:
        try:
            return importlib.import_module(f"{root}.{name}")
        except ImportError:
            continue
    return None


def gltf_io(gltf_object: Any) -> ModuleType:
    """The module defining the glTF data classes (Node, Mesh, Accessor, ...), from one of its objects."""
    return sys.modules[type(gltf_object).__module__]


def binary_data_class(root: str = _DEFAULT_ROOT) -> type:
    """The BinaryData class the exporter moves into its buffer when it meets one."""
    module = _first_module(root, _BINARY_DATA_MODULES)
    if module is None or not hasattr(module, "BinaryData"):
        raise ImportError(f"no BinaryData class in {root}")
    return module.BinaryData


def extras_black_list() -> list[str] | None:
    """The exporter's list of custom property names never written as extras (mutated in place)."""
    module = _first_module(_DEFAULT_ROOT, _EXTRAS_MODULES)
    black_list = getattr(module, "BLACK_LIST", None)
    if isinstance(black_list, list):
        return black_list
    for name, loaded in list(sys.modules.items()):  # the add-on may live under another package name
        if ".blender.com." in name and hasattr(loaded, "generate_extras"):
            black_list = getattr(loaded, "BLACK_LIST", None)
            if isinstance(black_list, list):
                return black_list
    return None


def exporter_dialog_draws() -> dict | None:
    """The glTF add-on's registry of export dialog draw functions, by add-on name; None without one.

    glTF-Blender-IO 4.2 fills it itself when the dialog opens; from 4.4 on an add-on registers its own.
    """
    try:
        module = importlib.import_module(_DEFAULT_ROOT)
    except ImportError:
        return None
    draws = getattr(module, "exporter_extension_layout_draw", None)
    return draws if isinstance(draws, dict) else None


def accessor_rows(gltf: Any, index: int) -> list[list[float]]:
    """An accessor of the file being imported, decoded by the importer (sparse and normalized included)."""
    module = _first_module(package_root(gltf), _IMPORT_BINARY_MODULES) or _first_module(_DEFAULT_ROOT,
                                                                                         _IMPORT_BINARY_MODULES)
    if module is None or not hasattr(module, "BinaryData"):
        raise ImportError("the glTF importer's binary reader was not found")
    return module.BinaryData.decode_accessor(gltf, index).tolist()


def importer_buffer(gltf: Any, index: int) -> bytes | memoryview | None:
    """Buffer `index` of the file being imported, loaded (and cached) by the importer itself: `load_buffer`
    and `buffers` of its glTFImporter, the same on every supported version. None when it cannot be read."""
    try:
        if index not in gltf.buffers:
            gltf.load_buffer(index)
        found = gltf.buffers.get(index)
    except Exception:
        return None
    return found if isinstance(found, bytes | memoryview) else None


def imported_bones(gltf: Any) -> dict[int, tuple[Any, str]]:
    """glTF node index -> (armature object, bone name) for each node the importer made a bone of.

    The importer's virtual node tree (`gltf.vnodes`, io_scene_gltf2/blender/imp/vnode.py) marks a bone with
    `type == VNode.Bone`, names it `blender_bone_name` and points to its armature's vnode with `bone_arma`;
    the same on every supported version.
    """
    found: dict[int, tuple[Any, str]] = {}
    vnodes = getattr(gltf, "vnodes", None) or {}
    for index, vnode in vnodes.items():
        bone_type = getattr(type(vnode), "Bone", None)
        if not isinstance(index, int) or bone_type is None or getattr(vnode, "type", None) != bone_type:
            continue
        armature_vnode = vnodes.get(getattr(vnode, "bone_arma", None))
        armature = getattr(armature_vnode, "blender_object", None)
        name = getattr(vnode, "blender_bone_name", None)
        if armature is not None and name and armature.type == 'ARMATURE' and name in armature.pose.bones:
            found[index] = (armature, name)
    return found


def export_tree_bones(vtree: Any) -> dict[tuple[Any, str], Any]:
    """(armature object, bone name) -> the export tree's vnode uuid of that bone (io_scene_gltf2/blender/exp/tree.py:
    a BONE vnode holds its pose bone in `blender_bone` and its armature's uuid in `armature`)."""
    found: dict[tuple[Any, str], Any] = {}
    for uuid, vnode in vtree.nodes.items():
        bone = getattr(vnode, "blender_bone", None)
        armature = vtree.nodes.get(getattr(vnode, "armature", None))
        if bone is not None and armature is not None and vnode.blender_type == getattr(type(vnode), "BONE", None):
            found[(armature.blender_object, bone.name)] = uuid
    return found


def move_under_bone(vtree: Any, uuid: Any, bone_uuid: Any) -> None:
    """Make an object's export vnode a child of a bone's, as the exporter does for an object parented to a bone
    (the exporter then finds the bone's glTF node by the object's `parent_bone`)."""
    vnode = vtree.nodes[uuid]
    old_parent = vtree.nodes.get(vnode.parent_uuid)
    if old_parent is not None and uuid in old_parent.children:
        old_parent.children.remove(uuid)
    vnode.parent_uuid = bone_uuid
    vnode.parent_bone_uuid = bone_uuid
    vtree.nodes[bone_uuid].children.append(uuid)


def exported_axis_change(export_settings: dict) -> Any:
    """The matrix the exporter puts after a bone's matrix to make its glTF node frame (`axis_basis_change`)."""
    from mathutils import Matrix  # noqa: PLC0415 - keeps this module importable without bpy for its callers' tests

    vtree = export_settings.get("vtree")
    change = getattr(vtree, "axis_basis_change", None)
    if change is not None:
        return change
    if export_settings.get("gltf_yup", True):
        return Matrix(((1.0, 0.0, 0.0, 0.0), (0.0, 0.0, 1.0, 0.0), (0.0, -1.0, 0.0, 0.0), (0.0, 0.0, 0.0, 1.0)))
    return Matrix.Identity(4)


_SAVE_MODULES = ("io.exp.export", "io.exp.gltf2_io_export")  # where `save_gltf` encodes the document
_ENCODED_HOOK = "gather_gltf_encoded_hook"


def _save_gltf_code(root: str) -> CodeType | None:
    """The code of the exporter's `save_gltf(gltf, ...)`, which calls the encoded hook and then encodes its
    `gltf` argument, the finished document; None when this exporter's function is not of that layout."""
    function = getattr(_first_module(root, _SAVE_MODULES), "save_gltf", None)
    code = getattr(function, "__code__", None)
    if not isinstance(code, CodeType) or code.co_varnames[:1] != ("gltf",) or _ENCODED_HOOK not in code.co_consts:
        return None
    return code


def encoded_document_reachable(root: str) -> bool:
    """Whether `document_being_encoded` finds the document in this exporter (the same layout from 4.2 to 5.2)."""
    return _save_gltf_code(root) is not None


def document_being_encoded(root: str) -> dict[str, Any] | None:
    """The finished glTF JSON the exporter is about to encode, reached from inside its encoded hook.

    The hook (`gather_gltf_encoded_hook`) is handed only the encoding options; the document is the `gltf`
    argument of the `save_gltf` call that runs the hook, one frame up the stack (found by its code, not by
    depth). It is the exporter's own dict: what is put into it is written as it is.
    """
    code = _save_gltf_code(root)
    if code is None:
        return None
    frame: FrameType | None = sys._getframe(1)  # the one way to the document from this hook (see above)
    while frame is not None:
        if frame.f_code.co_name == code.co_name and frame.f_code.co_filename == code.co_filename:
            document = frame.f_locals.get("gltf")
            return document if isinstance(document, dict) else None
        frame = frame.f_back
    return None
