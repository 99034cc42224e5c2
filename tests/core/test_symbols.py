"""Fingerprints of cited symbols: the in-place renaming gives the values committed pages already carry."""

from __future__ import annotations

import ast
import builtins
import hashlib
from pathlib import Path

import pytest

from docgen.core import fingerprints
from docgen.core import symbols as citations
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


def reference_fingerprint(node: fingerprints.Definition, module_names: frozenset[str]) -> str:
    copy = ast.parse(ast.unparse(node)).body[0]
    canonical = _Canonical(module_names, node.name).visit(copy)
    digest = hashlib.sha256(ast.dump(canonical, include_attributes=False).encode("utf-8")).hexdigest()
    return f"sha256:{digest[:16]}"


def sources(repo_root: Path) -> list[Path]:
    return sorted(
        path
        for folder in ("docgen", "tests", "backend", "benchmarks")
        for path in (repo_root / folder).rglob("*.py")
        if "work" not in path.relative_to(repo_root).parts
    )


def test_fingerprints_match_the_reference_and_leave_the_tree_as_it_was(repo_root: Path) -> None:
    checked = 0
    for path in sources(repo_root):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        before = ast.dump(tree, include_attributes=True)
        names = fingerprints.module_names(tree)
        definitions = [node for node in ast.walk(tree) if isinstance(node, fingerprints.Definition)]
        for node in definitions:
            expected = reference_fingerprint(node, names)
            assert fingerprints.fingerprinted(node, names, {})[0] == expected, (path, node.name)
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
    assert isinstance(node, fingerprints.Definition)
    names = fingerprints.module_names(tree)
    assert fingerprints.fingerprinted(node, names, {})[0] == reference_fingerprint(node, names)


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


def marked(
    source: str, leading: dict[str, str]
) -> tuple[ast.Module, dict[fingerprints.CallSpan, frozenset[str]]]:
    """`source` parsed, with each call of a function named in `leading` marked as leading to the errors of
    that function's facts (as extract marks the calls on an entry's path)."""
    tree = ast.parse(source)
    marks = {
        fingerprints.call_span(node): frozenset({leading[node.func.id]})
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in leading
    }
    return tree, marks


def print_of(source: str, leading: dict[str, str], name: str = "endpoint") -> citations.Symbol:
    tree, marks = marked(source, leading)
    before = ast.dump(tree, include_attributes=True)
    symbol = citations._locate(tree, "server.py", name, marks)
    assert ast.dump(tree, include_attributes=True) == before  # the tree comes out as it went in
    assert symbol is not None
    return symbol


ORIGIN_FACTS = '{"code": -32600, "id": "origin-not-allowed", "message": "Origin not allowed"}'
INLINE = """\
def endpoint(request):
    origin = request.headers.get("origin")
    if origin is not None and not allowed(origin):
        return error(-32600, "Origin not allowed")
    return handle(request)
"""
HELPER = """\
def check_origin(origin):
    if origin is not None and not allowed(origin):
        return error(-32600, "Origin not allowed")
    return None

def endpoint(request):
    origin = request.headers.get("origin")
    if (refusal := check_origin(origin)) is not None:
        return refusal
    return handle(request)
"""


def test_an_early_exit_hashes_as_the_errors_it_leads_to_inline_or_through_a_helper() -> None:
    inline = print_of(INLINE, {"error": ORIGIN_FACTS})
    helper = print_of(HELPER, {"error": ORIGIN_FACTS, "check_origin": ORIGIN_FACTS})
    assert inline.fingerprint == helper.fingerprint
    assert print_of(HELPER, {"error": ORIGIN_FACTS}).fingerprint != inline.fingerprint  # not on the path
    reworded = ORIGIN_FACTS.replace("not allowed", "refused")
    assert print_of(INLINE, {"error": reworded}).fingerprint != inline.fingerprint
    # A return, a raise or an expression statement leading to the errors is a marker of its own kind.
    ending = "    return handle(request)\n"
    inline_return = INLINE.replace(ending, '    return error(-32600, "Origin not allowed")\n')
    helper_return = INLINE.replace(ending, "    return check_origin(origin)\n")
    assert (
        print_of(inline_return, {"error": ORIGIN_FACTS}).fingerprint
        == print_of(helper_return, {"error": ORIGIN_FACTS, "check_origin": ORIGIN_FACTS}).fingerprint
    )
    kinds = [
        helper_return,
        helper_return.replace("return check", "raise check"),
        helper_return.replace("return check", "check"),
    ]
    prints = {print_of(text, {"check_origin": ORIGIN_FACTS}).fingerprint for text in kinds}
    assert len(prints) == 3


