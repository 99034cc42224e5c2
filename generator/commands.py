"""What each docgen sub-command does: run the pure stages, then report (and, except for check, write)."""

from __future__ import annotations

import argparse
import sys

from generator import catalog as catalogs
from generator.config import Settings
from generator.pipeline import extract, notes_report
from generator.writer import write_outputs


def _say(message: str) -> None:
    print(message, file=sys.stderr)


def extract_command(settings: Settings, args: argparse.Namespace) -> int:
    """`docgen extract`: rewrite data/<catalog>.yaml from the source."""
    result = extract(settings)
    changed = write_outputs(settings.root, result.outputs)
    for name, data in result.catalogs.items():
        path = settings.relative(settings.catalog_path(name))
        count = len(data.get("entries", [])) if data["kind"] == "errors" else len(data["tools"])
        state = "updated" if path in changed else "unchanged"
        _say(f"{path}: {state} ({count} {'entries' if data['kind'] == 'errors' else 'tools'})")
        for successor in result.successors.get(name, []):
            _say(
                f"{path}: new entry '{successor.new_id}' most likely replaces '{successor.old_id}' "
                f"(similarity {successor.similarity:.2f}); if so, rename its key in "
                f"{settings.relative(settings.notes_path(name))} so the prose follows it"
            )
        if data["kind"] == "errors":
            _report_notes(settings, name, data)
    return 0


def _report_notes(settings: Settings, name: str, data: dict[str, object]) -> None:
    notes_path = settings.notes_path(name)
    notes = catalogs.load_notes(notes_path, settings.relative(notes_path))
    report = notes_report(data, notes)
    shown = settings.relative(notes_path)
    for entry_id in report.gaps:
        _say(f"{shown}: entry '{entry_id}' has no cause or action yet; add them under 'entries:'")
    for entry_id in report.orphans:
        _say(f"{shown}: notes for '{entry_id}', which is no longer in the catalog; move or delete them")
