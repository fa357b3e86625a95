"""Read and write .gltf / .glb files so that only the JSON changes.

A tool that rewrites a file's OMI content (the command-line `upgrade`) must leave everything else as it was:
a GLB's binary chunk and any other chunk are kept byte for byte, in their order, and a .gltf keeps its
layout (indentation, ASCII escaping, final newline) as far as `json.dumps` can reproduce it. The kind of
file is decided by its first bytes (the GLB magic), not by its name.

No bpy here: the command-line validator runs without Blender.
"""

from __future__ import annotations

import codecs
import json
import os
import posixpath
import re
import struct
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from .json_types import escape_token

GLB_MAGIC = b"glTF"
GLB_VERSION = 2
JSON_CHUNK = b"JSON"
BIN_CHUNK = b"BIN\x00"
_HEADER = struct.Struct("<4sII")  # magic, version, total length
_CHUNK_HEADER = struct.Struct("<I4s")  # length, type
_JSON_KINDS = {list: "an array", type(None): "null", str: "a string", int: "a number", float: "a number",
               bool: "a boolean"}
_DRIVE = re.compile(r"[A-Za-z]:")  # an absolute path on Windows, where Blender also runs


class GltfFileError(ValueError):
    """The bytes are not a readable glTF file (truncated GLB, bad chunk layout, invalid JSON or UTF-8)."""


@dataclass(frozen=True)
class TextLayout:
    """How a .gltf file's JSON text was laid out, to write it back alike."""

    indent: str | None = None  # None: all on one line
    ensure_ascii: bool = True
    final_newline: bool = False


@dataclass(frozen=True)
class GltfFile:
    """A parsed glTF file: its JSON document and, for a GLB, every chunk after the JSON chunk, untouched."""

    document: Any
    is_glb: bool
    chunks: tuple[tuple[bytes, bytes], ...] = ()  # (chunk type, chunk data as stored, padding included)
    layout: TextLayout = TextLayout()
    byte_order_mark: bool = False  # the JSON starts with a UTF-8 BOM: read here, refused by Blender's importer
    duplicate_keys: tuple[str, ...] = ()  # JSON pointers of objects that name a key twice (the last one is read)

    @property
    def binary(self) -> bytes | None:
        """The GLB binary chunk (BIN), or None."""
        for chunk_type, data in self.chunks:
            if chunk_type == BIN_CHUNK:
                return data
        return None


def read(path: str | os.PathLike[str]) -> GltfFile:
    """Parse a .gltf or .glb file. OSError for an unreadable file, GltfFileError for bad content."""
    return parse(Path(path).read_bytes())


def parse(data: bytes) -> GltfFile:
    if data[:4] == GLB_MAGIC:
        return _parse_glb(data)
    document, duplicates = _parse_json(data, "file")
    return GltfFile(document, is_glb=False, layout=_layout(data), byte_order_mark=data.startswith(codecs.BOM_UTF8),
                    duplicate_keys=duplicates)