def test_every_other_statement_is_hashed_as_before() -> None:
    inline = print_of(INLINE, {"error": ORIGIN_FACTS})
    other_header = INLINE.replace('get("origin")', 'get("referer")')
    assert print_of(other_header, {"error": ORIGIN_FACTS}).fingerprint != inline.fingerprint
    other_call = INLINE.replace("return handle(request)", "return handle(request, strict=True)")
    assert print_of(other_call, {"error": ORIGIN_FACTS}).fingerprint != inline.fingerprint
    # The guard's condition is in the facts (check compares those), so it no longer counts as syntax.
    other_test = INLINE.replace("not allowed(origin)", "not allowed(origin, strict=True)")
    assert print_of(other_test, {"error": ORIGIN_FACTS}).fingerprint == inline.fingerprint
    # Without any reaching call, a symbol hashes exactly as it did before errors were marked.
    tree = ast.parse(INLINE)
    names = fingerprints.module_names(tree)
    assert print_of(INLINE, {}).fingerprint == reference_fingerprint(tree.body[0], names)  # type: ignore[arg-type]
    assert print_of(INLINE, {"unrelated": ORIGIN_FACTS}).fingerprint == print_of(INLINE, {}).fingerprint


@pytest.mark.parametrize(
    "shape",
    [
        '    else:\n        log("allowed")\n',  # an else: the if does more than exit
        '        log("refused")\n',  # a body that does more than return
    ],
    ids=["with an else", "with more in the body"],
)
def test_an_if_that_is_not_an_early_exit_does_not_collapse(shape: str) -> None:
    guard = '        return error(-32600, "Origin not allowed")\n'
    source = INLINE.replace(guard, guard + shape) if "else" in shape else INLINE.replace(guard, shape + guard)
    base = print_of(source, {"error": ORIGIN_FACTS})
    # The test stays syntax: changing it changes the fingerprint, where in an early exit it would not.
    changed = source.replace("not allowed(origin)", "not allowed(origin, strict=True)")
    assert print_of(changed, {"error": ORIGIN_FACTS}).fingerprint != base.fingerprint
    # The return inside it is still hashed as its errors' facts.
    reworded = ORIGIN_FACTS.replace("not allowed", "refused")
    assert print_of(source, {"error": reworded}).fingerprint != base.fingerprint
    assert print_of(source, {"error": ORIGIN_FACTS}).fingerprint == base.fingerprint


def test_a_helper_routes_errors_only_when_each_statement_leads_to_errors_or_returns_none() -> None:
    leading = {"error": ORIGIN_FACTS, "check_origin": ORIGIN_FACTS}
    assert print_of(HELPER, leading, "check_origin").routes_errors_only
    assert not print_of(HELPER, leading, "endpoint").routes_errors_only
    assert not print_of(HELPER, {}, "check_origin").routes_errors_only  # no errors marked at all
    busier = HELPER.replace(
        "def check_origin(origin):\n", "def check_origin(origin):\n    origin = origin.lower()\n"
    )
    assert not print_of(busier, leading, "check_origin").routes_errors_only
    documented = HELPER.replace(
        "def check_origin(origin):\n", 'def check_origin(origin):\n    """Refuse."""\n'
    )
    assert print_of(documented, leading, "check_origin").routes_errors_only
