"""Findings grouped by cause, as values: which finding follows from which change, and which stand alone."""

from __future__ import annotations

import json

from docgen.core.causes import Cause, by_cause, headline
from docgen.core.findings import Finding, Kind
from docgen.core.reports import as_json


def _status(line: int, entry: str) -> Finding:
    return Finding(
        Kind.STATUS_CHANGED, "app.py", line, entry, "status changed", "extract", old="404", new="400"
    )


def _stamp(line: int, symbol: str) -> Finding:
    return Finding(Kind.VERIFICATION_STALE, "app.py", line, f"app.py:{symbol}", "changed", "re-read")


def _region(name: str, diff: str) -> Finding:
    return Finding(Kind.PAGE_STALE, "docs/a.md", 10, name, "stale", "render", diff=diff)


def test_each_change_keeps_what_names_it_and_the_stamp_of_the_symbol_it_sits_in() -> None:
    first, second = _status(20, "not-found"), _status(50, "gone")
    evidence = Finding(Kind.EVIDENCE_STALE, "data/e.yaml", 3, "app.py:handle", "changed", "probe")
    mismatch = Finding(Kind.EVIDENCE_MISMATCH, "data/e.yaml", 9, "gone", "answered 404", "probe")
    table = _region("table", '-| <a id="err-gone"></a> | `404` |\n+| <a id="err-gone"></a> | `400` |\n')
    header = _region("header", "-all ten rows\n+nine of the ten rows\n")
    findings = [header, table, mismatch, evidence, _stamp(40, "handle"), _stamp(10, "route"), first, second]
    assert by_cause(findings) == [
        # The stamp at line 10 covers the first change below it; the one at 40 and the evidence that
        # borrows its line, the second. The header names no entry: with two causes, it stands alone.
        Cause(first, (_stamp(10, "route"),)),
        Cause(second, (table, _stamp(40, "handle"), evidence, mismatch)),
        Cause(header, ()),
    ]


def test_an_entry_id_counts_only_as_a_whole_word_or_an_anchor() -> None:
    found = _status(20, "found")
    other = _status(30, "gone")
    region = _region("table", "-[x](#err-not-found) not-found found-it\n+[y](#err-not-found)\n")
    # `found` stands inside `not-found` and `found-it` only: the region does not follow from that change.
    assert [len(cause.follows) for cause in by_cause([found, other, region])] == [0, 0, 0]
    named = _region("table", "-[x](#err-found)\n+[y](#err-found)\n")
    assert by_cause([found, other, named])[0] == Cause(found, (named,))


def test_the_change_in_the_source_is_the_cause_and_the_broken_must_comes_first_under_it() -> None:
    contract = Finding(
        Kind.CONTRACT_STATUS, "app.py", 20, "x", "clients may break", "announce", breaking=True
    )
    spec = Finding(Kind.SPEC_DIFFERENCE, "app.py", 20, "x", "a MUST differs", "conform")
    gap = Finding(Kind.NOTES_GAP, "data/n.yaml", 4, "y", "no cause", "write one")
    orphan = Finding(Kind.NOTES_ORPHAN, "data/n.yaml", 4, "z", "no entry", "remove it")
    assert by_cause([gap, spec, contract, orphan, _status(20, "x")]) == [
        Cause(_status(20, "x"), (spec, contract)),
        Cause(gap, (orphan,)),  # not a change in the source: findings at one line stand together
    ]
    # Once the catalog is up to date, the contract change against the base is the cause itself.
    assert by_cause([spec, contract]) == [Cause(contract, (spec,))]


def test_a_finding_without_a_line_is_a_place_of_its_own() -> None:
    one = Finding(Kind.CATALOG_STALE, "data/a.yaml", None, "a", "missing", "extract")
    two = Finding(Kind.LINK_BROKEN, "data/a.yaml", None, "b", "broken", "fix it")
    assert [cause.follows for cause in by_cause([one, two])] == [(), ()]


def test_a_headline_says_what_changed() -> None:
    assert headline(_status(20, "x")) == "app.py:20: x: status 404 -> 400"
    gap = Finding(Kind.NOTES_GAP, "data/n.yaml", 4, "y", "no cause", "write one")
    assert headline(gap) == "data/n.yaml:4: y: no cause"


def test_json_links_each_finding_to_its_cause_by_index() -> None:
    spec = Finding(Kind.SPEC_DIFFERENCE, "app.py", 20, "x", "a MUST differs", "conform")
    gap = Finding(Kind.NOTES_GAP, "data/n.yaml", 4, "y", "no cause", "write one")
    document = json.loads(as_json([spec, gap, _status(20, "x")], exit_code=1))
    found = [(f["kind"], f["cause"]) for f in document["findings"]]
    assert found == [("status-changed", None), ("notes-gap", None), ("spec-difference", 0)]
    assert document["summary"]["causes"] == 2
