"""Outputs of the rewriting commands (`upgrade`, `convert`): their folder, and the files a .gltf refers to.

A .gltf written into another folder than its input's must still find its buffers and images: each file the
document names by a relative URI is copied next to the output, at the same relative place, unless the very
same bytes are there already. A different file of that name there is an error (nothing is overwritten that
the user did not name), and so is a resource missing next to the input: the output would not work.
A missing output folder is created, for every command (`--out` and `--out-dir` alike).

No bpy here.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from .. import gltf_file
from .results import issue

Copies = list[tuple[Path, Path]]


def output_folder(target: str | os.PathLike[str]) -> str | None:
    """Create the folder an output file goes into; None when it exists now, else why it cannot be made."""
    folder = Path(target).parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        return f"cannot create the folder {folder}: a file of that name is in the way"
    except NotADirectoryError:
        return f"cannot create the folder {folder}: a part of its path is a file"
    except OSError as error:
        return f"cannot create the folder {folder}: {error.strerror or error}"
    return None


def resource_copies(document: Any, source: Path, target: Path) -> tuple[Copies, list[dict[str, str]]]:
    """(the copies that make the output complete, errors that stop it being written)."""
    if source.resolve().parent == target.resolve().parent:
        return [], []
    copies: Copies = []
    problems: list[dict[str, str]] = []
    for uri in gltf_file.relative_uris(document):
        name = unquote(uri)
        origin, destination = source.parent / name, target.parent / name
        if not origin.is_file():
            problems.append(issue("error", "", f"refers to {uri!r}, which is not next to the input either: the "
                                               "output would miss it", "resources"))
        elif destination.exists() and not _same_bytes(origin, destination):
            problems.append(issue("error", "", f"refers to {uri!r}; a different file of that name is next to the "
                                               "output already (not overwritten)", "resources"))
        elif not destination.exists():
            copies.append((origin, destination))
    return copies, problems


def _same_bytes(first: Path, second: Path) -> bool:
    try:
        return first.read_bytes() == second.read_bytes()
    except OSError:
        return False


def copy_resources(copies: Copies) -> str | None:
    """Copy each resource (making its folder); None, or why one could not be copied."""
    for origin, destination in copies:
        problem = output_folder(destination)
        if problem is not None:
            return problem
        try:
            shutil.copyfile(origin, destination)
        except OSError as error:
            return f"cannot copy {origin} to {destination}: {error.strerror or error}"
    return None


def copy_unchanged(source: Path, target: Path) -> None:
    """The input's bytes as the output, atomically (a reader sees the old file or the new one)."""
    data = source.read_bytes()
    handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
        os.chmod(temporary, source.stat().st_mode & 0o7777)
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
