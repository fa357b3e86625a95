"""Buffers and accessors of a glTF document, as Blender's importer reads them: buffer data (GLB BIN chunk, data:
URIs, files next to the glTF) against `byteLength`, views and accessors against their buffers.

Part of the structure check (`gltf_structure.check`); the findings' vocabulary is `gltf_findings`.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Callable
from typing import Any

from ..json_types import pointer
from .gltf_findings import READERS_FAIL, BufferData, Finding, array_items, is_index

COMPONENT_BYTES = {5120: 1, 5121: 1, 5122: 2, 5123: 2, 5125: 4, 5126: 4}
TYPE_COMPONENTS = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4, "MAT2": 4, "MAT3": 9, "MAT4": 16}


def _buffer_problems(document: dict[str, Any], buffer_data: BufferData | None) -> dict[int, str]:
    """buffer index -> why its data cannot serve its byteLength (findings made by the caller)."""
    problems: dict[int, str] = {}
    if buffer_data is None:
        return problems
    for index, buffer in enumerate(array_items(document, "buffers")):
        length = buffer.get("byteLength") if isinstance(buffer, dict) else None
        data = buffer_data(index, buffer)
        if isinstance(data, str):
            problems[index] = data
        elif data is not None and isinstance(length, int):
            size = data if isinstance(data, int) else len(data)
            if size < length:
                problems[index] = f"holds {size} bytes, fewer than its byteLength {length}"
    return problems


def accessor_problems(document: dict[str, Any], buffer_data: BufferData | None,
                       findings: list[Finding]) -> dict[int, str]:
    """accessor index -> why it cannot be read; the findings about buffers, views and accessors appended."""
    buffers, views = array_items(document, "buffers"), array_items(document, "bufferViews")
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
        if not is_index(buffer, len(buffers)):
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
    for index, accessor in enumerate(array_items(document, "accessors")):
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
    if not is_index(view, len(views)):
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


def file_buffer_data(binary: bytes | None, read_file: Callable[[str], bytes | int | None]) -> BufferData:
    """BufferData for a file: a GLB's BIN chunk (the first buffer without a URI), data: URIs decoded as
    Blender's importer decodes them, other URIs through `read_file(uri)` (bytes or a size; None for a file
    not to be read, whose finding is made elsewhere; OSError when missing)."""
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
