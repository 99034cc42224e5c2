"""Spec conformance: the catalog compared, condition by condition, with a specification's classification.

`data/specs/<spec>.yaml` says how the specification classifies error conditions (a JSON-RPC error with a given
code and HTTP status, an `isError` result, or 202 Accepted), citing the section that says so. The notes map
catalog entries to those conditions (`spec:` under an entry); a condition no entry names is one the server
answers without a JSON-RPC error. `data/specs/<spec>.baseline.yaml` lists the differences accepted on purpose,
each with its reason. check fails on a difference the baseline lacks, and on a baseline entry that no longer
holds. All of it is static: the catalog and the YAML files, never the server.

A specification file classifies the conditions for its own revision (`revision:`) and, where the server still
serves clients of older ones, for each revision named in `earlier:` too: every condition says under `earlier:`
how that revision classifies it, or `not-defined`. The baseline accepts differences per revision the same way
(`earlier:` there maps a revision to its own accepted differences). So the next revision is a new file whose
conditions are reviewed one by one against this one, and older revisions stay compared while they are served.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import field
from typing import Any, Literal

from docgen.core.errors import CatalogError
from docgen.core.models import ErrorEntry, ErrorsCatalog, entries_by_id
from docgen.core.notes import Notes
from docgen.core.records import record
from docgen.core.schemas import validate
from docgen.core.yamlio import LoadedYaml

ASPECTS = ("outcome", "code", "status", "data")
Outcome = Literal["error", "is-error-result", "accepted"]
NOT_DEFINED = "not-defined"
"""What a condition says under `earlier:` for a revision that has no such rule."""


@record
class Citation:
    """Where the specification says it."""

    url: str
    section: str


@record
class Condition:
    """One error condition as the specification classifies it."""

    id: str
    condition: str
    outcome: Outcome
    level: str
    source: Citation
    code: int | None = None
    status: int | None = None
    data: tuple[str, ...] = ()
    """Keys the specification requires in `error.data`."""
    note: str | None = None

    @classmethod
    def from_data(cls, data: Mapping[str, Any], parent: Mapping[str, Any] | None = None) -> Condition:
        """A condition as its own revision classifies it; with `parent`, `data` is how an earlier revision
        classifies the parent condition (same id and wording)."""
        named = parent if parent is not None else data
        return cls(
            id=named["id"],
            condition=named["condition"],
            outcome=data["outcome"],
            level=data["level"],
            source=Citation(data["source"]["url"], data["source"]["section"]),
            code=data.get("code"),
            status=data.get("status"),
            data=tuple(data.get("data") or ()),
            note=data.get("note"),
        )


@record
class Accepted:
    """A difference from the specification kept on purpose."""

    differs: tuple[str, ...]
    reason: str


@record
class Spec:
    """A specification's classification and the accepted differences, as loaded."""

    name: str
    title: str
    url: str
    conditions: tuple[Condition, ...]
    accepted: Mapping[str, Accepted]
    spec_file: str
    baseline_file: str
    document: LoadedYaml | None = field(default=None, compare=False)
    baseline: LoadedYaml | None = field(default=None, compare=False)
    revision: str | None = None
    """The revision `conditions` classify, when the file names it."""
    earlier: Mapping[str, tuple[Condition, ...]] = field(default_factory=dict)
    """Earlier revision -> its classification of every condition it defines, in the file's order."""
    earlier_accepted: Mapping[str, Mapping[str, Accepted]] = field(default_factory=dict)
    """Earlier revision -> the differences accepted against it."""

    def condition(self, condition_id: str) -> Condition | None:
        return next((c for c in self.conditions if c.id == condition_id), None)

    def conditions_at(self, revision: str | None) -> tuple[Condition, ...]:
        """The conditions as `revision` classifies them (None: the file's own revision)."""
        return self.conditions if revision is None else self.earlier[revision]

    def accepted_at(self, revision: str | None) -> Mapping[str, Accepted]:
        """The differences accepted against `revision` (None: the file's own revision)."""
        return self.accepted if revision is None else self.earlier_accepted.get(revision, {})

    def condition_line(self, condition_id: str) -> int | None:
        """The line of a condition in the specification file."""
        index = next((i for i, c in enumerate(self.conditions) if c.id == condition_id), None)
        if index is None or self.document is None:
            return None
        return self.document.line(("conditions", index))

    def accepted_line(self, condition_id: str, revision: str | None = None) -> int | None:
        """The line of a condition's entry in the baseline (under `earlier:` for an earlier revision)."""
        path = ("accepted", condition_id) if revision is None else ("earlier", revision, condition_id)
        return self.baseline.line(path) if self.baseline is not None else None


