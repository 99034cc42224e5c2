"""The quick schema check says yes only where jsonschema says yes, and says it for the files docgen reads."""

from __future__ import annotations

import copy
import datetime
import json
import random
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from docgen.core.schema_check import compile_schema
from docgen.core.schemas import SCHEMA_DIR
from docgen.core.yamlio import read_yaml

DOCUMENTS = {
    "errors-catalog": "data/mcp-errors.yaml",
    "tools-catalog": "data/mcp-tools.yaml",
    "errors-notes": "data/mcp-errors.notes.yaml",
    "errors-evidence": "data/mcp-errors.evidence.yaml",
    "spec": "data/specs/mcp-2026-07-28.yaml",
    "spec-baseline": "data/specs/mcp-2026-07-28.baseline.yaml",
}
ODD_VALUES: list[Any] = [
    None, True, False, 0, 1, -1, 100, 600, 1.0, 0.5, "", "x", "Bad Id", "-leading", "POST", "post", "http://x",
    "{{ A }}", [], ["a"], ["a", "a"], [1], {}, {"x": 1}, {1: "a"}, datetime.date(2026, 7, 28),
]  # fmt: skip


def schema(name: str) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((SCHEMA_DIR / f"{name}.schema.json").read_text(encoding="utf-8"))
    return loaded


def document(repo_root: Path, name: str) -> Any:
    return read_yaml(repo_root / DOCUMENTS[name], DOCUMENTS[name]).data


def valid(instance: Any, name: str) -> bool:
    return not any(jsonschema.Draft202012Validator(schema(name)).iter_errors(instance))


@pytest.mark.parametrize("name", DOCUMENTS)
def test_the_committed_files_take_the_quick_path(repo_root: Path, name: str) -> None:
    instance = document(repo_root, name)
    assert valid(instance, name)
    assert compile_schema(schema(name))(instance)


def nodes(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """The path of every node of a document: mapping keys and list positions."""
    found = [path]
    children = (
        value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else []
    )
    for key, child in children:
        found += nodes(child, (*path, key))
    return found


def mutate(instance: Any, rng: random.Random) -> Any:
    """The document with one node replaced, removed, or given an extra key or item."""
    changed = copy.deepcopy(instance)
    path = rng.choice(nodes(changed)[1:])
    parent = changed
    for key in path[:-1]:
        parent = parent[key]
    action = rng.choice(["replace", "replace", "remove", "add"])
    if action == "replace":
        parent[path[-1]] = copy.deepcopy(rng.choice(ODD_VALUES))
    elif action == "remove":
        del parent[path[-1]]
    elif isinstance(parent, dict):
        parent[rng.choice(["extra", "cause", "kind", "spec", "id", "status"])] = rng.choice(ODD_VALUES)
    else:
        parent.append(copy.deepcopy(parent[path[-1]]))
    return changed


@pytest.mark.parametrize("name", DOCUMENTS)
def test_a_quick_yes_is_always_a_jsonschema_yes(repo_root: Path, name: str) -> None:
    original, rules = document(repo_root, name), schema(name)
    rng = random.Random(name)
    outcomes = set()
    compiled = compile_schema(rules)  # compiled once, as catalog.validate keeps it
    for _ in range(250):
        instance = mutate(original, rng)
        quick = compile_schema(rules)(instance)  # compiled afresh: the kept checker holds no state
        assert compiled(instance) == quick
        assert valid(instance, name) or not quick, instance
        outcomes.add(quick)
    assert outcomes == {True, False}  # the mutations both keep and break conformance
