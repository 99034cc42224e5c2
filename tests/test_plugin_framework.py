"""A web framework docgen does not ship, added from outside through the `docgen.frameworks` entry point.

`tests/plugins/toyweb/` is what a third-party package would install: the made-up framework `toyweb`, its
reader `docgen_toy_framework`, and the dist-info that declares the reader as an entry point. It is put on
PYTHONPATH of real `docgen` and `mkdocs` processes (importlib.metadata finds the dist-info there; nothing is
pip-installed), and a project whose routes catalog says `framework: toyweb` goes through extract, render,
a strict site build and check, then a source change makes check fail at the changed line.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from docgen.core.yamlio import read_yaml
from tests.helpers import make_files

ROOT = Path(__file__).resolve().parents[1]
PLUGIN = ROOT / "tests" / "plugins" / "toyweb"
BIN = Path(sys.executable).parent

APP = """\
from toyweb import Fail, route

ITEMS = {"1": "lamp"}


@route("GET", "/items/{item_id}")
def read_item(item_id: str) -> str:
    return find(item_id)


@route("DELETE", "/items/{item_id}")
def delete_item(item_id: str) -> None:
    find(item_id)
    raise Fail(405)


def find(item_id: str) -> str:
    if item_id not in ITEMS:
        raise Fail(404, "No item has this id")
    return ITEMS[item_id]
"""

MKDOCS = """\
site_name: Toy API
docs_dir: docs
markdown_extensions:
  - attr_list
  - md_in_html
  - tables
plugins:
  - docgen:
      catalogs:
        toy-routes:
          kind: routes
          source: app/main.py
          framework: {framework}
          openapi: openapi.json
"""

PAGE = """\
---
title: Toy API errors
catalog: toy-routes
---

# Toy API errors

<!-- docgen:begin route-errors -->
<!-- docgen:end route-errors -->
"""

NOTES = """\
entries:
  404-no-item-has-this-id:
    cause: No item has the id in the path.
    action: List the items to find the id you meant.
  405-http-405:
    cause: Items cannot be deleted.
    action: Leave the item; it is kept.
