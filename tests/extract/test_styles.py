"""One fixture server per style of error building (tests/fixtures/servers/<style>/), taken the whole way a
user takes it: extract (exactly the expected entries), render, the real `mkdocs build --strict`, check; then
check again after edits of the server that change what a client sees (exit 1) and after edits that do not
(exit 0)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from docgen.kinds.errors.catalog import ErrorsExtraction
from docgen.shell.cli import main
from tests.helpers import run_extract_in_memory

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "tests" / "fixtures" / "servers"

Edit = tuple[str, str]
"""Replace the first text by the second in the style's server file (each must occur exactly once)."""


@dataclass(frozen=True)
class Style:
    server: str
    entries: list[dict[str, Any]]
    """Every entry of the catalog, in order: id, then the facts that matter for the style."""
    lines: list[int]
    """The line of each entry's call in the server file."""
    drift: dict[str, Edit]
    """Edits check must report: changed status, changed code, a removed site, an added site."""
    harmless: dict[str, list[Edit]] = field(default_factory=dict)
    """Edits check must accept: blank lines, a moved function, a reflowed call."""


def entry(entry_id: str, function: str, message: str, **facts: Any) -> dict[str, Any]:
    return {"id": entry_id, "function": function, "message": message, **facts}


STYLES = {
    "method": Style(
        server="shop/handlers.py",
        entries=[
            entry(
                "item-ids-are-numbers", "ItemHandler.get_item", "Item ids are numbers", code=4001, status=400
            ),
            entry("no-such-item", "ItemHandler.get_item", "No such item", code=4004, status=404),
            entry("sold-out", "ItemHandler.reserve", "Sold out", code=4009, status=409),
        ],
        lines=[17, 19, 24],
        drift={
            "status": ("HTTPStatus.NOT_FOUND, code=4004", "HTTPStatus.GONE, code=4004"),
            "code": ("HTTPStatus.NOT_FOUND, code=4004", "HTTPStatus.NOT_FOUND, code=4044"),
            "removed": (
                'return self._error_response("Sold out", 409, OUT_OF_STOCK, retry=True)',
                "return None",
            ),
            "added": (
                '        return {"status": 200}\n',
                '        if not item_id:\n            return self._error_response("No id", 400, 4000)\n'
                '        return {"status": 200}\n',
            ),
        },
        harmless={
            "blank lines": [("class ItemHandler:\n", "\n\nclass ItemHandler:\n")],
            "a moved method": [
                (
                    "    def reserve(self, item_id, stock):\n",
                    "    def describe(self):\n        return 'items'\n\n"
                    "    def reserve(self, item_id, stock):\n",
                )
            ],
            "a reflowed call": [
                (
                    'self._error_response("No such item", HTTPStatus.NOT_FOUND, code=4004)',
                    'self._error_response(\n                "No such item",\n'
                    "                HTTPStatus.NOT_FOUND,\n                code=4004,\n            )",
                )
            ],
        },
    ),
    "exceptions": Style(
        server="library/api.py",
        entries=[
            entry(
                "the-library-is-closed-for",
                "lend",
                "The library is closed for maintenance",
                code=1503,
                status=503,
            ),
            entry("member-may-not-borrow", "lend", "Member {member} may not borrow", code=1404, status=404),
            entry("no-book-has-this-id", "lend", "No book has this id", code=1404, status=404),
            entry("the-book-is-already-on", "lend", "The book is already on loan", code=1409, status=409),
            entry("too-many-loans-at-once", "lend", "Too many loans at once", code=1429, status=429),
            entry("the-membership-has-lapsed", "lend", "The membership has lapsed", code=1000, status=403),
        ],
        lines=[8, 10, 12, 14, 16, 18],
        drift={
            "status": ('ApiError(403, "The membership', 'ApiError(401, "The membership'),
            "code": ("code=1409)", "code=1410)"),
            "removed": ('        raise RateLimited("Too many loans at once")\n', "        pass\n"),
            "added": (
                "    return catalogue[book_id]\n",
                '    if not book_id:\n        raise BookNotFound("No id")\n    return catalogue[book_id]\n',
            ),
        },
        harmless={
            "blank lines": [("\n\ndef lend(", "\n\n\n\ndef lend(")],
            "a moved function": [("\n\ndef lend(", "\n\ndef helper():\n    return None\n\n\ndef lend(")],
            "a reflowed call": [
                (
                    'raise LoanRefused(409, "The book is already on loan", code=1409)',
                    'raise LoanRefused(\n            409,\n            "The book is already on loan",\n'
                    "            code=1409,\n        )",
                )
            ],
        },
    ),
    "dependency": Style(
        server="notes_api/routes.py",
        entries=[
            entry("a-note-needs-a-text", "create_note", "A note needs a text", status=422),
            entry("the-note-is-too-long", "create_note", "The note is too long", status=413),
            entry("error-404", "get_note", "", status=404),
        ],
        lines=[12, 14, 21],
        drift={
            "status": ("status_code=404)", "status_code=410)"),
            # No code in a plain HTTP API: the detail is what a client reads.
            "message": ("status_code=404)", "status_code=404, detail='Gone')"),
            "removed": ("        raise HTTPException(status_code=404)\n", "        return None\n"),
            "added": (
                "    return note\n",
                "    if note.hidden:\n        raise HTTPException(403, 'Hidden')\n    return note\n",
            ),
        },
        harmless={
            "blank lines": [("\n\nasync def get_note", "\n\n\n\nasync def get_note")],
            "a moved function": [
                ("\n\nasync def get_note", "\n\ndef unrelated():\n    return 1\n\n\nasync def get_note")
            ],
            "a reflowed call": [
                (
                    "HTTPException(status_code=status.HTTP_413_CONTENT_TOO_LARGE, "
                    'detail="The note is too long")',
                    "HTTPException(\n            status_code=status.HTTP_413_CONTENT_TOO_LARGE,\n"
                    '            detail="The note is too long",\n        )',
                )
            ],
        },
    ),
    "strings": Style(
        server="homeserver/rooms.py",
        entries=[
            entry("m-not-found", "RoomStateServlet.on_get", "Unknown room", code="M_NOT_FOUND", status=404),
            entry(
                "m-forbidden",
                "RoomStateServlet.on_get",
                "You are not in this room",
                code="M_FORBIDDEN",
                status=403,
            ),
            entry(
                "m-invalid-param",
                "RoomStateServlet.on_put",
                "Content must be a JSON object",
                code="M_INVALID_PARAM",
                status=400,
            ),
            entry(
                "m-limit-exceeded",
                "RoomStateServlet.on_put",
                "Too many requests",
                code="M_LIMIT_EXCEEDED",
                status=429,
            ),
            entry("m-unknown", "RoomStateServlet.on_put", "Missing type", code="M_UNKNOWN", status=400),
        ],
        lines=[9, 11, 16, 18, 20],
        drift={
            "status": ('(429, "Too many requests"', '(420, "Too many requests"'),
            "code": ("Codes.FORBIDDEN)", "Codes.UNKNOWN)"),
            "removed": ('            raise SynapseLikeError(400, "Missing type")\n', "            pass\n"),
            "added": (
                "        return {}\n",
                "        if not room_id:\n            raise NotFoundError()\n        return {}\n",
            ),
        },
        harmless={
            "blank lines": [("    def on_put(", "\n    def on_put(")],
            "a moved method": [
                ("    def on_put(", "    def helper(self):\n        return 1\n\n    def on_put(")
            ],
            "a reflowed call": [
                (
                    'SynapseLikeError(429, "Too many requests", errcode=Codes.LIMIT_EXCEEDED)',
                    'SynapseLikeError(\n                429,\n                "Too many requests",\n'
                    "                errcode=Codes.LIMIT_EXCEEDED,\n            )",
                )
            ],
        },
    ),
    "several": Style(
        server="registry/server.py",
        entries=[
            entry(
                "r-bad-name",
                "fetch_package",
                "Package names are identifiers",
                code="R_BAD_NAME",
                status=400,
                data_keys=["name"],
            ),
            entry("r-not-found", "fetch_package", "No such package", code="R_NOT_FOUND", status=404),
            entry(
                "r-yanked",
                "fetch_package",
                "The package was yanked",
                code="R_YANKED",
                status=404,
            ),
        ],
        lines=[14, 16, 18],
        drift={
            "status": ('api_error(400, "Package', 'api_error(422, "Package'),
            "code": ('errcode="R_YANKED"', 'errcode="R_GONE"'),
            "removed": ('        return not_found_error("No such package")\n', "        return None\n"),
            "added": (
                '    return {"status": 200',
                '    if not packages:\n        return not_found_error("Empty")\n    return {"status": 200',
            ),
        },
        harmless={
            "blank lines": [("\n\ndef fetch_package", "\n\n\n\ndef fetch_package")],
            "a moved function": [
                ("\n\ndef fetch_package", "\n\ndef unrelated():\n    return 1\n\n\ndef fetch_package")
            ],
            "a reflowed call": [
                (
                    'not_found_error("The package was yanked", errcode="R_YANKED")',
                    'not_found_error(\n            "The package was yanked",\n'
                    '            errcode="R_YANKED",\n        )',
                )
            ],
        },
    ),
    "class_attributes": Style(
        server="shop/errors.py",
        entries=[
            entry("no-such-item", "get_item", "No such item", code="NOT_FOUND", status=404),
            entry("the-item-was-removed", "get_item", "The item was removed", code="NOT_FOUND", status=410),
            # `NotFound.missing(...)`: the classmethod is ApiError's, `cls` is NotFound.
            entry("no-given", "ApiError.missing", "No {what} given", code="NOT_FOUND", status=404),
            entry("conflict", "Conflict.for_item", "Item {item_id} exists", code="CONFLICT", status=409),
            entry("internal", "add_item", "No id", code="INTERNAL", status=500),
        ],
        lines=[40, 42, 17, 35, 52],
        drift={
            "status": ("    status_code = 410\n", "    status_code = 451\n"),
            # The inherited classmethod called on another class builds that class, with its attributes.
            "code": ('raise NotFound.missing("owner")', 'raise Conflict.missing("owner")'),
            "removed": ('        raise Gone("The item was removed")\n', "        return None\n"),
            "added": (
                '    items[item_id] = {"owner": owner}\n',
                '    if owner == "nobody":\n        raise Conflict("Nobody owns items")\n'
                '    items[item_id] = {"owner": owner}\n',
            ),
        },
        harmless={
            "blank lines": [("\n\nclass Gone(", "\n\n\n\nclass Gone(")],
            "a moved function": [
                ("\n\ndef add_item", "\n\ndef unrelated():\n    return 1\n\n\ndef add_item")
            ],
            "a reflowed call": [
                (
                    'return cls(f"Item {item_id} exists")',
                    'return cls(\n            f"Item {item_id} exists",\n        )',
                )
            ],
        },
    ),
    "dynamic": Style(
        server="jobs/runner.py",
        entries=[
            entry("error-2-503", "start_job", "{exc}", code=-2, status=503),
            entry(
                "not-allowed-to-start",
                "start_job",
                "Not allowed to start {job.name}: {exc}",
                code=-3,
                status=403,
            ),
            entry(
                "error-4", "start_job", "{reason}", code=-4, dynamic={"status": "STATUS_BY_REASON[reason]"}
            ),
        ],
        lines=[16, 18, 21],
        drift={
            "status": ("raise JobError(403,", "raise JobError(401,"),
            "code": ("code=-3)", "code=-5)"),
            "removed": ("        raise JobError(503, str(exc), code=-2) from exc\n", "        raise\n"),
            "added": (
                "    return job\n",
                "    if not job:\n        raise JobError(400, 'No job', code=-6)\n    return job\n",
            ),
            "run-time expression": ("STATUS_BY_REASON[reason]", "STATUS_BY_REASON.get(reason, 500)"),
        },
        harmless={
            "blank lines": [("\n\ndef start_job", "\n\n\n\ndef start_job")],
            "a moved function": [
                ("\n\ndef start_job", "\n\ndef unrelated():\n    return 1\n\n\ndef start_job")
            ],
            "a reflowed call": [
                (
                    "raise JobError(STATUS_BY_REASON[reason], reason, code=-4)",
                    "raise JobError(\n            STATUS_BY_REASON[reason],\n            reason,\n"
                    "            code=-4,\n"
                    "        )",
                )
            ],
        },
    ),
}

