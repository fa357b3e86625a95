"""Outputs of the rewriting commands (`upgrade`, `convert`): their folder, and the files a .gltf refers to.

A .gltf written into another folder than its input's must still find its buffers and images: each file the
document names by a relative URI is copied next to the output, at the same relative place, unless the very
same bytes are there already. A different file of that name there is an error (nothing is overwritten that
the user did not name), and so is a resource missing next to the input: the output would not work. A URI
naming a file outside the input's folder is refused (even with --force): a hostile file must not make the
tool read or write anywhere else.
A missing output folder is created, for every command (`--out` and `--out-dir` alike).

No bpy here.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from .. import gltf_file
from .results import Result, issue

Copies = list[tuple[Path, Path]]
REFUSED = "uris"  # the source of the findings that stop a file being written even with --force


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


def outside_uris(document: Any, source: Path) -> list[dict[str, str]]:
    """An error at each URI that names a file outside the input's folder ('..', an absolute path, a symbolic
    link leading out): the rewriting commands refuse the file even when forced, and read nothing there."""
    return [issue("error", resource.pointer, gltf_file.outside_message(resource, reason), REFUSED)
            for resource, reason in gltf_file.outside_resources(document, Path(source).absolute().parent)]


def resource_copies(document: Any, source: Path, target: Path) -> tuple[Copies, list[dict[str, str]]]:
    """(the copies that make the output complete, errors that stop it being written). Nothing outside the
    input's folder is read and nothing outside the output's folder is written."""
    problems = outside_uris(document, source)
    source_folder = Path(source).absolute().parent
    target_folder = gltf_file.written_path(target).absolute().parent
    if source_folder.resolve() == target_folder.resolve():
        return [], problems
    refused = {item["pointer"] for item in problems}
    copies: Copies = []
    seen: set[str] = set()
    for resource in gltf_file.resources(document):
        if resource.pointer in refused or resource.path in seen:
            continue
        seen.add(resource.path)
        origin, destination = source_folder / resource.path, target_folder / resource.path
        if gltf_file.outside_folder(resource.path, target_folder) is not None:
            problems.append(issue("error", resource.pointer, f"refers to {resource.uri!r}, whose copy next to the "
                                  "output would land outside the output's folder (a symbolic link there): refused",
                                  REFUSED))
        elif not origin.is_file():
            problems.append(issue("error", resource.pointer, f"refers to {resource.uri!r}, which is not next to the "
                                  "input either: the output would miss it", "resources"))
        elif destination.exists() and not _same_bytes(origin, destination):
            problems.append(issue("error", resource.pointer, f"refers to {resource.uri!r}; a different file of that "
                                  "name is next to the output already (not overwritten)", "resources"))
        elif not destination.exists():
            copies.append((origin, destination))
    return copies, problems


def refused(result: Result) -> bool:
    """The result names a file outside the chosen folders: not written, even when forced."""
    return any(item["source"] == REFUSED for item in result["issues"])


def _same_bytes(first: Path, second: Path) -> bool:
    try:
        return first.read_bytes() == second.read_bytes()
    except OSError:
        return False


def copy_resources(copies: Copies) -> tuple[list[Path], str | None]:
    """Copy each resource (making its folder), each under a temporary name renamed into place when complete:
    (the files made, None) or, after removing them, ([], why one could not be copied). Interrupted, it
    removes what it made."""
    made: list[Path] = []
    try:
        for origin, destination in copies:
            problem = output_folder(destination)
            if problem is not None:
                remove(made)
                return [], problem
            try:
                _copy_file(origin, destination)
            except OSError as error:
                remove(made)
                return [], f"cannot copy {origin} to {destination}: {error.strerror or error}"
            made.append(destination)
    except BaseException:
        remove(made)
        raise
    return made, None


def remove(paths: list[Path]) -> None:
    """Remove files this run made (an output that could not be completed)."""
    for path in paths:
        with contextlib.suppress(OSError):
            path.unlink()


def _copy_file(origin: Path, destination: Path) -> None:
    handle, temporary = tempfile.mkstemp(prefix=f".{destination.name}.", dir=destination.parent)
    try:
        with os.fdopen(handle, "wb") as stream, open(origin, "rb") as source:
            shutil.copyfileobj(source, stream, 1 << 20)
        os.chmod(temporary, origin.stat().st_mode & 0o777)
        os.replace(temporary, destination)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def copy_unchanged(source: Path, target: Path) -> None:
    """The input's bytes as the output, atomically (a reader sees the old file or the new one), through a
    symbolic link the output is."""
    data = source.read_bytes()
    target = gltf_file.written_path(target)
    handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
        os.chmod(temporary, source.stat().st_mode & 0o7777)
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


class Staged:
    """An output written with the files it brings (a .gltf's .bin and textures) in a hidden folder beside it,
    moved into place by `commit` (the named file last, so a reader never finds it without its files)."""

    def __init__(self, target: Path) -> None:
        self.final = gltf_file.written_path(target)
        self.folder = Path(tempfile.mkdtemp(prefix=f".{self.final.name}.", dir=self.final.parent))
        self.path = self.folder / self.final.name

    def commit(self) -> None:
        made = sorted((path for path in self.folder.rglob("*") if path.is_file()), key=lambda path: path == self.path)
        for path in made:
            destination = self.final.parent / path.relative_to(self.folder)
            destination.parent.mkdir(parents=True, exist_ok=True)
            os.replace(path, destination)


@contextlib.contextmanager
def staged(target: Path) -> Iterator[Staged]:
    """A Staged output; whatever was not committed (a failed or interrupted write) is removed at the end."""
    stage = Staged(target)
    try:
        yield stage
    finally:
        shutil.rmtree(stage.folder, ignore_errors=True)
