"""The tools catalog: tools, resources and prompts read statically from their decorators and docstrings."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import pytest

from docgen.core.errors import SourceError
from docgen.core.writer import write_outputs
from docgen.kinds.tools.extract import json_type
from tests.helpers import make_files, read_catalog, run_extract_in_memory

MKDOCS_TOOLS = """\
site_name: test
plugins:
  - docgen:
      catalogs:
        tools:
          kind: tools
          source: app/server.py
          decorators: {tool: tool, resource: resource, prompt: prompt}
"""

REGISTRY = """\
from typing import Optional

LIMIT = 5
PREFIX = "docs"


def tool(name=None, description=None):
    return lambda function: function


def resource(uri_template):
    return lambda function: function


def prompt(name=None):
    return lambda function: function


"""


def make_tools(root: Path, source: str) -> Path:
    """A project whose `app/server.py` is REGISTRY followed by `source` (dedented)."""
    server = REGISTRY + textwrap.dedent(source)
    return make_files(root, {"app/__init__.py": "", "app/server.py": server, "mkdocs.yml": MKDOCS_TOOLS})


def catalog(root: Path) -> dict[str, Any]:
    """The tools catalog extract finds under `root`, as the data its file holds."""
    return run_extract_in_memory(root).catalogs["tools"].as_data()


def only_tool(root: Path) -> dict[str, Any]:
    items: list[dict[str, Any]] = catalog(root)["tools"]
    [item] = items
    return item


def parameters(root: Path) -> dict[str, dict[str, Any]]:
    return {parameter["name"]: parameter for parameter in only_tool(root)["parameters"]}


def test_tools_resources_and_prompts_come_from_their_decorators(tmp_path: Path) -> None:
    make_tools(
        tmp_path,
        """\
        @prompt()
        def answer(question: str) -> str:
            \"\"\"Answer a question from the docs.\"\"\"

        @tool()
        def search(query: str) -> str:
            \"\"\"Search the docs.\"\"\"

        @resource("connect://pages/{path}")
        def page(path: str) -> str:
            \"\"\"A page as Markdown.\"\"\"

        def helper(x: int) -> int:
            \"\"\"Not public: no decorator.\"\"\"

        @tool
        def fetch(url: str) -> str:
            \"\"\"Fetch a page.\"\"\"
        """,
    )
    found = catalog(tmp_path)
    assert [item["name"] for item in found["tools"]] == ["search", "fetch"]
    assert [item["name"] for item in found["resources"]] == ["page"]
    assert found["resources"][0]["uri_template"] == "connect://pages/{path}"
    assert [item["name"] for item in found["prompts"]] == ["answer"]
    assert found["sources"] == [{"path": "app/server.py", "symbols": ["search", "fetch", "page", "answer"]}]
    assert (found["catalog"], found["kind"]) == ("tools", "tools")


def test_decorator_options_override_name_and_description(tmp_path: Path) -> None:
    make_tools(
        tmp_path,
        """\
        @tool(name=PREFIX + "_search", description="Find pages.")
        def search(query: str) -> str:
            \"\"\"Search the docs.\"\"\"
        """,
    )
    item = only_tool(tmp_path)
    assert (item["name"], item["function"], item["description"]) == ("docs_search", "search", "Find pages.")


def test_an_attribute_decorator_matches_by_its_last_name(tmp_path: Path) -> None:
    make_tools(
        tmp_path,
        """\
        class Server:
            tool = staticmethod(tool)

        server = Server()

        @server.tool()
        def search(query: str) -> str:
            \"\"\"Search the docs.\"\"\"
        """,
    )
    assert only_tool(tmp_path)["name"] == "search"


TYPES = {
    "str": ("str", "string"),
    "int": ("int", "integer"),
    "bool": ("bool", "boolean"),
    "float": ("float", "number"),
    "list[str]": ("list[str]", "array"),
    "tuple[int, ...]": ("tuple[int, ...]", "array"),
    "dict[str, int]": ("dict[str, int]", "object"),
    "str | None": ("str | None", "string or null"),
    "Optional[int]": ("Optional[int]", "integer or null"),
    "Optional[list[str]]": ("Optional[list[str]]", "array or null"),
    "typing.Optional[str]": ("typing.Optional[str]", "string or null"),
    "Union[int, str]": ("Union[int, str]", "integer or string"),
    "list[str] | None": ("list[str] | None", "array or null"),
}


@pytest.mark.parametrize(("annotation", "expected"), TYPES.values(), ids=TYPES)
def test_json_type(annotation: str, expected: str) -> None:
    assert json_type(annotation) == expected


@pytest.mark.parametrize(("annotation", "expected"), TYPES.values(), ids=TYPES)
def test_parameter_types_in_the_catalog(tmp_path: Path, annotation: str, expected: str) -> None:
    make_tools(
        tmp_path,
        f"import typing\nfrom typing import Union\n\n@tool()\ndef search(value: {annotation}): ...\n",
    )
    assert parameters(tmp_path)["value"]["type"] == expected


def test_required_parameters_and_static_defaults(tmp_path: Path) -> None:
    make_tools(
        tmp_path,
        """\
        @tool()
        def search(
            self,
            query,
            limit: int = LIMIT,
            exact: bool = False,
            ratio: float = 0.5,
            tags: tuple[str, ...] = ("a", "b"),
            scale: int = LIMIT * 2,
            section: str | None = None,
            _trace: bool = False,
        ) -> str:
            \"\"\"Search the docs.\"\"\"
        """,
    )
    found = {name: (p["type"], p["required"], p["default"]) for name, p in parameters(tmp_path).items()}
    assert found == {
        "query": ("any", True, None),
        "limit": ("integer", False, 5),
        "exact": ("boolean", False, False),
        "ratio": ("number", False, 0.5),
        "tags": ("array", False, ["a", "b"]),
        "scale": ("integer", False, 10),
        "section": ("string or null", False, None),
    }


def test_descriptions_come_from_the_google_docstring(tmp_path: Path) -> None:
    make_tools(
        tmp_path,
        """\
        @tool()
        def search(query: str, limit: int = 5, exact: bool = False) -> str:
            \"\"\"Search the public documentation
            and list the best pages.

            Matching ignores case.

            Args:
                query: A few words to look for,
                    such as "rate limit".
                limit: How many pages to list at most.
            \"\"\"
        """,
    )
    item = only_tool(tmp_path)
    assert item["description"] == "Search the public documentation and list the best pages."
    assert [p["description"] for p in item["parameters"]] == [
        'A few words to look for, such as "rate limit".',
        "How many pages to list at most.",
        "",
    ]


def test_no_docstring_gives_empty_descriptions(tmp_path: Path) -> None:
    make_tools(tmp_path, "@tool()\ndef search(query: str): ...\n")
    item = only_tool(tmp_path)
    assert item["description"] == ""
    assert item["parameters"][0]["description"] == ""


UNSTATIC = {
    "a default that calls": (
        "def search(query: str, when: str = now()) -> str:",
        "the default of search(when)",
    ),
    "a default naming a local": (
        "def search(query: str, n: int = limit) -> str:",
        "the default of search(n)",
    ),
    "a decorator option that calls": (
        "def search(query: str) -> str:",
        "the decorator of search is not static",
    ),
}


@pytest.mark.parametrize(("signature", "message"), UNSTATIC.values(), ids=UNSTATIC)
def test_a_value_that_is_not_static_is_a_located_source_error(
    tmp_path: Path, signature: str, message: str
) -> None:
    decorator = "@tool(name=make_name())" if "decorator" in message else "@tool()"
    make_tools(tmp_path, f"{decorator}\n{signature}\n    return query\n")
    with pytest.raises(SourceError) as caught:
        catalog(tmp_path)
    error = caught.value
    assert error.message.startswith(message)
    assert error.file == "app/server.py"
    assert error.line == REGISTRY.count("\n") + 1  # the function's first line: its decorator
    assert error.hint


def test_the_written_catalog_matches_its_schema(tmp_path: Path) -> None:
    make_tools(
        tmp_path,
        """\
        @tool()
        def search(query: str, limit: int = 5) -> str:
            \"\"\"Search.\"\"\"

        @resource("x://{id}")
        def thing(id: str) -> str:
            \"\"\"A thing.\"\"\"
        """,
    )
    write_outputs(tmp_path, run_extract_in_memory(tmp_path).outputs)
    assert read_catalog(tmp_path / "data" / "tools.yaml", "data/tools.yaml").as_data() == catalog(tmp_path)
