"""Each published error's public URL: the canonical address of the page whose error table holds its row,
and the row's anchor (`https://site/developers/mcp-errors/#err-parse-error`).

The page is found by the anchor itself, in the regions the site rendered, so a catalog drawn on by several
pages links every entry to the one page that shows its row, and the JSON beside each of those pages gives
the same URLs. The committed catalog in `data/` holds no URL: it does not know which page shows it, and the
URL follows from the id it holds.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from docgen.core.links import ANCHOR_PREFIX, entry_url
from docgen.render.context import page_url
from docgen.render.renderer import PageResult

_ROW_ANCHOR = re.compile(rf'<a id="{ANCHOR_PREFIX}([^"]+)"></a>')


def anchor_pages(results: Iterable[PageResult]) -> dict[str, str]:
    """Entry id -> the page (relative to docs_dir) whose regions hold its row's anchor; of two pages, the
    first in name order, so the choice does not depend on the order MkDocs reads them in."""
    found: dict[str, str] = {}
    for result in sorted(results, key=lambda result: result.page):
        for region in result.regions:
            for entry_id in _ROW_ANCHOR.findall(region.expected):
                found.setdefault(entry_id, result.page)
    return found


def with_urls(data: Mapping[str, Any], site_url: str | None, pages: Mapping[str, str]) -> dict[str, Any]:
    """A published errors catalog with each entry's `url` added after its `id`, where the site has a
    `site_url` and some page shows the entry's row; other catalogs, and other entries, as they are."""
    if not site_url or data.get("kind") != "errors":
        return dict(data)
    root = site_url.rstrip("/")
    entries = []
    for entry in data.get("entries", []):
        page = pages.get(entry["id"])
        if page is None:
            entries.append(entry)
            continue
        url = entry_url(f"{root}/{page_url(page)}", entry["id"])
        entries.append({"id": entry["id"], "url": url, **{k: v for k, v in entry.items() if k != "id"}})
    return {**data, "entries": entries}
