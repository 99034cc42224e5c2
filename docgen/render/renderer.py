"""Render the generated regions of the pages from the catalogs, the notes and the templates.

The core is text in, text out: `Renderer.render_page(text, page=...)` returns the page with every region
re-rendered and a report per region, and reads and writes nothing. `renderer_for` makes a renderer over a
loaded project; `render_all` runs it over every page of the project for `docgen render` (which hands the
result to `docgen.core.writer`); `docgen check` and the MkDocs plugin use the same calls.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import field, replace
from typing import Any

import jinja2
from jinja2.exceptions import SecurityError

from docgen.core.changes import History
from docgen.core.errors import DocgenError, TemplateError, suggest
from docgen.core.models import Catalog
from docgen.core.notes import Notes
from docgen.core.pages import page_titles, split_front_matter
from docgen.core.project import Project
from docgen.core.records import record
from docgen.render.context import build_context
from docgen.render.environment import make_environment
from docgen.render.inputs import RenderInputs, SymbolLines, no_lines
from docgen.render.provenance import edit_in, edited_places
from docgen.render.regions import Region, RegionState, check_body, parse_regions, splice, state_of
from docgen.render.shown import recording
from docgen.templating.sandbox import TemplateFailure


@record
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
    edit_in: tuple[str, ...] = ()
    """The files the region's text comes from: its template, and the notes it draws on."""
    places: tuple[str, ...] = ()
    """For a hand-edited region: where each edited line belongs (`data/x.notes.yaml:31: id.action`, or the
    template), in page order."""


@record
class PageResult:
    """One page before and after rendering its regions."""

    page: str
    original: str
    text: str
    """The new page text: hand-edited regions are kept as they are unless rendering was forced."""
    regions: tuple[RegionReport, ...]
    catalogs: tuple[str, ...] = ()
    """The catalogs this page's regions draw from, sorted."""
    shown: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Catalog name -> the constants of it the page's regions show (read by a template or a note), sorted."""

    @property
    def changed(self) -> bool:
        return self.text != self.original


class Renderer:
    """Renders regions for one site from inputs fixed when it is made (see `RenderInputs`)."""

    def __init__(self, inputs: RenderInputs) -> None:
        self.inputs = inputs

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
            with recording() as shown:
                result = self._render_page(text, page=page, force=force)
        except DocgenError as err:
            if err.file == page:  # located by docs-relative path: name it from the project root
                err.file = f"{self.inputs.docs_folder}/{page}"
            raise
        return replace(result, shown={name: tuple(sorted(names)) for name, names in sorted(shown.items())})

    def _render_page(self, text: str, *, page: str, force: bool) -> PageResult:
        regions = parse_regions(text, page=page)
        if not regions:
            return PageResult(page, text, text, ())
        meta = split_front_matter(text, page=page)[0]
        catalogs = {str(name) for r in regions if (name := r.attr("catalog") or meta.get("catalog"))}
        reports: list[RegionReport] = []
        bodies: list[str | None] = []
        for region in regions:
            report = self._report(region, text, page=page, meta=meta)
            reports.append(report)
            bodies.append(None if report.state == "hand-edited" and not force else report.expected)
        result = splice(text, regions, bodies, [report.edit_in for report in reports])
        if result != text:  # the same text reads back into the regions it was parsed into
            _check_reads_back(result, regions, page)
        return PageResult(page, text, result, tuple(reports), tuple(sorted(catalogs)))

    def _report(self, region: Region, text: str, *, page: str, meta: Mapping[str, Any]) -> RegionReport:
        expected = self.render_region(region, page=page, meta=meta)
        check_body(expected, region, page=page)
        actual = region.body(text)
        state = state_of(region, actual, expected)
        files = edit_in(self.inputs, region, meta)
        if state == "fresh" and region.edit_in != (",".join(files) or None):
            state = "stale"  # the right text, but the marker no longer says where it comes from
        places: tuple[str, ...] = ()
        if state == "hand-edited":
            places = edited_places(self.inputs, region, meta, actual=actual, expected=expected)
        return RegionReport(page, region.line, region.name, state, expected, actual, files, places)

    def render_region(self, region: Region, *, page: str, meta: Mapping[str, Any]) -> str:
        """The body of one region: the template's output between a blank line after the begin marker and
        a blank line before the end marker, so the Markdown around it parses the same everywhere."""
        template = self._template(region, page)
        context = build_context(self.inputs, region, page=page, meta=meta)
        try:
            output = template.render(context)
        except DocgenError:
            raise
        except jinja2.TemplateError as err:
            raise _translate(err, template, region, f"{self.inputs.docs_folder}/{page}") from err
        return "\n" + output.strip("\n") + "\n\n"

    def _template(self, region: Region, page: str) -> jinja2.Template:
        name = f"{region.name}.md.j2"
        environment = self.inputs.environment
        try:
            return environment.get_template(name)
        except jinja2.TemplateNotFound as err:
            known = [t.removesuffix(".md.j2") for t in environment.list_templates(extensions=["j2"])]
            raise TemplateError(
                f"region {region.name!r} has no template {self.inputs.templates_folder}/{name}",
                file=page,
                line=region.line,
                hint=_missing_template_hint(self.inputs, region.name, known),
            ) from err
        except jinja2.TemplateSyntaxError as err:
            raise _syntax_error(err) from err


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


