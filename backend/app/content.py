"""Read-only index over the Markdown pages of the documentation site.

A page's site path follows MkDocs: `docs/developers/mcp-errors.md` is served at
`/developers/mcp-errors/`, and `index.md` stands for its folder (`docs/index.md` is `/`).
The folder is scanned again at most every LISTING_TTL_SECONDS, so pages written while the server
runs are picked up within a second.
Only regular files inside the folder are pages: a symbolic link is followed only when its
target is inside the folder too. Pages are served and searched as a reader sees them
(`backend.app.reader`), not as the raw files.
"""

from __future__ import annotations

import errno
import logging
import os
import re
import stat
import time
from dataclasses import dataclass
from pathlib import Path

from backend.app.reader import FRONT_MATTER, reader_text

logger = logging.getLogger(__name__)

_WORD = re.compile(r"[\w-]+", re.UNICODE)
_HEADING = re.compile(r"^#\s+(.+?)\s*#*\s*$", re.MULTILINE)
_FRONT_TITLE = re.compile(r"^title:\s*['\"]?(.+?)['\"]?\s*$", re.MULTILINE)
SNIPPET_CHARS = 160
# How long a scan of the folder is reused: a page added or removed shows within this many seconds.
LISTING_TTL_SECONDS = 1.0
# The canonical site the pages are published on (mkdocs.yml's site_url; a test keeps the two
# equal): a page's relative links are served as absolute links there.
SITE_URL = "https://connectbyjbrh.com/"


class NotAPage(OSError):
    """A file found by the last scan is no longer a regular file: it is not a page now."""


@dataclass(frozen=True)
class Page:
    """One Markdown page: where it is served, its title and its text as a reader sees it."""

    path: str
    title: str
    text: str
    folded: str = ""  # the text in lower case, for the search (computed once per read)


@dataclass(frozen=True)
class Hit:
    """A search result: the page, how well it matched, and an excerpt around the first match."""

    page: Page
    score: int
    snippet: str


def query_terms(query: str) -> list[str]:
    """The distinct words of a query the search looks for: lower case, longer than one character.

    Args:
        query: Free text as a client sent it.
    """
    return list(dict.fromkeys(word for word in _WORD.findall(query.lower()) if len(word) > 1))


def normalise_site_path(raw: str) -> str | None:
    """Turn what a caller typed into a canonical site path, or None if it cannot be one.

    `developers/mcp-errors`, `/developers/mcp-errors.md` and `/developers/mcp-errors/`
    all become `/developers/mcp-errors/`. Paths that climb out of the site are refused.

    Args:
        raw: A site path, with or without slashes or a `.md` / `.html` suffix.
    """
    parts = [part for part in raw.strip().replace("\\", "/").split("/") if part]
    if parts and parts[-1] in {"index.md", "index.html"}:
        parts.pop()
    elif parts:
        parts[-1] = parts[-1].removesuffix(".md").removesuffix(".html")
    if any(part in {".", ".."} or part.startswith(".") for part in parts):
        return None
    return "/" + "".join(f"{part}/" for part in parts)


def _site_path(root: Path, file: Path) -> str:
    parts = list(file.relative_to(root).with_suffix("").parts)
    if parts[-1] == "index":
        parts.pop()
    return "/" + "".join(f"{part}/" for part in parts)


def _title(text: str, fallback: str) -> str:
    front = FRONT_MATTER.match(text)
    if front and (match := _FRONT_TITLE.search(front.group(1))):
        return match.group(1)
    if match := _HEADING.search(text):
        return match.group(1)
    return fallback


