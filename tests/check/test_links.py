"""Links and anchors between pages: the prefilters in front of the patterns change no answer."""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from docgen.check import links
from docgen.check.links import anchors, link_findings, slugify

PAGES = {
    "index.md": "\n".join(
        [
            "# Welcome {: #home }",
            "## Errors",
            "## Errors",
            "<a id=\"row-1\"></a> and <span id='row-2'>",
            "Attributes { .note #aside } on a paragraph",
            "[good](guide.md#setup) and [gone](missing.md) and ![image](nowhere.md)",
            "[joined by code]`code`(missing-too.md)",
            "`[inside code](ignored.md)` is not a link",
            "[bad anchor](guide.md#nowhere) [own anchor](#errors_1) [own missing](#absent)",
            "   ```python",
            "[in a fence](fenced.md)",
            "# not a heading inside the fence",
            "   ```",
            "~~~",
            "[in a tilde fence](tilde.md)",
            "~~~",
            '[titled](guide.md "Title") and [external](https://example.com/x.md) [site](/abs.md)',
            "#no-space is not a heading",
        ]
    ),
    "guide.md": "# Guide\n## Set-up {#setup}\nSee [home](index.md#home) and [row](index.md#row-2).\n",
}


def _every_line(text: str) -> Iterator[tuple[int, str]]:
    """The lines outside fences, found by running the fence pattern over every line (no prefilter)."""
    fence: str | None = None
    for number, line in enumerate(text.splitlines(), start=1):
        match = links._FENCE.match(line)
        if match and (fence is None or match.group(1)[0] == fence[0]):
            fence = None if fence else match.group(1)
            continue
        if fence is None:
            yield number, line


def _anchors_unfiltered(text: str) -> set[str]:
    found: set[str] = set()
    for _number, line in _every_line(text):
        heading = links._HEADING.match(line)
        if heading:
            slug = heading.group(2) or slugify(heading.group(1))
            candidate, counter = slug, 1
            while candidate in found:
                candidate, counter = f"{slug}_{counter}", counter + 1
            found.add(candidate)
        for match in links._EXPLICIT_ID.finditer(line):
            found.add(match.group(1) or match.group(2))
    return found


def _targets_unfiltered(pages: Mapping[str, str]) -> list[tuple[str, int, str]]:
    return [
        (page, number, match.group(1))
        for page, text in sorted(pages.items())
        for number, line in _every_line(text)
        for match in links._LINK.finditer(links._INLINE_CODE.sub("", line))
    ]


def test_anchors_are_those_the_patterns_find_on_every_line() -> None:
    for text in PAGES.values():
        assert anchors(text) == _anchors_unfiltered(text)
    assert anchors(PAGES["index.md"]) == {"home", "errors", "errors_1", "row-1", "row-2", "aside"}


def test_every_link_the_patterns_find_on_every_line_is_checked() -> None:
    found = list(link_findings(PAGES, display_root="docs"))
    assert [(f.file, f.line, f.subject) for f in found] == [
        ("docs/index.md", 6, "missing.md"),
        ("docs/index.md", 7, "missing-too.md"),
        ("docs/index.md", 9, "guide.md#nowhere"),
        ("docs/index.md", 9, "#absent"),
    ]
    known = {page: _anchors_unfiltered(text) for page, text in PAGES.items()}
    unfiltered = [
        finding
        for page, number, target in _targets_unfiltered(PAGES)
        for finding in links._check(page, target, PAGES, known, f"docs/{page}", number)
    ]
    assert found == unfiltered
