"""Findings as values: every kind has a group, and every rendering says the same things."""

from __future__ import annotations

import json

import jsonschema

from docgen.core.findings import GROUPS, Finding, Kind
from docgen.core.job_summary import as_markdown
from docgen.core.reports import as_github, as_json, as_text, closing_line, next_steps
from docgen.core.schemas import SCHEMA_DIR


def test_every_kind_sits_in_exactly_one_group() -> None:
    grouped = [kind for kinds in GROUPS.values() for kind in kinds]
    assert sorted(grouped) == sorted(Kind)
    assert len(grouped) == len(set(grouped)) == len(Kind)


FINDINGS = [
    Finding(Kind.NOTES_GAP, "data/x.notes.yaml", 4, "a", "no cause", "write one"),
    Finding(Kind.STATUS_CHANGED, "app.py", 9, "b", "status changed", "run it", old="404", new="410"),
    Finding(Kind.CONTRACT_CODE, "app.py", 3, "c", "code, changed", "announce it", breaking=True),
]


def test_the_text_report_opens_with_what_changed_and_ends_with_the_one_command() -> None:
    # Two changes at two source lines are two causes, the breaking one first; the notes' gap stands alone.
    assert as_text(FINDINGS) == (
        "app.py:3: c: code, changed (and 2 more causes)\n"
        "\n"
        "app.py:3: contract-code: c: code, changed\n"
        "    hint: announce it\n"
        "\n"
        "app.py:9: status-changed: b: status changed\n"
        "    was: 404\n"
        "    now: 410\n"
        "    hint: run it\n"
        "\n"
        "data/x.notes.yaml:4: notes-gap: a: no cause\n"
        "    hint: write one\n"
        "\n"
        "3 finding(s) from 3 causes. Left to do: `docgen extract && docgen render`; "
        "then 2 to fix by hand (each hint says how)\n"
        "docgen extract && docgen render\n"
    )
    assert as_text([]) == "docgen check: the docs match the code.\n"


def test_what_follows_from_a_change_is_listed_under_it_without_repeating_a_hint() -> None:
    findings = [
        Finding(Kind.PAGE_STALE, "docs/a.md", 9, "table", "stale", "render", diff="-| `404` |\n+| `410` |\n"),
        Finding(Kind.PAGE_STALE, "docs/a.md", 30, "examples", "stale", "render", diff="-x\n+y\n"),
        Finding(Kind.STATUS_CHANGED, "app.py", 9, "b", "status changed", "extract", old="404", new="410"),
        Finding(Kind.SPEC_DIFFERENCE, "app.py", 9, "b", "a MUST differs", "conform", old="404", new="410"),
    ]
    assert as_text(findings) == (
        "app.py:9: b: status 404 -> 410\n"
        "\n"
        "app.py:9: status-changed: b: status changed\n"
        "    was: 404\n"
        "    now: 410\n"
        "    hint: extract\n"
        "    follows from it (3):\n"
        "      app.py:9: spec-difference: b: a MUST differs\n"
        "          was: 404\n"
        "          now: 410\n"
        "          hint: conform\n"
        "      docs/a.md:9: page-stale: table: stale\n"
        "          hint: render\n"
        "      docs/a.md:30: page-stale: examples: stale\n"
        "\n"
        "4 finding(s) from 1 cause. Left to do: `docgen extract && docgen render`; "
        "then 1 to fix by hand (each hint says how)\n"
        "docgen extract && docgen render\n"
    )
    # Only the command for pages left: the last line says it; with nothing to run, the closing line is last.
    assert as_text(findings[:1]).splitlines()[-1] == "docgen render"
    assert (
        as_text(findings[3:]).splitlines()[-1]
        == "1 finding(s) from 1 cause. Left to do: 1 to fix by hand (each hint says how)"
    )


def _stale(page: str) -> Finding:
    return Finding(Kind.VERIFICATION_MISSING, page, 5, page, "not stamped", "stamp it")


def test_the_closing_line_names_only_what_is_left() -> None:
    # After extract and render, only stamping is left: the line says so, and names the pages.
    pages = [_stale("docs/b.md"), _stale("docs/a.md")]
    assert closing_line(pages) == (
        "2 finding(s). Left to do: re-read the 2 pages against the changed source, then "
        "`docgen verify docs/a.md docs/b.md`"
    )
    stale_region = Finding(Kind.PAGE_STALE, "docs/a.md", 9, "table", "stale", "render")
    assert next_steps([stale_region]) == ["`docgen render`"]
    changed_symbol = Finding(
        Kind.VERIFICATION_STALE,
        "app.py",
        3,
        "app.py:f",
        "changed",
        "re-read",
        pages=("docs/x.md", "docs/y.md"),
    )
    assert next_steps([changed_symbol])[-1].endswith("`docgen verify docs/x.md docs/y.md`")


