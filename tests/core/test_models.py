"""The typed values of the catalogs, notes and evidence: the data of their files, key for key, both ways."""

from __future__ import annotations

from pathlib import Path

from docgen.core.evidence import parse_evidence
from docgen.core.models import ErrorEntry, ErrorsCatalog, Parameter, Source, Tool, ToolsCatalog
from docgen.core.yamlio import read_yaml


def data_of(repo_root: Path, relative: str) -> object:
    return read_yaml(repo_root / relative, relative).data


def test_the_committed_catalogs_read_back_into_exactly_their_data(repo_root: Path) -> None:
    errors = data_of(repo_root, "data/mcp-errors.yaml")
    tools = data_of(repo_root, "data/mcp-tools.yaml")
    assert isinstance(errors, dict) and isinstance(tools, dict)
    assert ErrorsCatalog.from_data(errors).as_data() == errors
    assert list(ErrorsCatalog.from_data(errors).as_data()["entries"][0]) == list(errors["entries"][0])
    assert ToolsCatalog.from_data(tools).as_data() == tools


def test_the_committed_evidence_reads_back_into_exactly_its_data(repo_root: Path) -> None:
    relative = "data/mcp-errors.evidence.yaml"
    loaded = read_yaml(repo_root / relative, relative)
    assert parse_evidence(loaded).as_data() == loaded.data


def test_optional_fields_are_left_out_when_empty() -> None:
    entry = ErrorEntry("bad", -32600, 400, "Bad", "handle", "app.py")
    assert list(entry.as_data()) == [
        "id", "code", "status", "message", "function", "file", "conditions", "data_keys", "constants_used",
    ]  # fmt: skip
    helped = ErrorEntry("bad", -32600, 400, "Bad", "check", "app.py", path=("handle", "check"))
    assert helped.as_data()["path"] == ["handle", "check"]  # written only when a helper was on the way
    assert "draft_cause" in ErrorEntry("bad", -32600, 400, "Bad", "f", "a.py", draft_cause="Why.").as_data()
    tool = Tool("t", "t", "Does.", (Parameter("q", "string", True, None, "What."),))
    assert list(tool.as_data()) == ["name", "function", "description", "parameters"]
    resource = Tool("r", "r", "Is.", (), uri_template="x://{id}")
    assert list(resource.as_data()) == ["name", "function", "uri_template", "description", "parameters"]


def test_a_catalog_is_a_value() -> None:
    first = ErrorsCatalog("c", (Source("a.py", ("f",)),), {"LIMIT": 5}, ())
    second = ErrorsCatalog("c", (Source("a.py", ("f",)),), {"LIMIT": 5}, ())
    assert first == second and first.kind == "errors"
    assert ToolsCatalog("t", (), (), (), ()).items("prompts") == ()
