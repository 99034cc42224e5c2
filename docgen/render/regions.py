"""Generated regions inside Markdown pages: find them, fingerprint them, splice new bodies in.

A region is the text between two visible HTML-comment markers, each on a line of its own:

    <!-- docgen:begin error-table catalog=mcp-errors edit-in=templates/error-table.md.j2 digest=3f2a9c1e -->
    ...generated Markdown...
    <!-- docgen:end error-table -->

The name after `begin` selects the template `<name>.md.j2` (the project's in `templates/`, else docgen's
own); `key=value` attributes are handed to that template. Two attributes are docgen's own, rewritten on
every render: `edit-in` names the files the text comes from (where an editor changes it), and `digest` is a
fingerprint of the body as docgen last wrote it, so a body that no longer matches its digest was edited by
hand. Everything outside the markers belongs to editors and is never changed, byte for byte. Markers inside
fenced code blocks are ignored, so a page can show the syntax. Nothing here touches files.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator, Sequence
from typing import Literal

from docgen.core.errors import TemplateError
from docgen.core.pages import MARKER_PREFIX
from docgen.core.records import record

RegionState = Literal["fresh", "stale", "hand-edited"]
"""fresh: the body is what render would write. stale: docgen wrote it, but the inputs changed since.
hand-edited: someone changed the body after docgen wrote it (it no longer matches its digest)."""

_NAME = r"[a-z][a-z0-9_-]*"
_BEGIN = re.compile(rf"<!-- docgen:begin (?P<name>{_NAME})(?P<attrs>(?: [a-z][a-z0-9_-]*=[^\s=]+)*) -->")
_END = re.compile(rf"<!-- docgen:end (?P<name>{_NAME}) -->")
_ATTR = re.compile(r" ([a-z][a-z0-9_-]*)=([^\s=]+)")
_FENCE_OPENER = r" {0,3}(?P<fence>`{3,}|~{3,})"
"""A fenced code block's opening or closing line starts so (its run of backticks or tildes is `fence`)."""
_FENCE = re.compile(rf"^{_FENCE_OPENER}")
_FENCE_OR_MARKER = re.compile(
    rf"^(?:{_FENCE_OPENER}|{re.escape(MARKER_PREFIX)})[^\n]*(?:\n|\Z)", re.MULTILINE
)
DIGEST_LENGTH = 8
DOCGEN_ATTRS = ("edit-in", "digest")
"""Marker attributes docgen writes itself; templates never see them."""
SYNTAX_HINT = (
    "markers look like `<!-- docgen:begin NAME key=value -->` and `<!-- docgen:end NAME -->`, each on a line"
)


@record
class Region:
    """One generated region of a page, located by character offsets into the page text."""

    name: str
    """The region name; it selects the template `<name>.md.j2`."""
    attrs: tuple[tuple[str, str], ...]
    """The marker's `key=value` attributes in written order, without docgen's own (`DOCGEN_ATTRS`)."""
    digest: str | None
    """The digest recorded in the begin marker, or None for a region docgen never filled."""
    edit_in: str | None
    """The marker's `edit-in` (comma-separated files the text comes from), or None."""
    line: int
    """1-based line of the begin marker."""
    end_line: int
    """1-based line of the end marker."""
    start: int
    """Offset of the begin marker's first character."""
    body_start: int
    """Offset just after the begin marker's line ending."""
    body_end: int
    """Offset of the end marker's first character."""
    newline: str
    """The begin marker's line ending (`\\n` or `\\r\\n`); generated bodies use the same."""

    def attr(self, key: str) -> str | None:
        """The value of attribute `key`, or None."""
        return dict(self.attrs).get(key)

    def body(self, text: str) -> str:
        """This region's current body in `text`, the page it was parsed from."""
        return text[self.body_start : self.body_end]