FACTS = ("id", "function", "message", "code", "status", "data_keys", "dynamic")


def project(tmp_path: Path, style: str) -> Path:
    """A copy of the style's fixture, rendering with the packaged templates, as a user's project."""
    root = tmp_path / style
    shutil.copytree(FIXTURES / style, root)
    return root


def docgen(root: Path, *argv: str) -> int:
    return main(["-f", str(root / "mkdocs.yml"), *argv])


def edit(root: Path, style: Style, edits: list[Edit]) -> None:
    path = root / style.server
    text = path.read_text(encoding="utf-8")
    for old, new in edits:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    path.write_text(text, encoding="utf-8")


@pytest.mark.parametrize("name", STYLES)
def test_the_catalog_has_exactly_the_expected_entries(tmp_path: Path, name: str) -> None:
    style = STYLES[name]
    root = project(tmp_path, name)
    result = run_extract_in_memory(root)
    found = result.catalogs["errors"].as_data()["entries"]
    defaults = {"data_keys": []}
    assert [{k: e[k] for k in FACTS if k in e} for e in found] == [
        {k: {**defaults, **e}[k] for k in FACTS if k in {**defaults, **e}} for e in style.entries
    ]
    assert {e["file"] for e in found} == {style.server}
    assert [site.line for site in result.of("errors", ErrorsExtraction).sites] == style.lines


