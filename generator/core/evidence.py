"""Probe evidence at rest: where it lives, what it says, and when `docgen check` should distrust it.

`docgen probe` writes `data/<catalog>.evidence.yaml`. check reads it statically (no server, no network)
and reports evidence taken from source that has changed since (the cited symbols' fingerprints differ),
evidence for an example edited since, evidence that contradicts the catalog, and entries with no example or
no evidence. A catalog whose notes carry no example at all is left alone.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from generator.core import catalog as catalogs
from generator.core.errors import SourceError
from generator.core.symbols import find_symbol

if TYPE_CHECKING:  # the site build renders evidence without loading griffe
    pass

PROBE = "docgen probe --app backend.app.mcp_server:app"
"""The command that refreshes evidence, as hints show it."""


def evidence_path(data_dir: Path, name: str) -> Path:
    """Where probe writes the evidence of catalog `name`."""
    return data_dir / f"{name}.evidence.yaml"


def load_evidence(path: Path, display: str) -> dict[str, Any] | None:
    """The evidence file, validated; None when probe has not run yet."""
    if not path.is_file():
        return None
    hint = f"this file is written by probe: run `{PROBE}` again"
    data: dict[str, Any] = catalogs.read_checked(path, display, "errors-evidence", hint)
    return data


def source_fingerprints(root: Path, catalog: Mapping[str, Any]) -> dict[str, str]:
    """`file:symbol` -> fingerprint of each symbol the catalog cites (the functions its entries come from)."""
    prints: dict[str, str] = {}
    for source in catalog.get("sources", []):
        for name in source.get("symbols", []):
            try:
                symbol = find_symbol(root, source["path"], name)
            except SourceError:
                symbol = None
            prints[f"{source['path']}:{name}"] = symbol.fingerprint if symbol else "missing"
    return prints


def records_by_id(evidence: Mapping[str, Any] | None) -> dict[str, Mapping[str, Any]]:
    """Evidence entries keyed by entry id."""
    return {record["id"]: record for record in (evidence or {}).get("entries", [])}
