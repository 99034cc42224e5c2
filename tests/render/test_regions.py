"""Region markers: parsing, fingerprints, states, splicing, and located errors for malformed markers."""

from __future__ import annotations

import pytest

from docgen.core.errors import TemplateError
from docgen.render.regions import (
    Region,
    begin_marker,
    check_body,
    digest_of,
    parse_regions,
    splice,
    state_of,
)

PAGE = """# Title

<!-- docgen:begin error-table catalog=mcp-errors digest=3f2a9c1e -->
body line
<!-- docgen:end error-table -->

```markdown
<!-- docgen:begin not-a-region -->
```

<!-- docgen:begin related -->
<!-- docgen:end related -->
"""


def test_regions_are_found_with_lines_attributes_and_bodies() -> None:
    first, second = parse_regions(PAGE, page="p.md")
    assert (first.name, first.line, first.end_line, first.digest) == ("error-table", 3, 5, "3f2a9c1e")
    assert first.attrs == (("catalog", "mcp-errors"),)
    assert first.attr("catalog") == "mcp-errors" and first.attr("missing") is None
    assert first.body(PAGE) == "body line\n"
    assert (second.name, second.line, second.digest, second.body(PAGE)) == ("related", 11, None, "")


def test_markers_inside_fenced_code_are_ignored() -> None:
    text = "~~~\n<!-- docgen:end stray -->\n~~~\n````\n```\n<!-- docgen:begin x -->\n```\n````\n"
    assert parse_regions(text, page="p.md") == []


def test_lines_are_counted_past_prose_fences_and_an_unterminated_last_line() -> None:
    prose = "".join(f"line {n} with ``` inside and <!-- docgen:begin no --> later\n" for n in range(40))
    fenced = "   ```python\n<!-- docgen:begin hidden -->\n    ```\nstill code\n```\n"
    region_lines = "<!-- docgen:begin x -->\nbody\n<!-- docgen:end x -->"
    text = prose + fenced + " <!-- docgen:begin indented -->\n" + region_lines
    [region] = parse_regions(text, page="p.md")
    assert (region.name, region.line, region.end_line) == ("x", 47, 49)
    assert region.body(text) == "body\n" and text[region.body_end :] == "<!-- docgen:end x -->"


def test_crlf_markers_keep_their_line_ending() -> None:
    [region] = parse_regions("a\r\n<!-- docgen:begin x -->\r\nold\r\n<!-- docgen:end x -->\r\n", page="p.md")
    assert region.newline == "\r\n"
    assert region.body("a\r\n<!-- docgen:begin x -->\r\nold\r\n<!-- docgen:end x -->\r\n") == "old\r\n"


@pytest.mark.parametrize(
    ("text", "line", "fragment"),
    [
        ("x\n<!-- docgen:begin table -->\nbody\n", 2, "never closed"),
        ("x\n\n<!-- docgen:end table -->\n", 3, "never opened"),
        ("<!-- docgen:begin a -->\n<!-- docgen:end b -->\n", 2, "closes region 'a'"),
        ("<!-- docgen:begin a -->\n<!-- docgen:begin b -->\n", 2, "inside region 'a'"),
        ("<!-- docgen:begin Table -->\n<!-- docgen:end Table -->\n", 1, "malformed"),
        ("ok\n<!-- docgen:begin a catalog = x -->\n<!-- docgen:end a -->\n", 2, "malformed"),
        ("<!-- docgen:begin a x=1 x=2 -->\n<!-- docgen:end a -->\n", 1, "given twice"),
        ("<!-- docgen:begin a-->\n<!-- docgen:end a -->\n", 1, "malformed"),
    ],
)
def test_malformed_markers_raise_with_page_and_line(text: str, line: int, fragment: str) -> None:
    with pytest.raises(TemplateError) as caught:
        parse_regions(text, page="docs/p.md")
    assert caught.value.location == f"docs/p.md:{line}"
    assert fragment in caught.value.message
    assert caught.value.hint


def test_digest_ignores_line_endings_only() -> None:
    assert digest_of("a\nb\n") == digest_of("a\r\nb\r\n")
    assert digest_of("a\nb\n") != digest_of("a\nb \n")
    assert len(digest_of("")) == 8


def region_with(body: str, digest: str | None) -> tuple[str, Region]:
    marker = begin_marker("t", (), digest) if digest else "<!-- docgen:begin t -->"
    text = f"{marker}\n{body}<!-- docgen:end t -->\n"
    return text, parse_regions(text, page="p.md")[0]


@pytest.mark.parametrize(
    ("body", "digest_from", "expected", "state"),
    [
        ("new\n", "new\n", "new\n", "fresh"),
        ("old\n", "old\n", "new\n", "stale"),
        ("edited\n", "old\n", "new\n", "hand-edited"),
        ("new\n", "old\n", "new\n", "stale"),  # right body, wrong digest: only the marker changes
        ("", None, "new\n", "stale"),  # markers an editor just added
        ("  \n", None, "new\n", "stale"),
        ("someone's text\n", None, "new\n", "hand-edited"),
    ],
)
def test_states(body: str, digest_from: str | None, expected: str, state: str) -> None:
    text, region = region_with(body, digest_of(digest_from) if digest_from is not None else None)
    assert state_of(region, region.body(text), expected) == state


def test_splice_changes_only_the_region_and_its_digest() -> None:
    regions = parse_regions(PAGE, page="p.md")
    result = splice(PAGE, regions, ["new body\n", None])
    assert result == PAGE.replace("body line\n", "new body\n").replace("3f2a9c1e", digest_of("new body\n"))


def test_splice_writes_the_region_line_ending() -> None:
    text = "a\r\n<!-- docgen:begin x k=v -->\r\n<!-- docgen:end x -->\r\nz"
    result = splice(text, parse_regions(text, page="p.md"), ["one\ntwo\n"])
    digest = digest_of("one\ntwo\n")
    assert (
        result
        == f"a\r\n<!-- docgen:begin x k=v digest={digest} -->\r\none\r\ntwo\r\n<!-- docgen:end x -->\r\nz"
    )


def test_an_unclosed_fence_that_hides_a_marker_is_an_error() -> None:
    text = "# T\n\n```\nsome code\n<!-- docgen:begin x -->\nedited\n<!-- docgen:end x -->\n"
    with pytest.raises(TemplateError, match="never closed, so the docgen marker at line 5") as caught:
        parse_regions(text, page="docs/p.md")
    assert caught.value.location == "docs/p.md:3"
    assert parse_regions("# T\n\n```\nno marker below\n", page="p.md") == []  # Markdown's own business


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        ("a\n<!-- docgen:end t -->\n", "line 2 would be a docgen marker"),
        ("<!-- docgen:begin u -->\n", "line 1 would be a docgen marker"),
        ("```\ncode\n", "leaves a code fence (```) open"),
        ("~~~~\n~~~\n", "leaves a code fence (~~~~) open"),
    ],
)
def test_a_body_that_would_not_read_back_is_refused(body: str, reason: str) -> None:
    _text, region = region_with("", None)
    with pytest.raises(TemplateError, match="cannot be written") as caught:
        check_body(body, region, page="docs/p.md")
    assert reason in caught.value.message
    assert caught.value.location == "docs/p.md:1"


def test_a_body_may_show_markers_inside_a_closed_fence() -> None:
    _text, region = region_with("", None)
    check_body("```markdown\n<!-- docgen:begin x -->\n```\n", region, page="p.md")
