"""Errors catalogs with `framework:` (the framework's HTTP exceptions and the exceptions its handlers answer
for are constructors without being listed; a status or message a call leaves out comes from the class or
the framework's default; a handler's status and detail are what the client gets), and routes catalogs
whose framework is found from the imports. The values are checked against what the applications answer,
run in process with FastAPI's test client (the tests may import the fixtures; extraction never does)."""

from __future__ import annotations

import importlib
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest
from openapi_spec_validator import validate

from docgen.core.errors import ConfigError
from docgen.core.settings import FRAMEWORKS, CatalogConfig
from docgen.extract import detect
from docgen.extract.kind_stage import ExtractRun
from docgen.extract.resolve import Resolver
from docgen.extract.routes import framework_named
from docgen.frameworks.fastapi.openapi import with_error_responses
from docgen.kinds.errors.catalog import ErrorsExtraction
from docgen.kinds.routes.catalog import RoutesExtraction
from docgen.shell.cli import main
from tests.extract.test_package_source import FIXTURE as MARKET
from tests.extract.test_package_source import edit
from tests.extract.test_package_source import project as project  # noqa: PLC0414 (the fixture)
from tests.extract.test_routes import shop_project
from tests.helpers import load, make_files, run_extract_in_memory

SHOP_ERRORS = """\
        shop-errors:
          kind: errors
          source: shop
          framework: fastapi
          functions: [shop.items.rename_item, shop.orders.place_order, shop.deps.current_user]
"""


def entries(root: Path, name: str) -> list[tuple[object, ...]]:
    found = run_extract_in_memory(root).of(name, ErrorsExtraction)
    return [(entry.status, entry.message, entry.function) for entry in found.catalog.entries]


@pytest.fixture
def market_app() -> Iterator[ModuleType]:
    """The market's FastAPI front, imported from the fixture."""
    folders = [str(MARKET), str(MARKET / "vendor")]
    sys.path[:0] = folders
    try:
        yield importlib.import_module("market.web")
    finally:
        for folder in folders:
            sys.path.remove(folder)
        for name in [
            name for name in sys.modules if name in {"market", "statuses"} or name.startswith("market.")
        ]:
            del sys.modules[name]


def test_the_market_catalog_says_what_the_application_answers(project: Path, market_app: ModuleType) -> None:
    from fastapi.testclient import TestClient

    found = entries(project, "market-web-errors")
    assert found == [
        (400, "Bad Request", "market.web.read_cart"),  # Starlette's phrase for a raise without a detail
        (404, "No cart has this id", "market.web.read_cart"),
        (423, "The cart is being checked out", "market.web.empty_cart"),  # the handler's, for Locked
    ]
    client = TestClient(market_app.app)
    market_app.LOCKED.add(1)
    answers = [client.get("/carts/-1"), client.get("/carts/7"), client.delete("/carts/1")]
    assert [(a.status_code, a.json()["detail"]) for a in answers] == [(s, m) for s, m, _ in found]


def test_the_fragment_merged_into_the_market_app_is_its_committed_document(
    project: Path, market_app: ModuleType
) -> None:
    from fastapi.testclient import TestClient

    assert main(["-f", str(project / "mkdocs.yml"), "extract"]) == 0
    fragment = json.loads((project / "data" / "market-routes.openapi.json").read_text(encoding="utf-8"))
    with_error_responses(market_app.app, fragment)
    document = TestClient(market_app.app).get("/openapi.json").json()
    validate(document)
    assert document == json.loads((MARKET / "openapi.json").read_text(encoding="utf-8"))
    responses = document["paths"]["/carts/{cart_id}"]["delete"]["responses"]
    assert sorted(responses) == ["200", "400", "404", "422", "423"]


def test_the_shop_catalog_takes_statuses_and_details_from_the_handlers(tmp_path: Path) -> None:
    """The shop's answers are proven in process by tests/check/test_openapi.py."""
    root = shop_project(tmp_path)
    config = root / "mkdocs.yml"
    config.write_text(config.read_text(encoding="utf-8") + SHOP_ERRORS, encoding="utf-8")
    assert entries(root, "shop-errors") == [
        (404, "No item has the id {item_id}", "find_item"),
        (400, "The name must not be blank", "shop.items.rename_item"),
        (400, "The name is longer than 40 characters", "shop.items.rename_item"),
        (409, "Item {exc.item_id} is out of stock", "shop.orders.place_order"),
        (402, "The card was declined", "shop.orders.place_order"),
        (403, "This account is disabled", "shop.deps.current_user"),
    ]


