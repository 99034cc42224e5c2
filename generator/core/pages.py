"""The pages of the site: reading them, their YAML front matter, and their titles."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from generator.core.errors import TemplateError
from generator.core.yamlio import load_yaml, read_text

_FRONT_MATTER = re.compile(r"\A---[ \t]*\r?\n(.*?)^---[ \t]*(?:\r?\n|\Z)", re.DOTALL | re.MULTILINE)


def split_front_matter(text: str, *, page: str) -> tuple[dict[str, Any], str]:
    """A page's YAML front matter (empty when it has none) and the text after it."""
    match = _FRONT_MATTER.match(text)
    if match is None:
        return {}, text
    try:
        meta = load_yaml(match.group(1), page, error=TemplateError).data or {}
    except TemplateError as err:
        # The block starts on the page's second line; YAML syntax errors get a hint of their own.
        syntax = err.message.startswith("invalid YAML: ")
        raise TemplateError(
            "front matter is not valid YAML: " + err.message.removeprefix("invalid YAML: ")
            if syntax
            else f"front matter: {err.message}",
            file=page,
            line=err.line + 1 if err.line else 1,
            hint="quote values that contain `: ` (a colon and a space)" if syntax else err.hint,
        ) from err
    if not isinstance(meta, dict):
        raise TemplateError("front matter must be a mapping of keys to values", file=page, line=2)
    return meta, text[match.end() :]


def read_pages(docs_dir: Path) -> dict[str, str]:
    """Every Markdown page under docs_dir: docs-relative POSIX path -> text (newlines as written)."""
    pages: dict[str, str] = {}
    for path in sorted(docs_dir.rglob("*.md")):
        page = path.relative_to(docs_dir).as_posix()
        pages[page] = read_text(path, f"{docs_dir.name}/{page}", error=TemplateError, newline="")
    return pages


def page_titles(pages: Mapping[str, str], *, docs: str = "") -> dict[str, str]:
    """Each page's title: its front matter `title`, else its first `# ` heading, else its file name.

    `docs` is the docs folder relative to the project root, which error messages put before page paths.
    """
    titles: dict[str, str] = {}
    for page, text in pages.items():
        meta, body = split_front_matter(text, page=f"{docs}/{page}" if docs else page)
        title = meta.get("title")
        if not title:
            heading = next((line[2:].strip() for line in body.splitlines() if line.startswith("# ")), None)
            title = heading or posixpath.splitext(posixpath.basename(page))[0]
        titles[page] = str(title)
    return titles
