"""A page's Markdown as a reader of the site sees it, for MCP clients.

The committed files carry things only the site's tooling reads: YAML front matter (with
review fingerprints), the `<!-- docgen:begin … -->` / `<!-- docgen:end … -->` markers around
generated regions, `<a id=…></a>` anchors, `{#id}` attribute lists on headings, and the
`<div … markdown>` wrappers that style a table. A reader sees none of them; the page's title
is its first heading. Everything else (text, tables, links, code, tabs) is kept as written,
and nothing inside a fenced code block is touched.
"""

from __future__ import annotations

import re

FRONT_MATTER = re.compile(r"\A---[ \t]*\n(.*?)\n---[ \t]*(?:\n|\Z)", re.DOTALL)
_FENCE = re.compile(r"^\s*(```|~~~)")
_MARKER_LINE = re.compile(r"^\s*<!--\s*docgen:(?:begin|end)\b.*?-->\s*$")
_WRAPPER_LINE = re.compile(r"^\s*(?:<div\b[^>]*\bmarkdown\b[^>]*>|</div>)\s*$")
_ANCHOR = re.compile(r"<a\s+(?:id|name)=(?:\"[^\"]*\"|'[^']*'|[^\s>]+)\s*>\s*</a>")
_HEADING_ATTRIBUTES = re.compile(r"^(#{1,6}\s.*?)\s*\{[:#][^{}]*\}\s*$")
_TITLE_HEADING = re.compile(r"^#\s+\S")


def _clean_line(line: str) -> str | None:
    """The line as a reader sees it, or None when nothing of it is visible."""
    if _MARKER_LINE.match(line) or _WRAPPER_LINE.match(line):
        return None
    line = _ANCHOR.sub("", line)
    if heading := _HEADING_ATTRIBUTES.match(line):
        line = heading.group(1)
    return line


def _visible_lines(body: str) -> list[str | None]:
    """Each line as a reader sees it; None where a line has nothing visible and is dropped."""
    lines: list[str | None] = []
    fence: str | None = None
    for line in body.split("\n"):
        opening = _FENCE.match(line)
        if fence is not None:
            lines.append(line)
            if opening and opening.group(1) == fence:
                fence = None
            continue
        if opening:
            fence = opening.group(1)
            lines.append(line)
        else:
            lines.append(_clean_line(line))
    return lines


def _join_without_dropped(lines: list[str | None]) -> str:
    """Join the kept lines; a dropped line takes one of the blank lines around it along.

    Only blank lines next to a dropped line are merged, so the spacing of the page (and of
    its code) stays as written everywhere else.
    """
    kept: list[str] = []
    after_dropped = False
    for line in lines:
        if line is None:
            after_dropped = True
            continue
        blank = not line.strip()
        if blank and after_dropped and (not kept or not kept[-1].strip()):
            continue
        after_dropped = after_dropped and blank
        kept.append(line)
    return "\n".join(kept).strip("\n") + "\n"


def reader_text(raw: str, title: str) -> str:
    """The page without front matter or docgen's markup, starting with its title as a heading.

    Args:
        raw: The page file's text.
        title: The page's title (from front matter or its first heading).
    """
    body = FRONT_MATTER.sub("", raw, count=1)
    text = _join_without_dropped(_visible_lines(body))
    if not _TITLE_HEADING.match(text):
        text = f"# {title}\n\n{text}"
    return text
