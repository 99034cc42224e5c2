"""`docgen init`: an empty folder holding a small server becomes a site whose page lists every error, with
nothing written by hand; an existing mkdocs.yml keeps every line; nothing is ever overwritten."""

from __future__ import annotations

import html
import os
import subprocess
import sys
from pathlib import Path

import pytest

from docgen.core.errors import ConfigError
from docgen.core.settings import FRAMEWORKS
from docgen.shell.cli import main
from docgen.shell.init_config import with_plugin
from docgen.shell.init_detect import imported_roots
from tests.framework_servers import SERVERS, Server

BIN = Path(sys.executable).parent

SERVER = '''\
"""A small shop written for the test: one HTTPException subclass of its own, and FastAPI's own."""

from fastapi import FastAPI, HTTPException

ITEMS = {1: "pen"}


class ItemNotFound(HTTPException):
    def __init__(self, item_id: int) -> None:
        super().__init__(status_code=404, detail=f"No item has the id {item_id}")


app = FastAPI()


@app.get("/items/{item_id}")
def get_item(item_id: int) -> dict[str, str]:
    if item_id not in ITEMS:
        raise ItemNotFound(item_id)
    return {"name": ITEMS[item_id]}


@app.put("/items/{item_id}")
def rename_item(item_id: int, name: str) -> dict[str, str]:
    if not name.strip():
        # The new name is empty or only spaces.
        raise HTTPException(status_code=400, detail="The name must not be blank")
    if len(name) > 40:
        raise HTTPException(status_code=422, detail="The name is longer than 40 characters")
    if item_id not in ITEMS:
        raise ItemNotFound(item_id)
    ITEMS[item_id] = name
    return {"name": name}
'''
ERRORS = [
    (404, "No item has the id {item_id}"),
    (400, "The name must not be blank"),
    (422, "The name is longer than 40 characters"),
]


def server(root: Path) -> Path:
    """`root` holding only the server's package."""
    (root / "shopapi").mkdir(parents=True)
    (root / "shopapi" / "__init__.py").write_text("", encoding="utf-8")
    (root / "shopapi" / "main.py").write_text(SERVER, encoding="utf-8")
    return root