@pytest.mark.parametrize("name", STYLES)
def test_extract_render_build_and_check(
    tmp_path: Path, name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    root = project(tmp_path, name)
    assert docgen(root, "extract") == 0
    assert docgen(root, "render") == 0
    build = subprocess.run(
        [str(Path(sys.executable).parent / "mkdocs"), "build", "--strict", "-q"],
        cwd=root,
        capture_output=True,
        text=True,
        check=False,
    )
    assert build.returncode == 0, build.stderr
    capsys.readouterr()
    assert docgen(root, "check") == 0, capsys.readouterr().out
    page = (root / "docs" / "index.md").read_text(encoding="utf-8")
    style = STYLES[name]
    has_code = any("code" in e or "code" in e.get("dynamic", {}) for e in style.entries)
    assert ("| Code | HTTP |" in page) is has_code
    assert "| HTTP | Cause |" in page
    # A value the server sets at run time shows what the notes state, marked as stated, or says it is set at
    # run time; never a made-up value.
    dynamic = any(e.get("dynamic") for e in style.entries)
    assert ("_Set at run time._" in page or 'class="docgen-stated"' in page) is dynamic


DRIFT_CASES = [(name, kind) for name, style in STYLES.items() for kind in style.drift]
HARMLESS_CASES = [(name, kind) for name, style in STYLES.items() for kind in style.harmless]


@pytest.fixture(scope="module")
def rendered(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Each style extracted and rendered once; the tests below copy it."""
    base = tmp_path_factory.mktemp("styles")
    roots = {}
    for name in STYLES:
        root = project(base, name)
        assert docgen(root, "extract") == 0 and docgen(root, "render") == 0
        roots[name] = root
    return roots


def _copy(rendered: dict[str, Path], tmp_path: Path, name: str) -> Path:
    root = tmp_path / name
    shutil.copytree(rendered[name], root)
    return root


@pytest.mark.parametrize(("name", "kind"), DRIFT_CASES)
def test_check_reports_what_a_client_would_see_change(
    rendered: dict[str, Path], tmp_path: Path, name: str, kind: str, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _copy(rendered, tmp_path, name)
    edit(root, STYLES[name], [STYLES[name].drift[kind]])
    capsys.readouterr()
    assert docgen(root, "check") == 1
    said = capsys.readouterr().out
    expected = {
        "status": "status-changed",
        "code": "code-changed",
        "message": "message-changed",
        "removed": "entry-removed",
        "added": "entry-added",
        "run-time expression": "run-time-value-changed",
    }[kind]
    assert expected in said


@pytest.mark.parametrize(("name", "kind"), HARMLESS_CASES)
def test_check_accepts_edits_a_client_cannot_see(
    rendered: dict[str, Path], tmp_path: Path, name: str, kind: str, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _copy(rendered, tmp_path, name)
    edit(root, STYLES[name], STYLES[name].harmless[kind])
    capsys.readouterr()
    assert docgen(root, "check") == 0, capsys.readouterr().out
