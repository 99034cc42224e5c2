"""Refactors that move an error into helpers: the entry keeps its id and notes, the page cites the helper, and
once `docgen extract && docgen render` have run check is clean: the fingerprints that pages' stamps and the
evidence carry hash an error path as the facts of its errors, so a move is no change, while a change to what
mcp_endpoint does, or to an error's message, still makes the stamps and the evidence stale.

Each case edits a fresh copy of the repository's Connect server, the way a backend engineer would.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from docgen.shell.cli import main
from tests.conftest import REPO_ROOT
from tests.helpers import copy_project

SERVER = "backend/app/mcp_server.py"
CATALOG = "data/mcp-errors.yaml"
ERRORS_PAGE = "docs/developers/mcp-errors.md"

ORIGIN_CHECK = """\
    if origin is not None and not origin_allowed(origin, ALLOWED_ORIGINS, LOOPBACK_ORIGIN_HOSTS):
        # An Origin header names neither a page on a loopback host nor an allowed remote site.
        return _rpc_error(
            None,
            INVALID_REQUEST,
            f"Origin not allowed: {origin}",
            status=HTTPStatus.FORBIDDEN,
            doc="origin-not-allowed",
        )
"""
HELPER_BODY = """\
    if origin is not None and not origin_allowed(origin, ALLOWED_ORIGINS, LOOPBACK_ORIGIN_HOSTS):
        # An Origin header names neither a page on a loopback host nor an allowed remote site.
        return _rpc_error(
            None,
            INVALID_REQUEST,
            f"Origin not allowed: {origin}",
            status=HTTPStatus.FORBIDDEN,
            doc="origin-not-allowed",
        )
    return None
