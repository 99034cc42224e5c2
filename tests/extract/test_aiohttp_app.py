"""Routes catalogs of the aiohttp fixture (tests/fixtures/servers/aiohttp_app): the operations, the errors
each can answer with as the client receives them, and the OpenAPI fragment, found without importing the
application; the values are held against what the installed aiohttp really sends, by running the fixture
application in-process with aiohttp's test client."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from openapi_spec_validator import validate

from docgen.core.models import RoutesCatalog
from docgen.core.route_models import TEXT_BODY
from docgen.frameworks.aiohttp.paths import openapi_path
from tests.helpers import run_extract_in_memory

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "servers" / "aiohttp_app"
ROOT = Path(__file__).resolve().parents[2]
TEXT = TEXT_BODY  # the body key of a plain-text body: the whole body is the detail
PLAIN = "text/plain"  # its media type
TRANSLATED = "This shelf is closed"
"""A translated message, recorded as its message id (what the client receives while no translation is
installed)."""

# What a reader of the fixture finds by hand: per operation, each status with its (body key, detail).
EXPECTED = {
    ("get", "/api/v1/admin/members/{name}"): {404: [(PLAIN, "404: Not Found")]},
    ("patch", "/api/v1/admin/members/{name}"): {
        400: [(PLAIN, "400: Bad Request")],
        409: [(PLAIN, "Members cannot be renamed yet")],
    },
    ("post", "/api/v1/books"): {
        400: [(PLAIN, "The title must not be blank"), (PLAIN, "The title is longer than 80 characters")],
        401: [("error", "Sign in first")],
        422: [("error", "An ISBN is required")],
    },
    ("get", "/api/v1/books/{book_id}"): {
        403: [(PLAIN, TRANSLATED)],
        404: [(PLAIN, "No book has the id {book_id}")],
    },
    ("post", "/api/v1/books/{book_id}/loan"): {
        404: [(PLAIN, "No book has the id {book_id}")],
        409: [("error", "Book {exc.book_id} is already borrowed")],
    },
    ("delete", "/api/v1/books/{book_id}/loan"): {409: [(PLAIN, "409: Not on loan")]},
}

# Requests that make each error, the error's id, and the values its placeholders take.
TOKEN = {"X-Token": "secret-token"}
PROBES: list[tuple[str, str, dict[str, Any], str, dict[str, str]]] = [
    ("GET", "/api/v1/admin/members/zed", {}, "404-404-not-found", {}),
    ("PATCH", "/api/v1/admin/members/zed", {}, "400-400-bad-request", {}),
    ("PATCH", "/api/v1/admin/members/ada", {}, "409-members-cannot-be-renamed-yet", {}),
    ("POST", "/api/v1/books", {"json": {}}, "401-sign-in-first", {}),
    (
        "POST",
        "/api/v1/books",
        {"json": {"title": " "}, "headers": TOKEN},
        "400-the-title-must-not-be-blank",
        {},
    ),
    (
        "POST",
        "/api/v1/books",
        {"json": {"title": "x" * 81}, "headers": TOKEN},
        "400-the-title-is-longer-than-80-characters",
        {},
    ),
    (
        "POST",
        "/api/v1/books",
        {"json": {"title": "Ulysses"}, "headers": TOKEN},
        "422-an-isbn-is-required",
        {},
    ),
    ("GET", "/api/v1/books/9", {}, "404-no-book-has-the-id-book-id", {"book_id": "9"}),
    ("GET", "/api/v1/books/2", {}, "403-this-shelf-is-closed", {}),
    ("POST", "/api/v1/books/9/loan", {}, "404-no-book-has-the-id-book-id", {"book_id": "9"}),
    ("DELETE", "/api/v1/books/1/loan", {}, "409-409-not-on-loan", {}),
    ("POST", "/api/v1/books/1/loan", {}, "", {}),  # a success through the error builder: 201
    ("POST", "/api/v1/books/1/loan", {}, "409-book-exc-book-id-is-already-borrowed", {"exc.book_id": "1"}),
]


def library_project(root: Path) -> Path:
    """A copy of the fixture to run docgen in (the region templates come from the package)."""
    shutil.copytree(FIXTURE, root, dirs_exist_ok=True, ignore=shutil.ignore_patterns("__pycache__", "site"))
    return root


def catalog_of(root: Path) -> RoutesCatalog:
    catalog = run_extract_in_memory(root).catalogs["library-routes"]
    assert isinstance(catalog, RoutesCatalog)
    return catalog


def test_every_operation_with_its_prefixes_views_and_decorators(tmp_path: Path) -> None:
    catalog = catalog_of(library_project(tmp_path))
    found = {(o.method, o.path): (o.function, o.dependencies) for o in catalog.operations}
    assert found == {
        ("get", "/health"): ("library.app.health", ()),
        ("get", "/api/v1/books/{book_id}"): ("library.books.read_book", ()),
        ("post", "/api/v1/books"): ("library.books.add_book", ("library.auth.require_token.wrapper",)),
        ("post", "/api/v1/books/{book_id}/loan"): ("library.books.LoanView.post", ()),
        ("delete", "/api/v1/books/{book_id}/loan"): ("library.books.LoanView.delete", ()),
        ("get", "/api/v1/admin/members"): ("library.members.list_members", ()),
        ("get", "/api/v1/admin/members/{name}"): ("library.members.read_member", ()),
        ("patch", "/api/v1/admin/members/{name}"): ("library.members.rename_member", ()),
    }


def test_each_error_once_with_the_status_and_body_the_client_gets(tmp_path: Path) -> None:
    catalog = catalog_of(library_project(tmp_path))
    found = {(e.id, e.status, e.detail, e.body_key, e.exception, e.handler) for e in catalog.errors}
    handler = "library.app.domain_errors"
    assert found == {
        ("401-sign-in-first", 401, "Sign in first", "error", "Unauthorized", handler),
        ("404-no-book-has-the-id-book-id", 404, "No book has the id {book_id}", TEXT, "BookNotFound", None),
        ("403-this-shelf-is-closed", 403, TRANSLATED, TEXT, "web.HTTPForbidden", None),
        (
            "400-the-title-must-not-be-blank",
            400,
            "The title must not be blank",
            TEXT,
            "web.HTTPBadRequest",
            None,
        ),
        (
            "400-the-title-is-longer-than-80-characters",
            400,
            "The title is longer than 80 characters",
            TEXT,
            "web.HTTPBadRequest",
            None,
        ),
        ("422-an-isbn-is-required", 422, "An ISBN is required", "error", "web.json_response", None),
        (
            "409-book-exc-book-id-is-already-borrowed",
            409,
            "Book {exc.book_id} is already borrowed",
            "error",
            "AlreadyBorrowed",
            handler,
        ),
        ("409-409-not-on-loan", 409, "409: Not on loan", TEXT, "web.HTTPConflict", None),
        ("404-404-not-found", 404, "404: Not Found", TEXT, "MemberNotFound", None),
        ("400-400-bad-request", 400, "400: Bad Request", TEXT, "web.HTTPBadRequest", None),
        (
            "409-members-cannot-be-renamed-yet",
            409,
            "Members cannot be renamed yet",
            TEXT,
            "web.Response",
            None,
        ),
    }


def test_the_catalog_says_what_the_installed_aiohttp_sends(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each probe's status and body, from the fixture application run in-process, against its catalog
    entry (placeholders filled with the request's values); the success answered through the error builder
    is in no entry."""
    errors = {e.id: e for e in catalog_of(library_project(tmp_path / "project")).errors}
    monkeypatch.syspath_prepend(str(FIXTURE))
    answers = asyncio.run(_ask_the_application())
    for (_method, _path, _kwargs, error_id, values), (status, content_type, body) in zip(
        PROBES, answers, strict=True
    ):
        if not error_id:
            assert status == 201
            continue
        error = errors[error_id]
        expected = error.detail
        for name, value in values.items():
            expected = expected.replace("{" + name + "}", value)
        assert status == error.status, error_id
        if error.body_key == TEXT:
            assert (content_type, body) == (PLAIN, expected), error_id
        else:
            assert json.loads(body) == {error.body_key: expected}, error_id


