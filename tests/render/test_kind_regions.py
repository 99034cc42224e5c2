"""Regions one catalog kind fills, drawn from the catalogs of this repository (one errors, one tools)."""

from __future__ import annotations

from pathlib import Path

import pytest

from docgen.core.errors import TemplateError
from docgen.core.models import TOOL_KINDS, ErrorEntry, RouteError, ToolsCatalog
from docgen.core.project import load_project
from docgen.core.settings import load_settings
from docgen.kinds.errors.regions import ErrorRow
from docgen.kinds.routes.regions import RouteRow
from docgen.render.renderer import Renderer, renderer_for


@pytest.fixture(scope="module")
def renderer(repo_root: Path) -> Renderer:
    return renderer_for(load_project(load_settings(repo_root / "mkdocs.yml")))


def region(name: str, attrs: str = "") -> str:
    return f"# T\n\n<!-- docgen:begin {name}{attrs} -->\n<!-- docgen:end {name} -->\n"


@pytest.mark.parametrize(
    ("name", "catalog", "needs", "is_"),
    [
        ("error-table", "mcp-tools", "errors", "tools"),
        ("error-examples", "mcp-tools", "errors", "tools"),
        ("spec-differences", "mcp-tools", "errors", "tools"),
        ("client-differences", "mcp-tools", "errors", "tools"),
        ("tools-reference", "mcp-errors", "tools", "errors"),
        (
            "route-errors",
            "mcp-errors",
            "routes",
            "errors",
        ),  # a kind no catalog here has still owns its region
    ],
)
def test_a_region_of_one_kind_drawn_from_a_catalog_of_another_is_located(
    renderer: Renderer, name: str, catalog: str, needs: str, is_: str
) -> None:
    with pytest.raises(TemplateError) as caught:
        renderer.render_page(region(name, f" catalog={catalog}"), page="p.md")
    assert caught.value.location == "docs/p.md:3"
    assert caught.value.message == (
        f"region {name!r} shows a catalog of kind {needs!r}, but catalog {catalog!r} is of kind {is_!r}"
    )
    assert caught.value.hint == f"name a catalog of kind {needs!r} in its begin marker (`catalog=NAME`)"


def test_a_kind_region_without_a_catalog_still_asks_for_one(renderer: Renderer) -> None:
    with pytest.raises(TemplateError) as caught:
        renderer.render_page(region("route-errors"), page="p.md")
    assert caught.value.location == "docs/p.md:3"
    assert caught.value.message == "region 'route-errors' needs a catalog"


def test_a_header_counting_the_evidence_of_a_kind_without_any_shows_none(renderer: Renderer) -> None:
    counted = renderer.render_page(region("page-header", " evidence=mcp-tools"), page="p.md").text
    plain = renderer.render_page(region("page-header"), page="p.md").text
    assert counted.replace(" evidence=mcp-tools", "") == plain
    assert "\n**Canonical:** <https://" in plain and "**Reproduced" not in plain
    counted_errors = renderer.render_page(region("page-header", " evidence=mcp-errors"), page="p.md").text
    assert (
        "**Reproduced against the server on 2026-12-01:** all ten rows a client can trigger answered as the "
        "table says"
    ) in counted_errors


def test_the_tools_reference_reads_the_typed_tools(renderer: Renderer) -> None:
    text = renderer.render_page(region("tools-reference", " catalog=mcp-tools"), page="p.md").text
    tools = renderer.inputs.catalogs["mcp-tools"]
    assert isinstance(tools, ToolsCatalog)
    headings = [line for line in text.splitlines() if line.startswith("### ")]
    assert headings == [
        f"### `{tool.uri_template or tool.name}`" for kind in TOOL_KINDS for tool in tools.items(kind)
    ]
    assert len(headings) >= 2


def test_an_error_row_reads_its_entry_through_except_conditions_the_configuration_keeps() -> None:
    entry = ErrorEntry("too-large", None, 413, "Too large", "endpoint", "app.py", ("size > LIMIT",))
    row = ErrorRow(entry, "err-too-large", "Big.", None, False, {}, False)
    assert (row.id, row.code, row.status, row.message, row.anchor, row.cause) == (
        "too-large",
        None,
        413,
        "Too large",
        "err-too-large",
        "Big.",
    )
    assert (row.dynamic, row.raises, row.raises_scope, row.draft_cause) == ({}, (), None, None)
    with pytest.raises(AttributeError, match="conditions"):
        _ = row.conditions
    with pytest.raises(AttributeError, match="constants"):
        _ = row.constants  # the catalog's, not the entry's
    published = ErrorRow(entry, "err-too-large", "Big.", None, False, {}, True)
    assert published.conditions == ("size > LIMIT",)


def test_a_route_row_reads_its_error_through() -> None:
    error = RouteError("not-found", 404, "No <item>", "HTTPException", "get_item", "app.py")
    row = RouteRow(error, "GET", "/items/{id}", "No &lt;item&gt;", ["get_item"], None, None, "r", "r-x", True)
    assert (row.id, row.status, row.detail, row.handler, row.body_key) == (
        "not-found",
        404,
        "No <item>",
        None,
        "detail",
    )
    assert (row.method, row.path, row.detail_text, row.via, row.first) == (
        "GET",
        "/items/{id}",
        "No &lt;item&gt;",
        ["get_item"],
        True,
    )
    with pytest.raises(AttributeError, match="operations"):
        _ = row.operations