def test_github_annotations_escape_what_the_format_reserves() -> None:
    lines = as_github(FINDINGS).splitlines()
    title = "title=docgen contract-code%3A c"
    assert (
        lines[0] == f"::error file=app.py,line=3,{title}::contract-code: c: code, changed%0Ahint: announce it"
    )
    assert len(lines) == 3


def test_github_annotations_are_one_per_cause_the_cause_first() -> None:
    same_line = [
        Finding(Kind.CONTRACT_STATUS, "app.py", 9, "b", "a client may break", "announce", breaking=True),
        Finding(Kind.STATUS_CHANGED, "app.py", 9, "b", "status changed", "extract", old="404", new="410"),
        Finding(Kind.PAGE_STALE, "docs/a.md", 4, "table", "stale", "render"),
    ]
    [line] = as_github(same_line).splitlines()
    # The change in the source is the cause; against the base, the contract change follows from it.
    assert line.startswith("::error file=app.py,line=9,title=docgen status-changed%3A b (+2 more)::")
    assert (
        line.index("status-changed: b") < line.index("contract-status: b") < line.index("page-stale: table")
    )


def test_json_carries_a_summary_and_every_field_and_matches_its_schema() -> None:
    document = json.loads(as_json(FINDINGS, exit_code=1))
    schema = json.loads((SCHEMA_DIR / "check-report.schema.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(schema).validate(document)
    assert document["schema_version"] == 1
    assert document["summary"] == {
        "total": 3,
        "causes": 3,
        "by_kind": {"contract-code": 1, "status-changed": 1, "notes-gap": 1},
        "breaking": 1,
        "exit_code": 1,
        "next_steps": ["`docgen extract && docgen render`", "2 to fix by hand (each hint says how)"],
    }
    found = document["findings"]
    assert [f["kind"] for f in found] == ["contract-code", "status-changed", "notes-gap"]
    assert found[0] == {
        "kind": "contract-code", "file": "app.py", "line": 3, "subject": "c", "message": "code, changed",
        "hint": "announce it", "old": None, "new": None, "diff": None, "breaking": True, "pages": [],
        "cause": None,
    }  # fmt: skip
    clean = json.loads(as_json([], exit_code=0))
    jsonschema.Draft202012Validator(schema).validate(clean)
    assert clean["summary"]["total"] == 0


def test_the_schema_knows_every_kind() -> None:
    schema = json.loads((SCHEMA_DIR / "check-report.schema.json").read_text(encoding="utf-8"))
    assert sorted(schema["$defs"]["kind"]["enum"]) == sorted(kind.value for kind in Kind)


def test_the_markdown_summary_folds_diffs_in_a_fence_longer_than_any_inside() -> None:
    edited = Finding(Kind.REGION_HAND_EDITED, "docs/a.md", 9, "t", "edited", "move it", diff="-```x\n+```y\n")
    markdown = as_markdown([edited])
    assert markdown.startswith("## docgen check\n\n1 finding(s). Left to do: 1 to fix by hand")
    assert "| `region-hand-edited` | 1 |" in markdown
    assert "  ````diff\n  -```x\n  +```y\n  ````\n" in markdown


def test_annotations_leave_diffs_to_the_log_and_the_summary() -> None:
    edited = Finding(Kind.PAGE_STALE, "docs/a.md", 9, "t", "stale", "render", diff="-old line\n+new line\n")
    [line] = as_github([edited]).splitlines()
    assert "old line" not in line
    assert "old line" in as_text([edited]) and "old line" in as_markdown([edited])


def test_a_summary_too_large_for_github_is_cut_between_findings_and_says_so() -> None:
    many = [
        Finding(Kind.NOTES_GAP, "data/x.notes.yaml", n, f"e{n}", "x" * 1000, "write one")
        for n in range(1, 50)
    ]
    markdown = as_markdown(many, limit=10_000)
    assert len(markdown.encode()) <= 10_000
    shown = sum(1 for line in markdown.splitlines() if line.startswith("- `"))
    assert 0 < shown < 49
    assert markdown.endswith(f"_{49 - shown} more finding(s) do not fit in a job summary: see the log._\n")


def test_inline_code_in_the_summary_survives_backticks() -> None:
    odd = Finding(Kind.NOTES_ORPHAN, "data/x.notes.yaml", 2, "a`b", "gone", "delete it")
    assert "- `data/x.notes.yaml:2` **notes-orphan** `` a`b ``: gone" in as_markdown([odd])