async def _ask_the_application() -> list[tuple[int, str, str]]:
    from aiohttp.test_utils import TestClient, TestServer
    from library.app import create_app  # the fixture's own package, not docgen's code

    answers = []
    async with TestClient(TestServer(create_app())) as client:
        for method, path, kwargs, _error_id, _values in PROBES:
            response = await client.request(method, path, **kwargs)
            answers.append((response.status, response.content_type, await response.text()))
    return answers


def test_the_fragment_is_exact_and_valid(tmp_path: Path) -> None:
    from docgen.shell.cli import main

    root = library_project(tmp_path)
    assert main(["--config", str(root / "mkdocs.yml"), "extract"]) == 0
    fragment = json.loads((root / "data" / "library-routes.openapi.json").read_text(encoding="utf-8"))
    found: dict[tuple[str, str], dict[int, list[tuple[str, str]]]] = {}
    for path, item in fragment["paths"].items():
        for method, operation in item.items():
            found[(method, path)] = {
                int(status): [
                    (media, e["value"]) if media == PLAIN else (next(iter(e["value"])), *e["value"].values())
                    for media, content in response["content"].items()
                    for e in content["examples"].values()
                ]
                for status, response in operation["responses"].items()
            }
    assert found == EXPECTED
    assert fragment == json.loads(
        (FIXTURE / "data" / "library-routes.openapi.json").read_text(encoding="utf-8")
    )
    validate(fragment)


