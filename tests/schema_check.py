"""Test utility: validate the OMI content of a glTF document against the OMI JSON schemas.

A thin wrapper over the add-on's pure `io/omi/checks/schema.py` (which applies ERRATA's schema fixes in memory)
and `io/omi/gltf_file.py`, loaded without Blender the way the command-line tool loads them. Strict for
exports: every schema finding counts, also the ERRATA forms an importer tolerates (reported as warnings by
the tool).
"""

from __future__ import annotations

import sys
import warnings
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parent.parent
if str(REPO_ROOT / "scripts") not in sys.path:
    sys.path.insert(0, str(REPO_ROOT / "scripts"))  # never the repo root itself: io/ would shadow io

import omi_physics_cli  # noqa: E402

omi_physics_cli.core("gltf_file")  # `omi_core` by path, unless the tests made it the add-on's (omi_core_loader)
from omi_core import gltf_file  # noqa: E402
from omi_core.checks import schema  # noqa: E402

# The spec folder with its examples: the tests' copy (tests/data/README.md). The add-on itself carries only
# the schemas, io/omi/schemas, which is what the checks use unless $OMI_SPEC_DIR names another folder.
SPEC_DIR = REPO_ROOT / "tests" / "data" / "omi-spec"


def schemas_available() -> bool:
    """True when the spec folder with its schemas is found and jsonschema is installed."""
    return schema.unavailable_reason() is None


def omi_schema_errors(gltf: Any, *, allow_legacy: bool = False) -> list[str]:
    """Every schema violation of the OMI objects in `gltf` as "pointer: message" (empty list: valid current
    revision).

    Also checks that the document is strict JSON (no NaN/Infinity), that the OMI extensions used are
    listed in extensionsUsed, and, unless `allow_legacy`, that no legacy form (OMI_collider, node-level
    OMI_physics_shape, body `type`) is left. Without the schemas ($OMI_SPEC_DIR naming a folder without
    them) or jsonschema, only those checks run, and a SchemasNotChecked warning in pytest's summary says so.
    """
    reason = schema.unavailable_reason()
    if reason is not None:
        warnings.warn(SchemasNotChecked(f"OMI schemas not checked, only strict JSON, extensionsUsed and legacy "
                                        f"forms: {reason}"), stacklevel=2)
    return [str(issue) for issue in schema.schema_errors(gltf, allow_legacy=allow_legacy)]


class SchemasNotChecked(UserWarning):
    """omi_schema_errors ran without the OMI schemas."""


def load_gltf(path: str | Path) -> dict[str, Any]:
    """The JSON of a .gltf file, or of the JSON chunk of a .glb file."""
    return gltf_file.read(path).document
