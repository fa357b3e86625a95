"""Python's cyclic garbage collector paused while a hook builds many small objects, and kept off the
exporter's gathered document during its conversion passes (`freeze_gathered`).

The glTF importer and exporter hold a large heap (the parsed or gathered glTF) while our hooks run, and
every few hundred allocations the collector walks that whole heap again: measured, a sixth of the physics
import time and a third of the physics export time at 5000 objects. What the hooks make holds no
reference cycles, so nothing is lost; the collector catches up once it is back on.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """The collector off inside the block; back on after it only if it was on before (so nesting works)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


class _Frozen:
    """Whether `freeze_gathered` moved the heap into the permanent generation (and nobody else had)."""

    here = False


def freeze_gathered() -> None:
    """After the export's last gathering hook, the exporter converts the whole document to JSON twice and
    cleans it twice, a dict per value, and each full collection meanwhile walks every object alive: the
    gathered document and what the physics made. Moved to the permanent generation (`gc.freeze`), those
    objects are left out of the collections until `thaw`; the passes' own garbage is still collected. Only
    when nothing else froze objects (the permanent generation is shared)."""
    if not _Frozen.here and gc.get_freeze_count() == 0:
        gc.freeze()
        _Frozen.here = True


def thaw() -> None:
    """Give the collector back what `freeze_gathered` froze (after the export; before the next one, in case
    an export failed halfway)."""
    if _Frozen.here:
        _Frozen.here = False
        gc.unfreeze()
