"""Routes catalogs of the Flask fixture (tests/fixtures/servers/flask_app): the operations, the errors each
can answer with, and the OpenAPI fragment, found without importing the application; then the application
itself, run with Flask's test client, answers every catalogued error with exactly that status and text."""

from __future__ import annotations

import importlib
import json
import re
import shutil
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from openapi_spec_validator import validate

from docgen.core.models import RoutesCatalog
from docgen.shell.cli import main
from tests.helpers import run_extract_in_memory

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "servers" / "flask_app"
ROOT = Path(__file__).resolve().parents[2]
NOT_FOUND = (
    "The requested URL was not found on the server. If you entered the URL manually please check your "
    "spelling and try again."
)
BLANK_TITLE = "The title must not be blank"
"""`abort(400, _("The title must not be blank"))`: a translated message is recorded as its message id."""

# What a reader of the fixture finds by hand: per operation, each status with the details raised for it.
EXPECTED: dict[tuple[str, str], dict[int, list[str]]] = {
    ("post", "/api/books"): {
        400: [BLANK_TITLE, "The title is longer than 80 characters"],
        401: ["Send a valid X-Token header"],
    },
    ("get", "/api/books/{book_id}"): {
        401: ["Send a valid X-Token header"],
        404: [NOT_FOUND],
        410: ["This book was withdrawn from the catalogue"],
    },
    ("delete", "/api/books/{book_id}"): {401: ["Send a valid X-Token header"], 404: [NOT_FOUND]},
    ("post", "/api/loans/desk/returns/{book_id}"): {
        403: ["Only librarians may do this"],
        409: ["This book is not on loan"],
    },
    ("get", "/api/loans/{book_id}"): {
        401: ["Send a valid X-Token header"],
        404: [NOT_FOUND],
        410: ["This book was withdrawn from the catalogue"],
    },
    ("post", "/api/loans/{book_id}"): {
        401: ["Send a valid X-Token header"],
        404: [NOT_FOUND],
        409: ["Book {error.book_id} is already on loan"],
        410: ["This book was withdrawn from the catalogue"],
    },
}


def lending_project(root: Path) -> Path:
    """A copy of the fixture to run docgen in (the region templates come from the package)."""
    shutil.copytree(FIXTURE, root, dirs_exist_ok=True, ignore=shutil.ignore_patterns("__pycache__", "site"))
    return root


def catalog_of(root: Path) -> RoutesCatalog:
    catalog = run_extract_in_memory(root).catalogs["lending-routes"]
    assert isinstance(catalog, RoutesCatalog)
    return catalog


def _lending(module: str) -> bool:
    return module == "lending" or module.startswith("lending.")


@pytest.fixture
def lending() -> Iterator[ModuleType]:
    """The fixture application, imported (the test may; extraction never does). Another fixture's package of
    the same name (the REST framework one, which Django keeps loaded) is set aside meanwhile."""
    aside = {name: sys.modules.pop(name) for name in [name for name in sys.modules if _lending(name)]}
    sys.path.insert(0, str(FIXTURE))
    try:
        yield importlib.import_module("lending.app")
    finally:
        sys.path.remove(str(FIXTURE))
        for name in [name for name in sys.modules if _lending(name)]:
            del sys.modules[name]
        sys.modules.update(aside)


def test_every_operation_with_its_prefixes_views_and_what_runs_first(tmp_path: Path) -> None:
    catalog = catalog_of(lending_project(tmp_path))
    found = [(o.method, o.path, o.function, o.dependencies) for o in catalog.operations]
    wrapper = "lending.auth.login_required.wrapper"
    assert found == [
        ("post", "/api/books", "lending.books.add_book", ()),
        ("get", "/api/books/{book_id}", "lending.books.read_book", ()),
        ("delete", "/api/books/{book_id}", "lending.books.withdraw_book", ()),
        (
            "post",
            "/api/loans/desk/returns/{book_id}",
            "lending.loans.take_back",
            ("lending.auth.librarians_only",),
        ),
        ("get", "/api/loans/{book_id}", "lending.loans.LoanView.get", (wrapper,)),
        ("post", "/api/loans/{book_id}", "lending.loans.LoanView.post", (wrapper,)),
        ("get", "/health", "lending.app.health", ()),
    ]


def test_each_error_once_with_its_status_detail_handler_and_body_key(tmp_path: Path) -> None:
    catalog = catalog_of(lending_project(tmp_path))
    http_error, on_loan = "lending.app.http_error", "lending.app.book_on_loan"
    found = [(e.status, e.detail, e.exception, e.function, e.handler, e.body_key) for e in catalog.errors]
    assert found == [
        (
            401,
            "Send a valid X-Token header",
            "abort",
            "lending.auth.login_required.wrapper",
            http_error,
            "error",
        ),
        (
            403,
            "Only librarians may do this",
            "Forbidden",
            "lending.auth.librarians_only",
            http_error,
            "error",
        ),
        (404, NOT_FOUND, "abort", "lending.books.find_book", http_error, "error"),
        (
            410,
            "This book was withdrawn from the catalogue",
            "BookWithdrawn",
            "lending.books.find_book",
            http_error,
            "error",
        ),
        (400, BLANK_TITLE, "abort", "lending.books.add_book", http_error, "error"),
        (400, "The title is longer than 80 characters", "return", "lending.books.add_book", None, "error"),
        (404, NOT_FOUND, "NotFound", "lending.books.withdraw_book", http_error, "error"),
        (
            409,
            "Book {error.book_id} is already on loan",
            "BookOnLoan",
            "lending.loans.LoanView.post",
            on_loan,
            "error",
        ),
        (409, "This book is not on loan", "return", "lending.loans.take_back", None, "error"),
    ]


