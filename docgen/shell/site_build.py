"""What a site adds to the committed pages, whichever engine builds it: the pages as the site shows them, and
the files published beside them (each catalog a page draws on as JSON, and the schema those name).

The MkDocs plugin asks for it during a build (ProperDocs runs the same plugin); `docgen publish` asks for it
after an engine that runs no MkDocs plugin (Zensical) has built the committed pages, and writes the
published files into that site. Both publish the same bytes.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass

from docgen.core.changes import History
from docgen.core.models import Catalog
from docgen.core.project import Project
from docgen.core.schemas import CATALOG_SCHEMA, published_catalog_schema
from docgen.kinds.errors.changelog import with_history
from docgen.render.context import catalog_json_path
from docgen.render.entry_urls import anchor_pages, with_urls
from docgen.render.published import catalog_as_json, published_document, refuse_credentials
from docgen.render.renderer import PageResult, Renderer, renderer_for
from docgen.shell.changelog import histories
from docgen.shell.site_pages import site_renderer, site_text


@dataclass(frozen=True)
class SiteBuild:
    """The rendered pages, the pages as the site shows them, and the files published beside them."""

    results: list[PageResult]
    """Every page with generated regions, rendered from the catalogs (what `mkdocs build` warns about)."""
    pages: dict[str, str]
    """Docs-relative page path -> the text the site is built from."""
    published: dict[str, str]
    """Site-relative path -> text: each catalog's JSON beside the page that draws on it, then the schema."""


def site_build(project: Project, catalogs: Mapping[str, Catalog] | None = None) -> SiteBuild:
    """The site of `project`, from `catalogs` (default: the committed ones; `mkdocs serve` passes those it
    extracted). A shown constant that looks like a credential stops it with a located error: nothing is
    published then."""
    settings = project.settings
    catalogs = project.catalogs() if catalogs is None else catalogs
    committed = renderer_for(project, catalogs=catalogs)
    rendered = [committed.render_page(text, page=page) for page, text in project.pages.items()]
    results = [result for result in rendered if result.regions]
    found = histories(settings, catalogs)  # read once: the changelog region and every JSON carry it
    site = site_renderer(settings, project, catalogs, committed, results, found)
    linked = bool(settings.repo_url)
    pages = {result.page: site_text(site, committed, result, project.pages, linked) for result in results}
    refuse_credentials(site.inputs, results, project)  # a strict build or not, nothing is published
    return SiteBuild(results, pages, _published(project, site, results, found))


def _published(
    project: Project, site: Renderer, results: list[PageResult], found: Mapping[str, History | None]
) -> dict[str, str]:
    shown: dict[str, set[str]] = {}
    for result in results:
        for name in result.catalogs:
            shown.setdefault(name, set()).update(result.shown.get(name, ()))
    entry_pages = anchor_pages(results)
    published: dict[str, str] = {}
    for result in results:
        for name in result.catalogs:
            path = catalog_json_path(result.page, name)
            data = catalog_as_json(site.inputs, name, shown.get(name, ()))
            data = with_urls(with_history(data, found.get(name)), project.settings.site_url, entry_pages)
            document = published_document(data, path)
            published.setdefault(path, json.dumps(document, indent=2, ensure_ascii=False, default=str) + "\n")
    if published:
        published[CATALOG_SCHEMA] = published_catalog_schema()
    return published
