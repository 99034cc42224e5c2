"""check on a routes catalog: each way the operations and their errors drift from the committed catalog,
with the finding's kind, place and ids kept for the notes."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from docgen.shell.cli import main
from tests.extract.test_routes import shop_project


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")


def findings(root: Path, capsys: pytest.CaptureFixture[str]) -> set[str]:
    """The route findings check reports (their first lines); check's exit code must be 1."""
    capsys.readouterr()
    assert main(["--config", str(root / "mkdocs.yml"), "check"]) == 1
    out = capsys.readouterr().out
    return {line.strip() for line in out.splitlines() if re.search(r": route-(changed|error-\w+): ", line)}


def line_of(path: Path, text: str) -> int:
    return path.read_text(encoding="utf-8").splitlines().index(text) + 1


def test_a_reworded_detail_keeps_its_id_and_notes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = shop_project(tmp_path)
    items = root / "shop" / "items.py"
    edit(items, '"The name must not be blank"', '"A name is required"')
    raise_line = line_of(items, '        raise HTTPException(status_code=400, detail="A name is required")')
    assert findings(root, capsys) == {
        f"shop/items.py:{raise_line}: route-changed: 400-the-name-must-not-be-blank: "
        "the status or detail changed"
    }
    assert main(["--config", str(root / "mkdocs.yml"), "extract"]) == 0
    assert main(["--config", str(root / "mkdocs.yml"), "render"]) == 0
    page = (root / "docs" / "index.md").read_text(encoding="utf-8")
    assert "| A name is required | The new name is empty or only spaces. |" in page


def test_a_removed_raise_and_a_route_that_no_longer_reaches_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = shop_project(tmp_path)
    edit(
        root / "shop" / "orders.py", "    if order.card.startswith", "    if False and order.card.startswith"
    )
    edit(root / "shop" / "orders.py", "        raise PaymentDeclined()\n", "        pass\n")
    edit(root / "shop" / "orders.py", "    item = find_item(order.item_id)\n", "    item = {'stock': 1}\n")
    removed = line_of(root / "data" / "shop-routes.yaml", "- id: 402-the-card-was-declined")
    route = line_of(root / "shop" / "orders.py", '@router.post("", status_code=201)')
    assert findings(root, capsys) == {
        f"shop/orders.py:{route}: route-changed: post /v1/orders: POST /v1/orders no longer answers "
        "404-no-item-has-the-id-item-id",
        f"data/shop-routes.yaml:{removed}: route-error-removed: 402-the-card-was-declined: "
        "this error (402 'The card was declined') is no longer raised by any route",
    }


