"""Routes catalogs of the Django REST framework fixture (tests/fixtures/servers/drf_app): the operations
under nested includes and a router, every error each answers with, exactly as the client receives it (proved
here against the fixture run in-process with REST framework's test client), the OpenAPI fragment, and
`docgen check` on edits of the source."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from docgen.core.models import RoutesCatalog
from docgen.shell.cli import main
from tests.helpers import run_extract_in_memory

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "servers" / "drf_app"
ROOT = Path(__file__).resolve().parents[2]

# What a reader of the fixture finds by hand: per operation, each status with the details it answers with.
EXPECTED = {
    ("get", "/api/authors/{pk}/"): {404: ["No Author matches the given query."]},
    ("get", "/api/books/{pk}/"): {404: ["Not found."]},
    ("post", "/api/books/{pk}/lend/"): {
        401: ["Authentication credentials were not provided."],
        403: ["Only librarians may lend books."],
        404: ["No book has this id."],
        409: ["This book is on loan."],
        503: ["The library is closed."],
    },
    ("post", "/api/loans/"): {400: ["A loan lasts 30 days at most.", "Name the book to lend."]},
    ("delete", "/api/loans/"): {405: ["Loans are never deleted."]},
    ("get", "/api/loans/{loan_id}/"): {404: ["No loan has this id.", "This loan was returned."]},
}

# A request that gets each error: error id -> (method, url, body, user: None, "clerk" or "librarian").
TRIGGERS: dict[str, tuple[str, str, dict[str, str], str | None]] = {
    "404-no-author-matches-the-given-query": ("get", "/api/authors/5/", {}, None),
    "404-not-found": ("get", "/api/books/99/", {}, None),
    "401-authentication-credentials-were-not-provided": ("post", "/api/books/1/lend/", {}, None),
    "403-only-librarians-may-lend-books": ("post", "/api/books/1/lend/", {}, "clerk"),
    "404-no-book-has-this-id": ("post", "/api/books/99/lend/", {}, "librarian"),
    "409-this-book-is-on-loan": ("post", "/api/books/2/lend/", {}, "librarian"),
    "503-the-library-is-closed": ("post", "/api/books/1/lend/", {"day": "sunday"}, "librarian"),
    "400-name-the-book-to-lend": ("post", "/api/loans/", {}, None),
    "400-a-loan-lasts-30-days-at-most": ("post", "/api/loans/", {"book": "1", "days": "40"}, None),
    "405-loans-are-never-deleted": ("delete", "/api/loans/", {}, None),
    "404-no-loan-has-this-id": ("get", "/api/loans/0/", {}, None),
    "404-this-loan-was-returned": ("get", "/api/loans/1/", {}, None),
}


def library_project(root: Path) -> Path:
    """A copy of the fixture to run docgen in (the region templates come from the package)."""
    shutil.copytree(FIXTURE, root, dirs_exist_ok=True, ignore=shutil.ignore_patterns("__pycache__", "site"))
    return root


def catalog_of(root: Path) -> RoutesCatalog:
    catalog = run_extract_in_memory(root).catalogs["library-routes"]
    assert isinstance(catalog, RoutesCatalog)
    return catalog


class _User:
    """A signed-in user without a users table: REST framework asks only these attributes."""

    is_authenticated = True
    is_active = True

    def __init__(self, *, staff: bool) -> None:
        self.is_staff = staff


Send = Callable[[str, str, dict[str, str], str | None], Any]


@pytest.fixture(scope="module")
def send() -> Iterator[Send]:
    """Requests to the fixture application, run in this process by REST framework's test client."""
    sys.path.insert(0, str(FIXTURE))
    before = os.environ.get("DJANGO_SETTINGS_MODULE")
    os.environ["DJANGO_SETTINGS_MODULE"] = "lending.settings"
    try:
        import django

        django.setup()
        from django.db import connection
        from lending.models import Author, Book  # type: ignore[import-not-found]
        from rest_framework.test import APIClient

        with connection.schema_editor() as editor:
            editor.create_model(Author)
            editor.create_model(Book)
        Book.objects.create(title="On the shelf")
        Book.objects.create(title="Lent out", on_loan=True)
        users = {"clerk": _User(staff=False), "librarian": _User(staff=True)}

        def request(method: str, url: str, body: dict[str, str], user: str | None) -> Any:
            client = APIClient()
            if user is not None:
                client.force_authenticate(user=users[user])
            return getattr(client, method)(url, body, format="json")

        yield request
    finally:
        sys.path.remove(str(FIXTURE))
        if before is None:
            os.environ.pop("DJANGO_SETTINGS_MODULE", None)
        else:
            os.environ["DJANGO_SETTINGS_MODULE"] = before


def test_every_operation_with_its_path_and_function(tmp_path: Path) -> None:
    catalog = catalog_of(library_project(tmp_path))
    found = {(o.method, o.path): (o.function, o.dependencies) for o in catalog.operations}
    views = "lending.api.views"
    assert found == {
        ("get", "/api/authors/{pk}/"): (f"{views}.AuthorDetail", ()),
        ("get", "/api/books/"): (f"{views}.BookViewSet.list", ()),
        ("get", "/api/books/{pk}/"): (f"{views}.BookViewSet.retrieve", ()),
        ("post", "/api/books/{pk}/lend/"): (
            f"{views}.BookViewSet.lend",
            ("lending.permissions.IsLibrarian.has_permission",),
        ),
        ("post", "/api/loans/"): (
            f"{views}.LoanList.post",
            ("lending.serializers.LoanSerializer.validate_days",),
        ),
        ("delete", "/api/loans/"): (f"{views}.LoanList.delete", ()),
        ("get", "/api/loans/{loan_id}/"): (f"{views}.loan_detail", ()),
        ("get", "/api/v2/ping/"): (f"{views}.ping", ()),
    }


