"""Spec conformance: the catalog compared, condition by condition, with a specification's classification.

`data/specs/<spec>.yaml` says how the specification classifies error conditions (a JSON-RPC error with a given
code and HTTP status, an `isError` result, or 202 Accepted), citing the section that says so. The notes map
catalog entries to those conditions (`spec:` under an entry); a condition no entry names is one the server
answers without a JSON-RPC error. `data/specs/<spec>.baseline.yaml` lists the differences accepted on purpose,
each with its reason. check fails on a difference the baseline lacks, and on a baseline entry that no longer
holds. All of it is static: the catalog and the YAML files, never the server.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import field
from typing import Any, Literal

from generator.core.models import ErrorEntry, ErrorsCatalog, entries_by_id
from generator.core.notes import Notes
from generator.core.records import record
from generator.core.schemas import validate
from generator.core.yamlio import LoadedYaml

ASPECTS = ("outcome", "code", "status", "data")
Outcome = Literal["error", "is-error-result", "accepted"]


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
    def from_data(cls, data: Mapping[str, Any]) -> Condition:
        return cls(
            id=data["id"],
            condition=data["condition"],
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

    def condition(self, condition_id: str) -> Condition | None:
        return next((c for c in self.conditions if c.id == condition_id), None)

    def condition_line(self, condition_id: str) -> int | None:
        """The line of a condition in the specification file."""
        index = next((i for i, c in enumerate(self.conditions) if c.id == condition_id), None)
        if index is None or self.document is None:
            return None
        return self.document.line(("conditions", index))

    def accepted_line(self, condition_id: str) -> int | None:
        """The line of a condition's entry in the baseline."""
        return self.baseline.line(("accepted", condition_id)) if self.baseline is not None else None


def parse_spec(name: str, loaded: LoadedYaml, baseline: LoadedYaml | None, *, baseline_file: str) -> Spec:
    """A specification from its loaded files (a missing baseline accepts nothing), checked against schemas."""
    validate(loaded, "spec", "`docgen schema spec` prints the fields a condition takes")
    accepted: dict[str, Accepted] = {}
    if baseline is not None:
        validate(baseline, "spec-baseline", "`docgen schema spec-baseline` prints the fields it takes")
        for key, value in (baseline.data.get("accepted") or {}).items():
            accepted[key] = Accepted(tuple(value["differs"]), value["reason"])
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
    )


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


def compare(catalog: ErrorsCatalog, notes: Notes, spec: Spec) -> list[Comparison]:
    """Every condition of the specification, with the entries that answer it and how they differ."""
    by_id = entries_by_id(catalog.entries)
    named = mapping(notes)
    comparisons = []
    for condition in spec.conditions:
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
