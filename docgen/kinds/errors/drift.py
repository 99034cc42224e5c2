"""Catalog drift: what changed between the committed catalog and a fresh extraction, entry by entry.

Entries are compared by id (extract keeps ids stable), with local variable names canonicalised, so a renamed
variable is not drift. A constant whose value changed is reported once, with the entries it moved.
"""

from __future__ import annotations

import dataclasses
import difflib
from collections.abc import Iterator, Mapping, Sequence

from docgen.check.kind_stage import FIX
from docgen.core.catalog import dump_catalog
from docgen.core.findings import Finding, Kind
from docgen.core.models import ErrorEntry, ErrorsCatalog, Json, RaiseSite
from docgen.core.project import CommittedCatalog
from docgen.core.records import record
from docgen.extract.identity import canonical_expression, canonical_message
from docgen.extract.sites import ErrorSite

# The facts of an entry check compares, each with the finding a change of it makes.
_CHANGES = {
    "code": (Kind.CODE_CHANGED, "the JSON-RPC code changed"),
    "status": (Kind.STATUS_CHANGED, "the HTTP status changed"),
    "message": (Kind.MESSAGE_CHANGED, "the error message changed"),
    "conditions": (Kind.CONDITION_CHANGED, "the condition under which it is raised changed"),
    "data_keys": (Kind.DATA_CHANGED, "the keys of error.data changed"),
    "draft_cause": (Kind.CAUSE_DRAFT_CHANGED, "the comment above the call changed"),
    "dynamic": (Kind.RUN_TIME_VALUE_CHANGED, "the expression that gives a value at run time changed"),
    "path": (Kind.SITE_MOVED, "the call moved: the configured function now reaches it another way"),
}


_RAISE_MESSAGES = {
    Kind.RAISE_ADDED: "a new raise of an exception this error's handler converts",
    Kind.RAISE_REMOVED: "a raise behind this error's handler is gone",
    Kind.RAISE_CHANGED: "the message of a raise behind this error's handler changed",
}


@record
class RaiseChange:
    kind: Kind
    old: RaiseSite | None
    new: RaiseSite | None


def raise_changes(old: Sequence[RaiseSite], new: Sequence[RaiseSite]) -> Iterator[RaiseChange]:
    """Pairs the raise sites of one entry: equal ones are unchanged; of the rest, those of the same exception
    in the same function and file are reworded (in order), and what is left was added or removed."""
    left_old, left_new = list(old), list(new)
    for site in new:
        if site in left_old:
            left_old.remove(site)
            left_new.remove(site)
    for site in list(left_new):
        same = [
            o
            for o in left_old
            if (o.exception, o.function, o.file) == (site.exception, site.function, site.file)
        ]
        if same:
            left_old.remove(same[0])
            left_new.remove(site)
            yield RaiseChange(Kind.RAISE_CHANGED, same[0], site)
    yield from (RaiseChange(Kind.RAISE_ADDED, None, site) for site in left_new)
    yield from (RaiseChange(Kind.RAISE_REMOVED, site, None) for site in left_old)


