"""What Blender's glTF importer cannot open, found in linear time before it tries (no bpy here).

Blender's importer fails (a Python exception: the import stops) or crashes (a segmentation fault: Blender
dies) on files that break glTF's structural rules. Each such finding names its JSON pointer, says what is
wrong, and carries a `Repair` when the OMI add-on's import can mend the importer's data before it builds
anything (drop a link, a scene entry or a primitive; trim a primitive; replace a name). `validate`
reports every finding as an error; the import applies the repairs and reports each as a warning.

Checked: the node hierarchy (self links, cycles, second parents, non-index children, chains deeper than
Blender's importer recurses unaided or than the add-on lets it: see `_depth`), scene roots, mesh and
accessor references, accessors against their buffer views and buffers, buffer data (GLB BIN chunk, data:
URIs, files next to the glTF) against `byteLength`, primitive index counts against their mode, and names
Blender cannot store (lone UTF-16 surrogates). The file-level encoding (a UTF-8 byte order mark) is
gltf_file's finding.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from itertools import repeat
from typing import Any, Literal, TypeGuard

from ..json_types import describe, pointer

PLAIN_DEPTH = 900  # Blender's importer recurses once per level: unaided it stops near Python's limit (1000)
MAX_DEPTH = 100_000  # the deepest hierarchy the add-on lets Blender's importer and exporter recurse through
COMPONENT_BYTES = {5120: 1, 5121: 1, 5122: 2, 5123: 2, 5125: 4, 5126: 4}
TYPE_COMPONENTS = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4, "MAT2": 4, "MAT3": 9, "MAT4": 16}
MODE_NAMES = {0: "POINTS", 1: "LINES", 2: "LINE_LOOP", 3: "LINE_STRIP", 4: "TRIANGLES", 5: "TRIANGLE_STRIP",
              6: "TRIANGLE_FAN"}
MIN_COUNT = {2: 1, 3: 2, 5: 2, 6: 2}  # fewer indices than this and Blender's importer raises
NAMED_ARRAYS = ("nodes", "meshes", "materials", "cameras", "scenes", "skins", "animations", "images", "textures",
                "samplers", "accessors", "bufferViews", "buffers")

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
READERS_FAIL = "fails on whatever reads it"


BufferData = Callable[[int, Any], "bytes | str | int | None"]
"""(buffer index, buffer JSON) -> the buffer's bytes (or just their length), a reason it cannot be read,
or None when the data is unknown (not checked)."""


def check(document: Any, buffer_data: BufferData | None = None) -> list[Finding]:
    """Every structural finding, in document order (hierarchy, scenes, buffers, meshes, names)."""
    if not isinstance(document, dict):
        return []
    findings = list(_hierarchy(document))
    findings += _scenes(document)
    bad_accessors = _accessor_problems(document, buffer_data, findings)
    findings += _meshes(document, bad_accessors)
    findings += _names(document)
    return findings


def _items(document: dict[str, Any], key: str) -> list[Any]:
    value = document.get(key)
    return value if isinstance(value, list) else []


def _is_index(value: Any, count: int) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < count


# --- hierarchy ---------------------------------------------------------------------------------------------

def node_tree(nodes: Sequence[Any]) -> tuple[dict[int, tuple[int, int]], list[Finding]]:
    """The parent links Blender can keep, {child: (parent, position in its children)}, and a finding for each
    link left out: not a node index, a node its own child, a second parent, the link that closes a cycle
    (the last of the loop in file order). Linear in the number of links."""
    findings: list[Finding] = []
    link_at: dict[int, tuple[int, int]] = {}
    count = len(nodes)
    for index, node in enumerate(nodes):
        children = node.get("children") if isinstance(node, dict) else None
        if children is None:
            continue
        if type(children) is not list and not isinstance(children, list | tuple):
            findings.append(Finding(pointer("nodes", index, "children"), f"children must be an array, got "
                                                                         f"{describe(children)}",
                                    Repair("drop_children", (index,), done="ignored")))
            continue
        for position, child in enumerate(children):
            if ((type(child) is int and 0 <= child < count) or _is_index(child, count)) and child != index \
                    and child not in link_at:  # (the exact type first: files have many links)
                link_at[child] = (index, position)
                continue
            at = pointer("nodes", index, "children", position)  # made for findings only: files have many links
            drop = Repair("drop_child", (index, position), done="link ignored")
            if not _is_index(child, count):
                findings.append(Finding(at, f"child {describe(child)} is not a node index",
                                        Repair("drop_child", (index, position), done="ignored")))
            elif child == index:
                findings.append(Finding(at, f"node {index} lists itself as a child", drop))
            else:
                findings.append(Finding(at, f"node {child} already has a parent", drop))
    findings += _cycles(link_at)
    return link_at, findings


def _hierarchy(document: dict[str, Any]) -> Iterator[Finding]:
    nodes = _items(document, "nodes")
    link_at, findings = node_tree(nodes)
    yield from findings
    yield from _depth(nodes, {child: owner for child, (owner, _position) in link_at.items()})


def _cycles(link_at: dict[int, tuple[int, int]]) -> list[Finding]:
    """Each node has at most one parent here, so cycles are disjoint loops: walk up from every node once,
    and drop the closing link of each loop from `link_at`."""
    findings = []
    state: dict[int, int] = {}  # 1: on the current walk, 2: done
    for start in list(link_at):
        walk: list[int] = []
        current: int | None = start
        while current is not None and current not in state:
            state[current] = 1
            walk.append(current)
            current = link_at[current][0] if current in link_at else None
        if current is not None and state[current] == 1:
            loop = walk[walk.index(current):]
            last = max(loop, key=lambda child: link_at[child])  # the link that closes the loop in file order
            owner, position = link_at.pop(last)
            findings.append(Finding(pointer("nodes", owner, "children", position),
                                    f"node {last} is an ancestor of node {owner} (a cycle)",
                                    Repair("drop_child", (owner, position), done="link ignored")))
        for node in walk:
            state[node] = 2
    return findings


def _depth(nodes: list[Any], parent: dict[int, int]) -> Iterator[Finding]:
    """The hierarchy's depth against what Blender's importer recurses through: it walks the tree in pure
    Python, one call per level, so the add-on raises Python's recursion limit for the import (a warning,
    the file imports); past MAX_DEPTH it does not (the time and memory grow with the depth), so the file
    cannot be opened. Linear: each node's depth is found once."""
    depth: dict[int, int] = {}
    deepest, deepest_node = 0, -1
    for start in range(len(nodes)):
        walk, current = [], start
        while current not in depth and current in parent:
            walk.append(current)
            current = parent[current]
        level = depth.get(current, 1)
        depth[current] = level
        for node in reversed(walk):
            level += 1
            depth[node] = level
        if level > deepest:
            deepest, deepest_node = level, walk[0] if walk else current
    if deepest > MAX_DEPTH:
        yield Finding("/nodes", f"the node hierarchy is {deepest} levels deep (node {deepest_node}), deeper than the "
                                f"{MAX_DEPTH} the OMI add-on lets Blender's importer recurse through", blender=FATAL)
    elif deepest > PLAIN_DEPTH:
        yield Finding("/nodes", f"the node hierarchy is {deepest} levels deep (node {deepest_node})",
                      Repair("allow_depth", (), deepest, done="Python's recursion limit is raised for the import"),
                      blender=f"recurses once per level and stops at about {PLAIN_DEPTH + 80}", severity="warning")


