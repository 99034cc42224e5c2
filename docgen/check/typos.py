"""A notes key that misspells an entry id: one finding with the id it most likely means, and the notes read
as if the key were right, so the rest of check reports only what the misspelling does not explain."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping

from docgen.core.findings import Finding, Kind
from docgen.core.models import NotedCatalog
from docgen.core.notes import Notes

MAX_EDITS = 2
"""At most this many letters added, removed or changed turn a key into the id it misspells; a key further
from every id is a rename or a removal (an orphan), which a guess would hide."""


def mistyped_keys(catalog: NotedCatalog, notes: Notes) -> dict[str, str]:
    """Notes key -> the entry id it misspells: each key that names no entry and is at most MAX_EDITS letters
    away from exactly one id without notes, where no other such key is that close to the same id."""
    ids = set(catalog.note_ids())
    unnoted = sorted(ids - set(notes.entries))
    guesses: dict[str, str] = {}
    for key in sorted(set(notes.entries) - ids):
        close = [entry_id for entry_id in unnoted if edits(key, entry_id) <= MAX_EDITS]
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


def edits(first: str, second: str) -> int:
    """The number of letters to add, remove or change to turn `first` into `second` (Levenshtein distance);
    anything over MAX_EDITS counts as MAX_EDITS + 1, which keeps long keys cheap."""
    if abs(len(first) - len(second)) > MAX_EDITS or not _a_piece_survives(first, second):
        return MAX_EDITS + 1
    previous = list(range(len(second) + 1))
    for row, letter in enumerate(first, 1):
        current = [row]
        for column, other in enumerate(second, 1):
            current.append(
                min(previous[column] + 1, current[-1] + 1, previous[column - 1] + (letter != other))
            )
        if min(current) > MAX_EDITS:
            return MAX_EDITS + 1
        previous = current
    return min(previous[-1], MAX_EDITS + 1)


def _a_piece_survives(first: str, second: str) -> bool:
    """Whether one of MAX_EDITS + 1 pieces of `first` stands in `second` as written: each edit spoils at most
    one piece, so when none stands there the two are further apart (a quick test before the slow one)."""
    size = len(first) // (MAX_EDITS + 1)
    pieces = [first[index * size : (index + 1) * size] for index in range(MAX_EDITS)] + [
        first[MAX_EDITS * size :]
    ]
    return any(piece in second for piece in pieces)
