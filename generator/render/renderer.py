"""Render the generated regions of the pages in docs/ from the catalogs, the notes and the templates.

The core is text in, text out: `Renderer.render_page(text, page=...)` returns the page with every
region re-rendered and a report per region, and writes nothing. `render_pages` runs it over every
page of the site for `docgen render` (which hands the result to `generator.writer`); `docgen check`
and the MkDocs plugin use the same calls.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2
from jinja2.exceptions import SecurityError

from generator.core.errors import DocgenError, TemplateError, suggest
from generator.core.pages import page_titles, read_pages, split_front_matter
from generator.core.sandbox import TemplateFailure
from generator.render.context import (
    SiteSettings,
    build_context,
    catalog_json_path,
    make_environment,
    render_entry_notes,
)
from generator.render.regions import Region, RegionState, check_body, parse_regions, splice, state_of

SymbolLocator = Callable[[str, str], tuple[int, int] | None]
"""(file relative to the project root, symbol name) -> its first and last line, or None when unknown."""

__all__ = [
    "PageResult",
    "RegionReport",
    "Renderer",
    "catalog_as_json",
    "catalog_json_path",
    "render_all",
    "render_pages",
]


@dataclass(frozen=True)
class RegionReport:
    """What render found in one generated region of a page."""

    page: str
    """The page, relative to docs_dir (`developers/mcp-errors.md`)."""
    line: int
    """1-based line of the region's begin marker."""
    name: str
    """The region (and template) name."""
    state: RegionState
    """fresh, stale or hand-edited."""
    expected: str
    """The body render would write now."""
    actual: str
    """The body on the page now."""


@dataclass(frozen=True)
class PageResult:
    """One page before and after rendering its regions."""

    page: str
    original: str
    text: str
    """The new page text: hand-edited regions are kept as they are unless rendering was forced."""
    regions: tuple[RegionReport, ...]
    catalogs: tuple[str, ...] = ()
    """The catalogs this page's regions draw from, sorted."""

    @property
    def changed(self) -> bool:
        return self.text != self.original


class Renderer:
    """Renders regions for one site: the catalogs, notes and templates are fixed when it is made.

    Parameters:
        settings: Where templates live and the site and repository URLs.
        catalogs: Catalog name -> catalog (as loaded from `data/<name>.yaml`).
        notes: Catalog name -> notes (as loaded from `data/<name>.notes.yaml`); a missing name means no notes.
        titles: Every page of the site (docs-relative path) -> its title, for Related links.
        source_ref: The git ref source links point at (a branch for committed pages, a commit for the site).
        locate_symbol: (file, symbol) -> (first, last) line or None, to link each cited symbol to its lines.
        environment: The Jinja environment of another renderer of the same templates, to share the templates
            it has compiled (by default the renderer makes its own).
    """

    def __init__(
        self,
        settings: SiteSettings,
        catalogs: Mapping[str, Mapping[str, Any]],
        notes: Mapping[str, Mapping[str, Any]],
        *,
        titles: Mapping[str, str],
        source_ref: str = "HEAD",
        locate_symbol: SymbolLocator | None = None,
        environment: jinja2.Environment | None = None,
    ) -> None:
        self.settings = settings
        self.catalogs = catalogs
        self.notes = notes
        self.titles = titles
        self.source_ref = source_ref
        self.locate_symbol: SymbolLocator = locate_symbol or (lambda file, symbol: None)
        self.environment = environment or make_environment(settings.templates_dir)

    def render_page(self, text: str, *, page: str, force: bool = False) -> PageResult:
        """Re-render every region of `text`; bytes outside the regions are kept exactly.

        Parameters:
            text: The page as committed.
            page: Its path relative to docs_dir, used in links and error locations.
            force: Overwrite hand-edited regions too.

        Raises:
            TemplateError: malformed markers, an unknown template or catalog, or a template that fails.
        """
        try:
            return self._render_page(text, page=page, force=force)
        except DocgenError as err:
            if err.file == page:  # located by docs-relative path: name it from the project root
                err.file = self.page_path(page)
            raise

    def page_path(self, page: str) -> str:
        """A page's path relative to the project root, as messages name it (`docs/index.md`)."""
        return f"{_docs_folder(self.settings)}/{page}"

    def _render_page(self, text: str, *, page: str, force: bool) -> PageResult:
        regions = parse_regions(text, page=page)
        if not regions:
            return PageResult(page, text, text, ())
        meta = split_front_matter(text, page=page)[0]
        catalogs = {str(name) for r in regions if (name := r.attr("catalog") or meta.get("catalog"))}
        reports: list[RegionReport] = []
        bodies: list[str | None] = []
        for region in regions:
            expected = self.render_region(region, page=page, meta=meta)
            check_body(expected, region, page=page)
            actual = region.body(text)
            state = state_of(region, actual, expected)
            reports.append(RegionReport(page, region.line, region.name, state, expected, actual))
            bodies.append(None if state == "hand-edited" and not force else expected)
        result = splice(text, regions, bodies)
        _check_reads_back(result, regions, page)
        return PageResult(page, text, result, tuple(reports), tuple(sorted(catalogs)))

    def render_region(self, region: Region, *, page: str, meta: Mapping[str, Any]) -> str:
        """The body of one region: the template's output between a blank line after the begin marker and
        a blank line before the end marker, so the Markdown around it parses the same everywhere."""
        template = self._template(region, page)
        context = build_context(self, region, page=page, meta=meta)
        try:
            output = template.render(context)
        except DocgenError:
            raise
        except jinja2.TemplateError as err:
            raise _translate(err, template, region, page, self.settings.root) from err
        return "\n" + output.strip("\n") + "\n\n"

    def _template(self, region: Region, page: str) -> jinja2.Template:
        name = f"{region.name}.md.j2"
        try:
            return self.environment.get_template(name)
        except jinja2.TemplateNotFound as err:
            known = [t.removesuffix(".md.j2") for t in self.environment.list_templates(extensions=["j2"])]
            raise TemplateError(
                f"region {region.name!r} has no template {self.settings.templates_dir.name}/{name}",
                file=page,
                line=region.line,
                hint=suggest(region.name, known) or f"known regions: {', '.join(sorted(known))}",
            ) from err
        except jinja2.TemplateSyntaxError as err:
            raise _syntax_error(err, self.settings.root) from err


