"""How an error's contract with clients changed between two versions of its catalog, and since when.

A change is one of five: an error appeared (additive), its code or its status changed, or it was removed
(breaking: a client that branches on them behaves differently), or its message was reworded (editorial).
`check --base` judges a pull request with `changes`; the changelog region lists the same changes for every
commit that touched the catalog (`entry_history`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from docgen.core.errors import DocgenError
from docgen.core.git_history import Version
from docgen.core.models import ErrorEntry, Json
from docgen.core.records import record
from docgen.core.yamlio import load_yaml

FACTS = ("code", "status", "message")
"""What a client receives of an error, in the order a change to them is listed."""

BREAKING, ADDITIVE, EDITORIAL = "breaking", "additive", "editorial"

Facts = Mapping[str, Json]
"""An error's code, status and message (absent ones as None)."""


@record
class Change:
    """One difference between two versions of an error, as clients would notice it."""

    entry: str
    what: str
    """`added`, `removed`, or the fact that changed: `code`, `status` or `message`."""
    before: Json = None
    after: Json = None

    @property
    def effect(self) -> str:
        if self.what == "added":
            return ADDITIVE
        return EDITORIAL if self.what == "message" else BREAKING


def changes(old: Mapping[str, Facts], new: Mapping[str, Facts]) -> Iterator[Change]:
    """Every change from `old` to `new` (error id -> facts): removals, then each kept error's changed facts in
    `FACTS` order, then additions, each group in the order its version lists them."""
    for entry in old:
        if entry not in new:
            yield Change(entry, "removed")
    for entry, facts in new.items():
        before = old.get(entry)
        if before is None:
            continue
        for fact in FACTS:
            if before.get(fact) != facts.get(fact):
                yield Change(entry, fact, before.get(fact), facts.get(fact))
    for entry in new:
        if entry not in old:
            yield Change(entry, "added", None, None)


@record
class Event:
    """A change, with the commit that made it."""

    change: Change
    commit: str
    date: str


@record
class History:
    """Each error's events, newest first, and the versions that could not be read (a commit id and why)."""

    events: Mapping[str, tuple[Event, ...]]
    unreadable: tuple[tuple[str, str], ...] = ()


def entry_history(versions: Sequence[Version], relative: str) -> History:
    """The changelog of every error that any version of the catalog at `relative` held (oldest first in,
    newest first out). A version that does not parse is skipped and named: its changes show in the next
    readable one."""
    by_commit: dict[str, list[list[Event]]] = {}
    unreadable: list[tuple[str, str]] = []
    previous: dict[str, Facts] = {}
    for version in versions:
        try:
            current = facts_of(version.data, f"{version.commit[:12]}:{relative}")
        except DocgenError as err:
            unreadable.append((version.commit, err.message))
            continue
        made: dict[str, list[Event]] = {}
        for change in changes(previous, current):
            made.setdefault(change.entry, []).append(Event(change, version.commit, version.date))
        for entry, found in made.items():
            by_commit.setdefault(entry, []).append(found)
        previous = current
    # Newest commit first; one commit's changes stay in `changes`' order.
    events = {
        entry: tuple(e for found in reversed(groups) for e in found) for entry, groups in by_commit.items()
    }
    return History(events, tuple(unreadable))


def entry_facts(entries: Sequence[ErrorEntry]) -> dict[str, Facts]:
    """Error id -> what clients receive of it, from a catalog's typed entries."""
    return {entry.id: {fact: getattr(entry, fact) for fact in FACTS} for entry in entries}


def facts_of(data: bytes | None, display: str) -> dict[str, Facts]:
    """Error id -> what clients receive, from one committed catalog (errors or routes); empty where the
    file was deleted."""
    if data is None:
        return {}
    loaded = load_yaml(data.decode("utf-8", "replace"), display)
    document: Any = loaded.data
    items = document.get("entries", document.get("errors")) if isinstance(document, dict) else None
    if not isinstance(items, list):
        raise DocgenError("no list of errors under 'entries' or 'errors'")
    facts: dict[str, Facts] = {}
    for item in items:
        if not isinstance(item, dict) or not isinstance(item.get("id"), str):
            raise DocgenError("an error without an id")
        facts[item["id"]] = {fact: item.get(fact) for fact in FACTS}
    return facts
