"""What a page cites: source files and their symbols, located and fingerprinted statically.

A fingerprint covers what a symbol does beyond what the catalogs already check, not how it is laid out: it
hashes the symbol's syntax tree with local names canonicalised, so reformatting, comments and renamed local
variables leave it unchanged, while any change to the logic (a new branch, another limit) changes it.

The error paths a catalog lists are checked entry by entry already, so a statement that leads to catalogued
errors is hashed as the facts of those errors rather than as its syntax. extract says which calls lead where
(`ErrorMarks`: a constructor call of a site, or the call of the next helper on an entry's path); a `return`,
`raise` or expression statement holding such a call, and an early exit (an `if` without `else` whose body
only returns or raises, with such a call in its test or body), become one marker holding the sorted facts
(and which of those four kinds of statement it was).
`if bad: return error(...)` inline and `if (refusal := check(x)) is not None: return refusal` with the error
in `check` then hash the same, while a changed message or status, which changes the facts, still changes
the fingerprint. A symbol fingerprinted without marks is hashed exactly as before.
"""

from __future__ import annotations

import ast
import builtins
import hashlib
from collections.abc import Iterator, Mapping
from pathlib import Path

from generator.core.errors import InputError, SourceError
from generator.core.records import record
from generator.core.trees import nodes_below
from generator.core.yamlio import decode_utf8, read_bytes

_Definition = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef

CallSpan = tuple[int, int, int, int]
"""Where a call sits in its file: (line, column, end line, end column), as `ast` counts them."""
ErrorMarks = Mapping[str, Mapping[CallSpan, frozenset[str]]]
"""File -> the span of each call that leads to catalogued errors -> the facts of those errors, one string
per entry (built by extract; nothing here reads them, they are only hashed)."""
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
        """Fingerprint the statements that lead to catalogued errors by those errors' facts (see the module
        docstring) from now on; symbols fingerprinted before are fingerprinted again."""
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
    node: _Definition | None = None
    for part in name.split("."):
        node = next((n for n in scope if isinstance(n, _Definition) and n.name == part), None)
        if node is None:
            return None
        scope = node.body
    assert node is not None
    module_names = _module_names(tree)
    fingerprint, routes_errors_only = _fingerprinted(node, module_names, marks)
    return Symbol(
        file, name, _first_line(node), node.end_lineno or node.lineno, fingerprint, routes_errors_only
    )


def _first_line(node: _Definition) -> int:
    return min([node.lineno, *(d.lineno for d in node.decorator_list)])