def digest_of(body: str) -> str:
    """The fingerprint of a region body, blind to CRLF versus LF line endings."""
    normalized = body.replace("\r\n", "\n").encode("utf-8")
    return hashlib.sha256(normalized).hexdigest()[:DIGEST_LENGTH]


def state_of(region: Region, actual: str, expected: str) -> RegionState:
    """Compare a region's current body with the body render would write now."""
    if _same(actual, expected):
        # Right body; the marker needs its digest only when it does not match.
        return "fresh" if region.digest == digest_of(expected) else "stale"
    if region.digest is None:
        # Markers an editor just added: empty asks to be filled; anything else is someone's text.
        return "stale" if not actual.strip() else "hand-edited"
    return "stale" if digest_of(actual) == region.digest else "hand-edited"


def _same(actual: str, expected: str) -> bool:
    return actual.replace("\r\n", "\n") == expected.replace("\r\n", "\n")


def begin_marker(
    name: str, attrs: Sequence[tuple[str, str]], digest: str, edit_in: Sequence[str] = ()
) -> str:
    """The text of a begin marker, without its line ending."""
    own = [("edit-in", ",".join(edit_in))] if edit_in else []
    written = "".join(f" {key}={value}" for key, value in [*attrs, *own, ("digest", digest)])
    return f"<!-- docgen:begin {name}{written} -->"


def parse_regions(text: str, *, page: str) -> list[Region]:
    """Every region of a page, in order.

    Raises:
        TemplateError: a marker is malformed, a region is never closed, an end marker has no begin,
            or regions are nested; the error names `page` and the marker's line.
    """
    regions: list[Region] = []
    open_: tuple[re.Match[str], int, int, str] | None = None
    for number, offset, line in _markers_outside_fences(text, page=page):
        content = line.rstrip("\r\n")
        begin, end = _BEGIN.fullmatch(content), _END.fullmatch(content)
        if begin is not None:
            if open_ is not None:
                raise _nested(page, number, begin["name"], open_)
            open_ = (begin, number, offset, line[len(content) :])
        elif end is not None:
            if open_ is None:
                raise TemplateError(
                    f"`{content}` closes a region that was never opened",
                    file=page,
                    line=number,
                    hint=f"add `<!-- docgen:begin {end['name']} -->` above the generated text, or delete it",
                )
            regions.append(_close(open_, end, number, offset, page))
            open_ = None
        else:
            raise TemplateError(
                f"malformed docgen marker `{content}`", file=page, line=number, hint=SYNTAX_HINT
            )
    if open_ is not None:
        name = open_[0]["name"]
        raise TemplateError(
            f"region {name!r} is never closed",
            file=page,
            line=open_[1],
            hint=f"add `<!-- docgen:end {name} -->` on its own line after the generated text",
        )
    return regions


def _nested(page: str, number: int, name: str, open_: tuple[re.Match[str], int, int, str]) -> TemplateError:
    outer = open_[0]["name"]
    return TemplateError(
        f"region {name!r} begins inside region {outer!r} (opened at line {open_[1]})",
        file=page,
        line=number,
        hint=f"close {outer!r} with `<!-- docgen:end {outer} -->` first; regions cannot nest",
    )


def _close(
    open_: tuple[re.Match[str], int, int, str], end: re.Match[str], number: int, offset: int, page: str
) -> Region:
    begin, begin_line, begin_offset, newline = open_
    if end["name"] != begin["name"]:
        raise TemplateError(
            f"`<!-- docgen:end {end['name']} -->` closes region {begin['name']!r} (opened line {begin_line})",
            file=page,
            line=number,
            hint=f"the end marker must repeat the region name: `<!-- docgen:end {begin['name']} -->`",
        )
    attrs = _ATTR.findall(begin["attrs"])
    keys = [key for key, _ in attrs]
    duplicate = next((key for key in keys if keys.count(key) > 1), None)
    if duplicate is not None:
        raise TemplateError(
            f"attribute {duplicate!r} given twice", file=page, line=begin_line, hint=SYNTAX_HINT
        )
    return Region(
        name=begin["name"],
        attrs=tuple((key, value) for key, value in attrs if key not in DOCGEN_ATTRS),
        digest=dict(attrs).get("digest"),
        edit_in=dict(attrs).get("edit-in"),
        line=begin_line,
        end_line=number,
        start=begin_offset,
        body_start=begin_offset + len(begin.group(0)) + len(newline),
        body_end=offset,
        newline=newline or "\n",
    )


