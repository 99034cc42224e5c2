"""The errors' changelog in Zensical's search index, for `docgen publish` (see docgen/shell/site_html.py).

Zensical writes `search.json` at the site's root: `{"config": ..., "items": [...]}`, one item per section of
a page, whose `location` is the page's URL and the section's anchor and whose `text` is the section's HTML
reduced to text, paragraphs, lists and code (a table's cells become its words, separated by spaces). The
changelog region's section holds the placeholder's text there; it is replaced by the changelog's, reduced
the same way. A site without that file (search turned off, or built by MkDocs, whose index is elsewhere and
already holds the changelog) is left as it is. An index that holds neither text on the page is a located
error, as a page is.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from docgen.core.errors import ConfigError
from docgen.core.reader import read_text
from docgen.core.settings import Settings


@dataclass(frozen=True)
class Swap:
    """One changelog region of a built page: the HTML the engine made of it, and the HTML that replaces it."""

    page: str
    """The built page, site-relative."""
    marker: re.Pattern[str]
    """The region's begin marker as the HTML holds it (its digest may differ: the plugin writes a new one)."""
    before: str
    after: str


INDEX = "search.json"
"""Zensical's search index, relative to the site's root."""

_KEPT = frozenset({"p", "code", "pre", "ul", "ol", "li"})
"""The tags the index keeps (bare); every other tag is dropped, its text kept."""

_BLOCKS = frozenset(
    {"div", "table", "thead", "tbody", "tr", "th", "td", "blockquote", "h1", "h2", "h3", "h4", "h5", "h6"}
)
"""Dropped tags whose text stands apart from its neighbours'."""


class _Reducer(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=False)
        self.parts: list[str] = []
        self.preformatted = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._tag(tag, f"<{tag}>")

    def handle_endtag(self, tag: str) -> None:
        self._tag(tag, f"</{tag}>")

    def _tag(self, tag: str, text: str) -> None:
        if tag == "pre":
            self.preformatted += 1 if not text.startswith("</") else -1
        if tag in _KEPT:
            self.parts.append(text)
        elif tag in _BLOCKS:
            self.parts.append(" ")

    def handle_data(self, data: str) -> None:
        self.parts.append(data if self.preformatted else re.sub(r"\s+", " ", data))

    def handle_entityref(self, name: str) -> None:
        self.parts.append(f"&{name};")

    def handle_charref(self, name: str) -> None:
        self.parts.append(f"&#{name};")


def search_text(html: str) -> str:
    """`html` as Zensical's search index holds it."""
    reducer = _Reducer()
    reducer.feed(html)
    reducer.close()
    text = "".join(reducer.parts)
    pieces = re.split(r"(<pre>.*?</pre>)", text, flags=re.DOTALL)
    return "".join(
        piece if piece.startswith("<pre>") else re.sub(r" {2,}", " ", piece) for piece in pieces
    ).strip()


def fill_search_index(settings: Settings, site: Path, swaps: Iterable[Swap]) -> dict[str, str]:
    """`{INDEX: new text}` with each swapped region's text replaced on its page; nothing without an index."""
    path = site / INDEX
    if not path.is_file():
        return {}
    shown = settings.relative(path)
    text = read_text(path, shown, error=ConfigError, within=settings.root)
    try:
        index = json.loads(text)
        items: list[dict[str, Any]] = index["items"]
    except (ValueError, KeyError, TypeError) as err:
        raise ConfigError(
            f"{shown}: not a Zensical search index ({err})",
            hint="build the site again (`zensical build`), then run `docgen publish`",
        ) from err
    for swap in swaps:
        _replace(shown, items, swap)
    filled = json.dumps(index, ensure_ascii=False, separators=(",", ":"))
    return {INDEX: filled} if filled != text else {}


def _replace(shown: str, items: list[dict[str, Any]], swap: Swap) -> None:
    url = swap.page.removesuffix("index.html")
    before, after = search_text(swap.before), search_text(swap.after)
    on_page = [
        item
        for item in items
        if isinstance(item, dict)
        and isinstance(item.get("text"), str)
        and str(item.get("location", "")).split("#", 1)[0] == url
    ]
    holding = [item for item in on_page if before in item["text"]]
    if len(holding) == 1:
        holding[0]["text"] = holding[0]["text"].replace(before, after, 1)
    elif not any(after in item["text"] for item in on_page):
        raise ConfigError(
            f"{shown}: no section of {url or 'the home page'} holds the text of the region to fill in "
            f"({before[:60]}...)",
            hint="build the site again from the committed pages (`zensical build`), then `docgen publish`",
        )