def _check_reads_back(text: str, regions: Sequence[Region], page: str) -> None:
    """Never hand on a page that would not parse back into the same regions (check_body refuses the causes
    it knows; this is the last word)."""
    again = parse_regions(text, page=page)
    if [(r.name, r.attrs) for r in again] != [(r.name, r.attrs) for r in regions]:
        raise TemplateError(
            "the rendered page would not read back with the same generated regions; it is left as it is",
            file=page,
            line=regions[0].line if regions else None,
            hint="look for a docgen marker or an open code fence in the notes or the templates",
        )


def _docs_folder(settings: SiteSettings) -> str:
    try:
        return settings.docs_dir.resolve().relative_to(settings.root.resolve()).as_posix()
    except ValueError:
        return settings.docs_dir.as_posix()


def _shown(filename: str | None, root: Path) -> str | None:
    """A template's file relative to the project root, as messages name files."""
    if filename is None:
        return None
    try:
        return Path(filename).resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return filename


def _syntax_error(err: jinja2.TemplateSyntaxError, root: Path) -> TemplateError:
    return TemplateError(
        f"template syntax error: {err.message}",
        file=_shown(err.filename, root) or err.name,
        line=err.lineno,
        hint="fix the template; see the Jinja documentation on template syntax",
    )


def _translate(
    err: jinja2.TemplateError, template: jinja2.Template, region: Region, page: str, root: Path
) -> TemplateError:
    if isinstance(err, jinja2.TemplateSyntaxError):
        return _syntax_error(err, root)
    line = None
    traceback = err.__traceback__
    while traceback is not None:
        if traceback.tb_frame.f_code.co_filename == template.filename:
            line = traceback.tb_lineno
        traceback = traceback.tb_next
    hint = (
        "the page's front matter or the catalog lacks what the template uses; add it, or guard it with"
        " `is defined` in the template"
    )
    if isinstance(err, TemplateFailure):
        hint = "fix the template at that line (the error is its own, not the data's)"
    elif isinstance(err, SecurityError):
        hint = "templates render in a sandbox: they may use the data they are given, docgen's filters and"
        hint += " `range` and `namespace`, within the limits README.md lists"
    return TemplateError(
        f"{err.message or type(err).__name__} (rendering region {region.name!r} of {page}:{region.line})",
        file=_shown(template.filename, root),
        line=line,
        hint=hint,
    )


def catalog_as_json(renderer: Renderer, name: str) -> dict[str, Any]:
    """The catalog `name` as published beside its page: its facts, plus each entry's notes rendered
    (`cause` and `action` as Markdown, null where the notes have a gap)."""
    catalog: dict[str, Any] = copy.deepcopy(dict(renderer.catalogs[name]))
    for entry in catalog.get("entries", []):
        entry["cause"], entry["action"] = render_entry_notes(renderer, name, entry["id"])
    return catalog


def render_all(
    settings: SiteSettings,
    catalogs: Mapping[str, Mapping[str, Any]],
    notes: Mapping[str, Mapping[str, Any]],
    *,
    force: bool = False,
    source_ref: str = "HEAD",
    pages: Mapping[str, str] | None = None,
) -> list[PageResult]:
    """Render every page of the site that has regions; reads pages and templates, writes nothing."""
    texts = read_pages(settings.docs_dir) if pages is None else pages
    titles = page_titles(texts, docs=_docs_folder(settings))
    renderer = Renderer(settings, catalogs, notes, titles=titles, source_ref=source_ref)
    results = [renderer.render_page(text, page=page, force=force) for page, text in texts.items()]
    return [result for result in results if result.regions]


def render_pages(
    settings: SiteSettings,
    catalogs: Mapping[str, Mapping[str, Any]],
    notes: Mapping[str, Mapping[str, Any]],
    *,
    force: bool = False,
) -> dict[str, str]:
    """{docs-relative page path: full new page text} for every page that has regions."""
    return {result.page: result.text for result in render_all(settings, catalogs, notes, force=force)}