def test_extraction_never_imports_the_application(tmp_path: Path) -> None:
    root = library_project(tmp_path)
    code = (
        "import sys\n"
        "from docgen.shell.cli import main\n"
        f"assert main(['--config', {str(root / 'mkdocs.yml')!r}, 'extract']) == 0\n"
        "assert not any(n == 'library' or n.startswith(('library.', 'aiohttp')) for n in sys.modules)\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT, capture_output=True)


def _check(root: Path) -> int:
    command = [sys.executable, "-m", "docgen.shell.cli", "--config", str(root / "mkdocs.yml"), "check"]
    return subprocess.run(
        command, cwd=root, capture_output=True, text=True, check=False, timeout=300
    ).returncode


@pytest.mark.parametrize(
    ("edit", "code"),
    [
        (
            (
                "library/members.py",
                "    return web.json_response(sorted(MEMBERS))",
                "    # Sorted.\n\n    return web.json_response(sorted(MEMBERS))",
            ),
            0,
        ),
        (
            (
                "library/errors.py",
                "class MemberNotFound(web.HTTPNotFound):",
                "class MemberNotFound(web.HTTPGone):",
            ),
            1,
        ),
        (
            (
                "library/members.py",
                '    return web.json_response({"name": name})',
                '    if name == "root":\n        raise web.HTTPForbidden()\n'
                '    return web.json_response({"name": name})',
            ),
            1,
        ),
    ],
    ids=["a-comment-and-a-blank-line", "a-changed-status", "an-added-raise"],
)
def test_check_fails_on_a_changed_status_or_an_added_raise_and_not_on_a_comment(
    tmp_path: Path, edit: tuple[str, str, str], code: int
) -> None:
    root = library_project(tmp_path)
    assert _check(root) == 0
    file, old, new = edit
    text = (root / file).read_text(encoding="utf-8")
    assert old in text
    (root / file).write_text(text.replace(old, new), encoding="utf-8")
    assert _check(root) == code


@pytest.mark.parametrize(
    ("written", "openapi"),
    [
        (r"/books/{book_id:\d+}", "/books/{book_id}"),
        (r"/archive/{year:\d{4}}/{slug}", "/archive/{year}/{slug}"),
        ("", "/"),
        ("/plain", "/plain"),
    ],
)
def test_aiohttp_paths_in_openapi_form(written: str, openapi: str) -> None:
    assert openapi_path(written) == openapi


def test_the_site_builds_strict_and_publishes_the_plain_text_bodies(tmp_path: Path) -> None:
    root = library_project(tmp_path)
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    mkdocs = Path(sys.executable).parent / "mkdocs"
    subprocess.run(
        [str(mkdocs), "build", "--strict", "-q"], cwd=root, check=True, env=env, capture_output=True
    )
    published = json.loads((root / "site" / "library-routes.json").read_text(encoding="utf-8"))
    bodies = {error["id"]: (error["body_key"], error["detail"]) for error in published["errors"]}
    assert bodies["404-404-not-found"] == (TEXT, "404: Not Found")
    assert bodies["401-sign-in-first"] == ("error", "Sign in first")


PLUGIN = """

PLUGINS: list[object] = []


def install_plugins(app: web.Application) -> None:
    for plugin in PLUGINS:
        app.add_subapp("/plugin", plugin.app)
        app.add_routes(plugin.routes)
"""


def test_a_sub_application_or_table_docgen_cannot_follow_is_a_located_finding(tmp_path: Path) -> None:
    """Plugins added by the application's own hook: their routes cannot be listed, and check says so at each
    call, while the application the hook is given is followed."""
    root = library_project(tmp_path)
    app = root / "library" / "app.py"
    text = app.read_text(encoding="utf-8").replace(
        "    return app\n", "    install_plugins(app)\n    return app\n"
    )
    app.write_text(text + PLUGIN, encoding="utf-8")
    lines = app.read_text(encoding="utf-8").splitlines()
    subapp = lines.index('        app.add_subapp("/plugin", plugin.app)') + 1
    command = [sys.executable, "-m", "docgen.shell.cli", "--config", str(root / "mkdocs.yml"), "check"]
    done = subprocess.run(command, cwd=root, capture_output=True, text=True, check=False, timeout=300)
    assert done.returncode == 1
    found = [line for line in done.stdout.splitlines() if ": source-unfollowed: " in line]
    where = (
        "is not one docgen can find: a web.Application() or RouteTableDef() of the source, by a module-level "
        "name, one a function returns or one it is given; the routes it adds are not listed"
    )
    assert found == [
        f"library/app.py:{subapp}: source-unfollowed: add_subapp('/plugin', plugin.app): "
        f"add_subapp('/plugin', plugin.app) cannot be followed: the sub-application, `plugin.app`, {where}",
        f"library/app.py:{subapp + 1}: source-unfollowed: add_routes(plugin.routes): "
        f"add_routes(plugin.routes) cannot be followed: the route table, `plugin.routes`, {where}",
    ]