def _snippet(page: Page, terms: list[str]) -> str:
    text = page.text
    starts = [index for term in terms if (index := page.folded.find(term)) >= 0]
    start = max(0, min(starts, default=0) - SNIPPET_CHARS // 4)
    excerpt = " ".join(text[start : start + SNIPPET_CHARS].split())
    return ("…" if start else "") + excerpt + ("…" if start + SNIPPET_CHARS < len(text) else "")


def _regular_file_inside(file: Path, root: Path) -> Path | None:
    """The file `file` really is, if that is a regular file under `root`; else None.

    Resolving follows every symbolic link on the way, so a link (or a linked folder) whose
    target lies outside `root` is refused, and so are FIFOs, devices and dangling links.
    """
    try:
        real = file.resolve(strict=True)
        regular = stat.S_ISREG(real.stat().st_mode)
    except (OSError, RuntimeError):
        return None
    if not regular or not real.is_relative_to(root):
        logger.debug("not serving %s: it is not a regular file inside %s", file, root)
        return None
    return real


class DocsIndex:
    """The pages of one docs folder, with lookup by site path and a simple keyword search."""

    def __init__(self, root: Path, site_url: str = SITE_URL) -> None:
        self.root = root
        self.site_url = site_url
        # real file -> (its size and mtime when read, the page): a page is parsed again only
        # once its file changes, so a search costs the matching, not the reading.
        self._parsed: dict[Path, tuple[tuple[int, int], Page]] = {}
        self._listing: tuple[float, dict[str, Path]] | None = None

    def _files(self) -> dict[str, Path]:
        """Site path -> the real file behind it, scanned at most once per LISTING_TTL_SECONDS."""
        now = time.monotonic()
        if self._listing is not None and now - self._listing[0] < LISTING_TTL_SECONDS:
            return self._listing[1]
        files = self._scan()
        self._listing = (now, files)
        return files

    def _scan(self) -> dict[str, Path]:
        """Site path -> the real file behind it, for every page the folder may serve."""
        root = self.root.resolve()
        if not root.is_dir():
            return {}
        files = {}
        for file in sorted(root.rglob("*.md")):
            relative = file.relative_to(root)
            if any(part.startswith(".") for part in relative.parts):
                continue
            if (real := _regular_file_inside(file, root)) is not None:
                files[_site_path(root, file)] = real
        return files

    def _load(self, site_path: str, file: Path) -> Page:
        """The page in `file`, parsed again only when the file's size or mtime changed.

        The file is opened without following a final symbolic link and must still be a regular
        file, so a page swapped for a link or a FIFO since the scan raises NotAPage instead.
        """
        try:
            fd = os.open(file, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                raise NotAPage(f"{file} is now a symbolic link") from exc
            raise
        with os.fdopen(fd, encoding="utf-8") as handle:
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode):
                raise NotAPage(f"{file} is no longer a regular file")
            version = (info.st_size, info.st_mtime_ns)
            cached = self._parsed.get(file)
            if cached is not None and cached[0] == version and cached[1].path == site_path:
                return cached[1]
            raw = handle.read()
        title = _title(raw, file.stem.replace("-", " ").title())
        # The file as MkDocs names it under the folder, for resolving its relative links.
        source = site_path.strip("/") + ("/index.md" if file.name == "index.md" else ".md")
        text = reader_text(raw, title, source.lstrip("/"), self.site_url)
        page = Page(path=site_path, title=title, text=text, folded=text.lower())
        self._parsed[file] = (version, page)
        return page

    def paths(self) -> list[str]:
        """Site paths of every page, sorted."""
        return sorted(self._files())

    def pages(self) -> list[Page]:
        """Every page that can be read; unreadable files are logged and skipped."""
        pages = []
        files = self._files()
        self._parsed = {file: parsed for file, parsed in self._parsed.items() if file in files.values()}
        for site_path, file in files.items():
            try:
                pages.append(self._load(site_path, file))
            except NotAPage:
                continue
            except (OSError, UnicodeDecodeError):
                logger.warning("skipping unreadable page %s", file)
        return pages

    def get(self, raw_path: str) -> Page | None:
        """The page served at `raw_path`, or None if there is none.

        A page that exists but cannot be read raises: that is the server's fault, not the caller's.

        Args:
            raw_path: A site path such as `/developers/mcp-errors/`.
        """
        site_path = normalise_site_path(raw_path)
        file = self._files().get(site_path) if site_path is not None else None
        if site_path is None or file is None:
            return None
        try:
            return self._load(site_path, file)
        except NotAPage:
            return None

    def search(self, query: str, limit: int) -> list[Hit]:
        """Pages ranked by a case-insensitive keyword score.

        Each distinct query word scores 5 per occurrence in the title and 1 per occurrence in
        the text; the whole query appearing verbatim adds 10. Ties are broken by site path. The
        work is the number of distinct words times the size of the pages, so callers bound the
        query (`search_public_docs` does).

        Args:
            query: Free text; words of one character are ignored.
            limit: The most hits to return.
        """
        terms = query_terms(query)
        phrase = " ".join(query.lower().split())
        if not terms:
            return []
        hits = []
        for page in self.pages():
            title, text = page.title.lower(), page.folded
            score = sum(5 * title.count(term) + text.count(term) for term in terms)
            if score and phrase in text:
                score += 10
            if score:
                hits.append(Hit(page=page, score=score, snippet=_snippet(page, terms)))
        hits.sort(key=lambda hit: (-hit.score, hit.page.path))
        return hits[:limit]
