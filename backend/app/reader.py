"""A page's Markdown as a reader of the site sees it, for MCP clients.

The committed files carry things only the site's tooling reads: YAML front matter (with
review fingerprints), the `<!-- docgen:begin … -->` / `<!-- docgen:end … -->` markers around
generated regions, `<a id=…></a>` anchors, `{#id}` attribute lists on headings, and the
`<div … markdown>` wrappers that style a table. A reader sees none of them; the page's title
is its first heading. What the site draws from MkDocs' own syntax is written out the way a
reader meets it: a tab (`=== "curl"`) or a collapsible block (`??? example "…"`) becomes its
label in bold followed by its content, every tab shown in turn, a code block's attribute list
keeps only its language (its title, if any, becomes a bold label above it), and a link relative to the page
becomes an absolute one on the canonical site, since a client has no page to resolve it from.
Everything else (text, tables, code) is kept as written, and nothing inside a fenced code block
is touched beyond taking away the indentation of the tab or block it sat in.
"""

from __future__ import annotations

import posixpath
import re

FRONT_MATTER = re.compile(r"\A---[ \t]*\n(.*?)\n---[ \t]*(?:\n|\Z)", re.DOTALL)
_FENCE = re.compile(r"^\s*(```|~~~)")
_MARKER_LINE = re.compile(r"^\s*<!--\s*docgen:(?:begin|end)\b.*?-->\s*$")
_WRAPPER_LINE = re.compile(r"^\s*(?:<div\b[^>]*\bmarkdown\b[^>]*>|</div>)\s*$")
_ANCHOR = re.compile(r"<a\s+(?:id|name)=(?:\"[^\"]*\"|'[^']*'|[^\s>]+)\s*>\s*</a>")
_HEADING_ATTRIBUTES = re.compile(r"^(#{1,6}\s.*?)\s*\{[:#][^{}]*\}\s*$")
_TITLE_HEADING = re.compile(r"^#\s+\S")
# A tab, or an admonition folded (`???`, `???+`) or not (`!!!`), with its kind and title.
_BLOCK = re.compile(r'^(\s*)(?:===|\?\?\?\+?|!!!)[ \t]*([\w-]+)?[ \t]*(?:"([^"]*)")?[ \t]*$')
_BLOCK_INDENT = 4
# A fence opening with an attribute list (`` ``` { .http .docgen-response title="…" } ``): the site's styling.
_FENCE_ATTRIBUTES = re.compile(r"^(\s*)(```|~~~)[ \t]*\{[ \t]*\.([\w-]+)([^}]*)\}[ \t]*$")
_TITLE_ATTRIBUTE = re.compile(r'\btitle="([^"]*)"')
# An inline link's target: relative ones are made absolute (an image, `![…](…)`, alike).
_LINK = re.compile(r"(\]\()([^()\s]+)(\))")
_SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


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


def _absolute_links(lines: list[str | None], source: str, site_url: str) -> list[str | None]:
    """The lines with every link outside code made absolute on the canonical site."""
    done: list[str | None] = []
    fence: str | None = None
    for line in lines:
        if line is not None and (opening := _FENCE.match(line)):
            fence = None if fence == opening.group(1) else (fence or opening.group(1))
        elif line is not None and fence is None:
            absolute = _LINK.sub(
                lambda m: m.group(1) + _absolute_target(m.group(2), source, site_url) + m.group(3), line
            )
            done.append(absolute)
            continue
        done.append(line)
    return done


def _dedent(line: str, width: int) -> str:
    """The line without up to `width` spaces of indentation."""
    return line[min(width, len(line) - len(line.lstrip(" "))) :]


def _flatten_blocks(lines: list[str]) -> list[str]:
    """Tabs and admonitions written out: each one's label in bold, then its content, dedented.

    A block's content is the lines indented past its opening line; the first non-blank line at
    or left of that indentation closes it. Inside a fenced code block nothing opens or closes a
    block, but the code is dedented with the block around it.
    """
    flat: list[str] = []
    opened: list[int] = []  # the indentation of each block still open, innermost last
    fence: str | None = None
    for written in lines:
        indent = len(written) - len(written.lstrip(" "))
        if fence is None and written.strip():
            while opened and indent <= opened[-1]:
                opened.pop()
        line = _dedent(written, _BLOCK_INDENT * len(opened))
        block = _BLOCK.match(line) if fence is None else None
        if block is not None:
            label = block.group(3) if block.group(3) is not None else (block.group(2) or "").capitalize()
            flat.append(f"{block.group(1)}**{label}**" if label else "")
            opened.append(indent)
            continue
        if opening := _FENCE.match(line):
            fence = None if fence == opening.group(1) else (fence or opening.group(1))
            flat.extend(_plain_fence(line))
            continue
        flat.append(line)
    return flat


def _plain_fence(line: str) -> list[str]:
    """A fence's opening line with its attribute list reduced to the language, its title as a label above."""
    styled = _FENCE_ATTRIBUTES.match(line)
    if styled is None:
        return [line]
    indent, fence, language, rest = styled.groups()
    title = titled.group(1) if (titled := _TITLE_ATTRIBUTE.search(rest)) else None
    opening = f"{indent}{fence}{language}"
    return [f"{indent}**{title}**", "", opening] if title else [opening]


def _absolute_target(target: str, source: str, site_url: str) -> str:
    """A link target as an address on the canonical site, resolved as MkDocs resolves it.

    Args:
        target: The target as written on the page.
        source: The page's file, relative to the docs folder (`developers/mcp-errors.md`).
        site_url: The canonical site's address, ending in a slash.
    """
    if _SCHEME.match(target) or target.startswith("/"):
        return target
    path, _, anchor = target.partition("#")
    if not path:
        path = posixpath.basename(source)
    resolved = posixpath.normpath(posixpath.join(posixpath.dirname(source), path))
    if resolved.endswith(".md"):
        folder, _, stem = resolved.removesuffix(".md").rpartition("/")
        resolved = f"{folder}/" if stem == "index" else f"{folder}/{stem}/".lstrip("/")
        resolved = "" if resolved == "/" else resolved
    return site_url + resolved + (f"#{anchor}" if anchor else "")


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


def reader_text(raw: str, title: str, source: str = "index.md", site_url: str = "") -> str:
    """The page without front matter or docgen's markup, starting with its title as a heading.

    Args:
        raw: The page file's text.
        title: The page's title (from front matter or its first heading).
        source: The page's file, relative to the docs folder: relative links are resolved from it.
        site_url: The canonical site's address, ending in a slash; empty keeps links as written.
    """
    body = FRONT_MATTER.sub("", raw, count=1)
    lines = _visible_lines("\n".join(_flatten_blocks(body.split("\n"))))
    if site_url:
        lines = _absolute_links(lines, source, site_url)
    text = _join_without_dropped(lines)
    if not _TITLE_HEADING.match(text):
        text = f"# {title}\n\n{text}"
    return text