def _markers_outside_fences(text: str, *, page: str) -> Iterator[tuple[int, int, str]]:
    """(1-based number, offset, line with its ending) for each line that starts like a docgen marker and is
    not inside a fenced code block.

    Only fence lines and marker lines are looked at (one regular expression finds them); the lines between
    are counted, not read. A fence never closed runs to the end of the page (as Markdown reads it), so
    markers below it would be read as code: a hand edit inside their region would go unseen by check and by
    `mkdocs build --strict`. Such a fence is an error when it hides a marker.
    """
    fence: str | None = None
    opened = hidden = 0
    number, counted = 1, 0
    for match in _FENCE_OR_MARKER.finditer(text):
        number += text.count("\n", counted, match.start())
        counted = match.start()
        line, opener = match.group(0), match.group("fence")
        if fence is None and opener is not None:
            fence, opened, hidden = opener, number, 0
        elif fence is not None:
            if opener is not None and opener[0] == fence[0] and len(opener) >= len(fence):
                fence = None
            elif opener is None and not hidden:
                hidden = number
        elif opener is None:
            yield number, match.start(), line
    if fence is not None and hidden:
        raise TemplateError(
            f"the code fence opened at line {opened} is never closed, so the docgen marker at line {hidden} "
            "is read as code and its region is not checked",
            file=page,
            line=opened,
            hint=f"close the code block with a line of {fence} before the marker",
        )


def check_body(body: str, region: Region, *, page: str) -> None:
    """Refuse a body that would change where regions begin and end once written: a line that is a docgen
    marker, or a code fence left open (which would hide the end marker). The page could not be read back.
    """
    fence: str | None = None
    for number, line in enumerate(body.splitlines(), start=1):
        opener = _FENCE.match(line)
        if fence is None and opener is not None:
            fence = opener.group(1)
        elif fence is not None and opener is not None and opener.group(1)[0] == fence[0]:
            fence = None if len(opener.group(1)) >= len(fence) else fence
        elif fence is None and line.startswith(MARKER_PREFIX):
            raise _unreadable(region, page, f"its line {number} would be a docgen marker (`{line[:60]}`)")
    if fence is not None:
        raise _unreadable(region, page, f"it leaves a code fence ({fence}) open")


def _unreadable(region: Region, page: str, reason: str) -> TemplateError:
    return TemplateError(
        f"the text rendered for region {region.name!r} cannot be written: {reason}, and the page could "
        "not be read back; it is left as it is",
        file=page,
        line=region.line,
        hint="the text comes from the notes or the template: take the marker out, or close the fence",
    )


def splice(
    text: str,
    regions: Sequence[Region],
    bodies: Sequence[str | None],
    edit_in: Sequence[Sequence[str]] | None = None,
) -> str:
    """`text` with each region's body replaced and its marker's `edit-in` (one list of files per region)
    and digest updated; a None body keeps that region as is.

    Bodies are written with the region's own line ending; every byte outside the regions is kept.
    """
    parts: list[str] = []
    cursor = 0
    sources = edit_in if edit_in is not None else [()] * len(regions)
    for region, body, files in zip(regions, bodies, sources, strict=True):
        if body is None:
            continue
        written = body.replace("\r\n", "\n").replace("\n", region.newline)
        parts.append(text[cursor : region.start])
        parts.append(begin_marker(region.name, region.attrs, digest_of(written), files) + region.newline)
        parts.append(written)
        cursor = region.body_end
    parts.append(text[cursor:])
    return "".join(parts)