def parse_spec(name: str, loaded: LoadedYaml, baseline: LoadedYaml | None, *, baseline_file: str) -> Spec:
    """A specification from its loaded files (a missing baseline accepts nothing), checked against schemas."""
    validate(loaded, "spec", "`docgen schema spec` prints the fields a condition takes")
    accepted: dict[str, Accepted] = {}
    earlier_accepted: dict[str, dict[str, Accepted]] = {}
    if baseline is not None:
        validate(baseline, "spec-baseline", "`docgen schema spec-baseline` prints the fields it takes")
        accepted = _accepted(baseline.data.get("accepted"))
        for revision, entries in (baseline.data.get("earlier") or {}).items():
            earlier_accepted[revision] = _accepted(entries)
    data: Mapping[str, Any] = loaded.data
    return Spec(
        name=name,
        title=data["title"],
        url=data["url"],
        conditions=tuple(Condition.from_data(condition) for condition in data["conditions"]),
        accepted=accepted,
        spec_file=loaded.file,
        baseline_file=baseline_file,
        document=loaded,
        baseline=baseline,
        revision=data.get("revision"),
        earlier={revision: _earlier(loaded, revision) for revision in data.get("earlier") or ()},
        earlier_accepted=earlier_accepted,
    )


def _accepted(entries: Mapping[str, Any] | None) -> dict[str, Accepted]:
    return {key: Accepted(tuple(value["differs"]), value["reason"]) for key, value in (entries or {}).items()}


def _earlier(loaded: LoadedYaml, revision: str) -> tuple[Condition, ...]:
    """How `revision` classifies each condition; a located error for a condition that does not say."""
    found = []
    for index, condition in enumerate(loaded.data["conditions"]):
        classified = (condition.get("earlier") or {}).get(revision)
        if classified is None:
            raise CatalogError(
                f"condition {condition['id']!r} does not say how {revision} classifies it",
                file=loaded.file,
                line=loaded.line(("conditions", index)),
                hint=f"add `{revision}:` under its `earlier:`, a classification or `{NOT_DEFINED}`",
            )
        if classified != NOT_DEFINED:
            found.append(Condition.from_data(classified, parent=condition))
    return tuple(found)


@record
class Comparison:
    """One condition of the specification against the entries that answer it here."""

    condition: Condition
    entries: tuple[ErrorEntry, ...]
    differs: tuple[str, ...]
    """The aspects in which this server departs from the specification (empty: it agrees)."""


def mapping(notes: Notes) -> dict[str, list[str]]:
    """Condition id -> ids of the entries whose notes name it."""
    found: dict[str, list[str]] = {}
    for entry_id, fields in notes.entries.items():
        for condition_id in fields.spec:
            found.setdefault(condition_id, []).append(entry_id)
    return found


def compare(
    catalog: ErrorsCatalog, notes: Notes, spec: Spec, revision: str | None = None
) -> list[Comparison]:
    """Every condition `revision` of the specification defines (None: the file's own revision), with the
    entries that answer it and how they differ."""
    by_id = entries_by_id(catalog.entries)
    named = mapping(notes)
    comparisons = []
    for condition in spec.conditions_at(revision):
        entries = tuple(by_id[i] for i in named.get(condition.id, []) if i in by_id)
        comparisons.append(Comparison(condition, entries, differences(condition, entries)))
    return comparisons


def differences(condition: Condition, entries: Sequence[ErrorEntry]) -> tuple[str, ...]:
    """The aspects in which `entries` answer `condition` otherwise than the specification says."""
    if condition.outcome != "error" or not entries:
        # A result or a 202 wants no error entry; an error wants at least one.
        return ("outcome",) if (condition.outcome == "error") != bool(entries) else ()
    found = set()
    for entry in entries:
        if condition.code is not None and entry.code != condition.code:
            found.add("code")
        if condition.status is not None and entry.status != condition.status:
            found.add("status")
        if set(condition.data) - set(entry.data_keys):
            found.add("data")
    return tuple(aspect for aspect in ASPECTS if aspect in found)


def here(comparison: Comparison) -> str:
    """What this server does, in a few words of Markdown."""
    if not comparison.entries:
        return "no JSON-RPC error (no row of the table)"
    answers = []
    for entry in comparison.entries:
        text = f"`{entry.code}` at HTTP `{entry.status}`"
        if "data" in comparison.differs or comparison.condition.data:
            keys = ", ".join(f"`{key}`" for key in entry.data_keys) or "nothing"
            text += f", `error.data` with {keys}"
        answers.append(text)
    return "; ".join(dict.fromkeys(answers))


def required(condition: Condition) -> str:
    """What the specification asks for, in a few words of Markdown."""
    if condition.outcome == "is-error-result":
        return "a result with `isError: true`"
    if condition.outcome == "accepted":
        return "HTTP `202 Accepted` with no body"
    parts = []
    if condition.code is not None:
        parts.append(f"`{condition.code}`")
    if condition.status is not None:
        parts.append(f"HTTP `{condition.status}`")
    if condition.data:
        parts.append("`error.data` with " + ", ".join(f"`{key}`" for key in condition.data))
    return "a JSON-RPC error: " + ", ".join(parts) if parts else "a JSON-RPC error, no code or status fixed"
