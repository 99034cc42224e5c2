"""What a page cites: source files and their symbols, located and fingerprinted statically.

Each file is read and parsed once, each symbol located and fingerprinted once (`SourceFiles`); how a
symbol's fingerprint is made, and how statements that lead to catalogued errors count in it, is
`fingerprints`'s.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping
from pathlib import Path

from docgen.core.errors import InputError, SourceError
from docgen.core.fingerprints import CallSpan, Definition, ErrorMarks, fingerprinted, module_names
from docgen.core.reader import decode_utf8, read_bytes
from docgen.core.records import record

_NO_MARKS: Mapping[CallSpan, frozenset[str]] = {}


@record
class Symbol:
    """A cited symbol: where it is, and a fingerprint of what it does."""

    file: str
    name: str
    first_line: int
    last_line: int
    fingerprint: str
    routes_errors_only: bool = False
    """Every statement of the function leads to catalogued errors (or returns None): a helper that only
    passes errors on, whose whole effect the catalog and its callers' fingerprints already cover."""

    @property
    def key(self) -> str:
        return f"{self.file}:{self.name}"


def citation_path(root: Path, file: str, *, page: str, line: int | None = None) -> Path:
    """The cited `file` on disk; a citation that leaves the repository is an input error."""
    path = (root / file).resolve()
    if Path(file).is_absolute() or not path.is_relative_to(root.resolve()):
        raise InputError(
            f"the citation {file!r} points outside the repository",
            file=page,
            line=line,
            hint="cite files by their path relative to the repository root",
        )
    return path


class SourceFiles:
    """The source files that catalogs and pages cite, as one project sees them: each file read once and
    parsed once, each symbol located and fingerprinted once.

    Reading them is the one time a stage other than extract looks at source: they are the project's, as the
    catalogs and pages are, so they come through the loaded project rather than from the stage itself.
    """

    def __init__(self, root: Path) -> None:
        self.root = root
        self._bytes: dict[str, bytes | None] = {}
        self._trees: dict[str, ast.Module] = {}
        self._symbols: dict[tuple[str, str], Symbol | None] = {}
        self._parsed: dict[bytes, ast.Module] = {}
        self._marks: ErrorMarks = {}

    def mark_errors(self, marks: ErrorMarks) -> None:
        """Fingerprint the statements that lead to catalogued errors by those errors' facts (see
        `docgen.core.fingerprints`) from now on; symbols fingerprinted before are fingerprinted again."""
        self._marks = marks
        self._symbols.clear()

    def adopt(self, trees: Mapping[bytes, ast.Module]) -> None:
        """Take trees another stage parsed, keyed by the bytes they were parsed from, instead of parsing a
        file with exactly those bytes again.

        check has griffe parse every source file to extract the catalogs and then fingerprints the functions
        the pages cite, most of them in those same files. griffe's tree is `ast.parse`'s for the same text,
        and a tree is only taken for the very bytes it was parsed from, so fingerprints cannot differ.
        """
        self._parsed.update(trees)

    def read(self, file: str) -> bytes | None:
        """The bytes of `file` (relative to the project root), or None when it is not a file."""
        if file not in self._bytes:
            path = self.root / file
            self._bytes[file] = (
                read_bytes(path, file, error=SourceError, within=self.root) if path.is_file() else None
            )
        return self._bytes[file]

    def exists(self, file: str) -> bool:
        return self.read(file) is not None

    def symbol(self, file: str, name: str) -> Symbol | None:
        """The symbol `name` (`func`, `Class` or `Class.method`) defined in `file`, or None.

        Raises:
            SourceError: the file is not valid Python, not UTF-8, or too large to read.
        """
        key = (file, name)
        if key not in self._symbols:
            tree = self._tree(file)
            marks = self._marks.get(file, _NO_MARKS)
            self._symbols[key] = _locate(tree, file, name, marks) if tree is not None else None
        return self._symbols[key]

    def symbol_or_none(self, file: str, name: str) -> Symbol | None:
        """`symbol`, with a file that does not parse counted as defining nothing."""
        try:
            return self.symbol(file, name)
        except SourceError:
            return None

    def lines(self, file: str, name: str) -> tuple[int, int] | None:
        """(first, last) line of a cited symbol, for source links; None when it cannot be found."""
        symbol = self.symbol_or_none(file, name)
        return (symbol.first_line, symbol.last_line) if symbol else None

    def _tree(self, file: str) -> ast.Module | None:
        if file not in self._trees:
            source = self.read(file)
            if source is None:
                return None
            tree = self._parsed.get(source)
            self._trees[file] = tree if tree is not None else _parse(source, file)
        return self._trees[file]


def _parse(source: bytes, display: str) -> ast.Module:
    text = decode_utf8(source, display, error=SourceError)
    try:
        return ast.parse(text, filename=display)
    except SyntaxError as err:
        raise SourceError(f"syntax error: {err.msg}", file=display, line=err.lineno) from err
    except (ValueError, RecursionError, MemoryError) as err:
        raise SourceError("too deeply nested or too large to parse", file=display) from err


def _locate(
    tree: ast.Module, file: str, name: str, marks: Mapping[CallSpan, frozenset[str]]
) -> Symbol | None:
    scope: list[ast.stmt] = tree.body
    node: Definition | None = None
    for part in name.split("."):
        node = next((n for n in scope if isinstance(n, Definition) and n.name == part), None)
        if node is None:
            return None
        scope = node.body
    assert node is not None
    fingerprint, routes_errors_only = fingerprinted(node, module_names(tree), marks)
    return Symbol(
        file, name, _first_line(node), node.end_lineno or node.lineno, fingerprint, routes_errors_only
    )


def _first_line(node: Definition) -> int:
    return min([node.lineno, *(d.lineno for d in node.decorator_list)])