def _parse_json(data: bytes, what: str) -> tuple[Any, tuple[str, ...]]:
    """The document, and the pointers of objects with a duplicate key."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise GltfFileError(f"the {what} is not UTF-8 text ({error.reason} at byte {error.start})") from None
    repeated: dict[int, str] = {}  # id of an object -> its first repeated key

    def pairs_hook(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        result = dict(pairs)
        if len(result) != len(pairs):
            seen: set[str] = set()
            repeated[id(result)] = next(key for key, _value in pairs if key in seen or seen.add(key))  # type: ignore[func-returns-value]  # add's None lets `or` go on
        return result

    try:
        try:
            document = json.loads(text, object_pairs_hook=pairs_hook)
        except json.JSONDecodeError:
            raise
        except ValueError:  # an integer too long for int(): read again, those as floats (no cost otherwise)
            repeated.clear()
            document = json.loads(text, object_pairs_hook=pairs_hook, parse_int=_number)
    except json.JSONDecodeError as error:
        raise GltfFileError(f"the {what} is not valid JSON: {error.msg} (line {error.lineno}, column "
                            f"{error.colno})") from None
    except RecursionError:
        raise GltfFileError(f"the {what} nests JSON too deeply to read") from None
    if not isinstance(document, dict):
        raise GltfFileError(f"the {what} holds {_JSON_KINDS.get(type(document), 'a value')}, not a glTF object")
    return document, _pointers_of(document, repeated) if repeated else ()


def _number(text: str) -> int | float:
    """A JSON integer; one too long for int() (over 4,300 digits: Python refuses it) is read as a float, as
    every glTF reader holds numbers, so the value checks name it instead of a ValueError."""
    return int(text) if len(text) <= 4000 else float(text)


def duplicate_keys_of(data: bytes) -> tuple[str, ...]:
    """The pointers of objects that give a key twice in a .gltf or .glb file's JSON (`GltfFile.duplicate_keys`),
    found cheaply for the importer, whose own JSON reader keeps the last silently: a first pass keeps no object
    (measured: a quarter of a plain parse's time on 100,000 nodes, and no memory), and only a file that has a
    repeated key is parsed again for the pointers. () for content that does not parse (other checks say why)."""
    text = data
    if data[:4] == GLB_MAGIC:
        if len(data) < _HEADER.size + _CHUNK_HEADER.size:
            return ()
        chunk_length, chunk_type = _CHUNK_HEADER.unpack_from(data, _HEADER.size)
        start = _HEADER.size + _CHUNK_HEADER.size
        text = data[start:start + chunk_length] if chunk_type == JSON_CHUNK else b""
    repeated = False

    def pairs_hook(pairs: list[tuple[str, Any]]) -> None:
        nonlocal repeated
        if len(pairs) > 1 and len(dict(pairs)) != len(pairs):  # dict(): no Python loop per object
            repeated = True

    try:
        json.loads(text.decode("utf-8-sig"), object_pairs_hook=pairs_hook)
    except (ValueError, RecursionError):
        return ()
    if not repeated:
        return ()
    try:
        return parse(data).duplicate_keys
    except GltfFileError:
        return ()


def _parse_glb(data: bytes) -> GltfFile:
    if len(data) < _HEADER.size + _CHUNK_HEADER.size:
        raise GltfFileError(f"GLB too short ({len(data)} bytes) for its header and JSON chunk")
    _magic, version, length = _HEADER.unpack_from(data, 0)
    if version != GLB_VERSION:
        raise GltfFileError(f"GLB version {version} is not supported (only {GLB_VERSION})")
    if length != len(data):
        raise GltfFileError(f"GLB header says {length} bytes but the file has {len(data)}")
    chunks: list[tuple[bytes, bytes]] = []
    offset = _HEADER.size
    while offset < length:
        if offset + _CHUNK_HEADER.size > length:
            raise GltfFileError(f"GLB chunk header at byte {offset} is truncated")
        chunk_length, chunk_type = _CHUNK_HEADER.unpack_from(data, offset)
        start = offset + _CHUNK_HEADER.size
        if start + chunk_length > length:
            raise GltfFileError(f"GLB chunk {len(chunks)} ({chunk_type!r}) runs past the end of the file")
        chunks.append((chunk_type, data[start:start + chunk_length]))
        offset = start + chunk_length
    if chunks[0][0] != JSON_CHUNK:
        raise GltfFileError(f"the first GLB chunk is {chunks[0][0]!r}, not JSON")
    document, duplicates = _parse_json(chunks[0][1], "GLB JSON chunk")
    return GltfFile(document, is_glb=True, chunks=tuple(chunks[1:]),
                    byte_order_mark=chunks[0][1].startswith(codecs.BOM_UTF8), duplicate_keys=duplicates)


def _pointers_of(document: Any, repeated: dict[int, str]) -> tuple[str, ...]:
    """Where the objects with a repeated key sit (their key appended), in document order."""
    found: list[str] = []
    stack: list[tuple[str, Any]] = [("", document)]
    while stack:
        at, value = stack.pop()
        if isinstance(value, dict):
            if id(value) in repeated:
                found.append(f"{at}/{escape_token(repeated[id(value)])}")
            stack.extend((f"{at}/{escape_token(key)}", item) for key, item in reversed(value.items()))
        elif isinstance(value, list):
            stack.extend((f"{at}/{position}", item) for position, item in reversed(list(enumerate(value))))
    return tuple(found)




def _layout(data: bytes) -> TextLayout:
    """The indentation unit is the leading whitespace of the first indented line (top-level keys)."""
    indent = None
    newline = data.find(b"\n")
    while newline != -1:
        line_start = newline + 1
        stripped = data[line_start:].lstrip(b" \t")
        width = len(data) - line_start - len(stripped)
        if width and stripped[:1] not in (b"\n", b"\r", b""):
            indent = data[line_start:line_start + width].decode("ascii")
            break
        newline = data.find(b"\n", line_start)
    if indent is None and b"\n" in data.rstrip():
        indent = ""  # one value per line, no indentation
    return TextLayout(indent, ensure_ascii=data.isascii(), final_newline=data.endswith(b"\n"))


def dumps(file: GltfFile, document: Any = None) -> bytes:
    """The bytes of `file` with `document` (default: its own) as JSON; every other byte as it was read."""
    return b"".join(_pieces(file, document))


def _pieces(file: GltfFile, document: Any) -> list[bytes]:
    """The file's bytes in pieces that refer to its chunks (not copied), to write one after the other."""
    document = file.document if document is None else document
    if not file.is_glb:
        layout = file.layout
        text = json.dumps(document, indent=layout.indent, ensure_ascii=layout.ensure_ascii, allow_nan=False)
        return [(text + ("\n" if layout.final_newline else "")).encode("utf-8")]
    payload = json.dumps(document, separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode("utf-8")
    payload += b" " * (-len(payload) % 4)  # JSON chunk padding is spaces (glTF 2.0, GLB format)
    parts = [_CHUNK_HEADER.pack(len(payload), JSON_CHUNK), payload]
    for chunk_type, data in file.chunks:
        parts += [_CHUNK_HEADER.pack(len(data), chunk_type), data]
    return [_HEADER.pack(GLB_MAGIC, GLB_VERSION, _HEADER.size + sum(map(len, parts))), *parts]


def write(path: str | os.PathLike[str], file: GltfFile, document: Any = None) -> None:
    """Write atomically: a reader of `path` sees the old file or the new one, never half of it. The pieces are
    written one by one, so a large GLB is not copied again in memory."""
    target = written_path(path)
    pieces = _pieces(file, document)
    mode = target.stat().st_mode & 0o7777 if target.exists() else _default_mode()
    handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
    try:
        with os.fdopen(handle, "wb") as stream:
            for piece in pieces:
                stream.write(piece)
        os.chmod(temporary, mode)  # mkstemp makes the file private; keep the old file's (or the usual) mode
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def written_path(path: str | os.PathLike[str]) -> Path:
    """Where writing `path` puts the bytes: through a symbolic link to the file it names (replacing the link
    by a regular file would leave that file as it was), else the path itself."""
    return Path(os.path.realpath(path)) if os.path.islink(path) else Path(path)


def _default_mode() -> int:
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


@dataclass(frozen=True)
class Resource:
    """A file a glTF names by a URI (a buffer's or an image's), under the name Blender's importer opens."""

    pointer: str  # the URI's JSON pointer, e.g. /images/0/uri
    uri: str
    path: str  # the URI as a path: '\\' read as '/', percent-decoded, normalised (io_scene_gltf2's uri_to_path)


def resources(document: Any) -> list[Resource]:
    """The buffer and image URIs that name files (not data: URIs, not absolute URLs), in document order."""
    found: list[Resource] = []
    if not isinstance(document, dict):
        return found
    for key in ("buffers", "images"):
        items = document.get(key)
        for index, item in enumerate(items if isinstance(items, list) else ()):
            uri = item.get("uri") if isinstance(item, dict) else None
            if isinstance(uri, str) and uri and not uri.startswith("data:") and "://" not in uri:
                found.append(Resource(f"/{key}/{index}/uri", uri, uri_path(uri)))
    return found


def uri_path(uri: str) -> str:
    """The relative path a URI names, decoded as Blender's importer decodes it (so a check sees what it opens)."""
    return posixpath.normpath(unquote(uri.replace("\\", "/")))


def outside_folder(path: str, folder: str | os.PathLike[str]) -> str | None:
    """Why the decoded URI path names a file outside `folder` (after '..' and symbolic links), or None."""
    if "\x00" in path:
        return "it holds a NUL character"
    lexical = posixpath.normpath(path.replace("\\", "/"))  # as Windows reads it too: '%5C' is a separator there
    if lexical.startswith("/") or _DRIVE.match(lexical):
        return "an absolute path"
    if lexical == ".." or lexical.startswith("../"):
        return "it climbs out with '..'"
    base = Path(folder).absolute()
    try:
        inside = (base / path).resolve().is_relative_to(base.resolve())
    except (OSError, RuntimeError):  # a loop of symbolic links
        return "a loop of symbolic links"
    return None if inside else "a symbolic link leads out of it"


def outside_resources(document: Any, folder: str | os.PathLike[str]) -> list[tuple[Resource, str]]:
    """(resource, why) for each URI that names a file outside the glTF's folder."""
    found = []
    for resource in resources(document):
        reason = outside_folder(resource.path, folder)
        if reason is not None:
            found.append((resource, reason))
    return found


def outside_message(resource: Resource, reason: str) -> str:
    """What the command line says of a URI outside the glTF's folder (it reads and writes nothing there)."""
    return f"{resource.uri!r} names a file outside the glTF's folder ({reason}): refused, nothing is read from " \
           "or copied out of there"