def _scenes(document: dict[str, Any]) -> Iterator[Finding]:
    count = len(_items(document, "nodes"))
    for index, scene in enumerate(_items(document, "scenes")):
        roots = scene.get("nodes") if isinstance(scene, dict) else None
        for position, node in enumerate(roots if isinstance(roots, list) else []):
            if not _is_index(node, count):
                yield Finding(pointer("scenes", index, "nodes", position), f"scene node {node!r} does not exist",
                              Repair("drop_scene_node", (index, position), done="left out of the scene"))
    mesh_count = len(_items(document, "meshes"))
    for index, node in enumerate(_items(document, "nodes")):
        mesh = node.get("mesh") if isinstance(node, dict) else None
        if mesh is not None and not _is_index(mesh, mesh_count):
            yield Finding(pointer("nodes", index, "mesh"), f"mesh {mesh!r} does not exist",
                          Repair("drop_mesh", (index,), done="the node is imported without a mesh"))


# --- buffers and accessors -----------------------------------------------------------------------------------

def _buffer_problems(document: dict[str, Any], buffer_data: BufferData | None) -> dict[int, str]:
    """buffer index -> why its data cannot serve its byteLength (findings made by the caller)."""
    problems: dict[int, str] = {}
    if buffer_data is None:
        return problems
    for index, buffer in enumerate(_items(document, "buffers")):
        length = buffer.get("byteLength") if isinstance(buffer, dict) else None
        data = buffer_data(index, buffer)
        if isinstance(data, str):
            problems[index] = data
        elif data is not None and isinstance(length, int):
            size = data if isinstance(data, int) else len(data)
            if size < length:
                problems[index] = f"holds {size} bytes, fewer than its byteLength {length}"
    return problems


