"""The pages of the site: reading them, their YAML front matter, and their titles."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from docgen.core.errors import TemplateError
from docgen.core.reader import read_text
from docgen.core.records import record
from docgen.core.yamlio import LoadedYaml, load_yaml

MARKER_PREFIX = "<!-- docgen:"
"""How every generated-region marker line starts (docgen/render/regions.py parses them)."""


def holds_marker(text: str) -> bool:
    """Whether a line of `text` starts like a region marker: text that ends up in a page must not, or the
    page would not read back."""
    return any(line.lstrip().startswith(MARKER_PREFIX) for line in text.splitlines())


_FRONT_MATTER = re.compile(r"\A---[ \t]*\r?\n(.*?)^---[ \t]*(?:\r?\n|\Z)", re.DOTALL | re.MULTILINE)


@record
class FrontMatter:
    """A page's front matter: its keys and values, and the line each key is written on."""

    meta: dict[str, Any]
    document: LoadedYaml | None = None
    """The YAML between the `---` lines, for lines; None when the page has no front matter."""
    body_start: int = 0
    """Where the text after the front matter starts."""

    def line(self, *path: str | int) -> int | None:
        """The page line of a key or item (`"based_on", 0, "file"`); the YAML starts on the page's second
        line."""
        if self.document is None:
            return None
        found = self.document.line(path)
        return found + 1 if found is not None else None


def split_front_matter(text: str, *, page: str) -> tuple[dict[str, Any], str]:
    """A page's YAML front matter (empty when it has none) and the text after it."""
    front = front_matter(text, page=page)
    return front.meta, text[front.body_start :]


def front_matter(text: str, *, page: str) -> FrontMatter:
    """A page's front matter, checked where docgen reads it, with its lines."""
    match = _FRONT_MATTER.match(text)
    if match is None:
        return FrontMatter({})
    try:
        loaded = load_yaml(match.group(1), page, error=TemplateError)
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
    meta = loaded.data or {}
    if not isinstance(meta, dict):
        raise TemplateError("front matter must be a mapping of keys to values", file=page, line=2)
    _FrontMatter(loaded, page).check(meta)
    return FrontMatter(meta, loaded, match.end())


_CITATION_HINT = (
    "cite a file as `- file: PATH` with `symbols: [name, ...]`, a specification as `title` and `url`"
)


class _FrontMatter:
    """The keys of the front matter docgen reads, checked for the shape it reads them in (any other key is
    MkDocs' or the theme's, and left alone)."""

    def __init__(self, loaded: LoadedYaml, page: str) -> None:
        self.loaded, self.page = loaded, page

    def fail(self, path: tuple[str | int, ...], message: str, hint: str) -> TemplateError:
        where = ".".join(str(part) for part in path)
        line = (self.loaded.line_of(path) or 1) + 1  # the block starts on the page's second line
        return TemplateError(f"front matter `{where}`: {message}", file=self.page, line=line, hint=hint)

    def check(self, meta: Mapping[str, Any]) -> None:
        based_on, related = meta.get("based_on"), meta.get("related")
        if based_on is not None and not isinstance(based_on, list):
            raise self.fail(
                ("based_on",), f"expected a list of citations, not {_kind(based_on)}", _CITATION_HINT
            )
        for index, item in enumerate(based_on or []):
            self._citation(item, ("based_on", index))
        if related is not None and not _texts(related):
            raise self.fail(("related",), f"expected a list of page paths, not {_kind(related)}", _RELATED)
        for key in ("catalog", "title"):
            if meta.get(key) is not None and not isinstance(meta[key], str | int | float):
                raise self.fail(
                    (key,), f"expected text, not {_kind(meta[key])}", "write it as one line of text"
                )
        prints = meta.get("verified_fingerprints")
        if prints is not None and not (isinstance(prints, dict) and _texts(list(prints.values()))):
            hint = "leave this key to `docgen verify`, which writes it"
            raise self.fail(
                ("verified_fingerprints",), "expected a mapping of `file:symbol` to fingerprint", hint
            )

    def _citation(self, item: Any, path: tuple[str | int, ...]) -> None:
        if not isinstance(item, dict):
            raise self.fail(path, f"expected a citation (a mapping), not {_kind(item)}", _CITATION_HINT)
        if "file" in item:
            if not (isinstance(item["file"], str) and item["file"]):
                raise self.fail((*path, "file"), "expected a path relative to the repository", _CITATION_HINT)
            symbols = item.get("symbols")
            if symbols is not None and not _texts(symbols):
                hint = "list the cited functions or classes: `symbols: [name, ...]`"
                raise self.fail((*path, "symbols"), f"expected a list of names, not {_kind(symbols)}", hint)
        elif not (isinstance(item.get("title"), str) and isinstance(item.get("url"), str)):
            raise self.fail(path, "a citation needs `file`, or `title` and `url`", _CITATION_HINT)


_RELATED = "list related pages by their paths relative to this page: `related: [../other.md]`"


def _texts(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(item, str) for item in value)


def _kind(value: Any) -> str:
    return {dict: "a mapping", list: "a list", str: "text", bool: "true/false"}.get(type(value), f"{value!r}")


def read_pages(docs_dir: Path, *, within: Path | None = None, shown: str | None = None) -> dict[str, str]:
    """Every Markdown page under docs_dir: docs-relative POSIX path -> text (newlines as written). With
    `within`, a page that is a link to a file outside that folder is refused. `shown` is docs_dir as
    messages name it, relative to the project root (default: its last part)."""
    shown = shown or docs_dir.name
    if not docs_dir.is_dir():
        raise TemplateError(
            "the docs folder does not exist, so there are no pages to render or check",
            file=shown,
            hint="create it, or set docs_dir in mkdocs.yml to the folder of the site's pages",
        )
    pages: dict[str, str] = {}
    for path in sorted(docs_dir.rglob("*.md")):
        page = path.relative_to(docs_dir).as_posix()
        pages[page] = read_text(path, f"{shown}/{page}", error=TemplateError, newline="", within=within)
    return pages


def page_fronts(pages: Mapping[str, str], *, docs: str = "") -> dict[str, FrontMatter]:
    """Each page's front matter, parsed once; errors name the page under `docs` (the docs folder relative to
    the project root)."""
    return {page: front_matter(text, page=f"{docs}/{page}" if docs else page) for page, text in pages.items()}


def page_titles(pages: Mapping[str, str], fronts: Mapping[str, FrontMatter]) -> dict[str, str]:
    """Each page's title: its front matter `title`, else its first `# ` heading, else its file name."""
    titles: dict[str, str] = {}
    for page, text in pages.items():
        front = fronts[page]
        title = front.meta.get("title")
        if not title:
            body = text[front.body_start :]
            heading = next((line[2:].strip() for line in body.splitlines() if line.startswith("# ")), None)
            title = heading or posixpath.splitext(posixpath.basename(page))[0]
        titles[page] = str(title)
    return titles
