"""Findings grouped by cause: one change in the source is one finding, with what follows from it under it.

A single edit (an error's status changed from 404 to 400) makes check find the same thing several times over:
the catalog's row, the contract against the base, the specification's MUST, each page region showing the row,
the stamp of the function it sits in, the evidence recorded before it. Reported side by side, the change is
lost among its echoes. Here a finding of catalog drift (or, once the catalog is up to date, a contract
change) at a place in the source is a cause, and every finding that follows from it is listed under it:

- a finding at the same file and line (the contract change, the specification's difference at the raise);
- a finding about the same entry (the evidence whose answer no longer matches);
- a stamp or evidence fingerprint of the symbol the change sits in (the nearest cause at or below the
  symbol's first line in its file, which is the symbol's own unless the symbol changed elsewhere too);
- a page region whose changed lines name the entry, as a word or in a link's anchor (`#err-<id>`, which
  the templates make of an entry id, and `id="err-<id>"`); with a single cause, every stale region and stamp,
  since nothing else changed that they could follow from.

Everything else stands on its own, those at one place together. Grouping only orders and nests: every
finding stays in the report, and nothing here decides whether check fails.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from docgen.core.findings import GROUPS, Finding, Kind, importance
from docgen.core.records import record

_CONTRACT = frozenset(GROUPS["Contract changes (clients may break)"])
_CAUSES = frozenset(GROUPS["Catalog drift (the code changed)"]) | _CONTRACT
_STAMPS = frozenset({Kind.VERIFICATION_STALE, Kind.EVIDENCE_STALE})
_FOLLOWERS = _STAMPS | {Kind.PAGE_STALE}
"""Kinds that follow from whatever changed, whichever entry it was: with one cause, they are its."""

_CHANGED_FIELD = {
    Kind.STATUS_CHANGED: "status",
    Kind.CONTRACT_STATUS: "status",
    Kind.CODE_CHANGED: "code",
    Kind.CONTRACT_CODE: "code",
    Kind.MESSAGE_CHANGED: "message",
    Kind.CONDITION_CHANGED: "condition",
    Kind.CONSTANT_CHANGED: "value",
}


@record
class Cause:
    """One finding and those that follow from it, the most important first (a broken MUST before all)."""

    finding: Finding
    follows: tuple[Finding, ...]

    @property
    def findings(self) -> list[Finding]:
        return [self.finding, *self.follows]

    @property
    def breaking(self) -> bool:
        return any(finding.breaking for finding in self.findings)


def headline(finding: Finding) -> str:
    """What a cause says changed, in one line: `app.py:248: method-not-found: status 404 -> 400`, or where a
    finding has no before and after, its message. It names no kind: the report's lines below do."""
    if finding.old is not None and finding.new is not None and len(finding.old + finding.new) <= 80:
        field = _CHANGED_FIELD.get(finding.kind, str(finding.kind))
        return f"{finding.location}: {finding.subject}: {field} {finding.old} -> {finding.new}"
    return f"{finding.location}: {finding.subject}: {finding.message}"


def by_cause(findings: Sequence[Finding]) -> list[Cause]:
    """The findings as causes with what follows from each, breaking ones first, then most important first."""
    ordered = sorted(findings, key=importance)
    sites: dict[tuple[str, int | None], int] = {}
    for index in sorted(range(len(ordered)), key=lambda i: (ordered[i].kind in _CONTRACT, i)):
        if ordered[index].kind in _CAUSES:
            sites.setdefault((ordered[index].file, ordered[index].line), index)
    causes = sorted(sites.values())
    follows: dict[int, list[Finding]] = {index: [] for index in causes}
    alone: dict[tuple[str, int | None, int], list[Finding]] = {}
    for index, finding in enumerate(ordered):
        if index in follows:
            continue
        cause = _cause_of(finding, ordered, causes, sites)
        if cause is not None:
            follows[cause].append(finding)
        else:  # a finding without a line is a place of its own; findings at one line stand together
            alone.setdefault((finding.file, finding.line, index if finding.line is None else 0), []).append(
                finding
            )
    groups = [Cause(ordered[index], tuple(sorted(follows[index], key=_follow_order))) for index in causes]
    groups += [Cause(group[0], tuple(group[1:])) for group in alone.values()]
    return sorted(groups, key=lambda group: (not group.breaking, importance(group.finding)))


def _follow_order(finding: Finding) -> tuple[bool, tuple[bool, int, str, int, str]]:
    """The specification's broken MUST first, then as `importance` ranks (contract changes next)."""
    return (finding.kind is not Kind.SPEC_DIFFERENCE, importance(finding))


def _cause_of(
    finding: Finding,
    ordered: list[Finding],
    causes: list[int],
    sites: dict[tuple[str, int | None], int],
) -> int | None:
    """The index of the cause `finding` follows from, or None when it stands on its own."""
    if finding.line is not None and (finding.file, finding.line) in sites:
        return sites[(finding.file, finding.line)]
    if finding.kind in _CAUSES:
        return None  # a change of its own, elsewhere
    same_entry = [index for index in causes if ordered[index].subject == finding.subject]
    if same_entry:
        return same_entry[0]
    if finding.kind in _STAMPS:
        found = _symbol_cause(finding, ordered, causes)
        if found is not None:
            return found
    if finding.kind is Kind.PAGE_STALE and finding.diff:
        lines = finding.diff.splitlines()
        changed = [line for line in lines if line[:1] in "+-" and not line.startswith(("+++", "---"))]
        for index in causes:
            named = re.compile(rf"(?:^|[^\w-]|[#\"][a-z]+-){re.escape(ordered[index].subject)}(?![\w-])")
            if any(named.search(line) for line in changed):
                return index
    if finding.kind in _FOLLOWERS and len(causes) == 1:
        return causes[0]
    return None


def _symbol_cause(finding: Finding, ordered: list[Finding], causes: list[int]) -> int | None:
    """The cause inside the symbol a stale stamp or evidence fingerprint names (`file:symbol`): the first
    cause in its file at or below the symbol's first line. A stamp stands at that line; evidence does not,
    so it borrows the line of the stamp of the same symbol, when there is one."""
    source = finding.subject.rpartition(":")[0]
    start = finding.line if finding.kind is Kind.VERIFICATION_STALE else None
    if start is None:
        stamps = [
            f.line for f in ordered if f.kind is Kind.VERIFICATION_STALE and f.subject == finding.subject
        ]
        start = stamps[0] if stamps else None
    below = [
        index
        for index in causes
        if ordered[index].file == source and (start is None or (ordered[index].line or 0) >= start)
    ]
    return min(below, key=lambda index: ordered[index].line or 0) if below else None
