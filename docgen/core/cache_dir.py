"""Where docgen keeps what it may reuse between runs: compiled templates and parsed YAML.

- `DOCGEN_CACHE_DIR`, when set;
- else `$XDG_CACHE_HOME/docgen`, else `~/.cache/docgen`;
- `DOCGEN_NO_CACHE=1` turns every cache off.

The folder lives outside the project, so `docgen check` still writes nothing there. A module of its own so
that the YAML cache finds the folder without importing Jinja.
"""

from __future__ import annotations

import os
from pathlib import Path


def cache_dir() -> Path | None:
    """Where docgen's caches live, or None when caching is turned off."""
    if os.environ.get("DOCGEN_NO_CACHE", "").strip() not in ("", "0"):
        return None
    if configured := os.environ.get("DOCGEN_CACHE_DIR"):
        return Path(configured)
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "docgen"
