"""Spec conformance in check: new differences, stale baseline entries, conditions the specification lacks."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from generator.core.findings import Finding
from generator.core.settings import Settings
from generator.core.spec import ASPECTS, Comparison, Spec, compare, here, load_spec, mapping, required
from generator.core.yamlio import first_line, read_text
from generator.extract.pipeline import Extraction
from generator.extract.sites import ErrorSite


def spec_findings(
    settings: Settings, extraction: Extraction, notes: Mapping[str, Mapping[str, Any]]
) -> Iterator[Finding]:
    """New differences, stale baseline entries and unknown conditions, for every catalog that names a spec."""
    for name, note in notes.items():
        if not note.get("spec"):
            continue
        notes_path = settings.notes_path(name)
        shown_notes = settings.relative(notes_path)
        spec = load_spec(settings.root, settings.data_dir, str(note["spec"]), named_in=shown_notes)
        lines = {site_entry["id"]: site for site_entry, site in _sites(extraction, name)}
        for condition_id, entry_ids in sorted(mapping(note).items()):
            if spec.condition(condition_id) is None:
                yield Finding(
                    "spec-unknown-condition",
                    shown_notes,
                    _line(notes_path, condition_id, anywhere=True),
                    f"{entry_ids[0]}.spec",
                    f"names condition {condition_id!r}, which {spec.spec_file} does not have",
                    f"use one of: {', '.join(c['id'] for c in spec.data['conditions'])}",
                )
        for comparison in compare(extraction.catalogs[name], note, spec):
            yield from _comparison_findings(settings, spec, comparison, lines)
        yield from _unknown_baseline(settings, spec)


def _sites(extraction: Extraction, name: str) -> Iterator[tuple[Mapping[str, Any], ErrorSite]]:
    return zip(extraction.catalogs[name].get("entries", []), extraction.sites.get(name, []), strict=False)


def _comparison_findings(
    settings: Settings, spec: Spec, comparison: Comparison, sites: Mapping[str, ErrorSite]
) -> Iterator[Finding]:
    condition = comparison.condition
    accepted = spec.accepted.get(condition["id"]) or {}
    allowed = set(accepted.get("differs") or [])
    new = [aspect for aspect in comparison.differs if aspect not in allowed]
    gone = [aspect for aspect in ASPECTS if aspect in allowed and aspect not in comparison.differs]
    source = condition["source"]
    if new:
        site = sites.get(comparison.entries[0]["id"]) if comparison.entries else None
        yield Finding(
            "spec-difference",
            site.file if site else spec.spec_file,
            site.line if site else _line(settings.root / spec.spec_file, f"id: {condition['id']}"),
            condition["id"],
            f"{condition['condition']} Differs in {', '.join(new)} from {spec.data['title']} "
            f"({source['section']}, {source['url']})",
            f"make the server conform, or accept the difference with a reason in {spec.baseline_file}",
            old=required(condition),
            new=here(comparison),
        )
    if gone:
        yield Finding(
            "spec-baseline-stale",
            spec.baseline_file,
            _line(settings.root / spec.baseline_file, f"{condition['id']}:"),
            condition["id"],
            f"accepted as differing in {', '.join(gone)}, but the server now conforms there",
            f"remove {', '.join(gone)} from 'differs' (or the whole entry) in {spec.baseline_file}",
        )


def _unknown_baseline(settings: Settings, spec: Spec) -> Iterator[Finding]:
    for condition_id in sorted(spec.accepted):
        if spec.condition(condition_id) is None:
            yield Finding(
                "spec-baseline-stale",
                spec.baseline_file,
                _line(settings.root / spec.baseline_file, f"{condition_id}:"),
                condition_id,
                f"accepts a difference for a condition {spec.spec_file} does not have",
                f"remove it from {spec.baseline_file}, or fix its name",
            )


def _line(path: Path, needle: str, *, anywhere: bool = False) -> int | None:
    """The first line of `path` that starts with `needle` (after indentation and a list dash), or has it."""
    if not path.is_file():
        return None
    text = read_text(path, path.name)
    if anywhere:
        return first_line(text, lambda line: needle in line)
    return first_line(text, lambda line: line.strip().lstrip("- ").startswith(needle))
