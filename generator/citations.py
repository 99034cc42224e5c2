"""What a page cites: source files and their symbols, located and fingerprinted statically.

A fingerprint covers what a symbol does, not how it is laid out: it hashes the symbol's syntax tree with local
names canonicalised, so reformatting, comments and renamed local variables leave it unchanged, while any
change to the logic (a new branch, another status) changes it.
"""

from __future__ import annotations

import ast
import builtins
import hashlib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from generator.errors import InputError, SourceError

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


@lru_cache(maxsize=64)
def _parse(source: bytes, display: str) -> ast.Module:
    """Parse once per distinct content, so a file edited between two calls is parsed again."""
    try:
        return ast.parse(source.decode("utf-8"), filename=display)
    except SyntaxError as err:
        raise SourceError(f"syntax error: {err.msg}", file=display, line=err.lineno) from err
    except UnicodeDecodeError as err:
        raise SourceError("not valid UTF-8", file=display, hint="save the file as UTF-8") from err


def find_symbol(root: Path, file: str, name: str) -> Symbol | None:
    """The symbol `name` (`func`, `Class` or `Class.method`) defined in `file`, or None."""
    path = root / file
    if not path.is_file():
        return None
    return _symbol(path.read_bytes(), file, name)


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


class _Canonical(ast.NodeTransformer):
    def __init__(self, module_names: frozenset[str], own_name: str) -> None:
        self.keep = module_names | {own_name} | set(dir(builtins))

    def visit_Name(self, node: ast.Name) -> ast.Name:
        if node.id not in self.keep:
            node.id = "_"
        return node

    def visit_arg(self, node: ast.arg) -> ast.arg:
        node.arg = "_"
        node.annotation = self.visit(node.annotation) if node.annotation else None
        return node


def _fingerprint(node: _Definition, module_names: frozenset[str]) -> str:
    copy = ast.parse(ast.unparse(node)).body[0]
    canonical = _Canonical(module_names, node.name).visit(copy)
    digest = hashlib.sha256(ast.dump(canonical, include_attributes=False).encode("utf-8")).hexdigest()
    return f"sha256:{digest[:16]}"


def symbol_lines(root: Path, file: str, name: str) -> tuple[int, int] | None:
    """(first, last) line of a cited symbol, for source links; None when it cannot be found."""
    try:
        symbol = find_symbol(root, file, name)
    except SourceError:
        return None
    return (symbol.first_line, symbol.last_line) if symbol else None
