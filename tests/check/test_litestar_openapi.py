"""The Litestar fixture end to end: the fragment merged into the running application's own OpenAPI document,
and `docgen check`, run as a command on a copy of the fixture, against edits of its source."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType

from openapi_spec_validator import validate

from docgen.frameworks.litestar.openapi import with_error_responses
from tests.extract.test_litestar_app import ERRORS, FIXTURE, RESPONSES, bookshelf, bookshelf_project

__all__ = ["bookshelf"]  # the fixture, imported for pytest


def docgen(root: Path, command: str) -> subprocess.CompletedProcess[str]:
    script = Path(sys.executable).parent / "docgen"
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    return subprocess.run(
        [str(script), "--config", str(root / "mkdocs.yml"), command],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_merged_into_the_app_its_served_document_lists_every_error_and_validates(
    bookshelf: ModuleType,
) -> None:
    from litestar.testing import TestClient

    fragment = json.loads((FIXTURE / "data" / "bookshelf-routes.openapi.json").read_text(encoding="utf-8"))
    with_error_responses(bookshelf.app, fragment)
    with TestClient(bookshelf.app) as client:
        document = client.get("/schema/openapi.json").json()
    validate(document)
    for (method, path), error_ids in RESPONSES.items():
        responses = document["paths"][path][method]["responses"]
        success = {"post": "201", "delete": "204"}.get(method, "200")
        assert set(responses) - {success, "400"} == {str(ERRORS[e][0]) for e in error_ids} - {"400"}
        for error_id in error_ids:
            examples = responses[str(ERRORS[error_id][0])]["content"]["application/json"]["examples"]
            assert error_id in examples
    # The merge adds responses only: the parameters stay as Litestar wrote them.
    parameters = document["paths"]["/api/books/{book_id}"]["get"]["parameters"]
    assert parameters[0]["schema"] == {"type": "integer"}
    # The committed document is the application's own, merged: check holds the code against it.
    assert json.loads((FIXTURE / "openapi.json").read_text(encoding="utf-8")) == document


def test_check_passes_on_the_fixture_and_after_a_harmless_edit(tmp_path: Path) -> None:
    root = bookshelf_project(tmp_path)
    assert docgen(root, "check").returncode == 0
    edit(
        root / "bookshelf" / "orders.py",
        "    find_book(book_id)\n",
        "    # The book must exist.\n\n    find_book(book_id)\n",
    )
    result = docgen(root, "check")
    assert (result.returncode, result.stdout.strip()) == (0, "docgen check: the docs match the code."), (
        result.stderr
    )


def test_check_fails_on_a_changed_status(tmp_path: Path) -> None:
    root = bookshelf_project(tmp_path)
    edit(root / "bookshelf" / "errors.py", "status_code = 409", "status_code = 410")
    result = docgen(root, "check")
    assert result.returncode == 1
    assert "route-changed: 409-the-book-is-out-of-stock: the status or detail changed" in result.stdout
    assert "now: 410 The book is out of stock" in result.stdout


def test_check_fails_on_an_added_site(tmp_path: Path) -> None:
    root = bookshelf_project(tmp_path)
    edit(
        root / "bookshelf" / "orders.py",
        "    if order_id not in ORDERS:\n",
        '    if order_id == "o-0":\n        raise NotFoundException("Order o-0 was cancelled")\n'
        "    if order_id not in ORDERS:\n",
    )
    edit(
        root / "bookshelf" / "orders.py",
        "from litestar.di",
        "from litestar.exceptions import NotFoundException\nfrom litestar.di",
    )
    result = docgen(root, "check")
    assert result.returncode == 1
    assert "route-error-added: 404-order-o-0-was-cancelled" in result.stdout


def test_the_site_builds_strictly_and_publishes_each_error_with_its_notes(tmp_path: Path) -> None:
    root = bookshelf_project(tmp_path)
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    mkdocs = Path(sys.executable).parent / "mkdocs"
    subprocess.run(
        [str(mkdocs), "build", "--strict", "-q"], cwd=root, check=True, env=env, capture_output=True
    )
    published = json.loads((root / "site" / "bookshelf-routes.json").read_text(encoding="utf-8"))
    cause = {error["id"]: error["cause"] for error in published["errors"]}
    assert cause.keys() == ERRORS.keys()
    assert cause["402-the-card-was-declined"] == "The card issuer refused the payment."
