"""The `docgen` console script: the cyclic collector off from the first import to the exit, and the opt-in
verdict cache of `docgen check` (docgen/shell/verdicts.py) consulted before anything else is imported.

`cli._collector_paused` keeps the collector off while a sub-command runs; importing docgen's modules and
their libraries before that (griffe, PyYAML, Jinja: most of a short check) allocates many objects that live
until the exit, which the collector would only scan again and again (about 2% of a check of this
repository). Only the console script does this: a program that imports `docgen.shell.cli` keeps its own
collector settings. `docgen probe`, which ends the usual way, runs its command with the collector paused
as every command does; the interpreter's own teardown still collects.
"""

from __future__ import annotations

import gc
import os
import sys

gc.disable()


def run() -> None:
    """`docgen`: answered from the verdict cache when it holds this very run, else run as usual."""
    folder = os.environ.get("DOCGEN_VERDICTS")
    if folder:
        _with_verdicts(folder)
    from docgen.shell.cli import run as run_command  # noqa: PLC0415  (after the cache, whose hit needs none)

    run_command()


def _with_verdicts(folder: str) -> None:
    """Exit with the recorded verdict on a hit; on a miss in a trusted run, run and record, then exit."""
    from pathlib import Path  # noqa: PLC0415

    from docgen.shell import verdicts  # noqa: PLC0415  (the standard library only)

    argv, kept = sys.argv[1:], Path(folder)
    config, hashes = verdicts.config_of(argv), verdicts.FileHashes.load(kept)
    run_key = verdicts.key(argv, config, hashes) if config is not None else None
    if config is None or run_key is None:
        return
    found = verdicts.lookup(kept, run_key)
    if found is not None:
        sys.stdout.buffer.write(found[1])
        sys.stderr.buffer.write(found[2])
        _exit(found[0])
    if os.environ.get(verdicts.RECORD) == "1":
        code, out, err = _captured(argv)
        if verdicts.key(argv, config, hashes) == run_key:  # nothing changed while it ran
            verdicts.record(kept, run_key, code, out, err)
            hashes.save(kept)
        _exit(code)


def _captured(argv: list[str]) -> tuple[int, str, str]:
    """Run the command, its output shown as usual and kept."""
    from docgen.shell.cli import main  # noqa: PLC0415

    out, err = _Tee(sys.stdout), _Tee(sys.stderr)
    sys.stdout, sys.stderr = out, err
    try:
        code = main(argv)
    finally:
        sys.stdout, sys.stderr = out.stream, err.stream
    return code, "".join(out.kept), "".join(err.kept)


class _Tee:
    """A text stream that writes through to `stream` and keeps what it wrote."""

    def __init__(self, stream: object) -> None:
        self.stream = stream
        self.kept: list[str] = []

    def write(self, text: str) -> int:
        self.kept.append(text)
        return self.stream.write(text)  # type: ignore[attr-defined,no-any-return]

    def __getattr__(self, name: str) -> object:
        return getattr(self.stream, name)


def _exit(code: int) -> None:
    """End as the console command ends a run (flushed, without the interpreter's teardown)."""
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except OSError:
        code = code or 1
    os._exit(code)