def _module_names(tree: ast.Module) -> frozenset[str]:
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, _Definition):
            names.add(node.name)
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names.update(t.id for t in targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
    return frozenset(names)


_BUILTINS = frozenset(dir(builtins))


def _fingerprinted(
    node: _Definition, module_names: frozenset[str], marks: Mapping[CallSpan, frozenset[str]]
) -> tuple[str, bool]:
    """The hash of `node`'s tree with each statement that leads to catalogued errors replaced by a marker of
    their facts, and every parameter and every name that is not the module's, the symbol's own or a
    builtin renamed to `_`; and whether the symbol only routes errors (`Symbol.routes_errors_only`).

    The tree is changed in place and put back afterwards, rather than copied: copying a large function (by
    unparsing and parsing it again) took more time than the rest together. The tree may be shared with
    another stage, so it must come out as it went in.
    """
    keep = module_names | {node.name} | _BUILTINS
    swapped: list[tuple[list[ast.stmt], int, ast.stmt]] = []
    renamed: list[tuple[ast.AST, str, str]] = []
    try:
        if marks:
            _mark_statements(node.body, marks, swapped)
        routes_only = _routes_errors_only(node, swapped)
        for child in nodes_below(node, _NAMES):
            if isinstance(child, ast.Name) and child.id not in keep:
                renamed.append((child, "id", child.id))
            elif isinstance(child, ast.arg):
                renamed.append((child, "arg", child.arg))
        for child, field, _name in renamed:
            setattr(child, field, "_")
        dumped = ast.dump(node, include_attributes=False)
    finally:
        for child, field, name in renamed:
            setattr(child, field, name)
        for statements, index, statement in reversed(swapped):
            statements[index] = statement
    return f"sha256:{hashlib.sha256(dumped.encode('utf-8')).hexdigest()[:16]}", routes_only


def _mark_statements(
    statements: list[ast.stmt],
    marks: Mapping[CallSpan, frozenset[str]],
    swapped: list[tuple[list[ast.stmt], int, ast.stmt]],
) -> None:
    """Replace, in place, each statement of `statements` (and of the blocks nested in them) that leads to
    catalogued errors by its marker, noting each replacement in `swapped` so that it can be undone."""
    for index, statement in enumerate(statements):
        facts = _error_facts(statement, marks)
        if facts:
            statements[index] = ErrorMarker(type(statement).__name__, sorted(facts))
            swapped.append((statements, index, statement))
            continue
        for block in _blocks(statement):
            _mark_statements(block, marks, swapped)


def _blocks(statement: ast.stmt) -> Iterator[list[ast.stmt]]:
    """The blocks of statements nested in `statement`: bodies, `else`s, handlers, cases."""
    for _field, value in ast.iter_fields(statement):
        if not isinstance(value, list):
            continue
        for item in value:
            if isinstance(item, ast.ExceptHandler | ast.match_case):
                yield item.body
        if value and isinstance(value[0], ast.stmt):
            yield value


def _error_facts(statement: ast.stmt, marks: Mapping[CallSpan, frozenset[str]]) -> frozenset[str]:
    """The facts of the catalogued errors `statement` leads to, when it is a statement that leads to them
    (see the module docstring); empty when it is not."""
    if isinstance(statement, ast.If):
        exits = all(isinstance(inner, ast.Return | ast.Raise) for inner in statement.body)
        if statement.orelse or not exits:
            return frozenset()
    elif not isinstance(statement, ast.Return | ast.Raise | ast.Expr):
        return frozenset()
    found: set[str] = set()
    for child in nodes_below(statement, _CALLS):
        span = call_span(child)  # type: ignore[arg-type]
        if span in marks:
            found |= marks[span]
    return frozenset(found)


_NAMES = frozenset({ast.Name, ast.arg})
_CALLS = frozenset({ast.Call})


def call_span(call: ast.Call) -> CallSpan:
    """Where `call` sits in its file."""
    return (call.lineno, call.col_offset, call.end_lineno or call.lineno, call.end_col_offset or 0)


class ErrorMarker(ast.stmt):
    """The statement that stands, in a fingerprint, for one that leads to catalogued errors: a node type no
    parsed source holds, with the kind of statement it replaces (an early exit, a return, a raise, an
    expression) and the sorted facts of those errors."""

    _fields = ("kind", "facts")

    def __init__(self, kind: str, facts: list[str]) -> None:
        super().__init__()
        self.kind = kind
        self.facts = facts


def _routes_errors_only(node: _Definition, swapped: list[tuple[list[ast.stmt], int, ast.stmt]]) -> bool:
    """Whether `node`, its statements marked (`swapped`), is a function each statement of which (a docstring
    aside) leads to catalogued errors or returns None, with at least one of the first kind."""
    if isinstance(node, ast.ClassDef):
        return False
    leading = {index for statements, index, _statement in swapped if statements is node.body}
    docstring = ast.get_docstring(node) is not None
    rest = [
        statement
        for index, statement in enumerate(node.body)
        if index not in leading and not (docstring and index == 0)
    ]
    return bool(leading) and all(_returns_none(statement) for statement in rest)


def _returns_none(statement: ast.stmt) -> bool:
    if not isinstance(statement, ast.Return):
        return False
    return statement.value is None or (
        isinstance(statement.value, ast.Constant) and statement.value.value is None
    )
