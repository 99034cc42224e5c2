"""Pages: the front matter with the line of each key, the text after it, and each page's title."""

from __future__ import annotations

import pytest

from docgen.core.errors import TemplateError
from docgen.core.pages import front_matter, page_fronts, page_titles, split_front_matter

PAGE = "---\ntitle: Errors\ncatalog: mcp-errors\nbased_on:\n  - file: app.py\n---\n# Heading\n\nBody.\n"


def test_front_matter_knows_the_page_line_of_each_key() -> None:
    front = front_matter(PAGE, page="docs/p.md")
    assert front.meta == {"title": "Errors", "catalog": "mcp-errors", "based_on": [{"file": "app.py"}]}
    assert (front.line("title"), front.line("catalog"), front.line("based_on")) == (2, 3, 4)
    assert front.line("last_verified") is None
    assert PAGE[front.body_start :] == "# Heading\n\nBody.\n"


def test_a_page_without_front_matter_has_none() -> None:
    front = front_matter("# Only a heading\n", page="p.md")
    assert (front.meta, front.document, front.line("title"), front.body_start) == ({}, None, None, 0)
    assert split_front_matter("# Only a heading\n", page="p.md") == ({}, "# Only a heading\n")


def test_titles_come_from_front_matter_then_heading_then_file_name() -> None:
    pages = {"a.md": PAGE, "guide/b.md": "# From the heading\n", "c.md": "no heading\n"}
    fronts = page_fronts(pages)
    assert page_titles(pages, fronts) == {"a.md": "Errors", "guide/b.md": "From the heading", "c.md": "c"}


def test_each_page_front_matter_error_names_the_page_under_the_docs_folder() -> None:
    assert page_fronts({"a.md": PAGE}, docs="docs")["a.md"].line("catalog") == 3
    with pytest.raises(TemplateError, match="front matter is not valid YAML") as caught:
        page_fronts({"a.md": PAGE, "guide/b.md": "---\ntitle: [unclosed\n---\n"}, docs="docs")
    assert caught.value.location.startswith("docs/guide/b.md:")
