"""The calls extraction marks as leading to catalogued errors, and the facts it marks them with."""

from __future__ import annotations

import ast
import dataclasses
import json
from pathlib import Path

from docgen.core.fingerprints import call_span
from docgen.extract.error_marks import entry_facts
from docgen.kinds.errors.catalog import ErrorsExtraction
from tests.helpers import run_extract_in_memory

SERVER = "backend/app/mcp_server.py"


def calls_in(repo_root: Path, function: str) -> dict[str, ast.Call]:
    """The calls in `function` of the server, by their source text."""
    tree = ast.parse((repo_root / SERVER).read_text(encoding="utf-8"))
    [node] = [n for n in tree.body if isinstance(n, ast.AsyncFunctionDef) and n.name == function]
    return {ast.unparse(call): call for call in ast.walk(node) if isinstance(call, ast.Call)}


def test_each_constructor_call_of_the_server_leads_to_its_entry_and_nothing_else_is_marked(
    repo_root: Path,
) -> None:
    extraction = run_extract_in_memory(repo_root)
    marks = extraction.error_marks[SERVER]
    catalog = extraction.catalogs["mcp-errors"]
    assert len(marks) == len(catalog.entries)  # no helpers yet: one constructor call per entry
    calls = calls_in(repo_root, "mcp_endpoint")
    origin = next(call for text, call in calls.items() if "Origin not allowed" in text)
    [facts] = marks[call_span(origin)]
    assert json.loads(facts)["id"] == "origin-not-allowed"
    handle = next(call for text, call in calls.items() if text.startswith("_handle("))
    assert call_span(handle) not in marks  # _handle is configured: its entries are its own
    assert extraction.of("mcp-errors", ErrorsExtraction).roots == {
        f"{SERVER}:{name}" for name in ("_rpc_error", "mcp_endpoint", "_handle")
    }


def test_the_facts_are_what_a_client_sees_with_local_names_canonical_and_not_where_the_call_is(
    repo_root: Path,
) -> None:
    catalog = run_extract_in_memory(repo_root).catalogs["mcp-errors"]
    entry = next(e for e in catalog.entries if e.id == "method-not-found")
    names = frozenset({"METHOD_NOT_FOUND"})
    facts = json.loads(entry_facts(entry, names))
    assert set(facts) == {"id", "code", "status", "message", "conditions", "data_keys", "dynamic"}
    assert (facts["code"], facts["status"], facts["conditions"]) == (-32601, 404, ["_ is None or _(_, _, _)"])
    moved = dataclasses.replace(entry, function="_lookup", file="backend/app/other.py", path=("a", "b"))
    renamed = dataclasses.replace(
        entry, conditions=("method_handler is None or dropped(name, fields, headers)",)
    )
    assert entry_facts(moved, names) == entry_facts(renamed, names) == entry_facts(entry, names)
    reworded = dataclasses.replace(entry, message="No such method: {method}")
    assert entry_facts(reworded, names) != entry_facts(entry, names)
