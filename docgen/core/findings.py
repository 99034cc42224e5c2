"""Drift as data: each finding is a value (`docgen.core.reports` renders them as text, GitHub
annotations, Markdown or JSON)."""

from __future__ import annotations

import enum
from collections.abc import Iterable

from docgen.core.records import record


class Kind(enum.StrEnum):
    """Every kind of finding check reports; each is produced by exactly one part of `docgen.check`."""

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
    SITE_MOVED = "site-moved"
    RAISE_ADDED = "raise-added"
    RAISE_REMOVED = "raise-removed"
    RAISE_CHANGED = "raise-changed"
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
    SOURCE_UNFOLLOWED = "source-unfollowed"
    PAGE_STALE = "page-stale"
    REGION_HAND_EDITED = "region-hand-edited"
    PAGE_MISSING_REGION = "page-missing-region"
    NOTES_GAP = "notes-gap"
    NOTES_ORPHAN = "notes-orphan"
    NOTES_KEY_TYPO = "notes-key-typo"
    NOTES_UNKNOWN_CONSTANT = "notes-unknown-constant"
    RUN_TIME_VALUE_UNSTATED = "run-time-value-unstated"
    RUN_TIME_VALUE_STALE = "run-time-value-stale"
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
    BUILD_RUNS_CODE = "build-runs-code"
    CREDENTIAL_PUBLISHED = "credential-published"


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
        Kind.SITE_MOVED,
        Kind.RAISE_ADDED,
        Kind.RAISE_REMOVED,
        Kind.RAISE_CHANGED,
        Kind.CONSTANT_CHANGED,
        Kind.RUN_TIME_VALUE_CHANGED,
        Kind.TOOL_ADDED,
        Kind.TOOL_REMOVED,
        Kind.TOOL_CHANGED,
        Kind.ROUTE_ERROR_ADDED,
        Kind.ROUTE_ERROR_REMOVED,
        Kind.ROUTE_CHANGED,
        Kind.CATALOG_STALE,
        Kind.SOURCE_UNFOLLOWED,
    ),
    "OpenAPI document": (Kind.OPENAPI_UNDOCUMENTED, Kind.OPENAPI_UNRAISED),
    "Page drift": (Kind.PAGE_STALE, Kind.REGION_HAND_EDITED, Kind.PAGE_MISSING_REGION),
    "Published values": (Kind.CREDENTIAL_PUBLISHED,),
    "Notes": (
        Kind.NOTES_GAP,
        Kind.NOTES_ORPHAN,
        Kind.NOTES_KEY_TYPO,
        Kind.NOTES_UNKNOWN_CONSTANT,
        Kind.RUN_TIME_VALUE_UNSTATED,
        Kind.RUN_TIME_VALUE_STALE,
        Kind.LIKELY_SUCCESSOR,
    ),
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
    "Site build (mkdocs.yml)": (Kind.BUILD_RUNS_CODE,),
}
_GROUP_OF = {kind: title for title, kinds in GROUPS.items() for kind in kinds}
_ORDER = {kind: index for index, kind in enumerate(kind for kinds in GROUPS.values() for kind in kinds)}


@record
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
    pages: tuple[str, ...] = ()
    """The pages a finding about source concerns (a changed symbol that several pages cite)."""

    @property
    def location(self) -> str:
        return f"{self.file}:{self.line}" if self.line else self.file


def group_of(kind: Kind) -> str:
    """The title of the report group `kind` belongs to."""
    return _GROUP_OF[kind]


def in_report_order(findings: Iterable[Finding]) -> list[Finding]:
    """Findings as the text report lists them: by group, kind, file, line and subject."""
    return sorted(findings, key=lambda f: (_ORDER[f.kind], f.file, f.line or 0, f.subject))


def importance(finding: Finding) -> tuple[bool, int, str, int, str]:
    """A sort key, most important first: breaking changes, then by group and kind in report order."""
    return (not finding.breaking, _ORDER[finding.kind], finding.file, finding.line or 0, finding.subject)