def test_a_listed_constructor_keeps_its_own_map_and_a_missing_status_is_said(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    edit(
        project / "mkdocs.yml",
        "          framework: fastapi       #",
        "          constructors: [fastapi.HTTPException: {arguments: {message: 1}}]\n"
        "          framework: fastapi       #",
    )
    # Without the status, Starlette's phrase is not known either: the message is left empty, not made up.
    assert [entry[:2] for entry in entries(project, "market-web-errors")] == [
        (None, ""),
        (None, "No cart has this id"),
        (423, "The cart is being checked out"),
    ]
    assert main(["-f", str(project / "mkdocs.yml"), "extract"]) == 0
    said = capsys.readouterr().err
    assert "market/web.py:23: entry 'error' has no status" in said
    assert "market/web.py:26: entry 'no-cart-has-this-id' has no status" in said
    coverage = "coverage: 3 sites, 1 fully resolved; unresolved: 2 no status, 1 no message"
    assert f"data/market-web-errors.yaml: {coverage}\n" in said


def test_a_routes_catalog_finds_its_framework_from_the_imports(project: Path) -> None:
    found = run_extract_in_memory(project).of("market-routes", RoutesExtraction)
    assert found.catalog.framework == "fastapi"
    assert [(e.status, e.detail) for e in found.catalog.errors] == [
        (400, "Bad Request"),
        (404, "No cart has this id"),
        (423, "The cart is being checked out"),
    ]


def test_a_routes_catalog_that_imports_no_framework_is_a_located_error(tmp_path: Path) -> None:
    root = make_files(
        tmp_path,
        {
            "app/__init__.py": "",
            "app/main.py": "import json\n\ndef handler():\n    return json.dumps({})\n",
            "docs/index.md": "# API\n",
            "mkdocs.yml": "site_name: t\nplugins:\n  - docgen:\n      catalogs:\n        routes:\n"
            "          kind: routes\n          source: app/main.py\n",
        },
    )
    with pytest.raises(ConfigError) as caught:
        run_extract_in_memory(root)
    names = FRAMEWORKS.names()
    roots = sorted({root for name in names for root in framework_named(name, Resolver()).import_roots})
    assert "fastapi" in roots and "starlette" in roots
    assert caught.value.message == (
        f"'catalogs.routes.source': app/main.py imports no known web framework (none of {', '.join(roots)})"
    )
    assert (caught.value.file, caught.value.line) == ("mkdocs.yml", 7)
    assert caught.value.hint == f"set 'framework:' to the application's framework: {', '.join(names)}"


class _Imports:
    """A framework that only names the packages it is imported by, for the detection alone."""

    def __init__(self, name: str, roots: set[str]) -> None:
        self.name = name
        self.import_roots = frozenset(roots)


def test_an_application_that_imports_two_frameworks_is_a_located_error_naming_both(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    frameworks = {"fastapi": _Imports("fastapi", {"fastapi"}), "carts": _Imports("carts", {"market"})}
    monkeypatch.setattr(detect.FRAMEWORKS, "names", lambda: tuple(frameworks))
    monkeypatch.setattr(detect, "framework_named", lambda name, resolver: frameworks[name])
    config = CatalogConfig("r", "routes", "market/web.py", lines={"source": 30})
    run = ExtractRun(load(project, site=False))  # the program of market/web.py, read as extract reads it
    with pytest.raises(ConfigError) as caught:
        detect.detected_framework(config, run.program(config), run.resolver)
    assert caught.value.message == (
        "'catalogs.r.source': market/web.py imports several web frameworks: "
        "fastapi (imported at market/web.py:3); carts (imported at market/api/carts.py:3)"
    )
    assert caught.value.line == 30


def test_a_function_that_reaches_none_of_the_frameworks_errors_is_a_located_error(project: Path) -> None:
    added = "market.web.empty_cart, market.api.carts.add_item]"
    edit(project / "mkdocs.yml", "market.web.empty_cart]", added)
    with pytest.raises(ConfigError) as caught:
        run_extract_in_memory(project)
    assert caught.value.message == (
        "'catalogs.market-web-errors.functions': the function 'market.api.carts.add_item' reaches no call of "
        "the framework's errors"
    )
    assert caught.value.line == 27
