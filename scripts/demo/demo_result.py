"""What one run of the demo found: the files it wrote and checked, the import, the measurements, the second
engine's runs. Filled by demo.py, read by demo_summary.py and demo_frames.py (neither imports demo.py)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import demo_engine
import demo_measure as measure


@dataclass
class ExportCheck:
    """One exported file and what the checks found in it."""

    path: Path
    gltf: dict
    schema_errors: list[str] | None  # None: jsonschema is not installed, only the rules ran
    reader_issues: list[str]


@dataclass
class DemoResult:
    out_dir: Path
    timings: dict[str, float] = field(default_factory=dict)
    problems: list[tuple[str, str, str]] = field(default_factory=list)  # the Validate operator's list
    exports: list[ExportCheck] = field(default_factory=list)
    export_messages: list[str] = field(default_factory=list)
    same_physics: list[str] = field(default_factory=list)  # differences between the .glb, the .gltf and the KHR .glb
    import_messages: list[str] = field(default_factory=list)
    blender: dict[str, int] = field(default_factory=dict)  # what the import built in Blender
    generated: dict[str, str] = field(default_factory=dict)  # objects the rigid-body build made: name -> what
    recording: measure.Recording | None = None
    measurements: measure.Measurements = field(default_factory=measure.Measurements)
    engine_runs: list[demo_engine.EngineRun] = field(default_factory=list)  # the second engine, per .glb
    sheet: Path | None = None
    summary: Path | None = None

    @property
    def passed(self) -> bool:
        files_ok = all(not check.schema_errors and not check.reader_issues for check in self.exports)
        return files_ok and not self.same_physics and all(check.passed for check in self.measurements.checks)
