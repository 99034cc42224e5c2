"""Stable entry ids: an entry keeps its id (and so its editors' notes) across edits of the backend."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
import yaml

from docgen.core.models import ErrorEntry
from docgen.extract.identity import (
    LikelySuccessor,
    _matched_ids,
    _unchanged,
    assign_ids,
    canonical_expression,
    slug,
)
from docgen.extract.sites import ErrorSite
from docgen.shell.cli import main
from tests.helpers import make_project

MODULE_NAMES = frozenset({"TOOLS", "limiter", "_rpc_error"})


def site(
    message: str, *, function: str = "endpoint", conditions: Sequence[str] = (), **facts: Any
) -> ErrorSite:
    """A call site with defaults for everything a test does not care about; its entry has no id yet, as
    extraction builds it."""
    values: dict[str, Any] = {"file": "app/server.py", "code": -32600, "status": 400, "path": (function,)}
    values.update(facts)
    entry = ErrorEntry(id="", function=function, message=message, conditions=tuple(conditions), **values)
    return ErrorSite(entry, line=10, end_line=10)


def changed(before: ErrorSite, **facts: Any) -> ErrorSite:
    """`before` with `facts` changed: where the call is (`line`, `end_line`) on the site, the rest on its
    entry."""
    where = {key: facts.pop(key) for key in ("line", "end_line") if key in facts}
    return dataclasses.replace(before, entry=dataclasses.replace(before.entry, **facts), **where)


def entries(sites: Sequence[ErrorSite], ids: Sequence[str]) -> list[ErrorEntry]:
    """The previous catalog's entries for `sites`, as extract would have written them."""
    return [dataclasses.replace(s.entry, id=entry_id) for s, entry_id in zip(sites, ids, strict=True)]


def reassign(old: Sequence[ErrorSite], ids: Sequence[str], new: Sequence[ErrorSite]) -> list[str]:
    """The ids of `new` given the catalog of `old`; no entry may be reported as replaced."""
    assigned, successors = assign_ids(new, entries(old, ids), MODULE_NAMES)
    assert successors == []
    return assigned


BEFORE = [
    site("Invalid kind: {request.kind}", conditions=["request.kind not in KINDS"]),
    site("Unknown tool: {name}", conditions=["name not in TOOLS"], code=-32601, status=404),
    site("Server busy", conditions=["not limiter.allow(client)"], code=-32603, status=503),
]
IDS = ["kind-is-invalid", "tool-missing", "busy"]
"""Ids that are not the slugs of the messages, so only the matching passes can give them back."""


# Unit: assign_ids.


def test_a_first_extraction_ids_entries_by_the_slug_of_their_message() -> None:
    ids, successors = assign_ids(BEFORE, [], MODULE_NAMES)
    assert ids == ["invalid-kind", "unknown-tool", "server-busy"]
    assert successors == []


def test_unchanged_entries_keep_their_ids() -> None:
    assert reassign(BEFORE, IDS, BEFORE) == IDS


CHANGES = {
    "message": {"message": "The server is overloaded"},
    "code": {"code": -32000},
    "status": {"status": 429},
    "line (code added above)": {"line": 42, "end_line": 44},
    "data keys": {"data_keys": ("retry_after",)},
}


@pytest.mark.parametrize("change", CHANGES.values(), ids=CHANGES)
def test_an_entry_keeps_its_id_when_one_fact_changes(change: dict[str, Any]) -> None:
    after = [*BEFORE[:2], changed(BEFORE[2], **change)]
    assert reassign(BEFORE, IDS, after) == IDS


def test_renaming_a_local_variable_in_condition_and_message_keeps_the_id() -> None:
    renamed = changed(
        BEFORE[1], conditions=("tool_name not in TOOLS",), message="Unknown tool: {tool_name}", status=400
    )
    # With the status changed too, only the canonical (local-blind) condition and message can match it.
    assert reassign(BEFORE, IDS, [BEFORE[0], renamed, BEFORE[2]]) == IDS


def test_renaming_a_module_name_is_a_real_change() -> None:
    assert canonical_expression("name not in TOOLS", MODULE_NAMES) == "_ not in TOOLS"
    assert canonical_expression("name not in OTHER_TOOLS", MODULE_NAMES) == "_ not in _"