def _accessor_problems(document: dict[str, Any], buffer_data: BufferData | None,
                       findings: list[Finding]) -> dict[int, str]:
    """accessor index -> why it cannot be read; the findings about buffers, views and accessors appended."""
    buffers, views = _items(document, "buffers"), _items(document, "bufferViews")
    broken_buffers = _buffer_problems(document, buffer_data)
    for index, reason in broken_buffers.items():
        uri = buffers[index].get("uri") if isinstance(buffers[index], dict) else None
        at = pointer("buffers", index, "uri") if isinstance(uri, str) and reason.startswith("cannot") else \
            pointer("buffers", index)
        findings.append(Finding(at, f"buffer {index} {reason}", blender=READERS_FAIL))
    broken_views: dict[int, str] = {}
    for index, view in enumerate(views):
        if not isinstance(view, dict):
            continue
        buffer, offset, length = view.get("buffer"), view.get("byteOffset", 0), view.get("byteLength")
        if not _is_index(buffer, len(buffers)):
            broken_views[index] = f"its buffer {buffer!r} does not exist"
        elif buffer in broken_buffers:
            broken_views[index] = f"buffer {buffer} cannot be read"
            continue
        else:
            buffer_length = buffers[buffer].get("byteLength") if isinstance(buffers[buffer], dict) else None
            if isinstance(offset, int) and isinstance(length, int) and isinstance(buffer_length, int) \
                    and offset + length > buffer_length:
                broken_views[index] = f"bytes {offset}..{offset + length} run past buffer {buffer}'s byteLength " \
                                      f"{buffer_length}"
            else:
                continue
        findings.append(Finding(pointer("bufferViews", index), f"buffer view {index}: {broken_views[index]}",
                                blender=READERS_FAIL))
    problems: dict[int, str] = {}
    for index, accessor in enumerate(_items(document, "accessors")):
        why = _accessor_problem(accessor, views, broken_views)
        if why is not None:
            problems[index] = why
            if not why.startswith("buffer view") or "does not exist" in why:
                findings.append(Finding(pointer("accessors", index), f"accessor {index}: {why}", blender=READERS_FAIL))
    return problems


def _accessor_problem(accessor: Any, views: list[Any], broken_views: dict[int, str]) -> str | None:
    if not isinstance(accessor, dict):
        return None
    view = accessor.get("bufferView")
    if view is None:
        return None  # all zeros (or sparse only): nothing to read
    if not _is_index(view, len(views)):
        return f"buffer view {view!r} does not exist"
    if view in broken_views:
        return f"buffer view {view} cannot be read"
    count, offset = accessor.get("count"), accessor.get("byteOffset", 0)
    size = COMPONENT_BYTES.get(accessor.get("componentType", 0), 0) * TYPE_COMPONENTS.get(accessor.get("type", ""), 0)
    view_json = views[view] if isinstance(views[view], dict) else {}
    stride, length = view_json.get("byteStride") or size, view_json.get("byteLength")
    if not (isinstance(count, int) and isinstance(offset, int) and isinstance(length, int) and size) or count <= 0:
        return None
    end = offset + stride * (count - 1) + size
    if end > length:
        return f"reads bytes {offset}..{end} of buffer view {view}, which has {length}"
    return None


