"""Parsed YAML kept between runs, keyed by the text it was parsed from.

On a large project most of what `docgen check` spends beyond griffe is libyaml parsing the committed catalogs
and notes into Python values, although between two runs nearly every file is the same. So a document that
parsed cleanly is kept, marshalled, in `<cache>/yaml/` (the folder `template_cache.cache_dir` names, off
with `DOCGEN_NO_CACHE=1`), under the SHA-256 of its text and of what else changes the result: docgen's and
PyYAML's versions, this format and whether aliases were let through. The next run that reads the very same
text takes the values from there and skips the parser; any other text is parsed as always.

Only plain data is kept (marshal refuses anything else, such as a YAML date, and such a document is simply
parsed every time); errors are never kept, so a file with a problem is parsed, and its problem reported, on
every run. Small documents are not kept: reading the entry would cost about what parsing them does. A cache
that cannot be read or written costs the next run a parse, nothing more, and an entry is written whole
(to a temporary file, then renamed) so that a concurrent run never reads half of one.
"""

from __future__ import annotations

import hashlib
import marshal
import os
import tempfile
from pathlib import Path
from typing import Any

import yaml

from docgen.core.cache_dir import cache_dir

FORMAT = 1
"""Bumped whenever what `yamlio.load_yaml` makes of a text changes."""
MIN_CHARS = 8192
"""Documents shorter than this are parsed every time."""

_VERSION = f"docgen-yaml-cache|{FORMAT}|{yaml.__version__}"


def _entry(text: str, variant: str) -> Path | None:
    directory = cache_dir()
    if directory is None or len(text) < MIN_CHARS:
        return None
    digest = hashlib.sha256(f"{_VERSION}|{variant}|".encode() + text.encode("utf-8", "surrogatepass"))
    return directory / "yaml" / f"{digest.hexdigest()}.marshal"


def get(text: str, variant: str) -> tuple[Any, int] | None:
    """(data, loader number) of `text` as an earlier run parsed it with `variant`, or None."""
    entry = _entry(text, variant)
    if entry is None:
        return None
    try:
        kept = marshal.loads(entry.read_bytes())
    except (OSError, EOFError, ValueError, TypeError):
        return None
    if not (isinstance(kept, tuple) and len(kept) == 2 and isinstance(kept[1], int)):
        return None
    return kept[0], kept[1]


def put(text: str, variant: str, data: Any, loader: int) -> None:
    """Keep what `text` parsed to (when it is plain data; otherwise nothing is kept)."""
    entry = _entry(text, variant)
    if entry is None:
        return
    try:
        payload = marshal.dumps((data, loader))
    except ValueError:
        return  # a value marshal cannot keep, such as a date: parsed every time
    try:
        entry.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=entry.parent, prefix=".", suffix=".tmp")
        try:
            with os.fdopen(handle, "wb") as stream:
                stream.write(payload)
            os.replace(temporary, entry)
        except BaseException:
            os.unlink(temporary)
            raise
    except OSError:
        pass  # a read-only or full disk: the next run parses again