class CatalogDrift:
    """Compares one errors catalog: `committed` (as read from data/) with `fresh` (from extract)."""

    def __init__(
        self,
        *,
        committed: CommittedCatalog,
        fresh: ErrorsCatalog,
        sites: Sequence[ErrorSite],
        module_names: frozenset[str],
    ) -> None:
        assert isinstance(committed.catalog, ErrorsCatalog)
        self.committed = committed
        self.before = committed.catalog
        self.path = committed.file
        self.fresh = fresh
        self.names = module_names
        self.old = {e.id: e for e in self.before.entries}
        self.new = {e.id: e for e in fresh.entries}
        self.sites = {entry.id: site for entry, site in zip(fresh.entries, sites, strict=True)}

    def findings(self) -> Iterator[Finding]:
        constant_changes = list(self._constants())
        explained = {(entry_id, field) for finding, moved in constant_changes for entry_id, field in moved}
        yield from (finding for finding, _ in constant_changes)
        for entry_id, entry in self.new.items():
            if entry_id not in self.old:
                summary = _summary(self._canonical(entry))
                message = " ".join(("a new", _values(entry), "error")).replace("  ", " ")
                yield self._at_site(entry_id, Kind.ENTRY_ADDED, message, None, summary)
                continue
            if self.old[entry_id] != entry:  # entries that are equal as written are equal once canonical
                yield from self._changed(entry_id, self.old[entry_id], entry, explained)
        for entry_id, entry in self.old.items():
            if entry_id not in self.new:
                yield Finding(
                    Kind.ENTRY_REMOVED,
                    self.path,
                    self.committed.entry_line(entry_id),
                    entry_id,
                    "this error is no longer raised by the code",
                    f"run `{FIX}`; move or delete its notes",
                    old=_summary(self._canonical(entry)),
                    new=None,
                )
        if not self._differs_in_facts() and self._differs_in_layout():
            yield Finding(
                Kind.CATALOG_STALE,
                self.path,
                1,
                self.fresh.name,
                "the file differs from what extract writes",
                f"run `{FIX}`",
                diff=self._diff(),
            )

    def _canonical(self, entry: ErrorEntry) -> ErrorEntry:
        """`entry` with the local names in its message and conditions canonicalised."""
        return dataclasses.replace(
            entry,
            message=canonical_message(entry.message, self.names),
            conditions=tuple(canonical_expression(c, self.names) for c in entry.conditions),
            raises=tuple(
                dataclasses.replace(site, message=canonical_message(site.message, self.names))
                for site in entry.raises
            ),
        )

    def _differs_in_facts(self) -> bool:
        """Whether an id, an entry's facts or a constant differ (each reported on its own)."""
        if self.old.keys() != self.new.keys():
            return True
        for entry_id, old in self.old.items():
            new = self.new[entry_id]
            if old != new and self._canonical(old) != self._canonical(new):
                return True
        return self.before.constants != self.fresh.constants

    def _differs_in_layout(self) -> bool:
        """Whether anything else differs: the name, the sources, the order of the entries."""
        return (self.before.name, self.before.sources, list(self.old)) != (
            self.fresh.name,
            self.fresh.sources,
            list(self.new),
        )

    def _diff(self) -> str:
        fresh = dump_catalog(self.fresh).splitlines(keepends=True)
        old = self.committed.text.replace("\r\n", "\n").replace("\r", "\n").splitlines(keepends=True)
        return "".join(difflib.unified_diff(old, fresh, f"committed {self.path}", f"extracted {self.path}"))

    def _at_site(self, entry_id: str, kind: Kind, message: str, old: str | None, new: str | None) -> Finding:
        site = self.sites[entry_id]
        return Finding(
            kind,
            site.entry.file,
            site.line,
            entry_id,
            message,
            f"run `{FIX}` and review the page",
            old=old,
            new=new,
        )

    def _changed(
        self, entry_id: str, old: ErrorEntry, new: ErrorEntry, explained: set[tuple[str, str]]
    ) -> Iterator[Finding]:
        old, new = self._canonical(old), self._canonical(new)
        for field, (kind, message) in _CHANGES.items():
            before, after = getattr(old, field), getattr(new, field)
            if before != after and (entry_id, field) not in explained:
                shown = (" → ".join(before), " → ".join(after)) if field == "path" else (before, after)
                yield self._at_site(entry_id, kind, message, _show(shown[0]), _show(shown[1]))
        if old.raises != new.raises:
            yield from self._raises(entry_id, old.raises, new.raises)

    def _raises(self, entry_id: str, old: Sequence[RaiseSite], new: Sequence[RaiseSite]) -> Iterator[Finding]:
        """Raise sites behind a handler added, removed or reworded (the same exception in the same function
        with another message), each named once."""
        for change in raise_changes(old, new):
            before, after = change.old, change.new
            site = after or before
            assert site is not None
            subject = f"{entry_id}: {site.exception} in {site.function}"
            line: int | None
            if after is not None and after.line is not None:
                file, line = after.file, after.line
            else:
                file, line = self.path, self.committed.entry_line(entry_id)
            yield Finding(
                change.kind,
                file,
                line,
                subject,
                _RAISE_MESSAGES[change.kind],
                f"run `{FIX}` and review the page",
                old=before.message if before else None,
                new=after.message if after else None,
            )

    def _constants(self) -> Iterator[tuple[Finding, list[tuple[str, str]]]]:
        before, after = self.before.constants, self.fresh.constants
        for name in sorted(before.keys() & after.keys()):
            if before[name] == after[name]:
                continue
            moved = [
                (entry_id, field)
                for entry_id, entry in self.new.items()
                if name in entry.constants_used and entry_id in self.old
                for field in ("code", "status")
                if getattr(self.old[entry_id], field) != getattr(entry, field)
            ]
            users = sorted({entry_id for entry_id, _ in moved})
            message = (
                f"its value changed under {len(users)} entries ({', '.join(users)})"
                if users
                else ("its value changed; pages that quote it change too")
            )
            yield (
                Finding(
                    Kind.CONSTANT_CHANGED,
                    self.path,
                    None,
                    name,
                    message,
                    f"run `{FIX}` and review the page",
                    old=_show(before[name]),
                    new=_show(after[name]),
                ),
                moved,
            )


def _show(value: Json | tuple[str, ...] | Mapping[str, str]) -> str | None:
    if value is None:
        return None
    if isinstance(value, Mapping):
        return "; ".join(f"{field} = {expression}" for field, expression in value.items()) or "(none)"
    if isinstance(value, list | tuple):
        return "; ".join(str(v) for v in value) if value else "(none)"
    return str(value)


def _summary(entry: ErrorEntry) -> str:
    values = _values(entry)
    return f"{values}: {entry.message}" if values else entry.message


def _values(entry: ErrorEntry) -> str:
    """`code / HTTP status`, with the fields the entry has (`?` for one set at run time)."""
    parts = []
    for field, shown in (("code", "{}"), ("status", "HTTP {}")):
        value = getattr(entry, field)
        if value is not None or field in entry.dynamic:
            parts.append(shown.format("?" if value is None else value))
    return " / ".join(parts)