def test_swapped_entries_keep_their_ids() -> None:
    assert reassign(BEFORE, IDS, [BEFORE[2], BEFORE[0], BEFORE[1]]) == [
        "busy",
        "kind-is-invalid",
        "tool-missing",
    ]


def test_two_entries_each_changed_once_keep_their_ids() -> None:
    after = [
        changed(BEFORE[0], status=422),
        BEFORE[1],
        changed(BEFORE[2], message="Overloaded"),
    ]
    assert reassign(BEFORE, IDS, after) == IDS


def test_a_new_entry_gets_a_fresh_slug_and_collisions_are_numbered() -> None:
    old = [site("Bad request", function="endpoint")]
    new = [
        old[0],
        site("Bad request: {detail}", function="handle"),
        site("Bad request", function="other", code=-32602),
    ]
    ids, successors = assign_ids(new, entries(old, ["bad-request"]), MODULE_NAMES)
    assert ids == ["bad-request", "bad-request-2", "bad-request-3"]
    assert successors == []


@pytest.mark.parametrize(
    ("sites", "ids"),
    [
        (BEFORE, IDS),
        ([site("Bad"), site("Bad"), site("Bad", code=-32601)], ["bad", "bad-2", "bad-3"]),
        ([site("Bad: {x}", conditions=["x"]), site("Bad: {y}", conditions=["y"])], ["one", "two"]),
        ([], []),
    ],
)
def test_the_shortcut_for_an_unchanged_catalog_agrees_with_the_passes(
    sites: list[ErrorSite], ids: list[str]
) -> None:
    previous = entries(sites, ids)
    assert _unchanged(sites, previous)
    assert assign_ids(sites, previous, MODULE_NAMES) == _matched_ids(sites, previous, MODULE_NAMES)
    assert assign_ids(sites, previous, MODULE_NAMES) == (ids, [])


def test_any_changed_fact_or_order_takes_the_passes() -> None:
    previous = entries(BEFORE, IDS)
    assert not _unchanged(BEFORE[::-1], previous)
    assert not _unchanged(BEFORE[:2], previous)
    for field, value in [
        ("function", "other"),
        ("code", 1),
        ("status", 1),
        ("message", "m"),
        ("conditions", ()),
    ]:
        after = [changed(BEFORE[0], **{field: value}), *BEFORE[1:]]
        assert not _unchanged(after, previous)


def test_a_message_without_words_gets_an_id_from_code_and_status() -> None:
    ids, _ = assign_ids([site("{detail}", code=-32020, status=400)], [], MODULE_NAMES)
    assert ids == ["error-32020-400"]


def test_a_new_entry_with_a_symbolic_code_is_named_by_it_and_old_ids_stay() -> None:
    new = [
        site("A valid X-API-Key header is required", code="unauthorized", status=401),
        site("The shop holds at most 3 carts", code="cart_limit", status=409),
        site("No such cart", code="not_found", status=404),
        site("No such item", code="not_found", status=404),
    ]
    ids, _ = assign_ids(new, [], MODULE_NAMES)
    # A code two entries share would name neither: their messages do.
    assert ids == ["unauthorized", "cart-limit", "no-such-cart", "no-such-item"]
    # An entry extracted before keeps the id it has, slug of its message or not.
    old_ids = ["a-valid-x-api-key", "the-shop-holds-at-most", "cart", "item"]
    assert assign_ids(new, entries(new, old_ids), MODULE_NAMES) == (old_ids, [])
    # A new entry beside them still takes its code.
    grown = [*new, site("Too many carts", code="too_many", status=429)]
    assert assign_ids(grown, entries(new, old_ids), MODULE_NAMES)[0] == [*old_ids, "too-many"]


def test_identical_call_sites_keep_their_ids_from_run_to_run() -> None:
    twins = [site("Bad"), site("Bad")]
    first, _ = assign_ids(twins, [], MODULE_NAMES)
    assert first == ["bad", "bad-2"]
    assert reassign(twins, first, twins) == first


