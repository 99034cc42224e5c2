"""Internal links between pages, and the anchors they point at, must resolve."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator, Mapping

from docgen.core.findings import Finding, Kind

_LINK = re.compile(r"(?<!!)\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_INLINE_CODE = re.compile(r"`[^`\n]*`")
_HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*(?:\{[^}]*#([\w-]+)[^}]*\})?\s*#*\s*$")
_EXPLICIT_ID = re.compile(r"""(?:\bid=["']([^"']+)["']|\{[^}\n]*#([\w-]+)[^}\n]*\})""")


def slugify(title: str) -> str:
    """The anchor MkDocs' toc extension gives a heading (its default slugify)."""
    text = re.sub(r"<[^>]+>", "", title)
    text = re.sub(r"[`*_]", "", text)
    text = re.sub(r"[^\w\s-]", "", text).strip().lower()
    return re.sub(r"[-\s]+", "-", text)


def _lines(text: str) -> Iterator[tuple[int, str]]:
    fence: str | None = None
    for number, line in enumerate(text.splitlines(), start=1):
        # Each pattern below runs only on a line holding the text any match of it must hold: the same
        # answers, without running the patterns over every line of every page.
        match = _FENCE.match(line) if "``" in line or "~~" in line else None
        if match and (fence is None or match.group(1)[0] == fence[0]):
            fence = None if fence else match.group(1)
            continue
        if fence is None:
            yield number, line


def anchors(text: str) -> set[str]:
    """Every anchor a page defines: heading slugs (deduplicated as MkDocs does) and explicit ids."""
    found: set[str] = set()
    for _number, line in _lines(text):
        heading = _HEADING.match(line) if line.startswith("#") else None
        if heading:
            slug = heading.group(2) or slugify(heading.group(1))
            candidate, counter = slug, 1
            while candidate in found:
                candidate, counter = f"{slug}_{counter}", counter + 1
            found.add(candidate)
        if "id=" in line or ("{" in line and "#" in line):
            for match in _EXPLICIT_ID.finditer(line):
                found.add(match.group(1) or match.group(2))
    return found


def link_findings(pages: Mapping[str, str], *, display_root: str) -> Iterator[Finding]:
    """A finding for each relative link to a missing page, and each anchor missing from its page."""
    known_anchors = {page: anchors(text) for page, text in pages.items()}
    for page, text in sorted(pages.items()):
        shown = f"{display_root}/{page}"
        for number, line in _lines(text):
            if "](" not in line and "`" not in line:  # a link needs `](`, which only removing code can join
                continue
            for match in _LINK.finditer(_INLINE_CODE.sub("", line) if "`" in line else line):
                yield from _check(page, match.group(1), pages, known_anchors, shown, number)


def _check(
    page: str, target: str, pages: Mapping[str, str], known: Mapping[str, set[str]], shown: str, line: int
) -> Iterator[Finding]:
    if re.match(r"^[a-z][a-z0-9+.-]*:", target) or target.startswith("/"):
        return  # external URLs and absolute site paths are not checked here
    path, _, anchor = target.partition("#")
    if path and not path.endswith(".md"):
        return
    resolved = posixpath.normpath(posixpath.join(posixpath.dirname(page), path)) if path else page
    if resolved not in pages:
        yield Finding(
            Kind.LINK_BROKEN,
            shown,
            line,
            target,
            f"links to {resolved}, which does not exist",
            "fix the link, relative to this page",
        )
    elif anchor and anchor not in known[resolved]:
        yield Finding(
            Kind.ANCHOR_BROKEN,
            shown,
            line,
            target,
            f"{resolved} has no anchor #{anchor}",
            "link to an existing heading or row anchor",
        )
