"""What each region template sees: the context per region name.

Every template gets `page` (the front matter plus `path` and `url`), `attrs` (the marker's
attributes), `site` (`url`, `repo_url`) and, when the region or page names one, `catalog_name` and
`catalog` (the catalog as its kind shows it: see `RenderingKind.view`). Some regions get more, from the
builders below for the regions any page can hold, or from the kind of the region's catalog for the regions
only its catalogs fill (`RenderingKind.regions`: the errors kind's in `docgen/kinds/errors/regions.py`):

- `page-header`: `header` with `status`, `audience`, `last_verified`, `canonical`, `reproduced`.
- `error-table`: `entries` (catalog entries, each an `ErrorRow` whose attributes are the entry's typed
  fields (`conditions` only where published), plus `anchor`, `cause` and `action`, None where the notes have a
  gap; `draft_cause`, the comment above the call in the code or None; `show_raises`, the notes' option to
  list the entry's `raises`; `stated`, field -> `value` (a list), `expression`, `because` for each value
  set at run time that the notes state) in the notes file's order, then entries without notes in catalog
  order; `columns`, which of the Code and HTTP columns the table has; `json_href`, the page-relative link to
  the catalog as JSON.
- `based-on`: `sources` (`file`, `url`, `symbols` as `name` + `url`): the front matter's `based_on` files,
  then what the kind of the page's catalog cites (an errors catalog: the helpers extract followed to reach
  its calls); and `specs` (`title`, `url`).
- `related`: `links` (`title`, `href`), from the front matter's `related` list of page-relative paths.
- `tools-reference`: `tools`, `resources`, `prompts`, the catalog's `Tool` records, and `json_href`.
- `route-errors`: `rows`, one `RouteRow` per error of each operation of a routes catalog (the error's
  fields plus `method`, `path`, `detail_text` (the detail as text for Markdown: `<`, `>` and `&` escaped),
  `via`, `cause`, `action`, `anchor`, `route_anchor`, `first`), `json_href`, `openapi_file`.
- `error-changelog`: `changelog`, see `docgen.kinds.errors.changelog`.
- `error-examples`, `spec-differences` and `client-differences`: see `docgen.render.evidence_context` and
  `docgen.render.client_context`.

A region that only catalogs of one kind fill, drawn from a catalog of another kind, is a located error.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Mapping
from typing import Any

import jinja2
from jinja2.exceptions import SecurityError

from docgen.core.errors import TemplateError, suggest
from docgen.core.models import Catalog, ErrorEntry, constants_of
from docgen.core.notes import stated_values
from docgen.core.pages import holds_marker
from docgen.render.inputs import RenderInputs
from docgen.render.kind_stage import Builder, Context, region_owner, rendering
from docgen.render.regions import Region
from docgen.render.shown import ShownConstants, catalog_view
from docgen.templating import template_cache


def page_url(page: str) -> str:
    """A page's site path under directory URLs: `developers/mcp-errors.md` -> `developers/mcp-errors/`."""
    stem = posixpath.splitext(page)[0]
    if posixpath.basename(stem) == "index":
        stem = posixpath.dirname(stem)
    return f"{stem}/" if stem else ""


def catalog_json_path(page: str, catalog: str) -> str:
    """Where a catalog's JSON is published for a page, relative to docs_dir: beside the built page."""
    return posixpath.join(page_url(page), f"{catalog}.json")


def build_context(inputs: RenderInputs, region: Region, *, page: str, meta: Mapping[str, Any]) -> Context:
    """The variables the region's template renders with."""
    context: Context = {
        "page": {**meta, "path": page, "url": page_url(page)},
        "attrs": dict(region.attrs),
        "site": {"url": inputs.site_url, "repo_url": inputs.repo_url},
    }
    name = region.attr("catalog") or meta.get("catalog")
    if name is not None:
        context["catalog_name"] = name
        catalog = _catalog(inputs, str(name), region, page)
        context["catalog"] = catalog_view(catalog, conditions=str(name) in inputs.publish_conditions)
    builder = _BUILDERS.get(region.name) or _kind_builder(inputs, region, page, context)
    if builder is not None:
        context.update(builder(inputs, region, page, context))
    return context


