"""The one call walker on small call graphs: what each way of walking visits, and where its bounds stop it."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Literal

import pytest

from docgen.core.errors import SourceError
from docgen.core.limits import MAX_CALL_DEPTH
from docgen.extract import walk
from docgen.extract.walk import CallWalk, Into

Graph = Mapping[str, list[str | tuple[str, object]]]
"""Function -> what its body holds, in order: a callee's name, or (callee, variant); a name starting with
`!` is a value collected there."""


def walker(graph: Graph, each: Literal["path", "walk"]) -> CallWalk[str, str]:
    """A walk over `graph` that collects the `!` values, names a function in capitals and places it in a file
    of its own name; a call sits on the line of its position in the body."""

    def visit(function: str) -> Iterator[str | Into[str]]:
        for line, item in enumerate(graph.get(function, []), 1):
            callee, variant = item if isinstance(item, tuple) else (item, None)
            if callee.startswith("!"):
                yield f"{function}{callee}"
            else:
                yield Into(callee, callee, line, variant=variant)

    return CallWalk(
        visit, each=each, hint="call it from nearer", name=str.upper, file=lambda function: f"{function}.py"
    )


DIAMOND: Graph = {"a": ["b", "c", "!a"], "b": ["d"], "c": ["d", "!c"], "d": ["!d"]}


def test_each_path_walks_a_shared_callee_once_per_path_in_source_order() -> None:
    assert list(walker(DIAMOND, "path").walk("a", "a")) == ["d!d", "d!d", "c!c", "a!a"]


def test_each_walk_walks_a_shared_callee_once_from_every_root() -> None:
    walk_ = walker(DIAMOND, "walk")
    assert list(walk_.walk("a", "a")) == ["d!d", "c!c", "a!a"]
    assert list(walk_.walk("c", "c")) == []  # walked already, from `a`
    assert list(walk_.walk("c", "c", again=True)) == ["c!c"]  # `d` stays walked


def test_a_cycle_is_left_at_the_function_already_on_the_path() -> None:
    graph: Graph = {"a": ["b"], "b": ["a", "b", "!b"]}
    assert list(walker(graph, "path").walk("a", "a")) == ["b!b"]
    assert list(walker(graph, "walk").walk("a", "a")) == ["b!b"]


def test_a_callee_called_twice_from_one_body_is_walked_once_per_variant() -> None:
    graph: Graph = {"a": [("b", "X"), ("b", "X"), ("b", "Y")], "b": ["!b"]}
    assert list(walker(graph, "path").walk("a", "a")) == ["b!b", "b!b"]
    assert list(walker(graph, "walk").walk("a", "a")) == ["b!b"]


def chain(length: int) -> Graph:
    """f0 calls f1 ... calls f<length>, which collects a value."""
    graph: Graph = {f"f{i}": [f"f{i + 1}"] for i in range(length)}
    return {**graph, f"f{length}": ["!end"]}


@pytest.mark.parametrize("each", ["path", "walk"])
def test_a_chain_as_deep_as_the_bound_is_walked_and_one_deeper_is_a_located_error(
    each: Literal["path", "walk"],
) -> None:
    assert list(walker(chain(MAX_CALL_DEPTH), each).walk("f0", "f0")) == [f"f{MAX_CALL_DEPTH}!end"]
    with pytest.raises(SourceError) as caught:
        list(walker(chain(MAX_CALL_DEPTH + 1), each).walk("f0", "f0"))
    names = " -> ".join(f"F{i}" for i in range(MAX_CALL_DEPTH + 2))  # as the walk's `name` gives them
    assert caught.value.message == f"F0 reaches F13 through 13 calls, more than docgen follows (12): {names}"
    # At the call that would go one deeper: in the file of the function that makes it.
    assert (caught.value.file, caught.value.line, caught.value.hint) == ("f12.py", 1, "call it from nearer")


def test_entering_more_bodies_than_the_bound_is_a_located_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(walk, "MAX_CALL_VISITS", 3)
    graph: Graph = {"a": ["b", "c", "d", "!a"], "b": ["!b"], "c": ["!c"], "d": ["!d"]}
    walk_ = walker(graph, "path")
    assert list(walk_.walk("a", "a")) == ["b!b", "c!c", "d!d", "a!a"]  # three bodies: at the bound
    with pytest.raises(SourceError) as caught:
        list(walk_.walk("a", "a"))  # the bound is the walk's, across its roots
    assert caught.value.message == (
        "following the calls of A entered over 3 function bodies (docgen's limit), here at a call of B"
    )
    assert (caught.value.file, caught.value.line, caught.value.hint) == ("a.py", 1, "call it from nearer")
