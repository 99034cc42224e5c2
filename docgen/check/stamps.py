"""Last verified that means something: `docgen verify` stamps a page, `docgen check` tells when it went stale.

The stamp lives in the page's front matter: `last_verified` (a date) and `verified_fingerprints` (one
fingerprint per cited symbol). Only those keys are rewritten; every other byte of the page stays as it was.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping

from docgen.core.errors import InputError, TemplateError
from docgen.core.findings import Finding, Kind
from docgen.core.pages import FrontMatter
from docgen.core.records import record
from docgen.core.symbols import SourceFiles, Symbol, citation_path

STAMP_KEYS = ("last_verified", "verified_fingerprints")
_FRONT = re.compile(r"\A---[ \t]*\r?\n")
_CLOSE = re.compile(r"^---[ \t]*$", re.MULTILINE)


def cited_symbols(
    sources: SourceFiles, front: FrontMatter, *, page: str
) -> Iterator[tuple[str, str, Symbol | None]]:
    """(file, symbol, located symbol or None) for every source citation in a page's `based_on`."""
    for index, item in enumerate(front.meta.get("based_on") or []):
        if not isinstance(item, dict) or "file" not in item:
            continue
        file = str(item["file"])
        try:
            citation_path(sources.root, file, page=page)
        except InputError as err:
            err.line = front.line("based_on", index, "file")  # looked up only for the error
            raise
        for name in item.get("symbols") or []:
            yield file, str(name), sources.symbol(file, str(name))


def fingerprints(sources: SourceFiles, front: FrontMatter, *, page: str) -> dict[str, str]:
    """The current fingerprint of every cited symbol, keyed `file:symbol`."""
    found: dict[str, str] = {}
    for file, name, symbol in cited_symbols(sources, front, page=page):
        if symbol is None:
            raise TemplateError(
                f"cannot stamp: {file} has no symbol {name!r}", file=page, hint="fix the page's based_on list"
            )
        found[symbol.key] = symbol.fingerprint
    return found


def stamp(text: str, *, date: str, prints: Mapping[str, str], page: str) -> str:
    """`text` with its stamp keys replaced (or added at the end of the front matter)."""
    opening = _FRONT.match(text)
    closing = _CLOSE.search(text, opening.end()) if opening else None
    if opening is None or closing is None:
        raise TemplateError(
            "the page has no front matter to stamp",
            file=page,
            line=1,
            hint="start the page with a '---' block holding title and based_on",
        )
    newline = "\r\n" if opening.group(0).endswith("\r\n") else "\n"
    block = [f"last_verified: {date}{newline}", f"verified_fingerprints:{newline}"]
    block += [f"  {key}: {value}{newline}" for key, value in sorted(prints.items())]
    head = text[opening.end() : closing.start()].splitlines(keepends=True)
    return text[: opening.end()] + "".join(_with_stamp(head, block)) + text[closing.start() :]


def _with_stamp(lines: list[str], block: list[str]) -> list[str]:
    """The front-matter lines with the stamp block where `last_verified` was (else at the end).

    A comment at the end of a stamp key's line (`last_verified: 2026-01-01  # re-read by Ana`) stays on
    that key's new line; comment lines among the fingerprints belong to the block docgen rewrites.
    """
    comments = {
        _key(line): comment for line in lines if _key(line) in STAMP_KEYS and (comment := _comment(line))
    }
    block = [_commented(line, comments.get(_key(line))) for line in block]
    result: list[str] = []
    skipping = placed = False
    for line in lines:
        if line.strip() and not line[0].isspace():
            key = _key(line)
            skipping = key in STAMP_KEYS
            if key == "last_verified" and not placed:
                result.extend(block)
                placed = True
        if not skipping:
            result.append(line)
    return result if placed else result + block


_TRAILING_COMMENT = re.compile(
    r"""^[^:#]+:(?:\s*(?:'[^']*'|"[^"]*"|[^#'"\s][^#]*?))?(?P<comment>\s+#.*?)?\s*$"""
)


def _key(line: str) -> str:
    return line.split(":", 1)[0].strip() if line.strip() and not line[0].isspace() else ""


def _comment(line: str) -> str | None:
    """The comment at the end of a `key: value` line, with the spaces before it; None when it has none."""
    match = _TRAILING_COMMENT.match(line.rstrip("\r\n"))
    return match["comment"] if match and match["comment"] else None


def _commented(line: str, comment: str | None) -> str:
    if comment is None:
        return line
    ending = line[len(line.rstrip("\r\n")) :]
    return line.rstrip("\r\n") + comment + ending


def stamp_findings(sources: SourceFiles, front: FrontMatter, *, page: str) -> Iterator[Finding]:
    """A finding when a page cites source but was never stamped (stale stamps: `stale_stamps`)."""
    meta = front.meta
    if isinstance(meta.get("verified_fingerprints"), dict):
        return
    if meta.get("based_on") and any("file" in (item or {}) for item in meta["based_on"]):
        yield Finding(
            Kind.VERIFICATION_MISSING,
            page,
            front.line("last_verified"),
            page,
            "the page cites source but carries no verified fingerprints",
            f"re-read the page against its sources, then run `docgen verify {page}`",
        )


@record
class StaleStamp:
    """A page stamped before one of its cited symbols changed."""

    page: str
    verified: str
    """The page's `last_verified` date."""
    symbol: Symbol
    recorded: str


def stale_stamps(sources: SourceFiles, front: FrontMatter, *, page: str) -> Iterator[StaleStamp]:
    """Every cited symbol whose source changed since the page was stamped."""
    recorded = front.meta.get("verified_fingerprints")
    if not isinstance(recorded, dict):
        return
    for file, name, symbol in cited_symbols(sources, front, page=page):
        if symbol is not None and recorded.get(f"{file}:{name}") != symbol.fingerprint:
            verified = str(front.meta.get("last_verified"))
            yield StaleStamp(page, verified, symbol, str(recorded.get(f"{file}:{name}")))


def stale_findings(stamps: Iterable[StaleStamp]) -> Iterator[Finding]:
    """One finding per changed symbol, on its source lines, listing every page stamped before the change."""
    by_symbol: dict[str, list[StaleStamp]] = {}
    for stamp_ in stamps:
        by_symbol.setdefault(stamp_.symbol.key, []).append(stamp_)
    for key, found in sorted(by_symbol.items()):
        symbol, pages = found[0].symbol, sorted({stale.page for stale in found})
        lines = f"{symbol.file}:{symbol.first_line}-{symbol.last_line}"
        dated = ", ".join(f"{stale.page} (verified {stale.verified})" for stale in sorted(found, key=_page))
        yield Finding(
            Kind.VERIFICATION_STALE,
            symbol.file,
            symbol.first_line,
            key,
            f"{symbol.name} (lines {symbol.first_line}-{symbol.last_line}) changed after "
            f"{_pages_word(len(pages))} citing it were last verified: {dated}",
            f"re-read {'each page' if len(pages) > 1 else 'the page'} against {lines}, fix what is wrong, "
            f"then run `docgen verify {' '.join(pages)}`",
            old=", ".join(sorted({stale.recorded for stale in found})),
            new=symbol.fingerprint,
            pages=tuple(pages),
        )


def _page(stale: StaleStamp) -> str:
    return stale.page


def _pages_word(count: int) -> str:
    return "the page" if count == 1 else f"the {count} pages"