def test_a_replaced_entry_is_named_as_the_likely_predecessor() -> None:
    old = [
        site("Rate limit exceeded", conditions=["not limiter.allow(client)"], code=-32603, status=429),
        site("Unknown tool: {name}", conditions=["name not in TOOLS"], code=-32601, status=404),
    ]
    new = [
        site(
            "Rate limited, retry later",
            function="handle",
            conditions=["limiter.full"],
            code=-32000,
            status=503,
        ),
        old[1],
    ]
    ids, successors = assign_ids(new, entries(old, ["rate-limit", "tool-missing"]), MODULE_NAMES)
    assert ids == ["rate-limited-retry-later", "tool-missing"]
    [successor] = successors
    assert isinstance(successor, LikelySuccessor)
    assert (successor.old_id, successor.new_id) == ("rate-limit", "rate-limited-retry-later")
    assert 0.5 <= successor.similarity < 1


def test_an_unrelated_new_entry_names_no_predecessor() -> None:
    old = [site("Rate limit exceeded", code=-32603, status=429)]
    new = [site("x", function="a_completely_different_function", conditions=["flag"], code=1, status=200)]
    ids, successors = assign_ids(new, entries(old, ["rate-limit"]), MODULE_NAMES)
    assert ids == ["x"]
    assert successors == []


# Unit: the helpers.


CANONICAL = {
    "locals become _": ("request.kind == 'tool'", "_.kind == 'tool'"),
    "module names stay": ("not limiter.allow(client)", "not limiter.allow(_)"),
    "builtins stay": ("not isinstance(message, dict)", "not isinstance(_, dict)"),
    "except clauses": ("except (ValueError, KeyError)", "(ValueError, KeyError)"),
    "walrus": ("(detail := check(method)) is not None", "(_ := _(_)) is not None"),
    "lambda arguments": ("lambda item: item.ok", "lambda _: _.ok"),
    "not Python: kept as is": ("request matches Point()", "request matches Point()"),
}


@pytest.mark.parametrize(("text", "expected"), CANONICAL.values(), ids=CANONICAL)
def test_canonical_expression(text: str, expected: str) -> None:
    assert canonical_expression(text, MODULE_NAMES) == expected


SLUGS = {
    "headline before the colon": ("Unknown tool: {name}", "unknown-tool"),
    "fields dropped": ("Request body over {MAX_BODY_BYTES} bytes", "request-body-over-bytes"),
    "five words at most": ("One two three four five six seven", "one-two-three-four-five"),
    "punctuation dropped": ("Batch requests aren't supported!", "batch-requests-aren-t-supported"),
    "nothing but a field": ("{detail}", ""),
}


@pytest.mark.parametrize(("message", "expected"), SLUGS.values(), ids=SLUGS)
def test_slug(message: str, expected: str) -> None:
    assert slug(message) == expected


# End to end: `docgen extract`, an edit of the source, `docgen extract` again.


SERVER = """\
KINDS = ("call", "list")
TOOLS = {}

def endpoint(request):
    name = request.name
    if request.kind not in KINDS:
        return _rpc_error(1, -32600, f"Invalid kind: {request.kind}", status=400)
    if name not in TOOLS:
        # The tool named in the call does not exist.
        return _rpc_error(1, -32601, f"Unknown tool: {name}", status=404)
    if request.busy:
        return _rpc_error(1, -32603, "Server busy", status=503)
    return None
"""
FIRST_IDS = ["invalid-kind", "unknown-tool", "server-busy"]


def extract_ids(root: Path, capsys: pytest.CaptureFixture[str]) -> tuple[list[str], str]:
    """Run `docgen extract`; the ids in data/errors.yaml, in order, and what was said on stderr."""
    assert main(["-f", str(root / "mkdocs.yml"), "extract"]) == 0
    catalog = yaml.safe_load((root / "data" / "errors.yaml").read_text(encoding="utf-8"))
    return [entry["id"] for entry in catalog["entries"]], capsys.readouterr().err


def edit(root: Path, *replacements: tuple[str, str]) -> None:
    path = root / "app" / "server.py"
    text = path.read_text(encoding="utf-8")
    for old, new in replacements:
        assert old in text
        text = text.replace(old, new)
    path.write_text(text, encoding="utf-8")


def write_notes(root: Path, ids: Sequence[str]) -> None:
    notes = {"entries": {entry_id: {"cause": "Why.", "action": "What to do."} for entry_id in ids}}
    (root / "data" / "errors.notes.yaml").write_text(yaml.safe_dump(notes), encoding="utf-8")