def _syntax_error(err: jinja2.TemplateSyntaxError) -> TemplateError:
    return TemplateError(
        f"template syntax error: {err.message}",
        file=err.filename or err.name,
        line=err.lineno,
        hint="fix the template; see the Jinja documentation on template syntax",
    )


def _translate(
    err: jinja2.TemplateError, template: jinja2.Template, region: Region, page: str
) -> TemplateError:
    if isinstance(err, jinja2.TemplateSyntaxError):
        return _syntax_error(err)
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
    if "attribute 'conditions'" in (err.message or ""):
        hint = "an entry's conditions (source text) reach templates only when the catalog sets"
        hint += " `publish_conditions: true` in mkdocs.yml"
    elif isinstance(err, TemplateFailure):
        hint = "fix the template at that line (the error is its own, not the data's)"
    elif isinstance(err, SecurityError):
        hint = "templates render in a sandbox: they may use the data they are given, docgen's filters and"
        hint += " `range` and `namespace`, within the limits README.md lists"
    return TemplateError(
        f"{err.message or type(err).__name__} (rendering region {region.name!r} of {page}:{region.line})",
        file=template.filename,
        line=line,
        hint=hint,
    )


def _missing_template_hint(inputs: RenderInputs, region: str, known: list[str]) -> str:
    """What to do about a region without a template: the likely one meant, else the ones there are (docgen's
    and the project's) and where a new one goes."""
    folder = inputs.templates_folder
    return suggest(region, known) or (
        f"known regions: {', '.join(sorted(known))}; a region of your own needs {folder}/{region}.md.j2"
    )


def renderer_for(
    project: Project,
    *,
    catalogs: Mapping[str, Catalog] | None = None,
    notes: Mapping[str, Notes] | None = None,
    source_ref: str = "HEAD",
    symbol_lines: SymbolLines = no_lines,
    environment: jinja2.Environment | None = None,
    histories: Mapping[str, History | None] | None = None,
) -> Renderer:
    """A renderer over `project`: its committed catalogs and notes unless others are given (check renders
    what extract found), its templates, pages (for titles), evidence and specifications.

    `environment` shares the templates another renderer of the same project has compiled; `histories` (the
    errors catalogs' histories from git) fill the changelog region, as only the site build does.
    """
    settings = project.settings
    inputs = RenderInputs(
        catalogs=project.catalogs() if catalogs is None else catalogs,
        notes=project.notes if notes is None else notes,
        evidence=project.evidence,
        specs=project.specs,
        titles=page_titles(project.pages, project.fronts),
        environment=environment
        or make_environment(project.templates, settings.relative(settings.templates_dir)),
        templates_folder=settings.relative(settings.templates_dir),
        docs_folder=settings.relative(settings.docs_dir),
        data_folder=settings.relative(settings.data_dir),
        site_url=settings.site_url,
        repo_url=settings.repo_url,
        source_ref=source_ref,
        symbol_lines=symbol_lines,
        publish_conditions=frozenset(n for n, c in settings.catalogs.items() if c.publish_conditions),
        public_constants={n: frozenset(c.public_constants) for n, c in settings.catalogs.items()},
        histories=histories,
        replies=project.replies,
    )
    return Renderer(inputs)


def render_all(renderer: Renderer, pages: Mapping[str, str], *, force: bool = False) -> list[PageResult]:
    """Every page of `pages` that has regions, rendered; reads and writes nothing."""
    results = [renderer.render_page(text, page=page, force=force) for page, text in pages.items()]
    return [result for result in results if result.regions]
