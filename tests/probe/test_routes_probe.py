"""docgen probe for an HTTP API: a REST example sent to the FastAPI and the Flask fixture, each served for
real on 127.0.0.1 (uvicorn for the ASGI app, the standard library's WSGI server for the Flask one), and what
each answered recorded as evidence that check then holds the catalog to."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml

from docgen.core.errors import CatalogError
from docgen.core.notes import WrittenExample
from docgen.examples.requests import Where, resolve
from docgen.probe.apps import Served, served_on_loopback
from docgen.shell.cli import main

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "servers"
SHOP_NOTES = "data/shop-routes.notes.yaml"
SHOP_EVIDENCE = "data/shop-routes.evidence.yaml"
LENDING_NOTES = "data/lending-routes.notes.yaml"
LENDING_EVIDENCE = "data/lending-routes.evidence.yaml"
DATE = "2026-12-05"


def fixture_copy(name: str, tmp_path: Path) -> Path:
    target = tmp_path / name
    shutil.copytree(FIXTURES / name, target, ignore=shutil.ignore_patterns("__pycache__", "site"))
    return target


def add_examples(root: Path, notes: str, examples: dict[str, str]) -> None:
    """Put `example:` (YAML, indented under the entry) after each named entry's `action:` line."""
    path = root / notes
    text = path.read_text(encoding="utf-8")
    for entry, example in examples.items():
        start = text.index(f"  {entry}:\n")
        end = text.index("\n", text.index("    action:", start)) + 1
        text = (
            text[:end]
            + "    example:\n"
            + "".join(f"      {line}\n" for line in example.splitlines())
            + text[end:]
        )
    path.write_text(text, encoding="utf-8")


def read(root: Path, relative: str) -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((root / relative).read_text(encoding="utf-8"))
    return data


def docgen(root: Path, *args: str) -> int:
    return main(["-f", str(root / "mkdocs.yml"), *args])


SHOP_EXAMPLES = {
    "401-missing-or-unknown-x-token-header": "method: GET\npath: /items/1",
    "404-no-item-has-the-id-item-id": "method: GET\npath: /items/999\nheaders: {X-Token: secret-token}",
    "409-item-exc-item-id-is-out-of-stock": (
        "path: /v1/orders\nheaders: {X-Token: secret-token}\nbody: {item_id: 2, card: '4242'}"
    ),
}


