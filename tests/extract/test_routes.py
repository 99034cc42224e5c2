"""Routes catalogs of the FastAPI fixture (tests/fixtures/servers/fastapi_app): the operations, the errors
each can answer with, and the OpenAPI fragment, found without importing the application."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from docgen.core.errors import SourceError
from docgen.core.models import RoutesCatalog
from docgen.shell.cli import main
from tests.helpers import run_extract_in_memory

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "servers" / "fastapi_app"
ROOT = Path(__file__).resolve().parents[2]

# What a reader of the fixture finds by hand: per operation, each status with the details raised for it.
EXPECTED = {
    ("get", "/items/{item_id}"): {
        401: ["Missing or unknown X-Token header"],
        404: ["No item has the id {item_id}"],
    },
    ("put", "/items/{item_id}"): {
        400: ["The name must not be blank", "The name is longer than 40 characters"],
        401: ["Missing or unknown X-Token header"],
        403: ["This account is disabled"],
        404: ["No item has the id {item_id}"],
    },
    # The stock router is nested in the items router: its prefix and its token dependency apply.
    ("get", "/items/{item_id}/stock"): {
        401: ["Missing or unknown X-Token header"],
        404: ["Not Found"],  # FastAPI's own detail for an HTTPException raised without one
    },
    ("post", "/items/{item_id}/stock"): {
        400: ["The amount must be a positive number"],  # a translated message: its message id
        401: ["Missing or unknown X-Token header"],
        409: ["The stock is being counted"],  # the 202 made by the same response class is no error
    },
    ("post", "/v1/orders"): {
        401: ["Missing or unknown X-Token header"],
        402: ["The card was declined"],
        403: ["This account is disabled"],
        404: ["No item has the id {item_id}"],
        409: ["Item {exc.item_id} is out of stock"],
    },
}


def shop_project(root: Path) -> Path:
    """A copy of the fixture, rendering with the packaged templates, to run docgen in."""
    shutil.copytree(FIXTURE, root, dirs_exist_ok=True, ignore=shutil.ignore_patterns("__pycache__", "site"))
    return root


def catalog_of(root: Path) -> RoutesCatalog:
    catalog = run_extract_in_memory(root).catalogs["shop-routes"]
    assert isinstance(catalog, RoutesCatalog)
    return catalog


def test_every_operation_with_its_prefix_and_dependencies(tmp_path: Path) -> None:
    catalog = catalog_of(shop_project(tmp_path))
    found = {(o.method, o.path): (o.function, o.dependencies) for o in catalog.operations}
    assert found == {
        ("get", "/health"): ("shop.main.health", ()),
        ("get", "/items/{item_id}"): ("shop.items.read_item", ("shop.deps.require_token",)),
        ("put", "/items/{item_id}"): (
            "shop.items.rename_item",
            ("shop.deps.require_token", "shop.deps.current_user"),
        ),
        ("get", "/items/{item_id}/stock"): ("shop.stock.read_stock", ("shop.deps.require_token",)),
        ("post", "/items/{item_id}/stock"): ("shop.stock.restock", ("shop.deps.require_token",)),
        ("post", "/v1/orders"): ("shop.orders.place_order", ()),
    }


def test_each_error_once_with_its_status_detail_and_handler(tmp_path: Path) -> None:
    catalog = catalog_of(shop_project(tmp_path))
    found = {(e.status, e.detail, e.exception, e.function, e.handler) for e in catalog.errors}
    assert found == {
        (401, "Missing or unknown X-Token header", "HTTPException", "shop.deps.require_token", None),
        (403, "This account is disabled", "HTTPException", "shop.deps.current_user", None),
        (404, "No item has the id {item_id}", "ItemNotFound", "shop.items.find_item", None),
        (400, "The name must not be blank", "HTTPException", "shop.items.rename_item", None),
        (400, "The name is longer than 40 characters", "HTTPException", "shop.items.rename_item", None),
        (
            409,
            "Item {exc.item_id} is out of stock",
            "OutOfStock",
            "shop.orders.place_order",
            "shop.main.out_of_stock",
        ),
        (
            402,
            "The card was declined",
            "PaymentDeclined",
            "shop.orders.place_order",
            "shop.main.payment_declined",
        ),
        (404, "Not Found", "HTTPException", "shop.stock.read_stock", None),
        (400, "The amount must be a positive number", "HTTPException", "shop.stock.restock", None),
        (409, "The stock is being counted", "JSONResponse", "shop.stock.restock", None),
    }
    assert {e.body_key for e in catalog.errors} == {"detail"}


def test_errors_record_the_way_the_code_reaches_them(tmp_path: Path) -> None:
    catalog = catalog_of(shop_project(tmp_path))
    orders = next(o for o in catalog.operations if o.path == "/v1/orders")
    via = {error_id.split("-")[0]: path for error_id, path in orders.errors}
    assert via["401"] == ("shop.orders.place_order", "shop.deps.current_user", "shop.deps.require_token")
    assert via["404"] == ("shop.orders.place_order", "shop.items.find_item")


def test_the_fragment_lists_exactly_the_expected_responses(tmp_path: Path) -> None:
    root = shop_project(tmp_path)
    assert main(["--config", str(root / "mkdocs.yml"), "extract"]) == 0
    fragment = json.loads((root / "data" / "shop-routes.openapi.json").read_text(encoding="utf-8"))
    found = {}
    for path, item in fragment["paths"].items():
        for method, operation in item.items():
            found[(method, path)] = {
                int(status): [
                    e["value"]["detail"] for e in r["content"]["application/json"]["examples"].values()
                ]
                for status, r in operation["responses"].items()
            }
    assert found == EXPECTED
    from openapi_spec_validator import validate

    validate(fragment)


def test_the_fragment_carries_the_editors_notes_and_is_the_same_bytes_twice(tmp_path: Path) -> None:
    root = shop_project(tmp_path)
    assert main(["--config", str(root / "mkdocs.yml"), "extract"]) == 0
    first = (root / "data" / "shop-routes.openapi.json").read_bytes()
    examples = json.loads(first)["paths"]["/v1/orders"]["post"]["responses"]["409"]["content"]
    example = examples["application/json"]["examples"]["409-item-exc-item-id-is-out-of-stock"]
    assert example["description"].startswith("The item exists, but none is left.")
    assert main(["--config", str(root / "mkdocs.yml"), "extract"]) == 0
    assert (root / "data" / "shop-routes.openapi.json").read_bytes() == first


def test_extraction_never_imports_the_application(tmp_path: Path) -> None:
    root = shop_project(tmp_path)
    code = textwrap.dedent(
        f"""
        import sys
        from docgen.shell.cli import main
        assert main(["--config", {str(root / "mkdocs.yml")!r}, "extract"]) == 0
        assert not any(name == "shop" or name.startswith(("shop.", "fastapi")) for name in sys.modules)
        """
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT, capture_output=True)


def test_a_source_without_routes_is_an_error(tmp_path: Path) -> None:
    root = shop_project(tmp_path)
    (root / "shop" / "main.py").write_text("app = None\n", encoding="utf-8")
    for module in ("items", "orders"):
        (root / "shop" / f"{module}.py").write_text("router = None\n", encoding="utf-8")
    with pytest.raises(SourceError, match="no fastapi routes found"):
        run_extract_in_memory(root)


def test_new_errors_are_named_by_the_applications_own_exception_class(tmp_path: Path) -> None:
    root = shop_project(tmp_path)
    committed = {error.id: error.exception for error in catalog_of(root).errors}
    (root / "data" / "shop-routes.yaml").unlink()  # a first extraction: every error is new
    fresh = {error.exception: error.id for error in catalog_of(root).errors}
    assert fresh["ItemNotFound"] == "item-not-found"
    assert fresh["OutOfStock"] == "out-of-stock" and fresh["PaymentDeclined"] == "payment-declined"
    # FastAPI's own HTTPException says nothing of the error: those keep the status and detail.
    assert fresh["HTTPException"].startswith(("400-", "401-", "403-"))
    # The committed catalog keeps the ids it had, which its notes are keyed by.
    assert "404-no-item-has-the-id-item-id" in committed
