"""The FastAPI fixture end to end: the fragment merged into the running application's own /openapi.json,
check against the committed openapi.json, the page region and the site."""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest
from openapi_spec_validator import validate

from docgen.frameworks.fastapi.openapi import with_error_responses
from docgen.shell.cli import main
from tests.extract.test_routes import EXPECTED, FIXTURE, shop_project


@pytest.fixture
def shop_app() -> Iterator[ModuleType]:
    """The fixture application, imported (the test may; extraction never does)."""
    sys.path.insert(0, str(FIXTURE))
    try:
        yield importlib.import_module("shop.main")
    finally:
        sys.path.remove(str(FIXTURE))
        for name in [name for name in sys.modules if name == "shop" or name.startswith("shop.")]:
            del sys.modules[name]


def check(root: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    capsys.readouterr()
    code = main(["--config", str(root / "mkdocs.yml"), "check"])
    return code, capsys.readouterr().out


def test_merged_into_the_app_its_own_openapi_lists_every_error_and_validates(shop_app: ModuleType) -> None:
    from fastapi.testclient import TestClient

    fragment = json.loads((FIXTURE / "data" / "shop-routes.openapi.json").read_text(encoding="utf-8"))
    with_error_responses(shop_app.app, fragment)
    document = TestClient(shop_app.app).get("/openapi.json").json()
    validate(document)
    for (method, path), statuses in EXPECTED.items():
        responses = document["paths"][path][method]["responses"]
        success = 201 if path == "/v1/orders" else 200  # what each declares (restock's 202 is its own)
        assert {int(s) for s in responses} == {*statuses, 422, success}
        for status, details in statuses.items():
            examples = responses[str(status)]["content"]["application/json"]["examples"].values()
            assert [example["value"] for example in examples] == [{"detail": d} for d in details]
    # The merge adds responses only: the application's own parameters stay as FastAPI wrote them.
    assert document["paths"]["/items/{item_id}"]["get"]["parameters"][0]["schema"]["type"] == "integer"


def test_the_app_answers_what_the_fragment_says(shop_app: ModuleType) -> None:
    from fastapi.testclient import TestClient

    client = TestClient(shop_app.app)
    token = {"x-token": "secret-token"}
    assert client.get("/items/1").json() == {"detail": "Missing or unknown X-Token header"}
    answer = client.put("/items/1", json={"name": " "}, headers=token)
    assert (answer.status_code, answer.json()) == (400, {"detail": "The name must not be blank"})
    answer = client.post("/v1/orders", json={"item_id": 2, "card": "1"}, headers=token)
    assert (answer.status_code, answer.json()) == (409, {"detail": "Item 2 is out of stock"})
    answer = client.post("/v1/orders", json={"item_id": 1, "card": "0000"}, headers=token)
    assert (answer.status_code, answer.json()) == (402, {"detail": "The card was declined"})
    answer = client.get("/items/9/stock", headers=token)
    assert (answer.status_code, answer.json()) == (404, {"detail": "Not Found"})
    answer = client.post("/items/1/stock", params={"amount": 0}, headers=token)
    assert (answer.status_code, answer.json()) == (400, {"detail": "The amount must be a positive number"})
    assert client.post("/items/1/stock", params={"amount": 1}).status_code == 401
    answer = client.post("/items/1/stock", params={"amount": 2}, headers=token)
    assert (answer.status_code, answer.json()) == (202, {"detail": "Restocking was queued"})


def test_the_committed_fixture_is_clean(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert check(shop_project(tmp_path), capsys) == (0, "docgen check: the docs match the code.\n")


def test_a_new_raise_missing_from_the_committed_openapi_is_flagged_on_the_route(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = shop_project(tmp_path)
    items = root / "shop" / "items.py"
    text = items.read_text(encoding="utf-8")
    items.write_text(
        text.replace(
            "    return find_item(item_id)\n",
            "    if item_id < 0:\n"
            '        raise HTTPException(status_code=410, detail="Negative ids are gone")\n'
            "    return find_item(item_id)\n",
        ),
        encoding="utf-8",
    )
    route_line = text.splitlines().index('@router.get("/{item_id}")') + 1
    code, out = check(root, capsys)
    assert code == 1
    assert (
        f"shop/items.py:{route_line}: openapi-undocumented: get /items/{{item_id}}: raises 410 "
        "('Negative ids are gone'), which openapi.json does not list for this operation"
    ) in out
    assert (  # where the framework (FastAPI here) tells how to merge the fragment into its document
        "hint: merge data/shop-routes.openapi.json into the application's OpenAPI (README: A FastAPI "
        "application), commit openapi.json"
    ) in out
    assert f"shop/items.py:{route_line}: route-error-added: 410-negative-ids-are-gone:" in out
    # Brought up to date, the catalog and the page are clean; the committed document still lacks the 410.
    assert main(["--config", str(root / "mkdocs.yml"), "extract"]) == 0
    assert main(["--config", str(root / "mkdocs.yml"), "render"]) == 0
    code, out = check(root, capsys)
    assert code == 1
    assert [line for line in out.splitlines() if ": openapi-" in line or ": route-" in line] == [
        f"shop/items.py:{route_line}: openapi-undocumented: get /items/{{item_id}}: raises 410 "
        "('Negative ids are gone'), which openapi.json does not list for this operation"
    ]


def test_a_listed_error_status_nothing_raises_is_flagged(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = shop_project(tmp_path)
    document = json.loads((root / "openapi.json").read_text(encoding="utf-8"))
    document["paths"]["/health"]["get"]["responses"]["503"] = {"description": "Service Unavailable"}
    (root / "openapi.json").write_text(json.dumps(document), encoding="utf-8")
    code, out = check(root, capsys)
    assert code == 1
    main_py = (root / "shop" / "main.py").read_text(encoding="utf-8").splitlines()
    line = main_py.index('@app.get("/health")') + 1
    assert f"shop/main.py:{line}: openapi-unraised: get /health: openapi.json lists 503" in out


def test_the_page_lists_each_error_per_route_with_anchors_and_the_json_beside_it(tmp_path: Path) -> None:
    root = shop_project(tmp_path)
    page = (root / "docs" / "index.md").read_text(encoding="utf-8")
    assert page.count('<a id="route-put-items-item-id-400-') == 2  # two 400s of one route, kept apart
    assert (
        '<a id="route-post-v1-orders-409-item-exc-item-id-is-out-of-stock"></a>`POST /v1/orders` | `409` | '
        "Item &#123;exc.item_id} is out of stock | The item exists, but none is left. |"
    ) in page
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    mkdocs = Path(sys.executable).parent / "mkdocs"
    subprocess.run(
        [str(mkdocs), "build", "--strict", "-q"], cwd=root, check=True, env=env, capture_output=True
    )
    published = json.loads((root / "site" / "shop-routes.json").read_text(encoding="utf-8"))
    cause = {error["id"]: error["cause"] for error in published["errors"]}
    assert cause["400-the-name-must-not-be-blank"] == "The new name is empty or only spaces."
    assert cause["403-this-account-is-disabled"] == "The token is valid, but its account has been disabled."


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (None, "openapi.json: "),
        ('{"paths": {\n  "/a": }', "openapi.json:2: not JSON: Expecting value"),
        ("[1, 2]", "openapi.json:1: not an OpenAPI document: no 'paths' mapping"),
    ],
)
def test_an_unreadable_committed_document_stops_check_with_its_place(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str | None, message: str
) -> None:
    root = shop_project(tmp_path)
    if text is None:
        (root / "openapi.json").unlink()
    else:
        (root / "openapi.json").write_text(text, encoding="utf-8")
    capsys.readouterr()
    assert main(["--config", str(root / "mkdocs.yml"), "check"]) == 3
    err = capsys.readouterr().err
    assert f"docgen check: error: {message}" in err
    assert "Traceback" not in err


def test_an_operation_the_document_lacks_is_flagged(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = shop_project(tmp_path)
    document = json.loads((root / "openapi.json").read_text(encoding="utf-8"))
    del document["paths"]["/v1/orders"]
    (root / "openapi.json").write_text(json.dumps(document), encoding="utf-8")
    code, out = check(root, capsys)
    line = (
        (root / "shop" / "orders.py")
        .read_text(encoding="utf-8")
        .splitlines()
        .index('@router.post("", status_code=201)')
    )
    assert code == 1
    assert (
        f"shop/orders.py:{line + 1}: openapi-undocumented: post /v1/orders: "
        "openapi.json has no operation POST /v1/orders" in out
    )


def test_edited_notes_make_the_fragment_stale_until_extract(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = shop_project(tmp_path)
    notes = root / "data" / "shop-routes.notes.yaml"
    text = notes.read_text(encoding="utf-8")
    notes.write_text(
        text.replace("The card issuer refused the payment.", "The bank said no."), encoding="utf-8"
    )
    code, out = check(root, capsys)
    assert code == 1
    assert (
        "data/shop-routes.openapi.json: catalog-stale: shop-routes: the OpenAPI fragment is out of date"
        in out
    )
    assert main(["--config", str(root / "mkdocs.yml"), "extract"]) == 0
    assert main(["--config", str(root / "mkdocs.yml"), "render"]) == 0
    assert check(root, capsys) == (0, "docgen check: the docs match the code.\n")
    fragment = json.loads((root / "data" / "shop-routes.openapi.json").read_text(encoding="utf-8"))
    examples = fragment["paths"]["/v1/orders"]["post"]["responses"]["402"]["content"]["application/json"][
        "examples"
    ]
    assert examples["402-the-card-was-declined"]["description"] == (
        "The bank said no.\n\nPay with another card; the order was not placed."
    )


def test_notes_without_an_error_and_errors_without_notes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = shop_project(tmp_path)
    notes = root / "data" / "shop-routes.notes.yaml"
    text = notes.read_text(encoding="utf-8")
    notes.write_text(
        text.replace("  402-the-card-was-declined:", "  402-the-card-was-refused:"), encoding="utf-8"
    )
    line = text.splitlines().index("  402-the-card-was-declined:") + 1
    code, out = check(root, capsys)
    assert code == 1
    assert f"data/shop-routes.notes.yaml:{line}: notes-orphan: 402-the-card-was-refused:" in out
    assert "data/shop-routes.notes.yaml: notes-gap: 402-the-card-was-declined:" in out


def test_a_detail_is_text_on_the_page(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = shop_project(tmp_path)
    edit = root / "shop" / "items.py"
    edit.write_text(
        edit.read_text(encoding="utf-8").replace("The name must not be blank", "A <b>blank</b> name & more"),
        encoding="utf-8",
    )
    assert main(["--config", str(root / "mkdocs.yml"), "extract"]) == 0
    assert main(["--config", str(root / "mkdocs.yml"), "render"]) == 0
    page = (root / "docs" / "index.md").read_text(encoding="utf-8")
    assert "| A &lt;b&gt;blank&lt;/b&gt; name &amp; more |" in page


def test_the_route_errors_marker_names_the_notes_it_draws_on(tmp_path: Path) -> None:
    """An editor who finds a route's cause on the page learns from its marker where that text is written."""
    page = (shop_project(tmp_path) / "docs" / "index.md").read_text(encoding="utf-8")
    assert (
        "<!-- docgen:begin route-errors edit-in=templates/route-errors.md.j2,data/shop-routes.notes.yaml "
        in page
    )