"""

# The application's own document as it would serve it: the statuses its routes answer with.
OPENAPI = {
    "openapi": "3.1.0",
    "info": {"title": "Toy API", "version": "1"},
    "paths": {
        "/items/{item_id}": {
            "get": {"responses": {"200": {"description": "OK"}, "404": {"description": "Not Found"}}},
            "delete": {"responses": {"404": {"description": "Not Found"}, "405": {"description": "No"}}},
        }
    },
}


def toy_project(root: Path, framework: str = "toyweb") -> Path:
    make_files(
        root,
        {
            "app/__init__.py": "",
            "app/main.py": APP,
            "mkdocs.yml": MKDOCS.format(framework=framework),
            "docs/index.md": PAGE,
            "data/toy-routes.notes.yaml": NOTES,
            "openapi.json": json.dumps(OPENAPI, indent=2),
        },
    )
    return root


def run(root: Path, *command: str) -> subprocess.CompletedProcess[str]:
    """`command` run in `root` as a user runs it, with the toy plugin installed (on PYTHONPATH)."""
    env = {**os.environ, "PYTHONPATH": str(PLUGIN), "NO_MKDOCS_2_WARNING": "1"}
    return subprocess.run(
        [str(BIN / command[0]), *command[1:]], cwd=root, env=env, capture_output=True, text=True, check=False
    )


def line_of(root: Path, text: str) -> int:
    return (root / "app" / "main.py").read_text(encoding="utf-8").splitlines().index(text) + 1


def test_a_framework_installed_through_an_entry_point_goes_through_every_command(tmp_path: Path) -> None:
    root = toy_project(tmp_path)
    extracted = run(root, "docgen", "extract")
    assert extracted.returncode == 0, extracted.stderr
    catalog = read_yaml(root / "data" / "toy-routes.yaml", "toy-routes.yaml").data
    assert (catalog["framework"], catalog["automatic_statuses"]) == ("toyweb", [400])
    assert catalog["errors"] == [
        {
            "id": "405-http-405",
            "status": 405,
            "detail": "HTTP 405",  # the toy framework's own text for a Fail without a message
            "exception": "Fail",
            "function": "app.main.delete_item",
            "file": "app/main.py",
            "body_key": "error",
        },
        {
            "id": "404-no-item-has-this-id",
            "status": 404,
            "detail": "No item has this id",
            "exception": "Fail",
            "function": "app.main.find",
            "file": "app/main.py",
            "body_key": "error",
        },
    ]
    assert [(o["method"], o["path"], o["function"], o["errors"]) for o in catalog["operations"]] == [
        (
            "delete",
            "/items/{item_id}",
            "app.main.delete_item",
            [
                {"id": "404-no-item-has-this-id", "via": ["app.main.delete_item", "app.main.find"]},
                {"id": "405-http-405", "via": ["app.main.delete_item"]},
            ],
        ),
        (
            "get",
            "/items/{item_id}",
            "app.main.read_item",
            [{"id": "404-no-item-has-this-id", "via": ["app.main.read_item", "app.main.find"]}],
        ),
    ]
    fragment = json.loads((root / "data" / "toy-routes.openapi.json").read_text(encoding="utf-8"))
    delete = fragment["paths"]["/items/{item_id}"]["delete"]["responses"]["405"]
    assert delete["content"]["application/json"]["examples"]["405-http-405"]["value"] == {"error": "HTTP 405"}

    rendered = run(root, "docgen", "render")
    assert rendered.returncode == 0, rendered.stderr
    page = (root / "docs" / "index.md").read_text(encoding="utf-8")
    delete, get = '<a id="route-delete-items-item-id', '<a id="route-get-items-item-id'
    assert [line for line in page.splitlines() if line.startswith("| <a ")] == [
        f'| {delete}"></a>{delete}-404-no-item-has-this-id"></a>`DELETE /items/{{item_id}}` | `404` | '
        "No item has this id | No item has the id in the path. | List the items to find the id you meant. |",
        f'| {delete}-405-http-405"></a>`DELETE /items/{{item_id}}` | `405` | HTTP 405 | '
        "Items cannot be deleted. | Leave the item; it is kept. |",
        f'| {get}"></a>{get}-404-no-item-has-this-id"></a>`GET /items/{{item_id}}` | `404` | '
        "No item has this id | No item has the id in the path. | List the items to find the id you meant. |",
    ]

    built = run(root, "mkdocs", "build", "--strict", "-q")
    assert built.returncode == 0, built.stderr
    published = json.loads((root / "site" / "toy-routes.json").read_text(encoding="utf-8"))
    assert [error["id"] for error in published["errors"]] == ["405-http-405", "404-no-item-has-this-id"]

    clean = run(root, "docgen", "check")
    assert (clean.returncode, clean.stdout.strip().splitlines()[-1]) == (
        0,
        "docgen check: the docs match the code.",
    )


def test_a_changed_status_behind_a_plugin_framework_is_a_located_finding(tmp_path: Path) -> None:
    root = toy_project(tmp_path)
    assert run(root, "docgen", "extract").returncode == 0
    assert run(root, "docgen", "render").returncode == 0
    main = root / "app" / "main.py"
    main.write_text(APP.replace("Fail(404,", "Fail(410,"), encoding="utf-8")
    checked = run(root, "docgen", "check", "--format", "json")
    assert checked.returncode == 1, checked.stderr
    found = {(f["kind"], f["file"], f["line"], f["subject"]) for f in json.loads(checked.stdout)["findings"]}
    raise_line = line_of(root, '        raise Fail(410, "No item has this id")')
    get_line, delete_line = (
        line_of(root, '@route("GET", "/items/{item_id}")'),
        line_of(root, '@route("DELETE", "/items/{item_id}")'),
    )
    assert found == {
        ("route-changed", "app/main.py", raise_line, "404-no-item-has-this-id"),
        ("catalog-stale", "data/toy-routes.openapi.json", None, "toy-routes"),
        ("page-stale", "docs/index.md", 8, "route-errors"),
        ("openapi-undocumented", "app/main.py", get_line, "get /items/{item_id}"),
        ("openapi-undocumented", "app/main.py", delete_line, "delete /items/{item_id}"),
        ("openapi-unraised", "app/main.py", get_line, "get /items/{item_id}"),
        ("openapi-unraised", "app/main.py", delete_line, "delete /items/{item_id}"),
    }
    hints = {f["hint"] for f in json.loads(checked.stdout)["findings"] if f["kind"] == "openapi-undocumented"}
    assert hints == {
        "merge data/toy-routes.openapi.json into the application's OpenAPI (the toyweb plugin's README), "
        "commit openapi.json"
    }


def test_an_unknown_framework_lists_the_built_in_and_the_installed_ones(tmp_path: Path) -> None:
    root = toy_project(tmp_path, "bottle")
    refused = run(root, "docgen", "extract")
    assert refused.returncode == 2
    line = MKDOCS.splitlines().index("          framework: {framework}") + 1
    assert (
        f"mkdocs.yml:{line}: 'catalogs.toy-routes.framework': expected the application's web framework, "
        "got 'bottle'" in refused.stderr
    )
    assert "hint: known frameworks: aiohttp, drf, fastapi, flask, litestar, toyweb" in refused.stderr
