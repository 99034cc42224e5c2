"""What each region template sees: the Jinja environment (with the filters of generator/filters.py) and the
context per region name.

Every template gets `page` (the front matter plus `path` and `url`), `attrs` (the marker's
attributes), `site` (`url`, `repo_url`) and, when the region or page names one, `catalog_name` and
`catalog`. Some regions get more:

- `page-header`: `header` with `status`, `audience`, `last_verified`, `canonical`, `reproduced`.
- `error-table`: `entries` (catalog entries plus `anchor`, `cause` and `action`; None where the notes have a
  gap) in the notes file's order, then entries without notes in catalog order; `json_href`, the page-relative
  link to the catalog published as JSON.
- `based-on`: `sources` (`file`, `url`, `symbols` as `name` + `url`) and `specs` (`title`, `url`).
- `related`: `links` (`title`, `href`), from the front matter's `related` list of page-relative paths.
- `tools-reference`: `tools`, `resources`, `prompts` from the catalog, and `json_href`.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import jinja2
from jinja2.exceptions import SecurityError

from generator.core import template_cache
from generator.core.catalog import notes_line
from generator.core.errors import TemplateError, suggest
from generator.core.pages import holds_marker
from generator.core.sandbox import BoundedSandbox, TemplateFolderLoader
from generator.render.evidence_context import (
    error_examples,
    header_evidence,
    require_catalog_name,
    spec_differences,
)
from generator.render.filters import FILTERS

if TYPE_CHECKING:
    from generator.render.regions import Region
    from generator.render.renderer import Renderer


class SiteSettings(Protocol):
    """What rendering needs from `generator.config.Settings`."""

    @property
    def root(self) -> Path: ...
    @property
    def docs_dir(self) -> Path: ...
    @property
    def templates_dir(self) -> Path: ...
    @property
    def site_url(self) -> str | None: ...
    @property
    def repo_url(self) -> str | None: ...
    def notes_path(self, name: str) -> Path: ...


def make_environment(templates_dir: Path) -> jinja2.Environment:
    """The Jinja environment for region templates and notes: docgen's bounded sandbox (a pull request can
    change both), strict about undefined names, with deterministic whitespace and docgen's filters."""
    environment = BoundedSandbox(
        loader=TemplateFolderLoader(templates_dir),
        filters=FILTERS,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    return template_cache.attach(environment)


def page_url(page: str) -> str:
    """A page's site path under directory URLs: `developers/mcp-errors.md` -> `developers/mcp-errors/`."""
    stem = posixpath.splitext(page)[0]
    if posixpath.basename(stem) == "index":
        stem = posixpath.dirname(stem)
    return f"{stem}/" if stem else ""


def catalog_json_path(page: str, catalog: str) -> str:
    """Where a catalog's JSON is published for a page, relative to docs_dir: beside the built page."""
    return posixpath.join(page_url(page), f"{catalog}.json")


def build_context(
    renderer: Renderer, region: Region, *, page: str, meta: Mapping[str, Any]
) -> dict[str, Any]:
    """The variables the region's template renders with."""
    settings = renderer.settings
    context: dict[str, Any] = {
        "page": {**meta, "path": page, "url": page_url(page)},
        "attrs": dict(region.attrs),
        "site": {"url": settings.site_url, "repo_url": settings.repo_url},
    }
    name = region.attr("catalog") or meta.get("catalog")
    if name is not None:
        context["catalog_name"] = name
        context["catalog"] = _catalog(renderer, str(name), region, page)
    builder = _BUILDERS.get(region.name)
    if builder is not None:
        context.update(builder(renderer, region, page, context))
    return context


def _catalog(renderer: Renderer, name: str, region: Region, page: str) -> Mapping[str, Any]:
    if name not in renderer.catalogs:
        raise TemplateError(
            f"region {region.name!r} draws from catalog {name!r}, which is not configured",
            file=page,
            line=region.line,
            hint=suggest(name, renderer.catalogs)
            or "add it under the docgen plugin's `catalogs:` in mkdocs.yml",
        )
    return renderer.catalogs[name]


def _require_catalog(region: Region, page: str, context: Mapping[str, Any]) -> Mapping[str, Any]:
    require_catalog_name(region, page, context)
    catalog: Mapping[str, Any] = context["catalog"]
    return catalog


def _header(renderer: Renderer, region: Region, page: str, context: dict[str, Any]) -> dict[str, Any]:
    meta = context["page"]
    site_url = (renderer.settings.site_url or "").rstrip("/")
    canonical = meta.get("canonical") or (f"{site_url}/{page_url(page)}" if site_url else None)
    keys = ("status", "audience", "last_verified")
    header = {**{key: meta.get(key) for key in keys}, "canonical": canonical}
    return {"header": {**header, "reproduced": header_evidence(renderer, region)}}


def _error_table(renderer: Renderer, region: Region, page: str, context: dict[str, Any]) -> dict[str, Any]:
    catalog = _require_catalog(region, page, context)
    name = context["catalog_name"]
    # Rows follow the notes file, where editors put related errors together; entries without notes (gaps)
    # follow in catalog order.
    order = {entry_id: index for index, entry_id in enumerate(_entry_notes(renderer, name))}
    entries = []
    for entry in sorted(catalog.get("entries", []), key=lambda entry: order.get(entry["id"], len(order))):
        cause, action = render_entry_notes(renderer, name, entry["id"])
        entries.append({**entry, "anchor": f"err-{entry['id']}", "cause": cause, "action": action})
    return {"entries": entries, "json_href": _json_href(page, name)}


def _tools(renderer: Renderer, region: Region, page: str, context: dict[str, Any]) -> dict[str, Any]:
    catalog = _require_catalog(region, page, context)
    lists = {key: list(catalog.get(key, [])) for key in ("tools", "resources", "prompts")}
    return {**lists, "json_href": _json_href(page, context["catalog_name"])}


def _json_href(page: str, catalog: str) -> str:
    return posixpath.relpath(catalog_json_path(page, catalog), posixpath.dirname(page) or ".")


def _based_on(renderer: Renderer, region: Region, page: str, context: dict[str, Any]) -> dict[str, Any]:
    sources, specs = [], []
    for item in context["page"].get("based_on") or []:
        if "file" in item:
            file = str(item["file"])
            symbols = [
                {"name": symbol, "url": _source_url(renderer, file, renderer.locate_symbol(file, symbol))}
                for symbol in item.get("symbols") or []
            ]
            sources.append({"file": file, "url": _source_url(renderer, file, None), "symbols": symbols})
        else:
            specs.append({"title": item["title"], "url": item["url"]})
    return {"sources": sources, "specs": specs}


def _source_url(renderer: Renderer, file: str, lines: tuple[int, int] | None) -> str | None:
    repo_url = renderer.settings.repo_url
    if not repo_url:
        return None
    url = f"{repo_url.rstrip('/')}/blob/{renderer.source_ref}/{file}"
    return f"{url}#L{lines[0]}-L{lines[1]}" if lines else url


def _related(renderer: Renderer, region: Region, page: str, context: dict[str, Any]) -> dict[str, Any]:
    links = []
    for href in context["page"].get("related") or []:
        target = posixpath.normpath(posixpath.join(posixpath.dirname(page), str(href)))
        if target not in renderer.titles:
            raise TemplateError(
                f"related page {href!r} does not exist (looked for docs/{target})",
                file=page,
                line=region.line,
                hint=suggest(target, renderer.titles) or "fix the path in the front matter's `related` list",
            )
        links.append({"title": renderer.titles[target], "href": str(href)})
    return {"links": links}


def render_entry_notes(renderer: Renderer, catalog: str, entry_id: str) -> tuple[str | None, str | None]:
    """An entry's `cause` and `action` with the catalog's constants filled in; None for each missing one."""
    entry_notes = _entry_notes(renderer, catalog).get(entry_id) or {}
    constants = renderer.catalogs[catalog].get("constants") or {}
    rendered = [
        _render_note(
            renderer, catalog, entry_id, field=field, text=entry_notes.get(field), constants=constants
        )
        for field in ("cause", "action")
    ]
    return rendered[0], rendered[1]


def _entry_notes(renderer: Renderer, catalog: str) -> Mapping[str, Any]:
    notes: Mapping[str, Any] = (renderer.notes.get(catalog) or {}).get("entries") or {}
    return notes


def _render_note(
    renderer: Renderer, catalog: str, entry_id: str, *, field: str, text: Any, constants: Mapping[str, Any]
) -> str | None:
    if text is None or not str(text).strip():
        return None
    source = str(text)
    if "{" not in source and "\r" not in source:
        rendered = (
            source.strip()
        )  # no Jinja syntax, no line endings to normalise: Jinja would return it as is
    else:
        try:
            template = template_cache.from_string(renderer.environment, source, name="note")
            rendered = template.render(constants).strip()
        except jinja2.TemplateError as err:
            raise _note_error(renderer, catalog, entry_id, field, err, constants) from err
    if holds_marker(rendered):
        raise _note_error(renderer, catalog, entry_id, field, _MARKER_IN_NOTE, constants)
    return rendered


_MARKER_IN_NOTE = jinja2.TemplateRuntimeError(
    "it holds a line that starts like a docgen marker (`<!-- docgen:`), which would end its region early"
)


def _note_error(
    renderer: Renderer,
    catalog: str,
    entry_id: str,
    field: str,
    err: jinja2.TemplateError,
    constants: Mapping[str, Any],
) -> TemplateError:
    """A note that cannot be rendered, located at its field in the notes file."""
    notes_path = renderer.settings.notes_path(catalog)
    shown = _relative(notes_path, renderer.settings.root)
    line = notes_line(notes_path, shown, "entries", entry_id, field)
    message = f"notes for entry {entry_id!r}, field {field!r}: {err.message or type(err).__name__}"
    if isinstance(err, jinja2.TemplateSyntaxError) and err.lineno > 1:
        message += f" (line {err.lineno} of the note)"
    hint = f"constants of catalog {catalog!r}: {', '.join(sorted(constants)) or 'none'}"
    if isinstance(err, jinja2.UndefinedError):
        name = re.search(r"'(\w+)' is undefined", err.message or "")
        hint = (suggest(name.group(1), constants) if name else None) or hint
    elif err is _MARKER_IN_NOTE:
        hint = "reword it, or put the marker inside backticks"
    elif isinstance(err, SecurityError):
        hint = f"a note may use the catalog's constants and docgen's filters, nothing else ({hint})"
    return TemplateError(message, file=shown, line=line, hint=hint)


def _relative(path: Path, root: Path) -> str:
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return str(path)


_BUILDERS: dict[str, Callable[[Renderer, Region, str, dict[str, Any]], dict[str, Any]]] = {
    "page-header": _header,
    "error-table": _error_table,
    "tools-reference": _tools,
    "based-on": _based_on,
    "related": _related,
    "error-examples": error_examples,
    "spec-differences": spec_differences,
}
