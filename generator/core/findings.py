"""Drift as data: each finding is a value, rendered as text, as GitHub annotations or as JSON."""

from __future__ import annotations

import enum
import json
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass


class Kind(enum.StrEnum):
    """Every kind of finding check reports; each is produced by exactly one part of `generator.check`."""

    CONTRACT_CODE = "contract-code"
    CONTRACT_STATUS = "contract-status"
    CONTRACT_REMOVED = "contract-removed"
    ENTRY_ADDED = "entry-added"
    ENTRY_REMOVED = "entry-removed"
    CODE_CHANGED = "code-changed"
    STATUS_CHANGED = "status-changed"
    MESSAGE_CHANGED = "message-changed"
    CONDITION_CHANGED = "condition-changed"
    DATA_CHANGED = "data-changed"
    CAUSE_DRAFT_CHANGED = "cause-draft-changed"
    CONSTANT_CHANGED = "constant-changed"
    RUN_TIME_VALUE_CHANGED = "run-time-value-changed"
    TOOL_ADDED = "tool-added"
    TOOL_REMOVED = "tool-removed"
    TOOL_CHANGED = "tool-changed"
    ROUTE_ERROR_ADDED = "route-error-added"
    ROUTE_ERROR_REMOVED = "route-error-removed"
    ROUTE_CHANGED = "route-changed"
    OPENAPI_UNDOCUMENTED = "openapi-undocumented"
    OPENAPI_UNRAISED = "openapi-unraised"
    CATALOG_STALE = "catalog-stale"
    PAGE_STALE = "page-stale"
    REGION_HAND_EDITED = "region-hand-edited"
    PAGE_MISSING_REGION = "page-missing-region"
    NOTES_GAP = "notes-gap"
    NOTES_ORPHAN = "notes-orphan"
    NOTES_UNKNOWN_CONSTANT = "notes-unknown-constant"
    LIKELY_SUCCESSOR = "likely-successor"
    CITATION_FILE = "citation-file"
    CITATION_SYMBOL = "citation-symbol"
    LINK_BROKEN = "link-broken"
    ANCHOR_BROKEN = "anchor-broken"
    VERIFICATION_STALE = "verification-stale"
    VERIFICATION_MISSING = "verification-missing"
    EXAMPLE_MISSING = "example-missing"
    EVIDENCE_MISSING = "evidence-missing"
    EVIDENCE_STALE = "evidence-stale"
    EVIDENCE_MISMATCH = "evidence-mismatch"
    SPEC_DIFFERENCE = "spec-difference"
    SPEC_BASELINE_STALE = "spec-baseline-stale"
    SPEC_UNKNOWN_CONDITION = "spec-unknown-condition"


# Kinds, grouped as the text report shows them (and in the order it lists them).
GROUPS: dict[str, tuple[Kind, ...]] = {
    "Contract changes (clients may break)": (Kind.CONTRACT_CODE, Kind.CONTRACT_STATUS, Kind.CONTRACT_REMOVED),
    "Catalog drift (the code changed)": (
        Kind.ENTRY_ADDED,
        Kind.ENTRY_REMOVED,
        Kind.CODE_CHANGED,
        Kind.STATUS_CHANGED,
        Kind.MESSAGE_CHANGED,
        Kind.CONDITION_CHANGED,
        Kind.DATA_CHANGED,
        Kind.CAUSE_DRAFT_CHANGED,
        Kind.CONSTANT_CHANGED,
        Kind.RUN_TIME_VALUE_CHANGED,
        Kind.TOOL_ADDED,
        Kind.TOOL_REMOVED,
        Kind.TOOL_CHANGED,
        Kind.ROUTE_ERROR_ADDED,
        Kind.ROUTE_ERROR_REMOVED,
        Kind.ROUTE_CHANGED,
        Kind.CATALOG_STALE,
    ),
    "OpenAPI document": (Kind.OPENAPI_UNDOCUMENTED, Kind.OPENAPI_UNRAISED),
    "Page drift": (Kind.PAGE_STALE, Kind.REGION_HAND_EDITED, Kind.PAGE_MISSING_REGION),
    "Notes": (Kind.NOTES_GAP, Kind.NOTES_ORPHAN, Kind.NOTES_UNKNOWN_CONSTANT, Kind.LIKELY_SUCCESSOR),
    "Citations and links": (Kind.CITATION_FILE, Kind.CITATION_SYMBOL, Kind.LINK_BROKEN, Kind.ANCHOR_BROKEN),
    "Last verified": (Kind.VERIFICATION_STALE, Kind.VERIFICATION_MISSING),
    "Evidence and specification": (
        Kind.EXAMPLE_MISSING,
        Kind.EVIDENCE_MISSING,
        Kind.EVIDENCE_STALE,
        Kind.EVIDENCE_MISMATCH,
        Kind.SPEC_DIFFERENCE,
        Kind.SPEC_BASELINE_STALE,
        Kind.SPEC_UNKNOWN_CONDITION,
    ),
}
_GROUP_OF = {kind: title for title, kinds in GROUPS.items() for kind in kinds}
_ORDER = {kind: index for index, kind in enumerate(kind for kinds in GROUPS.values() for kind in kinds)}


@dataclass(frozen=True)
class Finding:
    """One way in which the docs and the code disagree."""

    kind: Kind
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


def _sorted(findings: Iterable[Finding]) -> list[Finding]:
    return sorted(findings, key=lambda f: (_ORDER[f.kind], f.file, f.line or 0, f.subject))


def as_text(findings: Sequence[Finding], *, fix: str) -> str:
    """A grouped human report that ends with the command that fixes what can be fixed."""
    if not findings:
        return "docgen check: the docs match the code.\n"
    lines: list[str] = []
    current = None
    for finding in _sorted(findings):
        group = _GROUP_OF[finding.kind]
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
