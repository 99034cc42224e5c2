"""The Starlette fixture (tests/fixtures/servers/starlette_app): a plain Starlette application whose routes
are data, read without importing it; the catalog is held to what the application really answers, run
in-process with Starlette's test client, and check to the edits that change an answer."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from openapi_spec_validator import validate

from docgen.core.models import RoutesCatalog
from tests.helpers import run_extract_in_memory

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "servers" / "starlette_app"
ROOT = Path(__file__).resolve().parents[2]
TOKEN = {"x-token": "secret-token"}

# What a reader of the fixture finds by hand: per operation, each (status, detail) in catalog order.
EXPECTED = {
    # The decorator's wrapper runs first; the raise without a detail gets Starlette's status phrase.
    ("post", "/api/admin/reset"): [(401, "Only staff may administer the store"), (403, "Forbidden")],
    ("get", "/api/v1/items/{item_id}"): [
        (401, "Missing or unknown X-Token header"),
        (404, "No item has the id {item_id}"),
    ],
    ("put", "/api/v1/items/{item_id}"): [
        (401, "Missing or unknown X-Token header"),
        (404, "No item has the id {item_id}"),
        (400, "The name must not be blank"),  # a translated message: its id
        (400, "The name is longer than 40 characters"),
    ],
    ("post", "/api/v1/items/{item_id}/buy"): [
        (401, "Missing or unknown X-Token header"),
        (404, "No item has the id {item_id}"),
        (409, "Item {exc.item_id} is out of stock"),
    ],
    ("get", "/health"): [],
}


def store_project(root: Path) -> Path:
    """A copy of the fixture to run docgen in (the region templates come from the package)."""
    shutil.copytree(FIXTURE, root, dirs_exist_ok=True, ignore=shutil.ignore_patterns("__pycache__", "site"))
    return root


def catalog_of(root: Path) -> RoutesCatalog:
    catalog = run_extract_in_memory(root).catalogs["store-routes"]
    assert isinstance(catalog, RoutesCatalog)
    return catalog


@pytest.fixture
def client() -> Iterator[Any]:
    """The fixture application in-process (the test imports it; docgen never does)."""
    from starlette.testclient import TestClient

    sys.path.insert(0, str(FIXTURE))
    try:
        from store.main import app

        yield TestClient(app)
    finally:
        sys.path.remove(str(FIXTURE))
        for name in [name for name in sys.modules if name == "store" or name.startswith("store.")]:
            del sys.modules[name]


def test_every_operation_with_its_errors_prefix_and_condition(tmp_path: Path) -> None:
    catalog = catalog_of(store_project(tmp_path))
    errors = {error.id: error for error in catalog.errors}
    found = {
        (o.method, o.path): [(errors[e].status, errors[e].detail) for e, _ in o.errors]
        for o in catalog.operations
    }
    assert found == EXPECTED
    conditions = {o.path: o.condition for o in catalog.operations}
    assert conditions["/api/admin/reset"] == "settings.ENVIRONMENT == 'local'"
    assert {o.path: [a.expression for a in o.assumed] for o in catalog.operations}["/health"] == []
    assert {e.id: e.body_key for e in catalog.errors if e.handler} == {
        "409-item-exc-item-id-is-out-of-stock": "error"
    }


def _answered(detail: str, body: str) -> bool:
    """Whether a catalog detail (a template where `{...}` is a value known at run time) is `body`."""
    pattern = "".join(
        ".+" if part.startswith("{") else re.escape(part) for part in re.split(r"(\{[^}]*\})", detail)
    )
    return re.fullmatch(pattern, body) is not None


def test_the_catalog_is_what_the_application_answers(tmp_path: Path, client: Any) -> None:
    catalog = catalog_of(store_project(tmp_path))
    by_detail = {error.detail: error for error in catalog.errors}
    answers = [
        (client.get("/api/v1/items/1"), "Missing or unknown X-Token header"),
        (client.get("/api/v1/items/9", headers=TOKEN), "No item has the id {item_id}"),
        (
            client.put("/api/v1/items/1", headers=TOKEN, json={"name": "x" * 41}),
            "The name is longer than 40 characters",
        ),
        (client.post("/api/v1/items/2/buy", headers=TOKEN), "Item {exc.item_id} is out of stock"),
        (client.post("/api/admin/reset"), "Only staff may administer the store"),
        (client.post("/api/admin/reset", headers={"x-staff": "yes"}), "Forbidden"),
    ]
    for response, detail in answers:
        error = by_detail[detail]
        assert response.status_code == error.status
        body = response.json()[error.body_key] if error.body_key else response.text
        assert _answered(detail, body), (detail, body)
    blank = client.put("/api/v1/items/1", headers=TOKEN, json={"name": " "})
    assert (blank.status_code, blank.text) == (
        400,
        "The name must not be blank",
    )  # the message id, untranslated
    bought = client.post("/api/v1/items/1/buy", headers=TOKEN)
    assert bought.status_code == 201  # a success answered through JSONResponse is no error of the catalog


def test_the_committed_catalog_fragment_and_page_are_current_and_the_fragment_is_valid(
    tmp_path: Path,
) -> None:
    root = store_project(tmp_path)
    docgen = [sys.executable, "-m", "docgen", "--config", str(root / "mkdocs.yml")]
    subprocess.run([*docgen, "check"], check=True, cwd=ROOT, capture_output=True)
    fragment = json.loads((root / "data" / "store-routes.openapi.json").read_text(encoding="utf-8"))
    validate(fragment)
    listed = {
        (method, path): {int(status): sorted(r["content"]) for status, r in operation["responses"].items()}
        for path, item in fragment["paths"].items()
        for method, operation in item.items()
    }
    assert listed[("post", "/api/v1/items/{item_id}/buy")] == {
        401: ["text/plain"],
        404: ["text/plain"],
        409: ["application/json"],
    }
    assert "/health" not in fragment["paths"]


def _check(root: Path) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "docgen", "--config", str(root / "mkdocs.yml"), "check"]
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)


@pytest.mark.parametrize(
    ("old", "new", "exit_code"),
    [
        ('raise HTTPException(401, "Missing', 'raise HTTPException(403, "Missing', 1),  # a changed status
        # a second call of a check the route already makes: no new raise site, no new answer
        ("    item = find_item(item_id)\n", "    item = find_item(item_id)\n    require_token(request)\n", 0),
        (  # an added raise site
            '    item_id = request.path_params["item_id"]\n',
            '    item_id = request.path_params["item_id"]\n'
            '    if item_id > 9:\n        raise HTTPException(422, "Too large")\n',
            1,
        ),
        ("def find_item(", "# Items are looked up by id.\n\n\ndef find_item(", 0),  # a comment, blank lines
    ],
)
def test_check_fails_on_a_changed_answer_and_passes_a_harmless_edit(
    tmp_path: Path, old: str, new: str, exit_code: int
) -> None:
    root = store_project(tmp_path)
    items = root / "store" / "items.py"
    text = items.read_text(encoding="utf-8")
    assert old in text
    items.write_text(text.replace(old, new, 1), encoding="utf-8")
    assert _check(root).returncode == exit_code


def test_a_mount_or_route_docgen_cannot_follow_is_a_located_notice(tmp_path: Path) -> None:
    """A plugin's application mounted, and a route it made, both loaded at run time: their routes cannot be
    listed, and extract says so at the list (check reports it as `source-unfollowed`)."""
    from docgen.kinds.routes.catalog import RoutesExtraction

    root = store_project(tmp_path)
    main = root / "store" / "main.py"
    text = main.read_text(encoding="utf-8")
    old = 'api = [Mount("/v1", routes=[Mount("/items", routes=items.routes)])]'
    assert old in text
    text = text.replace(old, old[:-1] + ', Mount("/plugin", app=PLUGIN.app), PLUGIN.route]')
    text = text.replace(
        "\n\nasync def health", "\n\nPLUGIN = importlib.import_module('store.plugin')\n\n\nasync def health"
    )
    main.write_text("import importlib\n" + text, encoding="utf-8")
    line = (
        main.read_text(encoding="utf-8")
        .splitlines()
        .index(old[:-1] + ', Mount("/plugin", app=PLUGIN.app), PLUGIN.route]')
        + 1
    )
    result = run_extract_in_memory(root).results["store-routes"]
    assert isinstance(result, RoutesExtraction)
    assert [(shown, file, at) for shown, _reason, file, at in result.unfollowed] == [
        ("routes: PLUGIN.app", "store/main.py", line),
        ("routes: PLUGIN.route", "store/main.py", line),
    ]
    found = {(o.method, o.path): [e for e, _ in o.errors] for o in result.catalog.operations}
    assert found.keys() == EXPECTED.keys()  # the rest of the application is read as before