def _kind_builder(inputs: RenderInputs, region: Region, page: str, context: Context) -> Builder | None:
    """The builder of a region only one kind's catalogs fill, once its catalog is seen to be of that kind;
    None for a region only its template makes (`server-limits` reads `catalog.constants` alone)."""
    named = context.get("catalog_name")
    own = rendering(inputs.catalogs[str(named)]) if named is not None else None  # configured: see _catalog
    if own is not None and region.name in own.regions():
        return own.regions()[region.name]
    owner = region_owner(region.name, {configured.kind for configured in inputs.catalogs.values()})
    if owner is None:
        return None
    name = require_catalog_name(region, page, context)
    raise TemplateError(
        f"region {region.name!r} shows a catalog of kind {owner!r}, but catalog {name!r} is of kind "
        f"{inputs.catalogs[name].kind!r}",
        file=page,
        line=region.line,
        hint=f"name a catalog of kind {owner!r} in its begin marker (`catalog=NAME`)",
    )


def require_catalog_name(region: Region, page: str, context: Mapping[str, Any]) -> str:
    """The catalog a region draws from, or a located error saying how to name one."""
    if "catalog_name" not in context:
        raise TemplateError(
            f"region {region.name!r} needs a catalog",
            file=page,
            line=region.line,
            hint="write `catalog=NAME` in its begin marker, or `catalog: NAME` in the front matter",
        )
    return str(context["catalog_name"])


def _catalog(inputs: RenderInputs, name: str, region: Region, page: str) -> Catalog:
    if name not in inputs.catalogs:
        raise TemplateError(
            f"region {region.name!r} draws from catalog {name!r}, which is not configured",
            file=page,
            line=region.line,
            hint=suggest(name, inputs.catalogs)
            or "add it under the docgen plugin's `catalogs:` in mkdocs.yml",
        )
    return inputs.catalogs[name]


def _header(inputs: RenderInputs, region: Region, page: str, context: Context) -> Context:
    meta = context["page"]
    site_url = (inputs.site_url or "").rstrip("/")
    canonical = meta.get("canonical") or (f"{site_url}/{page_url(page)}" if site_url else None)
    keys = ("status", "audience", "last_verified")
    header = {**{key: meta.get(key) for key in keys}, "canonical": canonical}
    return {"header": {**header, "reproduced": _reproduced(inputs, region)}}


def _reproduced(inputs: RenderInputs, region: Region) -> dict[str, Any] | None:
    """What the kind of the catalog the marker names as `evidence=` counts of its rows probe reproduced;
    None without the attribute, for an unknown catalog, and for a kind that keeps no evidence."""
    name = region.attr("evidence")
    if name is None or name not in inputs.catalogs:
        return None
    kind = rendering(inputs.catalogs[name])
    return kind.reproduced(inputs, name) if kind is not None else None


def json_href(page: str, catalog: str) -> str:
    """The link from `page` to the JSON of `catalog` published beside it."""
    return posixpath.relpath(catalog_json_path(page, catalog), posixpath.dirname(page) or ".")


def _based_on(inputs: RenderInputs, region: Region, page: str, context: Context) -> Context:
    cited: dict[str, list[str]] = {}
    specs = []
    for item in context["page"].get("based_on") or []:
        if "file" in item:
            cited.setdefault(str(item["file"]), []).extend(str(s) for s in item.get("symbols") or [])
        else:
            specs.append({"title": item["title"], "url": item["url"]})
    # What the catalog's kind cites (the helpers extract followed) comes after the editor's list.
    for file, found in _kind_cited(inputs, context).items():
        listed = cited.setdefault(file, [])
        listed.extend(symbol for symbol in found if symbol not in listed)
    sources = [
        {
            "file": file,
            "url": _source_url(inputs, file, None),
            "symbols": [
                {"name": symbol, "url": _source_url(inputs, file, inputs.symbol_lines(file, symbol))}
                for symbol in symbols
            ],
        }
        for file, symbols in cited.items()
    ]
    return {"sources": sources, "specs": specs}