def test_an_added_and_a_removed_operation(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = shop_project(tmp_path)
    main_py = root / "shop" / "main.py"
    decorator = '@app.get("/healthz")'
    edit(main_py, '@app.get("/health")', decorator)
    catalog = line_of(root / "data" / "shop-routes.yaml", "- method: get")  # /health comes first
    assert findings(root, capsys) == {
        f"shop/main.py:{line_of(main_py, decorator)}: route-changed: get /healthz: "
        "GET /healthz is a new operation",
        f"data/shop-routes.yaml:{catalog}: route-changed: get /health: GET /health is no longer declared",
    }


def test_a_prefix_that_cannot_be_read_is_a_finding_until_the_configuration_states_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = shop_project(tmp_path)
    (root / "shop" / "config.py").write_text(
        "class Settings:\n    ORDERS_PREFIX: str\n\n\nsettings = Settings()\n", encoding="utf-8"
    )
    main_py = root / "shop" / "main.py"
    edit(
        main_py,
        "from shop import items, orders\n",
        "from shop import items, orders\nfrom shop.config import settings\n",
    )
    edit(main_py, 'prefix="/v1")', "prefix=settings.ORDERS_PREFIX)")
    config = root / "mkdocs.yml"
    assert main(["--config", str(config), "extract"]) == 0
    fragment = json.loads((root / "data" / "shop-routes.openapi.json").read_text(encoding="utf-8"))
    assert sorted(fragment["paths"]) == [
        "/items/{item_id}",
        "/items/{item_id}/stock",
    ]  # no made-up `{settings.ORDERS_PREFIX}` parameter
    capsys.readouterr()
    assert main(["--config", str(config), "check"]) == 1
    include = line_of(main_py, "app.include_router(orders.router, prefix=settings.ORDERS_PREFIX)")
    unstated = [line for line in capsys.readouterr().out.splitlines() if "run-time-value-unstated" in line]
    assert unstated == [
        f"shop/main.py:{include}: run-time-value-unstated: settings.ORDERS_PREFIX: the paths of POST "
        "{settings.ORDERS_PREFIX}/orders use `settings.ORDERS_PREFIX`, which cannot be read statically "
        "(shop.config.Settings.ORDERS_PREFIX has no default: only the environment gives it); the OpenAPI "
        "fragment leaves the operation out"
    ]
    edit(
        config,
        "openapi: openapi.json",
        "openapi: openapi.json\n          run_time_values:\n"
        "            - {expression: settings.ORDERS_PREFIX, value: /v1}",
    )
    assert main(["--config", str(config), "extract"]) == 0
    assert main(["--config", str(config), "render"]) == 0  # the page now says the prefix is stated
    capsys.readouterr()
    assert main(["--config", str(config), "check"]) == 0
    page = (root / "docs" / "index.md").read_text(encoding="utf-8")
    assert (
        "The paths take this value on trust: `settings.ORDERS_PREFIX` = `/v1` (stated in mkdocs.yml)." in page
    )
    edit(main_py, "prefix=settings.ORDERS_PREFIX)", 'prefix="/v1")')  # the statement is no longer needed
    assert main(["--config", str(config), "extract"]) == 0
    assert main(["--config", str(config), "render"]) == 0
    capsys.readouterr()
    assert main(["--config", str(config), "check"]) == 1
    stale = [line for line in capsys.readouterr().out.splitlines() if "run-time-value-stale" in line]
    statement = line_of(config, "            - {expression: settings.ORDERS_PREFIX, value: /v1}")
    assert stale == [
        f"mkdocs.yml:{statement}: run-time-value-stale: settings.ORDERS_PREFIX: run_time_values states "
        "`settings.ORDERS_PREFIX`, which catalog shop-routes no longer needs"
    ]


def test_a_changed_status_fails_and_a_harmless_edit_passes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = shop_project(tmp_path)
    stock = root / "shop" / "stock.py"
    edit(stock, "    if amount <= 0:\n", "    # Nothing to add is refused.\n\n    if amount <= 0:\n")
    capsys.readouterr()
    assert main(["--config", str(root / "mkdocs.yml"), "check"]) == 0
    edit(stock, "raise HTTPException(400, _(", "raise HTTPException(422, _(")
    raise_line = line_of(stock, '        raise HTTPException(422, _("The amount must be a positive number"))')
    assert findings(root, capsys) == {
        f"shop/stock.py:{raise_line}: route-changed: 400-the-amount-must-be-a-positive-number: "
        "the status or detail changed"
    }


UNREAD_STATUSES = """

def status_of(item_id: int) -> int:
    return 400 + item_id


def reply(status: int, message: str) -> JSONResponse:
    return JSONResponse(status_code=status, content={"detail": message})


@router.delete("")
def clear(item_id: int) -> JSONResponse:
    if item_id in COUNTING:
        raise HTTPException(status_of(item_id), "The stock is being counted")
    return reply(202, "Cleared")


@router.post("/recount")
def recount(item_id: int) -> JSONResponse:
    return reply(item_id, "Recounted")
"""


def test_a_status_docgen_cannot_read_is_a_located_finding_until_stated(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = shop_project(tmp_path)
    stock = root / "shop" / "stock.py"
    stock.write_text(stock.read_text(encoding="utf-8") + UNREAD_STATUSES, encoding="utf-8")
    config = root / "mkdocs.yml"
    for command in ("extract", "render"):
        assert main(["--config", str(config), command]) == 0
    capsys.readouterr()
    assert main(["--config", str(config), "check"]) == 1
    out = capsys.readouterr().out
    unstated = sorted(
        line.split(": ")[0] for line in out.splitlines() if ": run-time-value-unstated: " in line
    )
    raised = line_of(stock, '        raise HTTPException(status_of(item_id), "The stock is being counted")')
    built = line_of(stock, '    return reply(item_id, "Recounted")')
    # Neither the raise with a computed status nor the helper's response with its parameter is silent: the
    # helper is read at each call, with the values the call gives (202 is a success, no error), and what
    # the call leaves to run time stays the helper's expression, placed at the call.
    assert unstated == sorted([f"shop/stock.py:{raised}", f"shop/stock.py:{built}"])
    assert "Cleared" not in (root / "data" / "shop-routes.yaml").read_text(encoding="utf-8")
    edit(
        config,
        "openapi: openapi.json",
        "openapi: openapi.json\n          run_time_values:\n"
        "            - {expression: status_of(item_id), value: 409}\n"
        "            - {expression: status, value: 409}",
    )
    assert main(["--config", str(config), "extract"]) == 0
    catalog = (root / "data" / "shop-routes.yaml").read_text(encoding="utf-8")
    assert "status: null" not in catalog
    for command in ("render", "check"):
        capsys.readouterr()
        main(["--config", str(config), command])
    assert "run-time-value-unstated" not in capsys.readouterr().out
