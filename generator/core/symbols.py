"""What a page cites: source files and their symbols, located and fingerprinted statically.

A fingerprint covers what a symbol does, not how it is laid out: it hashes the symbol's syntax tree with local
names canonicalised, so reformatting, comments and renamed local variables leave it unchanged, while any
change to the logic (a new branch, another status) changes it.
"""

from __future__ import annotations

import ast
import builtins
import hashlib
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from generator.core.errors import InputError, SourceError
from generator.core.yamlio import decode_utf8, read_bytes

_Definition = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef


@dataclass(frozen=True)
class Symbol:
    """A cited symbol: where it is, and a fingerprint of what it does."""

    file: str
    name: str
    first_line: int
    last_line: int
    fingerprint: str

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


_parsed_elsewhere: dict[bytes, ast.Module] = {}
"""Trees that another stage parsed from exactly these bytes, while `reusing` lends them."""


@contextmanager
def reusing(trees: Mapping[bytes, ast.Module]) -> Iterator[None]:
    """Within the block, a cited file whose bytes are a key of `trees` is not parsed again.

    check has griffe parse every source file to extract the catalogs and then fingerprints the functions the
    pages cite, most of them in those same files: parsing them twice was a third of what check spends on a
    large backend. griffe's tree is `ast.parse`'s for the same text, and a tree is only reused for the very
    bytes it was parsed from, so fingerprints cannot differ. The trees are lent for the block only (a long
    `mkdocs serve` would otherwise keep every version of every file).
    """
    saved = dict(_parsed_elsewhere)
    _parsed_elsewhere.update(trees)
    try:
        yield
    finally:
        _parsed_elsewhere.clear()
        _parsed_elsewhere.update(saved)


def _parse(source: bytes, display: str) -> ast.Module:
    tree = _parsed_elsewhere.get(source)
    return tree if tree is not None else _parse_bytes(source, display)


@lru_cache(maxsize=64)
def _parse_bytes(source: bytes, display: str) -> ast.Module:
    """Parse once per distinct content, so a file edited between two calls is parsed again."""
    text = decode_utf8(source, display, error=SourceError)
    try:
        return ast.parse(text, filename=display)
    except SyntaxError as err:
        raise SourceError(f"syntax error: {err.msg}", file=display, line=err.lineno) from err
    except (ValueError, RecursionError, MemoryError) as err:
        raise SourceError("too deeply nested or too large to parse", file=display) from err


def find_symbol(root: Path, file: str, name: str) -> Symbol | None:
    """The symbol `name` (`func`, `Class` or `Class.method`) defined in `file`, or None."""
    path = root / file
    if not path.is_file():
        return None
    return _symbol(read_bytes(path, file, error=SourceError), file, name)


@lru_cache(maxsize=1024)
def _symbol(source: bytes, file: str, name: str) -> Symbol | None:
    """Located and fingerprinted once per content: check asks for each cited symbol more than once."""
    tree = _parse(source, file)
    scope: list[ast.stmt] = tree.body
    node: _Definition | None = None
    for part in name.split("."):
        node = next((n for n in scope if isinstance(n, _Definition) and n.name == part), None)
        if node is None:
            return None
        scope = node.body
    assert node is not None
    module_names = _module_names(tree)
    return Symbol(
        file, name, _first_line(node), node.end_lineno or node.lineno, _fingerprint(node, module_names)
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


def _fingerprint(node: _Definition, module_names: frozenset[str]) -> str:
    """The hash of `node`'s tree with every parameter and every name that is not the module's, the symbol's
    own or a builtin renamed to `_`.

    The names are renamed in place and put back afterwards, rather than in a copy of the tree: copying a
    large function (by unparsing and parsing it again) took more time than the rest together. The tree is
    shared with the parse cache, so it must come out as it went in.
    """
    keep = module_names | {node.name} | _BUILTINS
    renamed: list[tuple[ast.AST, str, str]] = []
    for child in ast.walk(node):
        if isinstance(child, ast.Name) and child.id not in keep:
            renamed.append((child, "id", child.id))
        elif isinstance(child, ast.arg):
            renamed.append((child, "arg", child.arg))
    try:
        for child, field, _name in renamed:
            setattr(child, field, "_")
        dumped = ast.dump(node, include_attributes=False)
    finally:
        for child, field, name in renamed:
            setattr(child, field, name)
    return f"sha256:{hashlib.sha256(dumped.encode('utf-8')).hexdigest()[:16]}"


def symbol_lines(root: Path, file: str, name: str) -> tuple[int, int] | None:
    """(first, last) line of a cited symbol, for source links; None when it cannot be found."""
    try:
        symbol = find_symbol(root, file, name)
    except SourceError:
        return None
    return (symbol.first_line, symbol.last_line) if symbol else None