def test_each_operation_answers_exactly_the_errors_found_by_hand(tmp_path: Path) -> None:
    catalog = catalog_of(library_project(tmp_path))
    errors = {error.id: error for error in catalog.errors}
    found: dict[tuple[str, str], dict[int, list[str]]] = {}
    for operation in catalog.operations:
        for error_id, _via in operation.errors:
            error = errors[error_id]
            assert error.status is not None
            found.setdefault((operation.method, operation.path), {}).setdefault(error.status, [])
            found[(operation.method, operation.path)][error.status].append(error.detail)
    assert found == EXPECTED
    assert {error.id for error in catalog.errors} == set(TRIGGERS)


def test_each_error_is_what_the_running_application_answers(tmp_path: Path, send: Send) -> None:
    catalog = catalog_of(library_project(tmp_path))
    for error in catalog.errors:
        method, url, body, user = TRIGGERS[error.id]
        response = send(method, url, body, user)
        # A serializer's errors are lists of messages, one here: `{"days": ["A loan lasts ..."]}`.
        sent = {key: value[0] if isinstance(value, list) else value for key, value in response.json().items()}
        assert (response.status_code, sent) == (error.status, {error.body_key: error.detail}), error.id


def test_success_responses_are_not_errors(send: Send) -> None:
    lent = send("post", "/api/books/1/lend/", {"day": "monday"}, "librarian")
    assert (lent.status_code, lent.json()) == (200, {"detail": "Lent."})
    assert send("get", "/api/v2/ping/", {}, None).status_code == 200


def test_the_fragment_lists_exactly_the_expected_responses_and_is_valid(tmp_path: Path) -> None:
    root = library_project(tmp_path)
    assert main(["--config", str(root / "mkdocs.yml"), "extract"]) == 0
    fragment = json.loads((root / "data" / "library-routes.openapi.json").read_text(encoding="utf-8"))
    found = {}
    for path, item in fragment["paths"].items():
        for method, operation in item.items():
            found[(method, path)] = {
                int(status): [
                    next(iter(e["value"].values()))
                    for e in response["content"]["application/json"]["examples"].values()
                ]
                for status, response in operation["responses"].items()
            }
    assert found == EXPECTED
    loans = fragment["paths"]["/api/loans/"]["post"]["responses"]["400"]["content"]["application/json"]
    # A ValidationError's dict is the body itself; a serializer's error is under its field.
    assert loans["schema"] == {
        "oneOf": [
            {"type": "object", "required": ["days"], "properties": {"days": {}}},
            {"type": "object", "required": ["book"], "properties": {"book": {}}},
        ]
    }
    from openapi_spec_validator import validate

    validate(fragment)


def test_the_fragment_merges_into_the_document_rest_framework_builds(send: Send) -> None:
    from openapi_spec_validator import validate
    from rest_framework.schemas.openapi import SchemaGenerator

    from docgen.frameworks.drf.openapi import with_error_responses

    fragment = json.loads((FIXTURE / "data" / "library-routes.openapi.json").read_text(encoding="utf-8"))
    document = with_error_responses(SchemaGenerator, fragment)(title="Library").get_schema(public=True)
    statuses = {
        (method, path): sorted(int(status) for status in operation["responses"] if status[0] in "45")
        for path, item in document["paths"].items()
        for method, operation in item.items()
    }
    assert {key: value for key, value in statuses.items() if value} == {
        key: sorted(by_status) for key, by_status in EXPECTED.items()
    }
    validate(document)


def test_extraction_never_imports_the_application(tmp_path: Path) -> None:
    root = library_project(tmp_path)
    code = (
        "import sys\n"
        "from docgen.shell.cli import main\n"
        f"assert main(['--config', {str(root / 'mkdocs.yml')!r}, 'extract']) == 0\n"
        "assert not any(n.split('.')[0] in ('lending', 'django', 'rest_framework') for n in sys.modules)\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT, capture_output=True)


def _check(root: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "docgen", "--config", str(root / "mkdocs.yml"), "check"],
        check=False,
        cwd=ROOT,
        capture_output=True,
        text=True,
    )


@pytest.mark.parametrize(
    ("old", "new", "exit_code"),
    [
        ("status_code = status.HTTP_409_CONFLICT", "status_code = status.HTTP_423_LOCKED", 1),
        ('    return Response({"id": int(loan_id)})', "    raise NotFound()", 1),
        ("class BookOnLoan(APIException):", "# lent books\nclass BookOnLoan(APIException):", 0),
        ("def loan_detail(request, loan_id):", "def loan_detail(request, loan_id):\n", 0),
    ],
    ids=["a-changed-status", "an-added-site", "a-comment", "a-blank-line"],
)
def test_check_fails_on_a_changed_status_or_added_site_and_passes_harmless_edits(
    tmp_path: Path, old: str, new: str, exit_code: int
) -> None:
    root = library_project(tmp_path)
    for name in ("lending/errors.py", "lending/api/views.py"):
        source = root / name
        text = source.read_text(encoding="utf-8")
        source.write_text(text.replace(old, new, 1), encoding="utf-8")
    assert any(
        old in (FIXTURE / n).read_text(encoding="utf-8")
        for n in ("lending/errors.py", "lending/api/views.py")
    )
    result = _check(root)
    assert result.returncode == exit_code, result.stdout + result.stderr
