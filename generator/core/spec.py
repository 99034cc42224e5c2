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
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from generator.core import catalog as catalogs
from generator.core.errors import CatalogError

if TYPE_CHECKING:  # the site build compares with the spec without loading griffe
    pass

ASPECTS = ("outcome", "code", "status", "data")


@dataclass(frozen=True)
class Spec:
    """A specification's classification and the accepted differences, as loaded."""

    name: str
    data: Mapping[str, Any]
    accepted: Mapping[str, Mapping[str, Any]]
    spec_file: str
    baseline_file: str

    def condition(self, condition_id: str) -> Mapping[str, Any] | None:
        return next((c for c in self.data["conditions"] if c["id"] == condition_id), None)


@dataclass(frozen=True)
class Comparison:
    """One condition of the specification against the entries that answer it here."""

    condition: Mapping[str, Any]
    entries: tuple[Mapping[str, Any], ...]
    differs: tuple[str, ...]
    """The aspects in which this server departs from the specification (empty: it agrees)."""


def spec_files(data_dir: Path, name: str) -> tuple[Path, Path]:
    """The classification and the baseline of specification `name`."""
    return data_dir / "specs" / f"{name}.yaml", data_dir / "specs" / f"{name}.baseline.yaml"


def load_spec(settings_root: Path, data_dir: Path, name: str, *, named_in: str) -> Spec:
    """Read and validate a specification and its baseline (a missing baseline accepts nothing)."""
    spec_path, baseline_path = spec_files(data_dir, name)
    shown = _relative(spec_path, settings_root)
    shown_baseline = _relative(baseline_path, settings_root)
    if not spec_path.is_file():
        raise CatalogError(
            f"the notes name specification {name!r}, but {shown} does not exist",
            file=named_in,
            hint="fix `spec:` in the notes, or add the classification file",
        )
    hint = "see data/schema/spec.schema.json for the fields a condition takes"
    data = catalogs.read_checked(spec_path, shown, "spec", hint)
    accepted: Mapping[str, Mapping[str, Any]] = {}
    if baseline_path.is_file():
        hint = "see data/schema/spec-baseline.schema.json"
        baseline = catalogs.read_checked(baseline_path, shown_baseline, "spec-baseline", hint)
        accepted = baseline.get("accepted") or {}
    return Spec(name, data, accepted, shown, shown_baseline)


def _relative(path: Path, root: Path) -> str:
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return path.as_posix()


def mapping(notes: Mapping[str, Any]) -> dict[str, list[str]]:
    """Condition id -> ids of the entries whose notes name it."""
    found: dict[str, list[str]] = {}
    for entry_id, fields in (notes.get("entries") or {}).items():
        for condition_id in (fields or {}).get("spec") or []:
            found.setdefault(condition_id, []).append(entry_id)
    return found


def compare(catalog: Mapping[str, Any], notes: Mapping[str, Any], spec: Spec) -> list[Comparison]:
    """Every condition of the specification, with the entries that answer it and how they differ."""
    by_id = {entry["id"]: entry for entry in catalog.get("entries", [])}
    named = mapping(notes)
    comparisons = []
    for condition in spec.data["conditions"]:
        entries = tuple(by_id[i] for i in named.get(condition["id"], []) if i in by_id)
        comparisons.append(Comparison(condition, entries, differences(condition, entries)))
    return comparisons


def differences(condition: Mapping[str, Any], entries: Sequence[Mapping[str, Any]]) -> tuple[str, ...]:
    """The aspects in which `entries` answer `condition` otherwise than the specification says."""
    if condition["outcome"] != "error" or not entries:
        # A result or a 202 wants no error entry; an error wants at least one.
        return ("outcome",) if (condition["outcome"] == "error") != bool(entries) else ()
    found = set()
    for entry in entries:
        if condition.get("code") is not None and entry["code"] != condition["code"]:
            found.add("code")
        if condition.get("status") is not None and entry["status"] != condition["status"]:
            found.add("status")
        if set(condition.get("data") or []) - set(entry.get("data_keys") or []):
            found.add("data")
    return tuple(aspect for aspect in ASPECTS if aspect in found)


def here(comparison: Comparison) -> str:
    """What this server does, in a few words of Markdown."""
    if not comparison.entries:
        return "no JSON-RPC error (no row of the table)"
    answers = []
    for entry in comparison.entries:
        text = f"`{entry['code']}` at HTTP `{entry['status']}`"
        if "data" in comparison.differs or comparison.condition.get("data"):
            keys = ", ".join(f"`{key}`" for key in entry.get("data_keys") or []) or "nothing"
            text += f", `error.data` with {keys}"
        answers.append(text)
    return "; ".join(dict.fromkeys(answers))


def required(condition: Mapping[str, Any]) -> str:
    """What the specification asks for, in a few words of Markdown."""
    if condition["outcome"] == "is-error-result":
        return "a result with `isError: true`"
    if condition["outcome"] == "accepted":
        return "HTTP `202 Accepted` with no body"
    parts = []
    if condition.get("code") is not None:
        parts.append(f"`{condition['code']}`")
    if condition.get("status") is not None:
        parts.append(f"HTTP `{condition['status']}`")
    if condition.get("data"):
        parts.append("`error.data` with " + ", ".join(f"`{key}`" for key in condition["data"]))
    return "a JSON-RPC error: " + ", ".join(parts) if parts else "a JSON-RPC error, no code or status fixed"
