"""How long reading one catalog's changelog from git takes on a long history.

Builds a scratch repository in a temporary folder whose catalog (40 errors, about the size of this
repository's) changed in every one of N commits (an error added, a status changed, a message reworded, an
error removed, in turn), then times `file_versions` (git) and `entry_history` (parsing and comparing every
version) separately, best of three. Run: `.venv/bin/python benchmarks/history.py [N]` (default 1000).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from docgen.core.changes import entry_history
from docgen.core.git_history import file_versions

CATALOG = "data/errors.yaml"


def _catalog(step: int) -> str:
    lines = ["catalog: bench", "kind: errors", "entries:"]
    first = step // 4
    for number in range(first, first + 40):
        status = 400 + (number + (step % 4 == 1) * (number == first)) % 100
        message = f"Error {number} happened" + ("!" if step % 4 == 2 and number == first + 1 else "")
        lines += [
            f"- id: error-{number}",
            f"  code: {-32000 - number}",
            f"  status: {status}",
            f"  message: '{message}'",
            "  function: handle",
            "  file: app/server.py",
            "  conditions:",
            f"  - value > {number}",
        ]
    return "\n".join(lines) + "\n"


def build(root: Path, commits: int) -> None:
    environment = os.environ | {"GIT_AUTHOR_NAME": "b", "GIT_AUTHOR_EMAIL": "b@b", "GIT_COMMITTER_NAME": "b"}
    environment |= {"GIT_COMMITTER_EMAIL": "b@b"}
    subprocess.run(["git", "init", "-q", "-b", "main"], cwd=root, check=True)
    (root / "data").mkdir()
    stream = []
    for step in range(commits):
        text = _catalog(step)
        when = 1_700_000_000 + step * 3600
        stream.append(f"commit refs/heads/main\nmark :{step + 1}\ncommitter b <b@b> {when} +0000\n")
        parent = f"from :{step}\n" if step else ""
        stream.append(f"data 4\nstep\n{parent}")
        stream.append(f"M 100644 inline {CATALOG}\ndata {len(text.encode())}\n{text}\n")
    subprocess.run(
        ["git", "fast-import", "--quiet"],
        cwd=root,
        input="".join(stream).encode(),
        check=True,
        env=environment,
    )
    subprocess.run(["git", "checkout", "-q", "main"], cwd=root, check=True)


def main() -> None:
    commits = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        build(root, commits)
        reads, parses = [], []
        for _ in range(3):
            started = time.perf_counter()
            versions = file_versions(root, CATALOG)
            reads.append(time.perf_counter() - started)
            assert versions is not None and len(versions) == commits
            started = time.perf_counter()
            history = entry_history(versions, CATALOG)
            parses.append(time.perf_counter() - started)
        events = sum(len(found) for found in history.events.values())
        print(f"{commits} commits, {events} events for {len(history.events)} errors")
        print(f"git: {min(reads):.3f} s; parsing and comparing: {min(parses):.3f} s (best of 3)")


if __name__ == "__main__":
    main()
