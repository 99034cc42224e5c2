"""A notes key that misspells an entry id: one finding with the id it most likely means, and the notes read
as if the key were right, so the rest of check reports only what the misspelling does not explain."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping
from difflib import get_close_matches

from generator.core.findings import Finding, Kind
from generator.core.models import ErrorsCatalog, RoutesCatalog
from generator.core.notes import Notes

CLOSENESS = 0.8
"""How alike (difflib's ratio) a key and an id must be for the key to count as a misspelling of the id."""


def mistyped_keys(catalog: ErrorsCatalog | RoutesCatalog, notes: Notes) -> dict[str, str]:
    """Notes key -> the entry id it misspells: each key that names no entry and is close to exactly one id
    that has no notes, where no other such key is close to the same id."""
    items = catalog.entries if isinstance(catalog, ErrorsCatalog) else catalog.errors
    ids = {item.id for item in items}
    unnoted = sorted(ids - set(notes.entries))
    guesses: dict[str, str] = {}
    for key in sorted(set(notes.entries) - ids):
        close = get_close_matches(key, unnoted, n=2, cutoff=CLOSENESS)
        if len(close) == 1:
            guesses[key] = close[0]
    meant = list(guesses.values())
    return {key: entry_id for key, entry_id in guesses.items() if meant.count(entry_id) == 1}


def typo_findings(notes: Notes, typos: Mapping[str, str]) -> Iterator[Finding]:
    """One finding per misspelt key, at the key's line."""
    for key, entry_id in sorted(typos.items()):
        yield Finding(
            Kind.NOTES_KEY_TYPO,
            notes.file,
            notes.line("entries", key),
            key,
            f"notes key {key!r} names no entry; did you mean {entry_id!r}?",
            f"rename the key to {entry_id!r} in {notes.file}; rendering before that would publish "
            f"{entry_id!r} as a draft without these notes",
        )


def with_keys_renamed(notes: Notes, typos: Mapping[str, str]) -> Notes:
    """The notes with each misspelt key renamed to the id it means, in the file's order."""
    if not typos:
        return notes
    entries = {typos.get(key, key): fields for key, fields in notes.entries.items()}
    return dataclasses.replace(notes, entries=entries)
