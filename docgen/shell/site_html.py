"""The errors' changelog in a site an engine built without the docgen plugin (Zensical), for `docgen publish`.

Such an engine builds the committed pages, so each `error-changelog` region of the built HTML holds the
placeholder sentence. Here each such region is rendered as the plugin renders it (`site_build`, with the
history read from git), converted with the site's own Markdown extensions (docgen/shell/markdown_config.py),
and put in place of what the HTML region holds: exactly the committed body, converted the same way. A region
that holds neither that nor the filled changelog (already published) is a located error, never skipped.

Zensical's search index (`search.json` at the site's root) holds the text of each section, so the
placeholder's text there is replaced by the changelog's, in the form that index gives a table (see
`docgen.shell.search_text`).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator
from pathlib import Path

import markdown

from docgen.core.errors import ConfigError
from docgen.core.reader import read_text
from docgen.core.settings import Settings
from docgen.kinds.errors.changelog import REGION
from docgen.render.regions import Region, parse_regions
from docgen.render.renderer import PageResult
from docgen.shell.markdown_config import site_markdown
from docgen.shell.search_text import Swap, fill_search_index
from docgen.shell.site_build import SiteBuild

_END = f"<!-- docgen:end {REGION} -->"
_REBUILD = "build the site again from the committed pages (`zensical build`), then run `docgen publish`"


def changelog_html(settings: Settings, build: SiteBuild, site: Path) -> dict[str, str]:
    """Site-relative path -> new text of each built file the changelog changes (pages and search index);
    a located error for a page whose region cannot be found or holds something else."""
    swaps = list(_swaps(settings, build))
    if not swaps:
        return {}
    outputs: dict[str, str] = {}
    for swap in swaps:
        text = outputs.get(swap.page)
        if text is None:
            text = _read(settings, site, swap.page)
        outputs[swap.page] = _swapped(settings, site, swap, text)
    outputs.update(fill_search_index(settings, site, swaps))
    return outputs


def _swaps(settings: Settings, build: SiteBuild) -> Iterator[Swap]:
    converter: markdown.Markdown | None = None
    directory_urls = _directory_urls(settings)
    for result in build.results:
        pairs = _regions(result, build.pages[result.page])
        if not pairs:
            continue
        converter = converter or site_markdown(settings)
        built = built_page(result.page, directory_urls=directory_urls)
        for committed, site in pairs:
            yield Swap(
                built,
                _marker_pattern(result.original[committed.start : committed.body_start].rstrip("\r\n")),
                _convert(converter, committed.body(result.original)),
                _convert(converter, site.body(build.pages[result.page])),
            )


def built_pages(settings: Settings, build: SiteBuild) -> list[str]:
    """The built file, site-relative, of every page that `docgen publish` adds to (a catalog's JSON beside
    it, or its changelog): what the built site must hold."""
    directory_urls = _directory_urls(settings)
    return sorted(
        {
            built_page(result.page, directory_urls=directory_urls)
            for result in build.results
            if result.catalogs or any(region.name == REGION for region in result.regions)
        }
    )


def _regions(result: PageResult, site_text: str) -> list[tuple[Region, Region]]:
    committed = [each for each in parse_regions(result.original, page=result.page) if each.name == REGION]
    site = [each for each in parse_regions(site_text, page=result.page) if each.name == REGION]
    return list(zip(committed, site, strict=True))


def built_page(page: str, *, directory_urls: bool) -> str:
    """Where an engine writes a page: `developers/mcp-errors.md` -> `developers/mcp-errors/index.html`
    (`developers/mcp-errors.html` without directory URLs); an `index.md` -> `index.html` in its folder."""
    stem = posixpath.splitext(page)[0]
    if posixpath.basename(stem) == "index" or not directory_urls:
        return f"{stem}.html"
    return f"{stem}/index.html"


def _directory_urls(settings: Settings) -> bool:
    config = settings.config
    value = config.data.get("use_directory_urls", True) if config is not None else True
    return value is not False


def _marker_pattern(marker: str) -> re.Pattern[str]:
    """The begin marker with whatever digest: the plugin's build writes the digest of the filled body."""
    without = re.sub(r" digest=[0-9a-f]+", "", marker)
    head, _, tail = without.rpartition(" -->")
    return re.compile(re.escape(head) + r"(?: digest=[0-9a-f]+)?" + re.escape(tail) + " -->")


def _convert(converter: markdown.Markdown, body: str) -> str:
    converter.reset()
    html: str = converter.convert(body)
    return html


def _swapped(settings: Settings, site: Path, swap: Swap, text: str) -> str:
    shown = f"{settings.relative(site)}/{swap.page}"
    begins = list(swap.marker.finditer(text))
    end = text.find(_END, begins[0].end()) if len(begins) == 1 else -1
    if end < 0:
        found = "twice" if len(begins) > 1 else "not"
        raise ConfigError(
            f"{shown}: the region '{REGION}' is {found} found in the built page, so its changelog cannot "
            "be filled in",
            hint=f"the engine dropped the markers (HTML comments), or built another page; {_REBUILD}",
        )
    start = begins[0].end()
    inside = text[start:end]
    if inside.count(swap.before) == 1:
        return text[:start] + inside.replace(swap.before, swap.after) + text[end:]
    if swap.after in inside:
        return text  # filled already: by the plugin, or by an earlier `docgen publish`
    raise ConfigError(
        f"{shown}: the region '{REGION}' holds neither the committed placeholder nor the changelog, so "
        "there is nothing to replace",
        hint=f"the built page is not the committed one, or the site's Markdown differs; {_REBUILD}",
    )


def _read(settings: Settings, site: Path, page: str) -> str:
    path = site / page
    shown = settings.relative(path)
    return read_text(path, shown, error=ConfigError, encoding="utf-8", newline="", within=settings.root)