@pytest.fixture
def project(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """A three-entry project, extracted once, with notes for every entry."""
    make_project(tmp_path, SERVER)
    assert extract_ids(tmp_path, capsys)[0] == FIRST_IDS
    write_notes(tmp_path, FIRST_IDS)
    return tmp_path


EDITS = {
    "a message": [('"Server busy"', '"The server is overloaded"')],
    "a code": [("-32601, f", "-32602, f")],
    "a status": [("status=503", "status=429")],
    "a local variable": [
        ("name = request", "tool_name = request"),
        ("if name", "if tool_name"),
        ("{name}", "{tool_name}"),
    ],
    "code above": [
        ("def endpoint(request):\n", "def endpoint(request):\n    log = []\n    log.append(1)\n\n")
    ],
    "a helper above": [("KINDS =", "def helper():\n    return 1\n\n\nKINDS =")],
}


@pytest.mark.parametrize("replacements", EDITS.values(), ids=EDITS)
def test_ids_and_notes_survive_an_edit_end_to_end(
    project: Path, capsys: pytest.CaptureFixture[str], replacements: list[tuple[str, str]]
) -> None:
    edit(project, *replacements)
    ids, said = extract_ids(project, capsys)
    assert ids == FIRST_IDS
    assert "no longer in the catalog" not in said
    assert "has no cause" not in said


def test_swapped_branches_keep_their_ids_end_to_end(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    server = (project / "app" / "server.py").read_text(encoding="utf-8")
    first = server[server.index("    if request.kind") : server.index("    if name not in")]
    second = server[server.index("    if name not in") : server.index("    if request.busy")]
    edit(project, (first + second, second + first))
    assert extract_ids(project, capsys)[0] == ["unknown-tool", "invalid-kind", "server-busy"]


def test_a_new_entry_gets_a_fresh_id_end_to_end(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    edit(
        project,
        ("    return None\n", '    if request.slow:\n        return _rpc_error(1, -32603, "Server busy")\n'),
    )
    ids, said = extract_ids(project, capsys)
    assert ids == [*FIRST_IDS, "server-busy-2"]
    assert "entry 'server-busy-2' has no cause or action yet" in said


def test_a_replaced_entry_is_reported_end_to_end(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    edit(
        project,
        ("    if request.busy:\n", "    if request.queue_full:\n"),
        ('-32603, "Server busy", status=503', '-32000, "Queue full, retry later", status=429'),
    )
    ids, said = extract_ids(project, capsys)
    assert ids == ["invalid-kind", "unknown-tool", "queue-full-retry-later"]
    assert "new entry 'queue-full-retry-later' most likely replaces 'server-busy'" in said
    assert "notes for 'server-busy', which is no longer in the catalog" in said


def test_a_vanished_entry_is_named_as_predecessor_once() -> None:
    from docgen.extract.identity import assign_ids
    from docgen.extract.sites import ErrorSite

    def site(message: str, code: int) -> ErrorSite:
        entry = ErrorEntry("", code, 400, message, "handle", "app.py", (f"kind == {code}",))
        return ErrorSite(entry, 1, 1)

    old = [ErrorEntry("bad-request", -32600, 400, "Bad request", "handle", "app.py", ("kind == 1",))]
    ids, successors = assign_ids(
        [site("Bad request body", -32601), site("Bad request head", -32602)], old, frozenset()
    )
    assert len(ids) == len(set(ids)) == 2
    assert [s.old_id for s in successors] == ["bad-request"]


def test_an_entry_keeps_its_id_when_its_function_is_renamed() -> None:
    from docgen.extract.identity import assign_ids
    from docgen.extract.sites import ErrorSite

    old = [ErrorEntry("too-large", -32600, 413, "Too large", "endpoint", "app.py", ("size > LIMIT",))]
    moved = ErrorSite(
        ErrorEntry("", -32600, 413, "Too large", "transport", "app.py", ("size > LIMIT",)), 9, 9
    )
    ids, successors = assign_ids([moved], old, frozenset({"LIMIT"}))
    assert ids == ["too-large"]
    assert successors == []