def _kind_cited(inputs: RenderInputs, context: Context) -> Mapping[str, list[str]]:
    named = context.get("catalog_name")
    catalog = inputs.catalogs[str(named)] if named is not None else None  # configured: see _catalog
    kind = rendering(catalog) if catalog is not None else None
    return kind.cited(catalog) if kind is not None and catalog is not None else {}


def _source_url(inputs: RenderInputs, file: str, lines: tuple[int, int] | None) -> str | None:
    if not inputs.repo_url:
        return None
    url = f"{inputs.repo_url.rstrip('/')}/blob/{inputs.source_ref}/{file}"
    return f"{url}#L{lines[0]}-L{lines[1]}" if lines else url


def _related(inputs: RenderInputs, region: Region, page: str, context: Context) -> Context:
    links = []
    for href in context["page"].get("related") or []:
        target = posixpath.normpath(posixpath.join(posixpath.dirname(page), str(href)))
        if target not in inputs.titles:
            raise TemplateError(
                f"related page {href!r} does not exist (looked for {inputs.docs_folder}/{target})",
                file=page,
                line=region.line,
                hint=suggest(target, inputs.titles) or "fix the path in the front matter's `related` list",
            )
        links.append({"title": inputs.titles[target], "href": str(href)})
    return {"links": links}


def stated_context(inputs: RenderInputs, catalog: str, entry: ErrorEntry) -> dict[str, Any]:
    """Field -> what the page and the published JSON show of each of `entry`'s values set at run time that
    the notes state (`value`, a list; `expression`; `because`)."""
    stated = stated_values(entry, inputs.notes_of(catalog))
    return {field: value.as_context() for field, value in stated.items()}


DRAFT_MARK = "_Draft from the code, not yet reviewed:_ "
"""Before the cause of an entry whose notes are still a draft (`draft: true`), as the error table marks the
comment above a call it shows for an entry without notes."""


def render_entry_notes(inputs: RenderInputs, catalog: str, entry_id: str) -> tuple[str | None, str | None]:
    """An entry's `cause` and `action` with the catalog's constants filled in; None for each missing one."""
    constants = ShownConstants(catalog, constants_of(inputs.catalogs[catalog]))
    notes = inputs.notes_of(catalog)
    written = notes.entry(entry_id)
    cause = _render_note(inputs, catalog, entry_id, "cause", written.cause, constants)
    if cause is not None and written.draft:
        cause = DRAFT_MARK + cause
    return cause, _render_note(inputs, catalog, entry_id, "action", written.action, constants)


def _render_note(
    inputs: RenderInputs,
    catalog: str,
    entry_id: str,
    field: str,
    text: str | None,
    constants: Mapping[str, Any],
) -> str | None:
    if text is None or not str(text).strip():
        return None
    try:
        rendered = template_cache.render_text(inputs.environment, str(text), constants, name="note").strip()
    except jinja2.TemplateError as err:
        raise _note_error(inputs, catalog, entry_id, field, err, constants) from err
    if holds_marker(rendered):
        raise _note_error(inputs, catalog, entry_id, field, _MARKER_IN_NOTE, constants)
    return rendered


_MARKER_IN_NOTE = jinja2.TemplateRuntimeError(
    "it holds a line that starts like a docgen marker (`<!-- docgen:`), which would end its region early"
)


def _note_error(
    inputs: RenderInputs,
    catalog: str,
    entry_id: str,
    field: str,
    err: jinja2.TemplateError,
    constants: Mapping[str, Any],
) -> TemplateError:
    """A note that cannot be rendered, located at its field in the notes file."""
    notes = inputs.notes_of(catalog)
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
    return TemplateError(message, file=notes.file, line=notes.line("entries", entry_id, field), hint=hint)


_BUILDERS: dict[str, Builder] = {
    "page-header": _header,
    "based-on": _based_on,
    "related": _related,
}
"""The regions any page can hold, whatever its catalog's kind."""
