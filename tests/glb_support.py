"""GLB files made by hand for the tests of either environment (bpy or the pure core)."""

from __future__ import annotations

import json
import struct


def glb_bytes(document: dict, binary: bytes | None = None, extra_chunks: tuple[tuple[bytes, bytes], ...] = ()) -> bytes:
    """A GLB made by hand (JSON chunk padded with spaces, BIN with zeros), independent of the code under test."""
    payload = json.dumps(document).encode("utf-8")
    payload += b" " * (-len(payload) % 4)
    chunks = [(b"JSON", payload)]
    if binary is not None:
        chunks.append((b"BIN\x00", binary + b"\x00" * (-len(binary) % 4)))
    chunks += list(extra_chunks)
    body = b"".join(struct.pack("<I4s", len(data), kind) + data for kind, data in chunks)
    return struct.pack("<4sII", b"glTF", 2, 12 + len(body)) + body
