"""Findings rendered for people and tools: the text report by cause, GitHub annotations, JSON (the job
summary in Markdown is `job_summary`).

Every rendering ends with, or carries, what is actually left to do: the commands that clear the findings
they can clear, the pages to re-read and stamp, and how many findings need an edit by hand.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import asdict
from typing import Any

from docgen.core.causes import Cause, by_cause, headline
from docgen.core.diff_lines import ChangedLines
from docgen.core.evidence import PROBE
from docgen.core.findings import GROUPS, Finding, Kind, importance, in_report_order
from docgen.core.workflow_commands import escape_data, escape_property, inert, stop_commands

SCHEMA_VERSION = 1
"""The version of `--format json` output; `docgen/core/schema/check-report.schema.json` describes it."""

ANNOTATION_LIMIT = 10
"""GitHub shows at most ten error annotations per step; the rest would be dropped without a word."""

_EXTRACT = frozenset(GROUPS["Catalog drift (the code changed)"])
_RENDER = frozenset({Kind.PAGE_STALE})
_PROBE = frozenset({Kind.EVIDENCE_MISSING, Kind.EVIDENCE_STALE, Kind.EVIDENCE_MISMATCH})
_VERIFY = frozenset({Kind.VERIFICATION_STALE, Kind.VERIFICATION_MISSING})


def pages_to_verify(findings: Sequence[Finding]) -> list[str]:
    """The pages whose Last-verified stamp is stale or missing, sorted."""
    pages: set[str] = set()
    for finding in findings:
        if finding.kind in _VERIFY:
            pages.update(finding.pages or (finding.file,))
    return sorted(pages)


def next_steps(findings: Sequence[Finding]) -> list[str]:
    """What is left, in the order to do it (commands in backticks), then how many findings need an edit."""
    kinds = {finding.kind for finding in findings}
    steps = []
    typos = sum(1 for finding in findings if finding.kind is Kind.NOTES_KEY_TYPO)
    if typos:  # before any render: rendering first would publish the entries as drafts
        steps.append(f"rename the misspelt notes key{'s' if typos > 1 else ''} as the hint says")
    if kinds & _EXTRACT:
        steps.append("`docgen extract && docgen render`")
    elif kinds & _RENDER:
        steps.append("`docgen render`")
    if kinds & _PROBE:
        steps.append(f"`{_probe_of(findings)} && docgen render`")
    if kinds & _VERIFY:
        pages = pages_to_verify(findings)
        which = "the page" if len(pages) == 1 else f"the {len(pages)} pages"
        steps.append(f"re-read {which} against the changed source, then `docgen verify {' '.join(pages)}`")
    by_hand = [
        f for f in findings if f.kind not in _EXTRACT | _RENDER | _PROBE | _VERIFY | {Kind.NOTES_KEY_TYPO}
    ]
    if by_hand:
        steps.append(f"{len(by_hand)} to fix by hand (each hint says how)")
    return steps


def _probe_of(findings: Sequence[Finding]) -> str:
    """The probe command the findings' hints give (it names the project's own app), or the plain one."""
    for finding in findings:
        if finding.kind in _PROBE and (found := re.search(r"docgen probe[^`]*", finding.hint)):
            return found.group(0).strip()
    return PROBE


def closing_line(findings: Sequence[Finding]) -> str:
    """`N finding(s). Left to do: ...`, naming only what these findings need."""
    return f"{len(findings)} finding(s). " + _left(findings)


def _detail_lines(finding: Finding, *, diff: bool = True, hint: bool = True) -> list[str]:
    lines = []
    if finding.old is not None or finding.new is not None:
        lines += [f"was: {finding.old}", f"now: {finding.new}"]
    if finding.diff and diff:
        lines += finding.diff.rstrip("\n").splitlines()
    return [*lines, f"hint: {finding.hint}"] if hint else lines


def update_command(findings: Sequence[Finding]) -> str | None:
    """The one command that brings the docs up to date, or None when none does (a misspelt notes key comes
    first, as rendering before renaming it would publish its entry as a draft)."""
    kinds = {finding.kind for finding in findings}
    if Kind.NOTES_KEY_TYPO in kinds:
        return None
    if kinds & _EXTRACT:
        return "docgen extract && docgen render"
    return "docgen render" if kinds & _RENDER else None


def as_text(findings: Sequence[Finding], *, closing: bool = True) -> str:
    """The report by cause: what changed first (with `closing`, a line saying so opens the report), each
    cause with what follows from it under it; with `closing`, it ends with what is left to do, then the one
    command that brings the docs up to date."""
    if not findings:
        return "docgen check: the docs match the code.\n"
    causes = by_cause(findings)
    lines: list[str] = []
    if closing:
        first = causes[0].finding
        more = f" (and {_count(len(causes) - 1, 'more cause')})" if len(causes) > 1 else ""
        lines.append(headline(first) + more)
    for cause in causes:
        lines.append("")
        lines += _cause_lines(cause)
    if closing:
        lines.append("")
        lines.append(f"{len(findings)} finding(s) from {_count(len(causes), 'cause')}. " + _left(findings))
        command = update_command(findings)
        if command is not None:
            lines.append(command)
    return "\n".join(lines).lstrip("\n") + "\n"


def _line(finding: Finding) -> str:
    return f"{finding.location}: {finding.kind}: {finding.subject}: {finding.message}"


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"


def _left(findings: Sequence[Finding]) -> str:
    return "Left to do: " + "; then ".join(next_steps(findings))


def _cause_lines(cause: Cause) -> list[str]:
    """A cause with its details, then what follows from it: each one line with its values, its hint only
    when no finding above gave the same one, and no diff (the JSON report and the job summary have them)."""
    first = cause.finding
    lines = [_line(first)]
    lines += ["    " + line for line in _detail_lines(first)]
    if cause.follows:
        lines.append(f"    follows from it ({len(cause.follows)}):")
    hints = {first.hint}
    for finding in cause.follows:
        lines.append("      " + _line(finding))
        details = _detail_lines(finding, diff=False, hint=finding.hint not in hints)
        lines += ["          " + line for line in details]
        hints.add(finding.hint)
    return lines


def as_github(
    findings: Sequence[Finding], *, limit: int = ANNOTATION_LIMIT, changed: ChangedLines | None = None
) -> str:
    """GitHub workflow commands: one `::error` per cause (what follows from it in the same annotation, the
    most important first), at most `limit` in all; past the limit, the last annotation says how many more
    the job summary lists. With `changed` (from `--base`), only causes on a changed line are annotated,
    those in the server's source before the others (see `annotated_places`)."""
    places = (
        [cause.findings for cause in by_cause(findings)]
        if changed is None
        else annotated_places(findings, changed)
    )
    shown = places if len(places) <= limit else places[: limit - 1]
    lines = []
    for group in shown:
        first = group[0]
        place = f"file={escape_property(first.file)}"
        if first.line:
            place += f",line={first.line}"
        more = f" (+{len(group) - 1} more)" if len(group) > 1 else ""
        title = escape_property(f"docgen {first.kind}: {first.subject}{more}")
        body = "\n\n".join(
            # Diffs stay in the log and the job summary: an annotation is read beside the line it marks.
            "\n".join([f"{f.kind}: {f.subject}: {f.message}", *_detail_lines(f, diff=False)])
            for f in group
        )
        lines.append(f"::error {place},title={title}::{escape_data(body)}")
    rest = places[len(shown) :]
    if rest:
        count = sum(len(group) for group in rest)
        title = escape_property("docgen check: more findings")
        body = f"{count} more finding(s) at {len(rest)} more place(s): the job summary and the log list all"
        lines.append(f"::error title={title}::{escape_data(body)}")
    return "\n".join(lines) + ("\n" if lines else "")


