"""Findings as values: every kind has a group, and the three renderings say the same things."""

from __future__ import annotations

import json

from generator.core.findings import GROUPS, Finding, Kind, as_github, as_json, as_text


def test_every_kind_sits_in_exactly_one_group() -> None:
    grouped = [kind for kinds in GROUPS.values() for kind in kinds]
    assert sorted(grouped) == sorted(Kind)
    assert len(grouped) == len(set(grouped)) == len(Kind)


FINDINGS = [
    Finding(Kind.NOTES_GAP, "data/x.notes.yaml", 4, "a", "no cause", "write one"),
    Finding(Kind.STATUS_CHANGED, "app.py", 9, "b", "status changed", "run it", old="404", new="410"),
    Finding(Kind.CONTRACT_CODE, "app.py", 3, "c", "code, changed", "announce it", breaking=True),
]


def test_the_text_report_groups_in_order_and_ends_with_the_fix() -> None:
    text = as_text(FINDINGS, fix="docgen extract")
    assert text.splitlines()[0] == "Contract changes (clients may break):"
    assert text.index("Catalog drift") < text.index("Notes:")
    assert "  app.py:9: status-changed: b: status changed\n      was: 404\n      now: 410\n" in text
    assert text.endswith("3 finding(s). To bring generated files up to date: docgen extract\n")
    assert as_text([], fix="x") == "docgen check: the docs match the code.\n"


def test_github_annotations_escape_what_the_format_reserves() -> None:
    lines = as_github(FINDINGS).splitlines()
    title = "title=docgen contract-code%3A c"
    assert lines[0] == f"::error file=app.py,line=3,{title}::code, changed%0Ahint: announce it"
    assert len(lines) == 3


def test_json_carries_every_field_and_the_kind_as_text() -> None:
    found = json.loads(as_json(FINDINGS))["findings"]
    assert [f["kind"] for f in found] == ["contract-code", "status-changed", "notes-gap"]
    assert found[0] == {
        "kind": "contract-code", "file": "app.py", "line": 3, "subject": "c", "message": "code, changed",
        "hint": "announce it", "old": None, "new": None, "diff": None, "breaking": True,
    }  # fmt: skip
