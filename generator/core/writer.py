"""The only code in docgen that writes files: whole files, atomically, and only when they change."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Mapping
from pathlib import Path


def write_atomically(path: Path, text: str) -> bool:
    """Write `text` to `path` through a temporary file and a rename.

    A reader (or a crash) never sees a half-written file. Returns True when the file changed.
    """
    data = text.encode("utf-8")
    if path.exists() and path.read_bytes() == data:
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        if path.exists():
            os.chmod(temporary, path.stat().st_mode & 0o777)
        else:
            os.chmod(temporary, 0o644)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return True


def write_outputs(root: Path, outputs: Mapping[str, str]) -> list[str]:
    """Write every `relative path -> text` pair under `root`; return the paths that changed, sorted."""
    return sorted(rel for rel, text in outputs.items() if write_atomically(root / rel, text))
