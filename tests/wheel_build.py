"""docgen's wheel, built from a copy of this checkout's sources, for the tests that install it apart from the
repository."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def build_wheel(folder: Path) -> Path:
    """The wheel of a copy of the sources in `folder` (a build writes beside what it builds)."""
    source = folder / "source"
    source.mkdir(parents=True)
    shutil.copy2(REPO / "pyproject.toml", source)
    shutil.copy2(REPO / "README.md", source)
    shutil.copytree(REPO / "docgen", source / "docgen", ignore=shutil.ignore_patterns("__pycache__"))
    command = [
        sys.executable,
        "-m",
        "pip",
        "wheel",
        "-q",
        "--no-deps",
        "--no-build-isolation",
        "-w",
        "dist",
        ".",
    ]
    subprocess.run(command, cwd=source, check=True, capture_output=True)
    (wheel,) = (source / "dist").glob("docgen-*.whl")
    return wheel
