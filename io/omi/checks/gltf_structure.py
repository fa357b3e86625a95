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

from collections.abc import Iterator, Sequence
from itertools import repeat
from typing import Any

from ..json_types import describe, pointer
from .gltf_buffers import accessor_problems, file_buffer_data
from .gltf_findings import FATAL, BufferData, Finding, Repair, array_items, is_index

__all__ = ["FATAL", "MAX_DEPTH", "MODE_NAMES", "NAMED_ARRAYS", "PLAIN_DEPTH", "BufferData", "Finding", "Repair",
           "check", "file_buffer_data", "node_tree"]

PLAIN_DEPTH = 900  # Blender's importer recurses once per level: unaided it stops near Python's limit (1000)
MAX_DEPTH = 100_000  # the deepest hierarchy the add-on lets Blender's importer and exporter recurse through
MODE_NAMES = {0: "POINTS", 1: "LINES", 2: "LINE_LOOP", 3: "LINE_STRIP", 4: "TRIANGLES", 5: "TRIANGLE_STRIP",
              6: "TRIANGLE_FAN"}
MIN_COUNT = {2: 1, 3: 2, 5: 2, 6: 2}  # fewer indices than this and Blender's importer raises
NAMED_ARRAYS = ("nodes", "meshes", "materials", "cameras", "scenes", "skins", "animations", "images", "textures",
                "samplers", "accessors", "bufferViews", "buffers")




def check(document: Any, buffer_data: BufferData | None = None) -> list[Finding]:
    """Every structural finding, in document order (hierarchy, scenes, buffers, meshes, names)."""
    if not isinstance(document, dict):
        return []
    findings = list(_hierarchy(document))
    findings += _scenes(document)
    bad_accessors = accessor_problems(document, buffer_data, findings)
    findings += _meshes(document, bad_accessors)
    findings += _skins(document)
    findings += _names(document)
    return findings


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
            if ((type(child) is int and 0 <= child < count) or is_index(child, count)) and child != index \
                    and child not in link_at:  # (the exact type first: files have many links)
                link_at[child] = (index, position)
                continue
            at = pointer("nodes", index, "children", position)  # made for findings only: files have many links
            drop = Repair("drop_child", (index, position), done="link ignored")
            if not is_index(child, count):
                findings.append(Finding(at, f"child {describe(child)} is not a node index",
                                        Repair("drop_child", (index, position), done="ignored")))
            elif child == index:
                findings.append(Finding(at, f"node {index} lists itself as a child", drop))
            else:
                findings.append(Finding(at, f"node {child} already has a parent", drop))
    findings += _cycles(link_at)
    return link_at, findings


def _hierarchy(document: dict[str, Any]) -> Iterator[Finding]:
    nodes = array_items(document, "nodes")
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
    count = len(array_items(document, "nodes"))
    for index, scene in enumerate(array_items(document, "scenes")):
        roots = scene.get("nodes") if isinstance(scene, dict) else None
        for position, node in enumerate(roots if isinstance(roots, list) else []):
            if not is_index(node, count):
                yield Finding(pointer("scenes", index, "nodes", position), f"scene node {node!r} does not exist",
                              Repair("drop_scene_node", (index, position), done="left out of the scene"))
    mesh_count = len(array_items(document, "meshes"))
    for index, node in enumerate(array_items(document, "nodes")):
        mesh = node.get("mesh") if isinstance(node, dict) else None
        if mesh is not None and not is_index(mesh, mesh_count):
            yield Finding(pointer("nodes", index, "mesh"), f"mesh {mesh!r} does not exist",
                          Repair("drop_mesh", (index,), done="the node is imported without a mesh"))


# --- meshes and names ---------------------------------------------------------------------------------------

def _meshes(document: dict[str, Any], bad_accessors: dict[int, str]) -> Iterator[Finding]:
    accessors = array_items(document, "accessors")
    for mesh_index, mesh in enumerate(array_items(document, "meshes")):
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
        if not is_index(accessor, len(accessors)):
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


def _skins(document: dict[str, Any]) -> Iterator[Finding]:
    """Skin joints that are no node index (Blender's importer makes bones of every skin's joints, used or not,
    and fails on those with a KeyError naming no place), or a node given twice (which glTF forbids)."""
    count = len(array_items(document, "nodes"))
    for index, skin in enumerate(array_items(document, "skins")):
        joints = skin.get("joints") if isinstance(skin, dict) else None
        seen: set[int] = set()
        for position, joint in enumerate(joints if isinstance(joints, list) else ()):
            at = pointer("skins", index, "joints", position)
            if not is_index(joint, count):
                yield Finding(at, f"joint {describe(joint)} is not a node index", blender=FATAL)
            elif joint in seen:
                yield Finding(at, f"node {joint} is a joint of this skin twice (glTF wants each once)", blender="")
            else:
                seen.add(joint)


def _names(document: dict[str, Any]) -> Iterator[Finding]:
    """Names with lone surrogates (valid JSON escapes, not text): Blender cannot store them."""
    for array in NAMED_ARRAYS:
        named = array_items(document, array)
        if _ascii_names(named):
            continue
        for index, item in enumerate(named):
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
