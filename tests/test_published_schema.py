"""The schema of the published catalogs: every catalog JSON a built site serves names, by a relative
`$schema`, a schema file the same site serves, and conforms to it;
a catalog that breaks its shape does not."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from docgen.core.schemas import SCHEMA_DIR
from tests.extract.test_routes import shop_project
from tests.test_site import built_site, copy_site, mkdocs_build

__all__ = ["built_site"]  # the real site, built once for this module (see tests/test_site.py)

SCHEMA_NAME = "catalog-1.schema.json"


def published_catalogs(site: Path) -> list[Path]:
    """Every JSON file of a built site but the search index (MkDocs') and the schema itself."""
    found = sorted(path for path in site.rglob("*.json") if path.name != SCHEMA_NAME)
    return [path for path in found if path.relative_to(site).parts[0] != "search"]


def validator_of(site: Path) -> jsonschema.Draft202012Validator:
    schema = json.loads((site / SCHEMA_NAME).read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def assert_conforms(site: Path, published: Path) -> None:
    """`published` names the site's schema by a path relative to itself, and conforms to it."""
    data = json.loads(published.read_text(encoding="utf-8"))
    named = data["$schema"]
    assert ":" not in named and not named.startswith("/"), f"{published}: $schema {named!r} is not relative"
    assert (published.parent / named).resolve() == (site / SCHEMA_NAME).resolve()
    assert (published.parent / named).is_file()
    errors = validator_of(site).iter_errors(data)
    problems = [f"{list(error.absolute_path)}: {error.message}" for error in errors]
    assert problems == [], f"{published.relative_to(site)} breaks {SCHEMA_NAME}: {problems}"


def test_every_published_catalog_conforms_to_the_schema_the_site_serves(built_site: Path) -> None:
    served = (built_site / SCHEMA_NAME).read_bytes()
    assert served == (SCHEMA_DIR / "published" / SCHEMA_NAME).read_bytes()
    assert json.loads(served)["$id"] == "urn:docgen:schema:published-catalog:1"
    catalogs = published_catalogs(built_site)
    shown = {str(path.relative_to(built_site)) for path in catalogs}
    assert {"developers/mcp-errors/mcp-errors.json", "developers/mcp-public-tools/mcp-tools.json"} <= shown
    for published in catalogs:
        assert_conforms(built_site, published)


def test_every_published_error_links_to_its_row_on_the_page_that_shows_it(built_site: Path) -> None:
    page = "https://connectbyjbrh.com/developers/mcp-errors/"
    published = [path for path in published_catalogs(built_site) if path.name == "mcp-errors.json"]
    assert len(published) >= 2  # beside the error table's page and beside the pages that cite it
    for path in published:
        entries = json.loads(path.read_text(encoding="utf-8"))["entries"]
        assert len(entries) == 11
        assert [entry["url"] for entry in entries] == [f"{page}#err-{entry['id']}" for entry in entries]
        assert all(list(entry)[:2] == ["id", "url"] for entry in entries)
    shown = (built_site / "developers/mcp-errors/index.html").read_text(encoding="utf-8")
    assert all(f'id="err-{entry["id"]}"' in shown for entry in entries)


def test_a_published_routes_catalog_conforms_too(tmp_path: Path) -> None:
    project = shop_project(tmp_path / "shop")
    done = mkdocs_build(project, tmp_path / "site")
    assert done.returncode == 0, done.stderr
    assert [path.name for path in published_catalogs(tmp_path / "site")] == ["shop-routes.json"]
    assert json.loads((tmp_path / "site" / "shop-routes.json").read_text("utf-8"))["$schema"] == SCHEMA_NAME
    assert_conforms(tmp_path / "site", tmp_path / "site" / "shop-routes.json")


def _drop_entry_id(data: dict[str, Any]) -> None:
    del data["entries"][0]["id"]


def _add_unknown_field(data: dict[str, Any]) -> None:
    data["entries"][0]["severity"] = "high"


def _retype_status(data: dict[str, Any]) -> None:
    data["entries"][0]["status"] = "403"


def _link_to_no_row(data: dict[str, Any]) -> None:
    data["entries"][0]["url"] = "https://connectbyjbrh.com/developers/mcp-errors/"


def _drop_schema(data: dict[str, Any]) -> None:
    del data["$schema"]


def _claim_another_kind(data: dict[str, Any]) -> None:
    data["kind"] = "tools"


@pytest.mark.parametrize(
    "mutate",
    [_drop_entry_id, _add_unknown_field, _retype_status, _link_to_no_row, _drop_schema, _claim_another_kind],
)
def test_a_catalog_that_breaks_its_shape_fails_the_schema(
    built_site: Path, mutate: Callable[[dict[str, Any]], None]
) -> None:
    data = json.loads((built_site / "developers/mcp-errors/mcp-errors.json").read_text(encoding="utf-8"))
    assert validator_of(built_site).is_valid(data)
    broken = copy.deepcopy(data)
    mutate(broken)
    assert not validator_of(built_site).is_valid(broken)


def test_a_tool_without_a_name_fails_the_schema(built_site: Path) -> None:
    data = json.loads((built_site / "developers/mcp-public-tools/mcp-tools.json").read_text(encoding="utf-8"))
    assert validator_of(built_site).is_valid(data)
    del data["tools"][0]["name"]
    assert not validator_of(built_site).is_valid(data)


def test_a_page_file_under_the_schema_name_stops_the_build(repo_root: Path, tmp_path: Path) -> None:
    project = copy_site(repo_root, tmp_path / "project")
    (project / "docs" / SCHEMA_NAME).write_text('{"title": "not the schema"}\n', encoding="utf-8")
    done = mkdocs_build(project, tmp_path / "site")
    assert done.returncode != 0
    assert f"docs/{SCHEMA_NAME}: this name is where the site publishes the schema" in done.stderr
    assert "Traceback" not in done.stderr
    assert not (tmp_path / "site" / SCHEMA_NAME).exists()