# One request per catalogued error that makes the application answer with it.
MEMBER, LIBRARIAN = {"X-Token": "member-token"}, {"X-Token": "librarian-token"}
REQUESTS: dict[str, list[tuple[str, str, dict[str, Any]]]] = {
    "401-send-a-valid-x-token-header": [("get", "/api/books/1", {})],
    "403-only-librarians-may-do-this": [("post", "/api/loans/desk/returns/1", {"headers": MEMBER})],
    "404-the-requested-url-was-not-found-on-the-serve": [("get", "/api/books/99", {"headers": MEMBER})],
    "410-this-book-was-withdrawn-from-the-catalogue": [("get", "/api/loans/2", {"headers": MEMBER})],
    "400-the-title-must-not-be-blank": [("post", "/api/books", {"headers": MEMBER, "json": {"title": " "}})],
    "400-the-title-is-longer-than-80-characters": [
        ("post", "/api/books", {"headers": MEMBER, "json": {"title": "x" * 81}})
    ],
    "404-the-requested-url-was-not-found-on-the-serve-2": [("delete", "/api/books/99", {"headers": MEMBER})],
    "409-book-error-book-id-is-already-on-loan": [
        ("post", "/api/loans/1", {"headers": MEMBER}),
        ("post", "/api/loans/1", {"headers": MEMBER}),
    ],
    "409-this-book-is-not-on-loan": [("post", "/api/loans/desk/returns/3", {"headers": LIBRARIAN})],
}


def test_the_application_answers_each_error_as_the_catalog_says(lending: ModuleType, tmp_path: Path) -> None:
    catalog = catalog_of(lending_project(tmp_path))
    assert {error.id for error in catalog.errors} == set(REQUESTS)
    for error in catalog.errors:
        client = lending.create_app().test_client()
        for method, path, options in REQUESTS[error.id]:
            answer = getattr(client, method)(path, **options)
        detail = error.detail
        if detail == BLANK_TITLE:
            detail = "The title must not be blank"  # the message id, which the client gets untranslated
        pattern = re.escape(detail).replace(r"\{error\.book_id\}", r"\d+")
        assert answer.status_code == error.status, error.id
        assert re.fullmatch(pattern, answer.get_json()[error.body_key]), error.id


def test_without_a_handler_werkzeug_sends_its_page_with_the_description(lending: ModuleType) -> None:
    """What `<html>` as a body key stands for: Werkzeug's page, whose paragraph is the detail."""
    from flask import Flask, abort

    bare = Flask("bare")
    bare.add_url_rule("/gone", view_func=lambda: abort(404))
    answer = bare.test_client().get("/gone")
    assert (answer.status_code, answer.content_type) == (404, "text/html; charset=utf-8")
    assert f"<p>{NOT_FOUND}</p>" in answer.get_data(as_text=True)


def test_the_fragment_lists_exactly_the_expected_responses_and_validates(tmp_path: Path) -> None:
    root = lending_project(tmp_path)
    assert main(["--config", str(root / "mkdocs.yml"), "extract"]) == 0
    fragment = json.loads((root / "data" / "lending-routes.openapi.json").read_text(encoding="utf-8"))
    found = {}
    for path, item in fragment["paths"].items():
        for method, operation in item.items():
            found[(method, path)] = {
                int(status): [
                    example["value"]["error"]
                    for example in response["content"]["application/json"]["examples"].values()
                ]
                for status, response in operation["responses"].items()
            }
    assert found == EXPECTED
    validate(fragment)
    assert (root / "data" / "lending-routes.openapi.json").read_bytes() == (
        FIXTURE / "data" / "lending-routes.openapi.json"
    ).read_bytes()


def test_extraction_never_imports_the_application_or_flask(tmp_path: Path) -> None:
    root = lending_project(tmp_path)
    code = textwrap.dedent(
        f"""
        import sys
        from docgen.shell.cli import main
        assert main(["--config", {str(root / "mkdocs.yml")!r}, "extract"]) == 0
        names = ("lending", "flask", "werkzeug")
        assert not any(name.split(".")[0] in names for name in sys.modules), sorted(sys.modules)
        """
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT, capture_output=True)


def test_successes_made_the_way_errors_are_made_are_not_errors(lending: ModuleType, tmp_path: Path) -> None:
    """`return jsonify(...), 201` and `make_response(jsonify(...), 201)` build responses as the 400 and 409
    of the same views do; the application answers them with a success, and the catalog lists none."""
    catalog = catalog_of(lending_project(tmp_path))
    client = lending.create_app().test_client()
    added = client.post("/api/books", headers=MEMBER, json={"title": "Persuasion"})
    lent = client.post("/api/loans/1", headers=MEMBER)
    assert (added.status_code, lent.status_code) == (201, 201)
    statuses = {errors.status for errors in catalog.errors if errors.function.endswith(("add_book", "post"))}
    assert 201 not in statuses and statuses == {400, 409}
