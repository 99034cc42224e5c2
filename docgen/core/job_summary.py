"""The whole check report in Markdown, for a GitHub job summary (`$GITHUB_STEP_SUMMARY`).

The summary is where a reviewer finds everything the annotations leave out, so it lists every finding with
its details and its diff folded, by the report's groups of kinds, and stays under GitHub's size limit.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from docgen.core.findings import Finding, group_of, in_report_order
from docgen.core.reports import closing_line, summary

SUMMARY_LIMIT = 1_000_000
"""Bytes of Markdown at most: GitHub refuses a step summary over 1 MiB."""
DIFF_LINES = 200
"""Lines of each folded diff the summary shows; the log has them all."""


def as_markdown(findings: Sequence[Finding], *, limit: int = SUMMARY_LIMIT) -> str:
    """The whole report in Markdown, for the job summary (`$GITHUB_STEP_SUMMARY`): a count per kind, then
    every finding with its details, diffs folded; past `limit` bytes, the rest is left to the log."""
    if not findings:
        return "## docgen check\n\nThe docs match the code.\n"
    lines = ["## docgen check", "", closing_line(findings), "", "| kind | findings |", "|---|---|"]
    lines += [f"| `{kind}` | {count} |" for kind, count in summary(findings, exit_code=1)["by_kind"].items()]
    size = sum(len(line.encode()) + 1 for line in lines)
    current = None
    ordered = in_report_order(findings)
    for index, finding in enumerate(ordered):
        block = _finding_block(finding)
        if group_of(finding.kind) != current:
            current = group_of(finding.kind)
            block = ["", f"### {current}", "", *block]
        size += sum(len(line.encode()) + 1 for line in block)
        if size > limit - 200:  # room for the note below
            lines += [
                "",
                f"_{len(ordered) - index} more finding(s) do not fit in a job summary: see the log._",
            ]
            break
        lines += block
    return "\n".join(lines) + "\n"


def _finding_block(finding: Finding) -> list[str]:
    where = f"{_code(finding.location)} **{finding.kind}** {_code(finding.subject)}"
    block = [f"- {where}: {finding.message}"]
    if finding.old is not None or finding.new is not None:
        block.append(f"  - was: {_code(str(finding.old))}, now: {_code(str(finding.new))}")
    block.append(f"  - hint: {finding.hint}")
    return block + (_folded_diff(finding.diff) if finding.diff else [])


def _longest_backtick_run(text: str) -> int:
    return max((len(run) for run in re.findall("`+", text)), default=0)


def _code(text: str) -> str:
    """`text` as inline code, whatever backticks it holds."""
    ticks = "`" * (_longest_backtick_run(text) + 1)
    return f"{ticks} {text} {ticks}" if ticks != "`" else f"`{text}`"


def _folded_diff(diff: str) -> list[str]:
    fence = "`" * max(3, _longest_backtick_run(diff) + 1)
    body = diff.rstrip("\n").splitlines()
    shown = body[:DIFF_LINES]
    if len(body) > DIFF_LINES:
        shown.append(f"... {len(body) - DIFF_LINES} more line(s) in the log")
    return [
        "",
        "  <details><summary>diff</summary>",
        "",
        f"  {fence}diff",
        *(f"  {line}" for line in shown),
        f"  {fence}",
        "",
        "  </details>",
        "",
    ]
