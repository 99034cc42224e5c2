"""The pages of the site: reading them, their YAML front matter, and their titles."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from generator.core.errors import TemplateError
from generator.core.yamlio import LoadedYaml, read_text, safe_load

_FRONT_MATTER = re.compile(r"\A---[ \t]*\r?\n(.*?)^---[ \t]*(?:\r?\n|\Z)", re.DOTALL | re.MULTILINE)


@dataclass(frozen=True)
class FrontMatter:
    """A page's front matter: its keys and values, and the line each key is written on."""

    meta: Mapping[str, Any]
    document: LoadedYaml | None = None
    """The YAML between the `---` lines, for lines; None when the page has no front matter."""

    def line(self, key: str) -> int | None:
        """The page line of a top-level key (the YAML starts on the page's second line)."""
        if self.document is None:
            return None
        found = self.document.line((key,))
        return found + 1 if found is not None else None


def front_matter(text: str, *, page: str) -> FrontMatter:
    """A page's front matter with its lines."""
    match = _FRONT_MATTER.match(text)
    meta = split_front_matter(text, page=page)[0]
    return FrontMatter(meta, LoadedYaml(meta, page, match.group(1)) if match else None)


def split_front_matter(text: str, *, page: str) -> tuple[dict[str, Any], str]:
    """A page's YAML front matter (empty when it has none) and the text after it."""
    match = _FRONT_MATTER.match(text)
    if match is None:
        return {}, text
    try:
        meta = safe_load(match.group(1)) or {}
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        line = mark.line + 2 if mark is not None else 1
        problem = getattr(err, "problem", None) or str(err)
        raise TemplateError(
            f"front matter is not valid YAML: {problem}",
            file=page,
            line=line,
            hint="quote values that contain `: ` (a colon and a space)",
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


def page_titles(pages: Mapping[str, str]) -> dict[str, str]:
    """Each page's title: its front matter `title`, else its first `# ` heading, else its file name."""
    titles: dict[str, str] = {}
    for page, text in pages.items():
        meta, body = split_front_matter(text, page=page)
        title = meta.get("title")
        if not title:
            heading = next((line[2:].strip() for line in body.splitlines() if line.startswith("# ")), None)
            title = heading or posixpath.splitext(posixpath.basename(page))[0]
        titles[page] = str(title)
    return titles