def file_buffer_data(binary: bytes | None, read_file: Callable[[str], bytes | int]) -> BufferData:
    """BufferData for a file: a GLB's BIN chunk (the first buffer without a URI), data: URIs decoded as
    Blender's importer decodes them, other URIs through `read_file(uri)` (bytes or a size; OSError when
    missing)."""
    def data(index: int, buffer: Any) -> bytes | str | int | None:
        uri = buffer.get("uri") if isinstance(buffer, dict) else None
        if uri is None:
            return binary if index == 0 and binary is not None else None
        if not isinstance(uri, str):
            return None
        if uri.startswith("data:"):
            separator = uri.find(";base64,")
            if separator == -1:
                return None
            try:
                return base64.b64decode(uri[separator + len(";base64,"):])
            except (binascii.Error, ValueError) as error:
                return f"cannot be decoded: its data: URI is not valid base64 ({str(error).split(':')[0]})"
        try:
            return read_file(uri)
        except OSError as error:
            return f"cannot be read: {uri!r} ({error.strerror or error})"

    return data


# --- meshes and names ---------------------------------------------------------------------------------------

def _meshes(document: dict[str, Any], bad_accessors: dict[int, str]) -> Iterator[Finding]:
    accessors = _items(document, "accessors")
    for mesh_index, mesh in enumerate(_items(document, "meshes")):
        primitives = mesh.get("primitives") if isinstance(mesh, dict) else None
        for position, primitive in enumerate(primitives if isinstance(primitives, list) else []):
            if isinstance(primitive, dict):
                found = _primitive(primitive, accessors, bad_accessors, (mesh_index, position))
                if found is not None:
                    yield found


def _primitive(primitive: dict[str, Any], accessors: list[Any], bad_accessors: dict[int, str],
               where: tuple[int, int]) -> Finding | None:
    at = pointer("meshes", where[0], "primitives", where[1])
    drop = Repair("drop_primitive", where, done="primitive emptied")
    attributes = primitive.get("attributes")
    used = [*(attributes.values() if isinstance(attributes, dict) else ()), primitive.get("indices")]
    for accessor in used:
        if accessor is None:
            continue
        if not _is_index(accessor, len(accessors)):
            return Finding(at, f"primitive reads accessor {accessor!r}, which does not exist", drop)
        if accessor in bad_accessors:
            return Finding(at, f"primitive reads accessor {accessor}, which cannot be read", drop)
    mode = primitive.get("mode", 4)
    if mode not in MODE_NAMES:
        return Finding(at, f"primitive mode {mode!r} is not a glTF mode", drop)
    counted = primitive.get("indices")
    if counted is None:
        counted = attributes.get("POSITION") if isinstance(attributes, dict) else None
    count = accessors[counted].get("count") if counted is not None and isinstance(accessors[counted], dict) \
        else None
    if not isinstance(count, int):
        return None
    name = MODE_NAMES[mode]
    if mode in MIN_COUNT and count < MIN_COUNT[mode]:
        return Finding(at, f"{name} primitive with {count} indices (at least {MIN_COUNT[mode]} needed)", drop)
    whole = {4: 3, 1: 2}.get(mode, 1)
    if count % whole:
        usable = count - count % whole
        crash = mode == 4 and count < whole  # no whole triangle: Blender segfaults in mesh.validate()
        return Finding(at, f"{name} primitive with {count} indices, not a multiple of {whole}",
                       Repair("trim_primitive", where, usable, done=f"the last {count - usable} left out"),
                       blender="crashes on it" if crash else "fails on it" if mode == 1 else "",
                       severity="error" if crash or mode == 1 else "warning")
    return None


def _names(document: dict[str, Any]) -> Iterator[Finding]:
    """Names with lone surrogates (valid JSON escapes, not text): Blender cannot store them."""
    for array in NAMED_ARRAYS:
        items = _items(document, array)
        if _ascii_names(items):
            continue
        for index, item in enumerate(items):
            name = item.get("name") if isinstance(item, dict) else None
            if isinstance(name, str) and not name.isascii() and not _is_text(name):
                fixed = name.encode("utf-8", "replace").decode("utf-8")
                yield Finding(pointer(array, index, "name"), f"name {name!a} "
                                                             "holds a lone UTF-16 surrogate, which is not text",
                              Repair("rename", (array, index), fixed, done=f"renamed {fixed!r}"))


def _ascii_names(items: list[Any]) -> bool:
    """Whether every item is an object whose name, if any, is ASCII text: one test of all names together (a
    large file has many), made without a Python call per item; False whenever that cannot be told so."""
    try:
        return "".join(filter(None, map(dict.get, items, repeat("name")))).isascii()
    except TypeError:  # an item that is not an object, or a name that is not text: the long way
        return False


def _is_text(value: str) -> bool:
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