def annotated_places(findings: Sequence[Finding], changed: ChangedLines) -> list[list[Finding]]:
    """The causes `as_github` annotates when it knows the changed lines, each with what follows from it:
    those whose cause stands on a line the pull request changed (GitHub shows an annotation elsewhere apart
    from the diff, where nobody reviews), or, failing that, one of what follows; the annotation stands on
    that line. A place in Python source comes first, since a changed source line is the cause and a page or
    data line what follows from it; otherwise most important first."""
    places = []
    for cause in by_cause(findings):
        on_changed = [f for f in cause.findings if changed.touches(f.file, f.line)]
        if on_changed:
            first = on_changed[0]
            places.append([first, *(f for f in cause.findings if f is not first)])
    return sorted(places, key=lambda group: (not group[0].file.endswith(".py"), importance(group[0])))


def not_annotated(findings: Sequence[Finding], changed: ChangedLines) -> str:
    """The log line that counts the findings `annotated_places` leaves to the text report; empty if none."""
    left = len(findings) - sum(len(group) for group in annotated_places(findings, changed))
    if not left:
        return ""
    return (
        f"docgen check: {left} of {len(findings)} finding(s) not annotated, as neither they nor their cause "
        f"are on a line changed since {changed.ref}; the report below lists every finding\n"
    )


def as_github_log(
    findings: Sequence[Finding], *, token: str | None = None, changed: ChangedLines | None = None
) -> str:
    """What `docgen check --format github` prints: the annotations (with `changed`, only on changed lines,
    then a line counting the others), then (with findings) the text report between `::stop-commands::` and
    its random token, every line of it inert, so that nothing a pull request wrote into a diff, a name or a
    value runs as a workflow command (see `workflow_commands`)."""
    if not findings:
        return as_github(findings)
    count = inert(not_annotated(findings, changed)) if changed is not None else ""
    return as_github(findings, changed=changed) + count + stop_commands(inert(as_text(findings)), token)


def summary(findings: Sequence[Finding], *, exit_code: int) -> dict[str, Any]:
    """Counts per kind (in report order), the exit code, and what is left to do."""
    counts: dict[str, int] = {}
    for finding in in_report_order(findings):
        counts[finding.kind.value] = counts.get(finding.kind.value, 0) + 1
    return {
        "total": len(findings),
        "causes": len(by_cause(findings)),
        "by_kind": counts,
        "breaking": sum(1 for f in findings if f.breaking),
        "exit_code": exit_code,
        "next_steps": next_steps(findings),
    }


def as_json(findings: Sequence[Finding], *, exit_code: int) -> str:
    """The report as one JSON document for other tools (schema: `check-report.schema.json`)."""
    document = {
        "schema_version": SCHEMA_VERSION,
        "summary": summary(findings, exit_code=exit_code),
        "findings": _with_causes(findings),
    }
    # `#` only ever stands inside a JSON string, where `\u0023` is the same character: the document reads
    # the same, and no line of it holds the `##[` that GitHub's runner reads as a command.
    return json.dumps(document, indent=2, sort_keys=True).replace("##[", "#\\u0023[") + "\n"


def _with_causes(findings: Sequence[Finding]) -> list[dict[str, Any]]:
    """Every finding in report order, each with `cause`: the index in that list of the finding it follows
    from, or None for a cause (or a finding on its own)."""
    ordered = in_report_order(findings)
    position = {id(finding): index for index, finding in enumerate(ordered)}
    cause_of: dict[int, int | None] = {}
    for cause in by_cause(ordered):
        cause_of[id(cause.finding)] = None
        cause_of.update((id(finding), position[id(cause.finding)]) for finding in cause.follows)
    return [{**asdict(finding), "cause": cause_of[id(finding)]} for finding in ordered]