"""

Refactor = tuple[str, str, list[str]]
"""(code added before mcp_endpoint, what replaces the Origin check in it, the path to the call)."""

REFACTORS: dict[str, Refactor] = {
    "into a helper": (
        f"def _check_origin(origin: str | None) -> Response | None:\n{HELPER_BODY}",
        "    if (refusal := _check_origin(origin)) is not None:\n        return refusal\n",
        ["mcp_endpoint", "_check_origin"],
    ),
    "into a method of a class": (
        "class OriginPolicy:\n"
        "    def refusal(self, origin: str | None) -> Response | None:\n"
        + "".join(f"    {line}\n" for line in HELPER_BODY.splitlines())
        + "\n\n_ORIGIN_POLICY = OriginPolicy()\n",
        "    if (refusal := _ORIGIN_POLICY.refusal(origin)) is not None:\n        return refusal\n",
        ["mcp_endpoint", "OriginPolicy.refusal"],
    ),
    "through two levels of helpers": (
        f"def _check_origin(origin: str | None) -> Response | None:\n{HELPER_BODY}\n\n"
        "def _transport_refusal(origin: str | None) -> Response | None:\n"
        "    return _check_origin(origin)\n",
        "    if (refusal := _transport_refusal(origin)) is not None:\n        return refusal\n",
        ["mcp_endpoint", "_transport_refusal", "_check_origin"],
    ),
}


def docgen(root: Path, *args: str) -> int:
    return main(["-f", str(root / "mkdocs.yml"), *args])


def check(root: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, list[dict[str, object]]]:
    capsys.readouterr()
    code = docgen(root, "check", "--format", "json")
    out = capsys.readouterr().out
    return code, json.loads(out)["findings"] if out.strip() else []


def refactor(root: Path, added: str, replacement: str) -> None:
    path = root / SERVER
    text = path.read_text(encoding="utf-8")
    assert text.count(ORIGIN_CHECK) == 1, "the Origin check moved: the test needs updating"
    text = text.replace(ORIGIN_CHECK, replacement)
    text = text.replace("\n\nasync def mcp_endpoint(", f"\n\n{added}\n\nasync def mcp_endpoint(")
    path.write_text(text, encoding="utf-8")


def entry(root: Path, entry_id: str) -> dict[str, Any]:
    """One entry of the committed catalog."""
    catalog = yaml.safe_load((root / CATALOG).read_text(encoding="utf-8"))
    [found] = [item for item in catalog["entries"] if item["id"] == entry_id]
    return dict(found)


@pytest.mark.parametrize("case", REFACTORS.values(), ids=REFACTORS)
def test_an_error_moved_into_helpers_keeps_its_id_and_the_page_cites_the_helper(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], case: Refactor
) -> None:
    root = copy_project(REPO_ROOT, tmp_path)
    added, replacement, path = case
    helper = path[-1]
    notes_before = (root / "data/mcp-errors.notes.yaml").read_text(encoding="utf-8")
    refactor(root, added, replacement)

    # Before the catalog is refreshed, check says where the call went (nothing is reported removed).
    _code, findings = check(root, capsys)
    moved = [f for f in findings if f["kind"] == "site-moved"]
    assert [(f["subject"], f["file"]) for f in moved] == [("origin-not-allowed", SERVER)]
    assert str(moved[0]["new"]).startswith("mcp_endpoint → ")
    assert not [f for f in findings if f["kind"] in {"entry-removed", "entry-added"}]

    assert docgen(root, "extract") == 0
    assert docgen(root, "render") == 0
    moved_entry = entry(root, "origin-not-allowed")
    assert (moved_entry["function"], moved_entry["path"]) == (helper, path)
    page = (root / ERRORS_PAGE).read_text(encoding="utf-8")
    based_on = page[page.index("<!-- docgen:begin based-on") : page.index("<!-- docgen:end based-on")]
    assert all(f"`{name}`" in based_on for name in path)
    assert (root / "data/mcp-errors.notes.yaml").read_text(encoding="utf-8") == notes_before

    # Nothing is left for people: the stamps and the evidence were taken from the same behaviour.
    assert check(root, capsys) == (0, [])


def refactored(root: Path, capsys: pytest.CaptureFixture[str], name: str = "into a helper") -> None:
    """Apply one refactor and refresh catalog and pages, as a backend engineer would; check is then clean."""
    added, replacement, _path = REFACTORS[name]
    refactor(root, added, replacement)
    assert docgen(root, "extract") == 0
    assert docgen(root, "render") == 0
    assert check(root, capsys) == (0, [])


STAMPED_PAGES = [
    "docs/developers/errors-and-retries.md",
    "docs/developers/mcp-client-generic.md",
    ERRORS_PAGE,
    "docs/developers/mcp-server.md",
]
NOT_ERRORS = {
    "another header read": (
        'state, origin = request.app.state, request.headers.get("origin")',
        'state, origin = request.app.state, request.headers.get("referer")',
    ),
    "a changed limit": (
        "await read_body(request, MAX_BODY_BYTES, state.body_timeout)",
        "await read_body(request, MAX_BODY_BYTES // 2, state.body_timeout)",
    ),
}


def assert_mcp_endpoint_stale(root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """check finds exactly this: mcp_endpoint changed under the stamped pages and under the evidence."""
    code, findings = check(root, capsys)
    assert code == 1
    assert sorted((f["kind"], f["subject"], f.get("pages") or None) for f in findings) == [
        ("evidence-stale", f"{SERVER}:mcp_endpoint", None),
        ("verification-stale", f"{SERVER}:mcp_endpoint", STAMPED_PAGES),
    ]


@pytest.mark.parametrize("change", NOT_ERRORS.values(), ids=NOT_ERRORS)
def test_a_change_beside_the_error_paths_still_makes_stamps_and_evidence_stale(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], change: tuple[str, str]
) -> None:
    root = copy_project(REPO_ROOT, tmp_path)
    refactored(root, capsys)
    edit(root, SERVER, *change)
    assert docgen(root, "extract") == 0  # the catalog does not change: nothing else to report
    assert_mcp_endpoint_stale(root, capsys)


def test_a_changed_message_behind_a_helper_makes_stamps_and_evidence_stale(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = copy_project(REPO_ROOT, tmp_path)
    refactored(root, capsys, "through two levels of helpers")
    edit(root, SERVER, 'f"Origin not allowed: {origin}"', 'f"Origin refused: {origin}"')
    assert docgen(root, "extract") == 0
    assert docgen(root, "render") == 0
    assert entry(root, "origin-not-allowed")["message"] == "Origin refused: {origin}"
    # The catalog and pages say the new message; what a reviewer and probe saw was the old one.
    assert_mcp_endpoint_stale(root, capsys)


def test_a_helper_that_does_more_than_pass_errors_on_is_fingerprinted_in_the_evidence(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = copy_project(REPO_ROOT, tmp_path)
    refactored(root, capsys)
    edit(
        root,
        SERVER,
        "def _check_origin(origin: str | None) -> Response | None:\n",
        "def _check_origin(origin: str | None) -> Response | None:\n    origin = origin and origin.lower()\n",
    )
    assert docgen(root, "extract") == 0
    code, findings = check(root, capsys)
    assert code == 1
    [finding] = findings
    assert (finding["kind"], finding["subject"], finding["old"]) == (
        "evidence-stale",
        f"{SERVER}:_check_origin",
        None,
    )


FEATURES = "backend/app/features.py"


def edit(root: Path, relative: str, old: str, new: str) -> None:
    path = root / relative
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{old!r} not in {relative}: the test needs updating"
    path.write_text(text.replace(old, new), encoding="utf-8")


def test_a_raise_behind_a_handler_added_reworded_or_removed_is_reported_where_it_is(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = copy_project(REPO_ROOT, tmp_path)
    committed = entry(root, "invalid-params")
    assert committed["raises_scope"] == "reachable"
    assert {(r["function"], r["file"]) for r in committed["raises"]} >= {("_string_field", FEATURES)}
    assert {r["exception"] for r in entry(root, "unknown-name")["raises"]} == {"UnknownName"}

    lookup = '    func = TOOLS.get(name)\n    if func is None:\n        raise UnknownName("tool", name)\n'
    edit(
        root, FEATURES, lookup, '    if len(name) > 64:\n        raise BadParams("name too long")\n' + lookup
    )
    edit(
        root,
        FEATURES,
        "raise BadParams(\"'arguments' must be an object\")",
        'raise BadParams("bad arguments")',
    )
    edit(root, FEATURES, "        raise BadParams(str(exc)) from exc\n", "        raise\n")
    _code, findings = check(root, capsys)
    lines = (root / FEATURES).read_text(encoding="utf-8").splitlines()
    added = next(n for n, line in enumerate(lines, 1) if "name too long" in line)
    reworded = next(n for n, line in enumerate(lines, 1) if "bad arguments" in line)
    catalog_line = next(
        n
        for n, line in enumerate((root / CATALOG).read_text(encoding="utf-8").splitlines(), 1)
        if line == "- id: invalid-params"
    )
    assert sorted((f["kind"], f["file"], f["line"], f["subject"], f["new"]) for f in findings) == [
        ("raise-added", FEATURES, added, "invalid-params: BadParams in call_tool", "name too long"),
        ("raise-changed", FEATURES, reworded, "invalid-params: BadParams in _arguments", "bad arguments"),
        ("raise-removed", CATALOG, catalog_line, "invalid-params: BadParams in get_prompt", None),
    ]
    assert docgen(root, "extract") == 0
    assert check(root, capsys) == (0, [])
