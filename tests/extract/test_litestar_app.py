"""Routes catalogs of the Litestar fixture (tests/fixtures/servers/litestar_app): the operations, the errors
each can answer with and the OpenAPI fragment, found without importing the application; and the values
proven against what the installed Litestar really sends, by running the fixture in its test client."""

from __future__ import annotations

import importlib
import json
import shutil
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from docgen.core.models import RoutesCatalog
from docgen.shell.cli import main
from tests.helpers import run_extract_in_memory

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "servers" / "litestar_app"
ROOT = Path(__file__).resolve().parents[2]

TRANSLATED = "400-the-title-must-not-be-blank"
"""`_("The title must not be blank")`: its message id is what the client gets; docgen reads it as the message
id once translated messages are read (issue 28's DRF part), and as the call in braces until then."""

# Error id -> (status, detail as the client receives it, exception, function, handler), counted by hand.
ERRORS = {
    "401-missing-or-unknown-x-token-header": (
        401,
        "Missing or unknown X-Token header",
        "NotAuthorizedException",
        "bookshelf.security.current_user",
        None,
    ),
    "403-only-editors-may-change-the-catalogue": (
        403,
        "Only editors may change the catalogue",
        "PermissionDeniedException",
        "bookshelf.security.editors_only",
        None,
    ),
    "404-no-book-has-the-id-book-id": (
        404,
        "No book has the id {book_id}",
        "BookNotFound",
        "bookshelf.books.find_book",
        None,
    ),
    TRANSLATED: (
        400,
        "The title must not be blank",
        "ValidationException",
        "bookshelf.books.BookController.rename_book",
        None,
    ),
    "400-the-title-is-longer-than-80-characters": (
        400,
        "The title is longer than 80 characters",
        "ValidationException",
        "bookshelf.books.BookController.rename_book",
        None,
    ),
    "404-not-found": (
        404,
        "Not Found",
        "NotFoundException",
        "bookshelf.books.BookController.remove_book",
        None,
    ),
    "409-the-book-is-out-of-stock": (
        409,
        "The book is out of stock",
        "OutOfStock",
        "bookshelf.orders.place_order",
        None,
    ),
    "402-the-card-was-declined": (
        402,
        "The card was declined",
        "PaymentDeclined",
        "bookshelf.orders.place_order",
        "bookshelf.app.payment_declined",
    ),
    "404-no-order-has-this-id": (
        404,
        "No order has this id",
        "Response",
        "bookshelf.orders.read_order",
        None,
    ),
}

ALICE, BOB = {"x-token": "alice-token"}, {"x-token": "bob-token"}
# Error id -> a request that makes the application answer with it: (method, url, headers, the detail's
# placeholders filled in as the request fills them).
REQUESTS = {
    "401-missing-or-unknown-x-token-header": ("get", "/api/books/1", {}, {}),
    "403-only-editors-may-change-the-catalogue": ("put", "/api/books/1?title=Persuasion", BOB, {}),
    "404-no-book-has-the-id-book-id": ("get", "/api/books/9", ALICE, {"book_id": "9"}),
    TRANSLATED: ("put", "/api/books/1?title=%20", ALICE, {}),
    "400-the-title-is-longer-than-80-characters": ("put", f"/api/books/1?title={'x' * 81}", ALICE, {}),
    "404-not-found": ("delete", "/api/books/3", ALICE, {}),
    "409-the-book-is-out-of-stock": ("post", "/api/v1/orders?book_id=1&card=4111", ALICE, {}),
    "402-the-card-was-declined": ("post", "/api/v1/orders?book_id=2&card=0000", ALICE, {}),
    "404-no-order-has-this-id": ("get", "/api/v1/orders/o-9", ALICE, {}),
}

# (method, path) -> (function, dependencies: guards first, then the dependencies its parameters name, each
# with the error ids it can answer, in the order the operation lists them).
TOKEN = "bookshelf.security.current_user"
GUARD = "bookshelf.security.editors_only"
OPERATIONS = {
    ("get", "/api/books"): ("bookshelf.books.BookController.list_books", (TOKEN,)),
    ("get", "/api/books/all"): ("bookshelf.books.BookController.list_books", (TOKEN,)),
    ("get", "/api/books/{book_id}"): ("bookshelf.books.BookController.read_book", (TOKEN,)),
    ("put", "/api/books/{book_id}"): ("bookshelf.books.BookController.rename_book", (GUARD, TOKEN)),
    ("delete", "/api/books/{book_id}"): ("bookshelf.books.BookController.remove_book", (GUARD, TOKEN)),
    ("post", "/api/v1/orders"): ("bookshelf.orders.place_order", (TOKEN,)),
    ("get", "/api/v1/orders/{order_id}"): ("bookshelf.orders.read_order", (TOKEN,)),
}
RESPONSES = {
    ("get", "/api/books"): ["401-missing-or-unknown-x-token-header"],
    ("get", "/api/books/all"): ["401-missing-or-unknown-x-token-header"],
    ("get", "/api/books/{book_id}"): [
        "401-missing-or-unknown-x-token-header",
        "404-no-book-has-the-id-book-id",
    ],
    ("put", "/api/books/{book_id}"): [
        "403-only-editors-may-change-the-catalogue",
        "401-missing-or-unknown-x-token-header",
        TRANSLATED,
        "400-the-title-is-longer-than-80-characters",
        "404-no-book-has-the-id-book-id",
    ],
    ("delete", "/api/books/{book_id}"): [
        "403-only-editors-may-change-the-catalogue",
        "401-missing-or-unknown-x-token-header",
        "404-not-found",
        "404-no-book-has-the-id-book-id",
    ],
    ("post", "/api/v1/orders"): [
        "401-missing-or-unknown-x-token-header",
        "404-no-book-has-the-id-book-id",
        "409-the-book-is-out-of-stock",
        "402-the-card-was-declined",
    ],
    ("get", "/api/v1/orders/{order_id}"): [
        "401-missing-or-unknown-x-token-header",
        "404-no-order-has-this-id",
    ],
}