@pytest.mark.server
def test_fastapi_examples_are_replayed_and_recorded(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = fixture_copy("fastapi_app", tmp_path)
    add_examples(root, SHOP_NOTES, SHOP_EXAMPLES)
    assert docgen(root, "probe", "--app", "shop.main:app", "--date", DATE) == 0
    said = capsys.readouterr().err
    assert "404-no-item-has-the-id-item-id: reproduced (HTTP 404 'No item has the id 999')" in said
    evidence = read(root, SHOP_EVIDENCE)
    assert evidence["target"] == "app shop.main:app (asgi)"
    assert evidence["probed"] == DATE
    records = {record["id"]: record for record in evidence["entries"]}
    assert list(records) == list(SHOP_EXAMPLES)  # catalog order, only the errors with an example
    order = records["409-item-exc-item-id-is-out-of-stock"]
    assert order["request"] == {"method": "POST", "target": "/v1/orders"}
    assert order["expected"] == {"status": 409, "detail": "Item {exc.item_id} is out of stock"}
    assert order["observed"]["status"] == 409
    assert order["observed"]["detail"] == "Item 2 is out of stock"
    assert order["observed"]["body"] == '{"detail":"Item 2 is out of stock"}'
    assert order["observed"]["headers"] == {"content-type": "application/json"}
    assert all(record["reproduced"] for record in records.values())
    assert set(evidence["source"]) >= {"shop/deps.py:require_token", "shop/orders.py:place_order"}
    # The route page shows the answers once rendered; until then check says the page is behind.
    assert docgen(root, "check") == 1
    assert "page-stale" in capsys.readouterr().out
    assert docgen(root, "render") == 0
    page = (root / "docs/index.md").read_text(encoding="utf-8")
    assert "**Reproduced against the application on 2026-12-05:** all three examples sent answered" in page
    assert (
        "| [409-item-exc-item-id-is-out-of-stock]"
        "(#route-post-v1-orders-409-item-exc-item-id-is-out-of-stock) "
        "| `POST /v1/orders` | `409` Item 2 is out of stock |"
    ) in page
    # check holds the catalog to the evidence, and finds nothing to say.
    assert docgen(root, "check") == 0


@pytest.mark.server
def test_flask_examples_are_replayed_from_the_configured_app(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = fixture_copy("flask_app", tmp_path)
    config = root / "mkdocs.yml"
    config.write_text(
        config.read_text(encoding="utf-8").replace(
            "  - docgen:\n", "  - docgen:\n      probe_app: lending.app:app\n"
        ),
        encoding="utf-8",
    )
    add_examples(
        root,
        LENDING_NOTES,
        {
            "404-the-requested-url-was-not-found-on-the-serve": (
                "method: GET\npath: /api/books/999\nheaders: {X-Token: member-token}"
            ),
            "400-the-title-must-not-be-blank": (
                "path: /api/books\nheaders: {X-Token: librarian-token}\nbody: {title: '   '}"
            ),
        },
    )
    assert docgen(root, "probe", "--date", DATE) == 0  # no --app: the configuration's probe_app is served
    evidence = read(root, LENDING_EVIDENCE)
    assert evidence["target"] == "app lending.app:app (wsgi)"
    blank = evidence["entries"][1]
    assert blank["id"] == "400-the-title-must-not-be-blank"
    assert blank["observed"]["status"] == 400
    assert blank["observed"]["detail"] == "The title must not be blank"
    assert blank["observed"]["body"].strip() == '{"error":"The title must not be blank"}'
    assert blank["reproduced"] is True
    assert evidence["entries"][0]["observed"]["detail"].startswith("The requested URL was not found")
    assert "written (app lending.app:app (wsgi), 2026-12-05)" in capsys.readouterr().err
    assert docgen(root, "render") == 0
    assert docgen(root, "check") == 0


@pytest.mark.server
def test_a_wrong_answer_is_reported_at_the_raise_and_by_check(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = fixture_copy("fastapi_app", tmp_path)
    # Item 1 exists: the application answers 200, not the 404 the catalog documents for this error.
    add_examples(
        root,
        SHOP_NOTES,
        {"404-no-item-has-the-id-item-id": "method: GET\npath: /items/1\nheaders: {X-Token: secret-token}"},
    )
    assert docgen(root, "probe", "--app", "shop.main:app", "--date", DATE) == 1
    said = capsys.readouterr().err
    line = next(
        n for n, text in enumerate((root / "shop/items.py").read_text().splitlines(), 1) if "raise" in text
    )
    assert (
        f"  shop/items.py:{line}: 404-no-item-has-the-id-item-id: NOT reproduced: the table says HTTP 404 "
        "'No item has the id {item_id}', GET /items/1 answered HTTP 200 None"
    ) in said
    assert "1 row(s) did not reproduce: 404-no-item-has-the-id-item-id" in said
    record = read(root, SHOP_EVIDENCE)["entries"][0]
    assert record["reproduced"] is False
    assert record["observed"]["status"] == 200
    assert docgen(root, "check", "--format", "json") == 1
    report = capsys.readouterr().out
    assert '"kind": "evidence-mismatch"' in report
    assert "the application answered HTTP 200 None to the example" in report
    assert docgen(root, "render") == 0
    page = (root / "docs/index.md").read_text(encoding="utf-8")
    assert "the one example sent did not answer as the table says." in page
    assert "| `GET /items/1` | `200` (no detail) (not as the table says) |" in page


def test_an_example_changed_after_probe_is_stale(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = fixture_copy("fastapi_app", tmp_path)
    add_examples(root, SHOP_NOTES, {"401-missing-or-unknown-x-token-header": "method: GET\npath: /items/1"})
    assert docgen(root, "check") == 1
    assert (
        "evidence-missing: shop-routes: no example has been sent to the application yet"
        in capsys.readouterr().out
    )
    evidence = {
        "catalog": "shop-routes",
        "probed": DATE,
        "target": "url http://127.0.0.1:1",
        "source": {},
        "entries": [{"id": "401-missing-or-unknown-x-token-header", "example": "sha256:0000000000000000"}],
    }
    (root / SHOP_EVIDENCE).write_text(yaml.safe_dump(evidence), encoding="utf-8")
    assert docgen(root, "check") == 1
    out = capsys.readouterr().out
    assert (
        "evidence-stale: 401-missing-or-unknown-x-token-header: the example changed after probe sent it"
        in out
    )
    assert "evidence-stale: shop/deps.py:require_token: changed after probe ran" in out
    assert "hint: run `docgen probe --app MODULE:ATTR` again" in out  # no probe_app: the hint names no app
    # The page shows no old answer as the application's: the example changed since it was sent.
    assert docgen(root, "render") == 0
    assert (
        "**Reproduced against the application on 2026-12-05:** no example is replayed since its last change; "
        "one not replayed since its example, status or detail changed "
        "(401-missing-or-unknown-x-token-header)."
    ) in (root / "docs/index.md").read_text(encoding="utf-8")


def test_examples_optional_by_default_required_on_request(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = fixture_copy("fastapi_app", tmp_path)
    add_examples(root, SHOP_NOTES, {"401-missing-or-unknown-x-token-header": "untriggerable: for the test"})
    evidence = {
        "catalog": "shop-routes",
        "probed": DATE,
        "target": "url http://127.0.0.1:1",
        "source": {},
        "entries": [],
    }
    (root / SHOP_EVIDENCE).write_text(yaml.safe_dump(evidence), encoding="utf-8")
    docgen(root, "check")
    assert "example-missing" not in capsys.readouterr().out  # one example asks nothing of the other errors
    config = root / "mkdocs.yml"
    text = config.read_text(encoding="utf-8")
    config.write_text(
        text.replace(
            "          framework: fastapi\n", "          framework: fastapi\n          examples: required\n"
        ),
        encoding="utf-8",
    )
    assert docgen(root, "check") == 1
    out = capsys.readouterr().out
    assert out.count("example-missing:") == 9  # the catalog's 10 errors but the one with an example
    assert "example-missing: 403-this-account-is-disabled: the error has no example request" in out


@pytest.mark.parametrize(
    ("example", "message"),
    [
        ("method: DELETE\npath: /items/1", "DELETE /items/1 names no operation that lists this error"),
        ("path: /items/1", "/items/1 names 2 operations that list this error"),
        ("method: GET", "the example names no `path`"),
        ("path: /items/1\nmethod: GET\nbody: {}\nraw: x", "the example has both `body` and `raw`"),
        ("path: /items/1\nmethod: GET\nrepeat: 2", "`repeat` is for an errors catalog's example"),
        ("untriggerable: why\npath: /items/1", "is untriggerable, yet describes a request (path)"),
    ],
)
def test_a_bad_example_is_a_located_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], example: str, message: str
) -> None:
    root = fixture_copy("fastapi_app", tmp_path)
    add_examples(root, SHOP_NOTES, {"401-missing-or-unknown-x-token-header": example})
    assert docgen(root, "probe", "--app", "shop.main:app", "--date", DATE) == 3
    said = capsys.readouterr().err
    assert f"{SHOP_NOTES}:" in said
    assert message in said
    assert not (root / SHOP_EVIDENCE).exists()


def test_without_an_app_probe_says_how_to_name_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = fixture_copy("fastapi_app", tmp_path)
    add_examples(root, SHOP_NOTES, {"401-missing-or-unknown-x-token-header": "method: GET\npath: /items/1"})
    assert docgen(root, "probe") == 2
    said = capsys.readouterr().err
    assert "probe has no server to send the examples to" in said
    assert "probe_app: MODULE:ATTR" in said
    assert "backend.app" not in said


def test_path_and_query_belong_to_routes_catalogs() -> None:
    written = WrittenExample.from_data({"path": "/x", "body": {}})
    with pytest.raises(CatalogError, match="`path` is for the examples of a routes catalog"):
        resolve("e", written, {}, Where("data/x.notes.yaml", 3, "entries/e/example"))


@pytest.mark.server
def test_a_running_server_is_probed_at_its_url(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = fixture_copy("flask_app", tmp_path)
    add_examples(
        root,
        LENDING_NOTES,
        {
            "401-send-a-valid-x-token-header": (
                "method: GET\npath: /api/books/1\nquery: {api_key: sk_live_4eC39HqLyjWDarjtT1zdp7dc, page: 2}"
            )
        },
    )
    with served_on_loopback("lending.app:app", Served("wsgi"), root, tmp_path / "server.log") as base:
        assert docgen(root, "probe", "--url", base + "/", "--date", DATE) == 0
    evidence = read(root, LENDING_EVIDENCE)
    assert evidence["target"] == f"url {base}/"
    record = evidence["entries"][0]
    # The query was sent as written; a value that looks like a credential is not written down.
    assert record["request"] == {"method": "GET", "target": "/api/books/1?api_key=<withheld>&page=2"}
    assert record["observed"]["status"] == 401
    assert "sk_live" not in (root / LENDING_EVIDENCE).read_text(encoding="utf-8")
    assert "every example reproduced; run `docgen render` so the route pages show the answers" in (
        capsys.readouterr().err
    )


@pytest.mark.server
def test_an_aiohttp_factory_is_served_by_aiohttp(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = fixture_copy("aiohttp_app", tmp_path)
    add_examples(root, "data/library-routes.notes.yaml", {"404-no-book-has-the-id-book-id": AIOHTTP_404})
    assert docgen(root, "probe", "--app", "library.app:create_app", "--date", DATE) == 0
    evidence = read(root, "data/library-routes.evidence.yaml")
    assert evidence["target"] == "app library.app:create_app (aiohttp, from a factory)"
    record = evidence["entries"][0]
    assert record["observed"]["status"] == 404
    assert record["observed"]["detail"] == "No book has the id 999"  # a text body: the whole of it
    assert record["reproduced"] is True


AIOHTTP_404 = "method: GET\npath: /api/v1/books/999"


@pytest.mark.server
def test_an_answer_to_an_error_reworded_since_is_stale(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = fixture_copy("fastapi_app", tmp_path)
    add_examples(
        root, SHOP_NOTES, {"404-no-item-has-the-id-item-id": SHOP_EXAMPLES["404-no-item-has-the-id-item-id"]}
    )
    assert docgen(root, "probe", "--app", "shop.main:app", "--date", DATE) == 0
    errors = root / "shop/errors.py"
    errors.write_text(errors.read_text(encoding="utf-8").replace("No item has the id", "No item has id"))
    assert docgen(root, "extract") == 0
    assert docgen(root, "render") == 0
    capsys.readouterr()
    assert docgen(root, "check") == 1
    out = capsys.readouterr().out
    assert (
        "evidence-stale: 404-no-item-has-the-id-item-id: probe compared the answer with HTTP 404 'No item "
        "has the id {item_id}'; the catalog now says HTTP 404 'No item has id {item_id}'"
    ) in out
    # The page does not show the answer to the old wording as the application's.
    page = (root / "docs/index.md").read_text(encoding="utf-8")
    assert (
        "one not replayed since its example, status or detail changed (404-no-item-has-the-id-item-id)"
        in page
    )


def test_an_example_probe_has_not_sent_yet(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = fixture_copy("fastapi_app", tmp_path)
    add_examples(root, SHOP_NOTES, {"401-missing-or-unknown-x-token-header": "method: GET\npath: /items/1"})
    evidence = {"catalog": "shop-routes", "probed": DATE, "target": "url http://127.0.0.1:1", "source": {}}
    (root / SHOP_EVIDENCE).write_text(yaml.safe_dump({**evidence, "entries": []}), encoding="utf-8")
    assert docgen(root, "check") == 1
    assert (
        "evidence-missing: 401-missing-or-unknown-x-token-header: probe has not sent this example"
        in capsys.readouterr().out
    )
