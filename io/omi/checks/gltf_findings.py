"""The vocabulary of the glTF structure checks (`gltf_structure`, `gltf_buffers`): a finding, the repair the
add-on's import can make, what Blender's importer does, and the small helpers both check modules read.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal, TypeGuard

RepairKind = Literal["drop_child", "drop_children", "drop_scene_node", "drop_primitive", "trim_primitive", "rename",
                     "drop_mesh", "allow_depth"]


@dataclass(frozen=True)
class Repair:
    """What the add-on's import changes in the importer's data: `kind` on the item at `where`.

    drop_child (node, position in children); drop_children (node); drop_scene_node (scene, position in
    nodes); drop_mesh (node); drop_primitive (mesh, primitive: it then reads nothing); trim_primitive
    (mesh, primitive, new index count); rename (array name, index) with `value` the new name; allow_depth
    (no data change: `value` levels of recursion are allowed for the import).
    """

    kind: RepairKind
    where: tuple[Any, ...]
    value: Any = None
    done: str = ""  # how the import report says it, e.g. "link ignored"


@dataclass(frozen=True)
class Finding:
    pointer: str
    message: str  # what is wrong
    repair: Repair | None = None  # how the add-on's import mends it, if it can
    blender: str = "fails on it"  # what Blender's importer does: "crashes on it", "cannot open the file", ...
    severity: str = "error"  # "warning": glTF forbids it but Blender's importer copes (validate's severity)

    @property
    def fatal(self) -> bool:
        """Blender's importer cannot open the file at all, repairs or not."""
        return self.repair is None and self.blender == FATAL

    def as_error(self) -> str:
        """The finding as validate says it."""
        repaired = f"; the OMI add-on's import repairs it ({self.repair.done})" if self.repair else ""
        consequence = f" (Blender's glTF importer {self.blender})" if self.blender else ""
        return f"{self.message}{consequence}{repaired}"

    def as_repaired(self) -> str:
        """The finding as the import report says it, once repaired."""
        return f"{self.message}; {self.repair.done}" if self.repair else self.as_error()


FATAL = "cannot open the file"
# The extensions Blender's glTF importer reads (4.2 LTS, the oldest supported): a file that requires another is
# refused unless an add-on declares it (this one declares its registered units' extensions).
IMPORTER_EXTENSIONS = frozenset((
    "KHR_materials_pbrSpecularGlossiness", "KHR_lights_punctual", "KHR_materials_unlit", "KHR_texture_transform",
    "KHR_materials_clearcoat", "KHR_mesh_quantization", "EXT_mesh_gpu_instancing", "KHR_draco_mesh_compression",
    "KHR_materials_variants", "KHR_materials_emissive_strength", "KHR_materials_transmission",
    "KHR_materials_specular", "KHR_materials_sheen", "KHR_materials_ior", "KHR_animation_pointer",
    "KHR_materials_volume", "EXT_texture_webp", "KHR_materials_anisotropy"))
NEWER_IMPORTER_EXTENSIONS = frozenset((  # read by newer Blenders only (5.2)
    "EXT_meshopt_compression", "KHR_meshopt_compression", "KHR_materials_dispersion", "KHR_materials_iridescence"))
READERS_FAIL = "fails on whatever reads it"


BufferData = Callable[[int, Any], "bytes | str | int | None"]
"""(buffer index, buffer JSON) -> the buffer's bytes (or just their length), a reason it cannot be read,
or None when the data is unknown (not checked)."""


def array_items(document: dict[str, Any], key: str) -> list[Any]:
    """A document's top-level array, or nothing."""
    value = document.get(key)
    return value if isinstance(value, list) else []


def is_index(value: Any, count: int) -> TypeGuard[int]:
    """A glTF index into an array of `count` items."""
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < count
