"""The command line run in the test's own process, one file at a time and quietly, as the tests call it."""

from __future__ import annotations

import argparse

from omi_core.cli import commands


def run(*argv: object) -> int:
    """The exit status of `omi-physics <argv> --jobs 1 --no-progress`."""
    parser = argparse.ArgumentParser()
    commands.add_commands(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args([*map(str, argv), "--jobs", "1", "--no-progress"])
    return int(args.run(args))
