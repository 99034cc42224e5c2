"""Probe evidence at rest: where it lives, what it says, and when `docgen check` should distrust it.

`docgen probe` writes `data/<catalog>.evidence.yaml`. check reads it statically (no server, no network)
and reports evidence taken from source that has changed since (the cited symbols' fingerprints differ),
evidence for an example edited since, evidence that contradicts the catalog, and entries with no example or
no evidence. A catalog whose notes carry no example at all is left alone.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from generator import catalog as catalogs
from generator.citations import find_symbol
from generator.config import Settings
from generator.errors import SourceError
from generator.examples import Example, examples_of, raw_examples
from generator.findings import Finding
from generator.yamlio import first_line

if TYPE_CHECKING:  # the site build renders evidence without loading griffe
    from generator.pipeline import Extraction

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


def evidence_findings(
    settings: Settings, extraction: Extraction, notes: Mapping[str, Mapping[str, Any]]
) -> Iterator[Finding]:
    """Findings about examples and evidence, for every errors catalog whose notes have examples."""
    for name, note in notes.items():
        if not raw_examples(note):
            continue
        catalog = extraction.catalogs[name]
        notes_path = settings.notes_path(name)
        notes_text = notes_path.read_text(encoding="utf-8") if notes_path.exists() else ""
        shown_notes = settings.relative(notes_path)
        examples = examples_of(catalog, note, notes_file=shown_notes, notes_text=notes_text)
        for entry in catalog.get("entries", []):
            if entry["id"] not in examples:
                yield Finding(
                    "example-missing",
                    shown_notes,
                    _line(notes_text, f"{entry['id']}:"),
                    entry["id"],
                    "the entry has no example request, so probe cannot show it is true",
                    f"add 'example:' under 'entries: {entry['id']}:' (or 'untriggerable:' with the reason)",
                )
        yield from _against_evidence(settings, name, catalog, examples)


def _against_evidence(
    settings: Settings, name: str, catalog: Mapping[str, Any], examples: Mapping[str, Example]
) -> Iterator[Finding]:
    path = evidence_path(settings.data_dir, name)
    shown = settings.relative(path)
    evidence = load_evidence(path, shown)
    if evidence is None:
        yield Finding(
            "evidence-missing",
            shown,
            None,
            name,
            "no example has been replayed against the server yet",
            PROBE,
        )
        return
    text = path.read_text(encoding="utf-8")
    current = source_fingerprints(settings.root, catalog)
    for key in sorted(set(current) | set(evidence["source"])):
        if evidence["source"].get(key) != current.get(key):
            yield Finding(
                "evidence-stale",
                shown,
                _line(text, f"{key}:"),
                key,
                f"changed after probe ran on {evidence['probed']}; the evidence may no longer hold",
                f"run `{PROBE}` again and commit the evidence",
                old=evidence["source"].get(key),
                new=current.get(key),
            )
    records = records_by_id(evidence)
    for entry in catalog.get("entries", []):
        example = examples.get(entry["id"])
        if example is not None:
            yield from _entry_findings(shown, text, entry, example, records.get(entry["id"]))


def _entry_findings(
    shown: str, text: str, entry: Mapping[str, Any], example: Example, record: Mapping[str, Any] | None
) -> Iterator[Finding]:
    entry_id, line = entry["id"], _line(text, f"id: {entry['id']}")
    if record is None:
        yield Finding("evidence-missing", shown, None, entry_id, "probe has not replayed this example", PROBE)
    elif record.get("example") != example.fingerprint:
        yield Finding(
            "evidence-stale",
            shown,
            line,
            entry_id,
            "the example changed after probe replayed it",
            f"run `{PROBE}` again and commit the evidence",
        )
    elif example.triggerable:
        observed = record.get("observed") or {}
        seen = f"{observed.get('code')} / HTTP {observed.get('status')}"
        table = f"{entry['code']} / HTTP {entry['status']}"
        if seen != table:
            yield Finding(
                "evidence-mismatch",
                shown,
                line,
                entry_id,
                "the server answered the example differently from what the table says",
                "fix the server or the example, then run probe again; the table follows the code",
                old=seen,
                new=table,
            )


def _line(text: str, needle: str) -> int | None:
    return first_line(text, lambda line: line.strip().lstrip("- ").startswith(needle))