def bookshelf_project(root: Path) -> Path:
    """A copy of the fixture to run docgen in (the region templates come from the package)."""
    shutil.copytree(FIXTURE, root, dirs_exist_ok=True, ignore=shutil.ignore_patterns("__pycache__", "site"))
    return root


def catalog_of(root: Path) -> RoutesCatalog:
    catalog = run_extract_in_memory(root).catalogs["bookshelf-routes"]
    assert isinstance(catalog, RoutesCatalog)
    return catalog


@pytest.fixture
def bookshelf() -> Iterator[ModuleType]:
    """The fixture application, imported (the test may; extraction never does)."""
    sys.path.insert(0, str(FIXTURE))
    try:
        yield importlib.import_module("bookshelf.app")
    finally:
        sys.path.remove(str(FIXTURE))
        for name in [name for name in sys.modules if name == "bookshelf" or name.startswith("bookshelf.")]:
            del sys.modules[name]


def test_every_operation_under_its_layers_paths_with_its_guards_and_dependencies(tmp_path: Path) -> None:
    catalog = catalog_of(bookshelf_project(tmp_path))
    found = {(o.method, o.path): (o.function, o.dependencies) for o in catalog.operations}
    assert found == OPERATIONS  # /health is left out of the schema; HEAD is not an operation of its own
    listed = {(o.method, o.path): [error_id for error_id, _ in o.errors] for o in catalog.operations}
    assert listed == RESPONSES


def test_each_error_once_with_the_status_and_detail_the_client_gets(tmp_path: Path) -> None:
    catalog = catalog_of(bookshelf_project(tmp_path))
    found = {e.id: (e.status, e.detail, e.exception, e.function, e.handler) for e in catalog.errors}
    assert {k: v for k, v in found.items() if k != TRANSLATED} == {
        k: v for k, v in ERRORS.items() if k != TRANSLATED
    }
    assert found.keys() == ERRORS.keys()
    assert {e.body_key for e in catalog.errors} == {"detail"}
    assert catalog.automatic_statuses == (400,)


def test_a_translated_message_is_its_message_id(tmp_path: Path) -> None:
    catalog = catalog_of(bookshelf_project(tmp_path))
    assert next(e.detail for e in catalog.errors if e.id == TRANSLATED) == ERRORS[TRANSLATED][1]


def test_the_application_answers_every_error_as_counted(bookshelf: ModuleType) -> None:
    """The values above are what the installed Litestar sends: status, and `{"status_code", "detail"}`
    with the detail in full (a framework default with no message is the status phrase)."""
    from litestar.testing import TestClient

    with TestClient(bookshelf.app) as client:
        for error_id, (method, url, headers, filled) in REQUESTS.items():
            status, detail = ERRORS[error_id][:2]
            answer = client.request(method.upper(), url, headers=headers)
            assert (answer.status_code, answer.json()) == (
                status,
                {"status_code": status, "detail": detail.format(**filled)},
            ), error_id
        # One success through the error builder: `Response(..., status_code=201)` is no error.
        assert client.post("/api/v1/orders?book_id=2&card=4111", headers=ALICE).status_code == 201


def test_the_fragment_lists_exactly_the_counted_responses_and_validates(tmp_path: Path) -> None:
    from openapi_spec_validator import validate

    root = bookshelf_project(tmp_path)
    assert main(["--config", str(root / "mkdocs.yml"), "extract"]) == 0
    fragment = json.loads((root / "data" / "bookshelf-routes.openapi.json").read_text(encoding="utf-8"))
    validate(fragment)
    found = {
        (method, path): {
            int(status): list(response["content"]["application/json"]["examples"])
            for status, response in operation["responses"].items()
        }
        for path, item in fragment["paths"].items()
        for method, operation in item.items()
    }
    expected: dict[tuple[str, str], dict[int, list[str]]] = {}
    for operation, error_ids in RESPONSES.items():
        for error_id in sorted(error_ids, key=lambda e: ERRORS[e][0]):
            expected.setdefault(operation, {}).setdefault(ERRORS[error_id][0], []).append(error_id)
    assert found == {key: dict(sorted(value.items())) for key, value in expected.items()}
    example = fragment["paths"]["/api/v1/orders"]["post"]["responses"]["402"]["content"]["application/json"]
    assert example["examples"]["402-the-card-was-declined"]["value"] == {"detail": "The card was declined"}
    assert fragment["paths"]["/api/books/{book_id}"]["get"]["parameters"][0]["name"] == "book_id"


def test_the_committed_fixture_is_what_extract_and_render_give(tmp_path: Path) -> None:
    root = bookshelf_project(tmp_path)
    assert main(["--config", str(root / "mkdocs.yml"), "extract"]) == 0
    assert main(["--config", str(root / "mkdocs.yml"), "render"]) == 0
    for name in ("data/bookshelf-routes.yaml", "data/bookshelf-routes.openapi.json", "docs/index.md"):
        assert (root / name).read_text(encoding="utf-8") == (FIXTURE / name).read_text(encoding="utf-8"), name


def test_extraction_never_imports_the_application_or_litestar(tmp_path: Path) -> None:
    root = bookshelf_project(tmp_path)
    code = textwrap.dedent(
        f"""
        import sys
        from docgen.shell.cli import main
        assert main(["--config", {str(root / "mkdocs.yml")!r}, "extract"]) == 0
        assert not any(name.startswith(("bookshelf", "litestar")) for name in sys.modules)
        """
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT, capture_output=True)
