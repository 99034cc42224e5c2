"""How `docgen check` grows with orphaned notes: notes for entry ids the catalog no longer has.

    .venv/bin/python -m benchmarks.orphans 5000 20000

copies this repository's project files into a scratch folder, adds N orphaned entries to the errors notes,
and times `docgen check` (one process per run, the median of three, or one with --once; exit 1, as each
orphan is a finding).
The figures are recorded by hand in benchmarks/notes.md; this is not part of `make bench`.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.helpers import copy_project

REPO = Path(__file__).resolve().parent.parent
NOTES = "data/mcp-errors.notes.yaml"


def orphaned_notes(count: int) -> str:
    """`count` entries whose ids no catalog entry has, each with a cause and an action."""
    return "".join(f"  retired-{n:05d}:\n    cause: Gone.\n    action: Nothing.\n" for n in range(count))


def time_check(root: Path, rounds: int = 3) -> float:
    command = [sys.executable, "-m", "docgen.shell.cli", "-f", str(root / "mkdocs.yml"), "check"]
    timings = []
    for _ in range(rounds):
        started = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        timings.append(time.perf_counter() - started)
        if done.returncode != 1 or "no longer in the catalog" not in done.stdout:
            raise SystemExit(f"unexpected result (exit {done.returncode}): {done.stderr[-400:]}")
    return statistics.median(timings)


def main(argv: Sequence[str]) -> None:
    rounds = 1 if "--once" in argv else 3
    counts = [int(arg) for arg in argv if arg != "--once"] or [5000, 20000]
    with tempfile.TemporaryDirectory() as scratch:
        for count in counts:
            root = copy_project(REPO, Path(scratch) / str(count))
            with (root / NOTES).open("a", encoding="utf-8") as stream:
                stream.write(orphaned_notes(count))
            seconds = time_check(root, rounds)
            print(f"{count:>7,} orphaned note ids: docgen check {seconds:.2f} s ({rounds} run(s))")


if __name__ == "__main__":
    main(sys.argv[1:])
