"""Catalog drift: what changed between the committed catalog and a fresh extraction, entry by entry.

Entries are compared by id (extract keeps ids stable), with local variable names canonicalised, so a renamed
variable is not drift. A constant whose value changed is reported once, with the entries it moved.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from generator.core.catalog import dump_catalog
from generator.core.findings import Finding
from generator.core.yamlio import first_line
from generator.extract.identity import canonical_expression, canonical_message
from generator.extract.sites import ErrorSite

FIX = "docgen extract && docgen render"


def _line_of_id(text: str, entry_id: str) -> int | None:
    return first_line(text, lambda line: line.strip() == f"- id: {entry_id}")


def _canonical(entry: Mapping[str, Any], names: frozenset[str]) -> dict[str, Any]:
    return {
        **entry,
        "message": canonical_message(entry["message"], names),
        "conditions": [canonical_expression(c, names) for c in entry.get("conditions", [])],
    }


class CatalogDrift:
    """Compares one errors catalog: `committed` (parsed YAML and its text) with `fresh` (from extract)."""

    def __init__(
        self,
        *,
        path: str,
        committed: Mapping[str, Any],
        committed_text: str,
        fresh: Mapping[str, Any],
        sites: Sequence[ErrorSite],
        module_names: frozenset[str],
    ) -> None:
        self.path = path
        self.committed = committed
        self.text = committed_text
        self.fresh = fresh
        self.names = module_names
        self.old = {e["id"]: _canonical(e, module_names) for e in committed.get("entries", [])}
        self.new = {e["id"]: _canonical(e, module_names) for e in fresh.get("entries", [])}
        self.lines = {e["id"]: site.line for e, site in zip(fresh.get("entries", []), sites, strict=True)}
        self.sources = {e["id"]: site.file for e, site in zip(fresh.get("entries", []), sites, strict=True)}

    def findings(self) -> Iterator[Finding]:
        constant_changes = list(self._constants())
        explained = {(entry_id, field) for finding, moved in constant_changes for entry_id, field in moved}
        yield from (finding for finding, _ in constant_changes)
        for entry_id, entry in self.new.items():
            if entry_id not in self.old:
                yield self._at_site(
                    entry_id,
                    "entry-added",
                    f"a new {entry['code']}/{entry['status']} error",
                    None,
                    _summary(entry),
                )
                continue
            yield from self._changed(entry_id, self.old[entry_id], entry, explained)
        for entry_id, entry in self.old.items():
            if entry_id not in self.new:
                yield Finding(
                    "entry-removed",
                    self.path,
                    _line_of_id(self.text, entry_id),
                    entry_id,
                    "this error is no longer raised by the code",
                    f"run `{FIX}`; move or delete its notes",
                    old=_summary(entry),
                    new=None,
                )
        if not any(True for _ in self._semantic_differences()) and self._canonical_text_differs():
            yield Finding(
                "catalog-stale",
                self.path,
                1,
                self.fresh["catalog"],
                "the file differs from what extract writes",
                f"run `{FIX}`",
                diff=self._diff(),
            )

    def _semantic_differences(self) -> Iterator[str]:
        if self.old.keys() != self.new.keys():
            yield "ids"
        for entry_id in self.old.keys() & self.new.keys():
            if self.old[entry_id] != self.new[entry_id]:
                yield entry_id
        if self.committed.get("constants") != self.fresh.get("constants"):
            yield "constants"

    def _canonical_text_differs(self) -> bool:
        def strip(catalog: Mapping[str, Any], entries: Mapping[str, Any]) -> dict[str, Any]:
            return {**catalog, "entries": list(entries.values())}

        return strip(self.committed, self.old) != strip(self.fresh, self.new)

    def _diff(self) -> str:
        fresh = dump_catalog(self.fresh).splitlines(keepends=True)
        old = self.text.splitlines(keepends=True)
        return "".join(difflib.unified_diff(old, fresh, f"committed {self.path}", f"extracted {self.path}"))

    def _at_site(self, entry_id: str, kind: str, message: str, old: str | None, new: str | None) -> Finding:
        return Finding(
            kind,
            self.sources[entry_id],
            self.lines[entry_id],
            entry_id,
            message,
            f"run `{FIX}` and review the page",
            old=old,
            new=new,
        )

    def _changed(
        self, entry_id: str, old: Mapping[str, Any], new: Mapping[str, Any], explained: set[tuple[str, str]]
    ) -> Iterator[Finding]:
        labels = {
            "code": ("code-changed", "the JSON-RPC code changed"),
            "status": ("status-changed", "the HTTP status changed"),
            "message": ("message-changed", "the error message changed"),
            "conditions": ("condition-changed", "the condition under which it is raised changed"),
            "data_keys": ("data-changed", "the keys of error.data changed"),
            "draft_cause": ("cause-draft-changed", "the comment above the call changed"),
        }
        for field, (kind, message) in labels.items():
            if old.get(field) != new.get(field) and (entry_id, field) not in explained:
                yield self._at_site(entry_id, kind, message, _show(old.get(field)), _show(new.get(field)))

    def _constants(self) -> Iterator[tuple[Finding, list[tuple[str, str]]]]:
        before = self.committed.get("constants") or {}
        after = self.fresh.get("constants") or {}
        for name in sorted(before.keys() & after.keys()):
            if before[name] == after[name]:
                continue
            moved = [
                (entry_id, field)
                for entry_id, entry in self.new.items()
                if name in entry.get("constants_used", []) and entry_id in self.old
                for field in ("code", "status")
                if self.old[entry_id][field] != entry[field]
            ]
            users = sorted({entry_id for entry_id, _ in moved})
            message = (
                f"its value changed under {len(users)} entries ({', '.join(users)})"
                if users
                else ("its value changed; pages that quote it change too")
            )
            yield (
                Finding(
                    "constant-changed",
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


def _show(value: Any) -> str | None:
    if value is None:
        return None
    if isinstance(value, list):
        return "; ".join(str(v) for v in value) if value else "(none)"
    return str(value)


def _summary(entry: Mapping[str, Any]) -> str:
    return f"{entry['code']} / HTTP {entry['status']}: {entry['message']}"


def tools_drift(
    path: str, committed: Mapping[str, Any], fresh: Mapping[str, Any], text: str
) -> Iterator[Finding]:
    """Tools, resources and prompts added, removed or changed."""
    for kind in ("tools", "resources", "prompts"):
        old = {item["name"]: item for item in committed.get(kind, [])}
        new = {item["name"]: item for item in fresh.get(kind, [])}
        for name in sorted(new.keys() - old.keys()):
            yield Finding("tool-added", path, None, name, f"a new entry in {kind}", f"run `{FIX}`")
        for name in sorted(old.keys() - new.keys()):
            yield Finding(
                "tool-removed", path, _line_of_name(text, name), name, f"gone from {kind}", f"run `{FIX}`"
            )
        for name in sorted(old.keys() & new.keys()):
            if old[name] != new[name]:
                yield Finding(
                    "tool-changed",
                    path,
                    _line_of_name(text, name),
                    name,
                    f"its description or parameters changed in {kind}",
                    f"run `{FIX}`",
                )


def _line_of_name(text: str, name: str) -> int | None:
    return first_line(text, lambda line: line.strip() == f"- name: {name}")
