"""Evidence against the catalog: a missing example, and evidence missing, stale or contradicting the table.

check reads `data/<catalog>.evidence.yaml` statically (no server, no network). A catalog whose notes carry no
example at all is left alone.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from generator.core.evidence import PROBE, evidence_path, load_evidence, records_by_id, source_fingerprints
from generator.core.examples import Example, examples_of, raw_examples
from generator.core.findings import Finding
from generator.core.settings import Settings
from generator.core.yamlio import first_line, read_text
from generator.extract.pipeline import Extraction


def evidence_findings(
    settings: Settings, extraction: Extraction, notes: Mapping[str, Mapping[str, Any]]
) -> Iterator[Finding]:
    """Findings about examples and evidence, for every errors catalog whose notes have examples."""
    for name, note in notes.items():
        if not raw_examples(note):
            continue
        catalog = extraction.catalogs[name]
        notes_path = settings.notes_path(name)
        shown_notes = settings.relative(notes_path)
        notes_text = read_text(notes_path, shown_notes) if notes_path.exists() else ""
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
    text = read_text(path, shown)
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
