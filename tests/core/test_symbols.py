"""Fingerprints of cited symbols: the in-place renaming gives the values committed pages already carry."""

from __future__ import annotations

import ast
import builtins
import hashlib
from pathlib import Path

import pytest

from generator.core import symbols as citations
from tests.helpers import run_extract_in_memory


class _Canonical(ast.NodeTransformer):
    """The fingerprint's renaming as first written: on a copy of the tree made by unparsing and parsing."""

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


def reference_fingerprint(node: citations._Definition, module_names: frozenset[str]) -> str:
    copy = ast.parse(ast.unparse(node)).body[0]
    canonical = _Canonical(module_names, node.name).visit(copy)
    digest = hashlib.sha256(ast.dump(canonical, include_attributes=False).encode("utf-8")).hexdigest()
    return f"sha256:{digest[:16]}"


def sources(repo_root: Path) -> list[Path]:
    return sorted(
        path
        for folder in ("generator", "tests", "backend", "benchmarks")
        for path in (repo_root / folder).rglob("*.py")
        if "work" not in path.relative_to(repo_root).parts
    )


def test_fingerprints_match_the_reference_and_leave_the_tree_as_it_was(repo_root: Path) -> None:
    checked = 0
    for path in sources(repo_root):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        before = ast.dump(tree, include_attributes=True)
        names = citations._module_names(tree)
        definitions = [node for node in ast.walk(tree) if isinstance(node, citations._Definition)]
        for node in definitions:
            expected = reference_fingerprint(node, names)
            assert citations._fingerprint(node, names) == expected, (path, node.name)
            checked += 1
        assert ast.dump(tree, include_attributes=True) == before, path
    assert checked > 500


@pytest.mark.parametrize(
    "source",
    [
        "def f(a, /, b: int = 1, *args: str, c, **kw) -> None:\n    x = a + b\n    return len(x)\n",
        "async def f(a):\n    async with a as b:\n        await b\n    lambda q: q\n",
        "@dec(1)\nclass C(Base):\n    x: int = 1\n    def m(self, y):\n        return self.x + y\n",
        "def f():\n    def g(h):\n        return [i for i in h if i]\n    return g\n",
    ],
)
def test_fingerprints_of_small_symbols_match_the_reference(source: str) -> None:
    tree = ast.parse("import os\nBase = object\n" + source)
    node = tree.body[-1]
    assert isinstance(node, citations._Definition)
    names = citations._module_names(tree)
    assert citations._fingerprint(node, names) == reference_fingerprint(node, names)


def test_check_reuses_the_trees_griffe_parsed_and_fingerprints_the_same(
    repo_root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    trees = run_extract_in_memory(repo_root).trees
    cited = "backend/app/mcp_server.py"
    source = (repo_root / cited).read_bytes()
    assert source in trees  # griffe parsed this file, from exactly these bytes
    names = ["_rpc_error", "mcp_endpoint", "_handle"]
    parsed = [citations.SourceFiles(repo_root).symbol(cited, name) for name in names]

    def no_parsing(*args: object, **kwargs: object) -> None:
        raise AssertionError("parsed a file whose tree was adopted")

    monkeypatch.setattr(citations, "_parse", no_parsing)
    adopting = citations.SourceFiles(repo_root)
    adopting.adopt(trees)
    reused = [adopting.symbol(cited, name) for name in names]
    assert reused == parsed
    assert all(symbol is not None for symbol in reused)
    assert [adopting.symbol(cited, name) for name in names] == parsed  # a tree comes out as it went in


def test_symbol_lines_are_read_statically(repo_root: Path) -> None:
    source = repo_root / "backend" / "app" / "mcp_server.py"
    tree = ast.parse(source.read_text(encoding="utf-8"))
    [handle] = [n for n in tree.body if isinstance(n, ast.AsyncFunctionDef) and n.name == "_handle"]
    sources = citations.SourceFiles(repo_root)
    assert sources.lines("backend/app/mcp_server.py", "_handle") == (handle.lineno, handle.end_lineno)
    assert sources.lines("backend/app/mcp_server.py", "no_such_symbol") is None
    assert sources.lines("missing.py", "_handle") is None
