"""Drift as data: each finding is a value, rendered as text, as GitHub annotations or as JSON."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass

# Kinds, grouped as the text report shows them.
GROUPS: dict[str, tuple[str, ...]] = {
    "Contract changes (clients may break)": ("contract-code", "contract-status", "contract-removed"),
    "Catalog drift (the code changed)": (
        "entry-added",
        "entry-removed",
        "code-changed",
        "status-changed",
        "message-changed",
        "condition-changed",
        "data-changed",
        "cause-draft-changed",
        "constant-changed",
        "tool-added",
        "tool-removed",
        "tool-changed",
        "catalog-stale",
    ),
    "Page drift": ("page-stale", "region-hand-edited", "page-missing-region"),
    "Notes": ("notes-gap", "notes-orphan", "notes-unknown-constant", "likely-successor"),
    "Citations and links": ("citation-file", "citation-symbol", "link-broken", "anchor-broken"),
    "Last verified": ("verification-stale", "verification-missing"),
    "Evidence and specification": (
        "example-missing",
        "evidence-missing",
        "evidence-stale",
        "evidence-mismatch",
        "spec-difference",
        "spec-baseline-stale",
        "spec-unknown-condition",
    ),
}


@dataclass(frozen=True)
class Finding:
    """One way in which the docs and the code disagree."""

    kind: str
    file: str
    line: int | None
    subject: str
    message: str
    hint: str
    old: str | None = None
    new: str | None = None
    diff: str | None = None
    breaking: bool = False

    @property
    def location(self) -> str:
        return f"{self.file}:{self.line}" if self.line else self.file


def _group_of(kind: str) -> str:
    for title, kinds in GROUPS.items():
        if kind in kinds:
            return title
    return "Other"


def _sorted(findings: Iterable[Finding]) -> list[Finding]:
    order = {kind: index for index, kind in enumerate(k for kinds in GROUPS.values() for k in kinds)}
    return sorted(findings, key=lambda f: (order.get(f.kind, 999), f.file, f.line or 0, f.subject))


def as_text(findings: Sequence[Finding], *, fix: str) -> str:
    """A grouped human report that ends with the command that fixes what can be fixed."""
    if not findings:
        return "docgen check: the docs match the code.\n"
    lines: list[str] = []
    current = None
    for finding in _sorted(findings):
        group = _group_of(finding.kind)
        if group != current:
            lines.append(f"\n{group}:")
            current = group
        lines.append(f"  {finding.location}: {finding.kind}: {finding.subject}: {finding.message}")
        if finding.old is not None or finding.new is not None:
            lines.append(f"      was: {finding.old}")
            lines.append(f"      now: {finding.new}")
        if finding.diff:
            lines.extend("      " + line for line in finding.diff.rstrip("\n").splitlines())
        lines.append(f"      hint: {finding.hint}")
    lines.append(f"\n{len(findings)} finding(s). To bring generated files up to date: {fix}")
    return "\n".join(lines).lstrip("\n") + "\n"


def _escape(text: str, *, property_value: bool = False) -> str:
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    if property_value:
        text = text.replace(":", "%3A").replace(",", "%2C")
    return text


def as_github(findings: Sequence[Finding]) -> str:
    """GitHub workflow commands: one `::error` annotation per finding, on the line at fault."""
    lines = []
    for finding in _sorted(findings):
        place = f"file={_escape(finding.file, property_value=True)}"
        if finding.line:
            place += f",line={finding.line}"
        title = _escape(f"docgen {finding.kind}: {finding.subject}", property_value=True)
        body = f"{finding.message}"
        if finding.old is not None or finding.new is not None:
            body += f"\nwas: {finding.old}\nnow: {finding.new}"
        body += f"\nhint: {finding.hint}"
        lines.append(f"::error {place},title={title}::{_escape(body)}")
    return "\n".join(lines) + ("\n" if lines else "")


def as_json(findings: Sequence[Finding]) -> str:
    """All findings as a JSON document, for other tools."""
    return json.dumps({"findings": [asdict(f) for f in _sorted(findings)]}, indent=2, sort_keys=True) + "\n"