def run(root: Path, *command: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    return subprocess.run(
        [str(BIN / command[0]), *command[1:]], cwd=root, capture_output=True, text=True, check=False, env=env
    )


def files(root: Path) -> dict[str, bytes]:
    return {
        path.relative_to(root).as_posix(): path.read_bytes()
        for path in sorted(root.rglob("*"))
        if path.is_file() and "__pycache__" not in path.parts and "site" not in path.parts
    }


def test_init_then_extract_render_build_and_check_in_an_empty_folder(tmp_path: Path) -> None:
    root = server(tmp_path / "shop")
    init = run(root, "docgen", "init")
    assert init.returncode == 0, init.stderr
    assert sorted(files(root)) == [
        "data/shopapi-routes.notes.yaml",
        "docs/shopapi-routes.md",
        "mkdocs.yml",
        "shopapi/__init__.py",
        "shopapi/main.py",
    ]
    assert "mkdocs.yml: written: a Material site with the docgen plugin" in init.stderr
    assert init.stderr.rstrip().endswith(
        "next: docgen extract && docgen render, then mkdocs serve to see the page"
    )
    for command in (("docgen", "extract"), ("docgen", "render"), ("mkdocs", "build", "--strict")):
        done = run(root, *command)
        assert done.returncode == 0, (command, done.stdout, done.stderr)
    check = run(root, "docgen", "check")
    assert check.returncode == 0, check.stdout + check.stderr
    # Every entry is a draft from the code: listed, without failing the check.
    # (ItemNotFound is raised in two functions: two errors, item-not-found and item-not-found-2.)
    assert check.stderr.count("is still a draft from the code") == len(ERRORS) + 1
    assert "data/shopapi-routes.notes.yaml:6: note: 'item-not-found' is still a draft" in check.stderr
    built = html.unescape((root / "site" / "shopapi-routes" / "index.html").read_text(encoding="utf-8"))
    for status, detail in ERRORS:
        assert f"<code>{status}</code></td>\n<td>{detail}</td>" in built, (status, detail)
    assert "Draft from the code, not yet reviewed:" in built and "Raised in <code>get_item</code>" in built
    # Where the code has a comment above the raise, the draft starts from it.
    assert "<em>Draft from the code, not yet reviewed:</em> The new name is empty or only spaces." in built


def test_a_second_run_changes_nothing(tmp_path: Path) -> None:
    root = server(tmp_path / "shop")
    assert run(root, "docgen", "init").returncode == 0
    before = files(root)
    again = run(root, "docgen", "init")
    assert again.returncode == 2
    assert "docgen init: error: mkdocs.yml:10: docgen is configured here already" in again.stderr
    assert files(root) == before


def test_an_existing_mkdocs_yml_gets_the_plugin_block_and_keeps_every_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = server(tmp_path / "shop")
    original = (
        "site_name: Shop\n# the site's own plugins\nplugins:\n    - search   # keep\n\nnav:\n  - index.md\n"
    )
    (root / "mkdocs.yml").write_text(original, encoding="utf-8")
    monkeypatch.chdir(root)
    assert main(["init"]) == 0
    written = (root / "mkdocs.yml").read_text(encoding="utf-8")
    block = (
        "    - docgen:\n        catalogs:\n          shopapi-routes:\n            kind: routes\n"
        "            source: shopapi/main.py\n            framework: fastapi\n"
    )
    assert written == original.replace("    - search   # keep\n", "    - search   # keep\n" + block)


def test_a_file_init_would_write_is_never_overwritten(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    root = server(tmp_path / "shop")
    (root / "docs").mkdir()
    (root / "docs" / "shopapi-routes.md").write_text("# Mine\n", encoding="utf-8")
    before = files(root)
    monkeypatch.chdir(root)
    assert main(["init"]) == 3
    err = capsys.readouterr().err
    assert "docgen init: error: docs/shopapi-routes.md: the file exists already" in err
    assert files(root) == before  # not even mkdocs.yml


def test_a_folder_without_a_known_framework_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "tool.py").write_text("import json\nprint(json.dumps({}))\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["init"]) == 2
    err = capsys.readouterr().err
    known = " or ".join(sorted(FRAMEWORKS.names()))
    assert f"no application of {known} with routes found" in err and "--source FILE" in err
    assert sorted(path.name for path in tmp_path.iterdir()) == ["tool.py"]


@pytest.mark.parametrize(
    "text",
    ["site_name: S\nplugins: [search]\n", "site_name: S\nplugins:\n  search: {}\n"],
    ids=["inline", "mapping"],
)
def test_plugins_not_written_one_item_a_line_is_a_located_refusal(text: str) -> None:
    with pytest.raises(ConfigError) as caught:
        with_plugin(text, "mkdocs.yml", "x-routes", "fastapi", "x/main.py")
    assert caught.value.location == "mkdocs.yml:2"
    assert "not a list of one plugin a line" in caught.value.message


def test_an_item_with_options_is_kept_and_the_block_follows_it() -> None:
    text = "plugins:\n  - search:\n      lang: en\n  # a comment\n\nnav: []\n"
    written = with_plugin(text, "mkdocs.yml", "x-routes", "fastapi", "x/main.py")
    assert written.startswith("plugins:\n  - search:\n      lang: en\n  # a comment\n  - docgen:\n")
    assert written.endswith("framework: fastapi\n\nnav: []\n")


def test_a_mkdocs_yml_without_plugins_gets_the_section_at_its_end() -> None:
    written = with_plugin("site_name: S", "mkdocs.yml", "x-routes", "fastapi", "x/main.py")
    assert written.startswith("site_name: S\nplugins:\n  - search\n  - docgen:\n      catalogs:\n")


def test_a_draft_is_listed_until_its_mark_is_removed_and_then_is_an_ordinary_note(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    root = server(tmp_path / "shop")
    monkeypatch.chdir(root)
    assert main(["init"]) == main(["extract"]) == main(["render"]) == 0
    notes = root / "data" / "shopapi-routes.notes.yaml"
    text = notes.read_text(encoding="utf-8")
    drafted = '  item-not-found:\n    draft: true\n    cause: "Raised in `get_item` as `ItemNotFound`."\n'
    assert drafted in text
    # Reviewed: the mark removed and an action written; the entry is no longer listed, nothing fails.
    reviewed = "  item-not-found:\n    cause: No item has this id.\n    action: List the items first.\n"
    notes.write_text(text.replace(drafted, reviewed), encoding="utf-8")
    assert main(["extract"]) == main(["render"]) == 0  # the OpenAPI fragment carries the notes too
    capsys.readouterr()
    assert main(["check"]) == 0
    err = capsys.readouterr().err
    assert "'item-not-found' is still a draft" not in err and "'item-not-found-2' is still a draft" in err
    # The mark removed without an action: the entry is an ordinary gap again, which fails the check.
    gap = '  item-not-found-2:\n    cause: "Raised in `rename_item` as `ItemNotFound`."\n'
    notes.write_text(
        notes.read_text(encoding="utf-8").replace(
            gap.replace("    cause", "    draft: true\n    cause"), gap
        ),
        encoding="utf-8",
    )
    assert main(["extract"]) == main(["render"]) == 0
    capsys.readouterr()
    assert main(["check"]) == 1
    out = capsys.readouterr().out
    assert "item-not-found-2" in out and "the entry has no action for readers" in out


def test_a_hand_edit_of_a_packaged_templates_text_says_how_to_copy_the_template_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    root = server(tmp_path / "shop")
    monkeypatch.chdir(root)
    assert main(["init"]) == main(["extract"]) == main(["render"]) == 0
    page = root / "docs" / "shopapi-routes.md"
    page.write_text(page.read_text(encoding="utf-8").replace("| Route |", "| Operation |"), encoding="utf-8")
    capsys.readouterr()
    assert main(["render"]) == 1  # the edited region is left as it is
    err = capsys.readouterr().err
    assert (
        "Move the edit to templates/route-errors.md.j2 (`docgen templates copy route-errors` writes it), "
        "then run `docgen render --force`"
    ) in err


def test_the_page_goes_into_the_docs_dir_an_existing_mkdocs_yml_names(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = server(tmp_path / "shop")
    (root / "mkdocs.yml").write_text("site_name: Shop\ndocs_dir: pages\n", encoding="utf-8")
    monkeypatch.chdir(root)
    assert main(["init"]) == 0
    assert (root / "pages" / "shopapi-routes.md").is_file() and not (root / "docs").exists()
    assert (
        (root / "mkdocs.yml")
        .read_text(encoding="utf-8")
        .startswith("site_name: Shop\ndocs_dir: pages\nplugins:\n")
    )


REUSABLE_APP = {
    "accounts/__init__.py": "",
    "accounts/urls.py": (
        "from django.urls import path\n\nfrom accounts.views import LogoutView\n\n"
        'urlpatterns = [path("logout/", LogoutView.as_view())]\n'
    ),
    "accounts/views.py": (
        "from rest_framework.exceptions import NotAuthenticated\n"
        "from rest_framework.response import Response\n"
        "from rest_framework.views import APIView\n\n\n"
        "class LogoutView(APIView):\n"
        "    def post(self, request):\n"
        "        if not request.user.is_authenticated:\n"
        '            raise NotAuthenticated("You are not logged in")\n'
        "        return Response({})\n"
    ),
}


def test_a_reusable_rest_framework_app_without_settings_is_found_by_its_url_configuration(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # As dj-rest-auth is: a package of views and a urls.py that imports only Django and its own views.
    Server("drf", REUSABLE_APP, ()).write(tmp_path)
    monkeypatch.chdir(tmp_path)
    assert main(["init"]) == main(["extract"]) == 0
    written = (tmp_path / "mkdocs.yml").read_text(encoding="utf-8")
    assert "source: accounts/urls.py\n" in written and "framework: drf\n" in written
    catalog = (tmp_path / "data" / "accounts-routes.yaml").read_text(encoding="utf-8")
    assert "You are not logged in" in catalog and "/logout/" in catalog


def test_a_django_project_is_read_from_the_settings_that_install_rest_framework(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    SERVERS["drf"].write(tmp_path)
    # settings.py imports nothing of REST framework: it names it in INSTALLED_APPS.
    assert "rest_framework" in imported_roots(tmp_path / "shop" / "settings.py")
    monkeypatch.chdir(tmp_path)
    assert main(["init"]) == 0
    assert "source: shop/settings.py\n" in (tmp_path / "mkdocs.yml").read_text(encoding="utf-8")


def test_a_named_source_that_extract_refuses_is_refused_with_extract_s_reason(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--source` names the application: why extract cannot read it is told, not that none was found."""
    app = (
        "from flask import Blueprint, Flask\n\napp = Flask(__name__)\nbp = Blueprint('bp', __name__)\n\n"
        "@bp.get('/x')\ndef x():\n    return 'x'\n\nbp.register_blueprint(bp)\napp.register_blueprint(bp)\n"
    )
    (tmp_path / "server.py").write_text(app, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["init", "--source", "server.py"]) != 0
    err = capsys.readouterr().err
    assert "server.py:10: the blueprint 'server.bp' is registered inside itself" in err, err
    assert "no application of" not in err
    assert sorted(path.name for path in tmp_path.iterdir()) == ["server.py"]
