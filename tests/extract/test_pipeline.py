"""Extraction: every resolution form, the recorded facts of a call site, and every error case."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from docgen.core.errors import ConfigError, SourceError
from docgen.extract.pipeline import Extraction
from docgen.kinds.errors.catalog import ErrorsExtraction
from tests.helpers import SEED_ROWS, make_files, make_project, run_extract_in_memory


def run(root: Path) -> Extraction:
    return run_extract_in_memory(root)


def data(root: Path) -> dict[str, Any]:
    """The errors catalog extract finds under `root`, as the data its file holds."""
    return run(root).catalogs["errors"].as_data()


def entries(root: Path) -> list[dict[str, Any]]:
    result: list[dict[str, Any]] = data(root)["entries"]
    return result


def single(root: Path) -> dict[str, Any]:
    [entry] = entries(root)
    return entry


RESOLUTION_CASES = {
    "int literals": ("return _rpc_error(1, -32600, 'Bad', status=400)", {}, (-32600, 400)),
    "unary minus on a constant": (
        "return _rpc_error(1, -CODE, 'Bad', status=404)",
        {"CODE": "32601"},
        (-32601, 404),
    ),
    "module constants": (
        "return _rpc_error(1, CODE, 'Bad', status=STATUS)",
        {"CODE": "-32700", "STATUS": "400"},
        (-32700, 400),
    ),
    "arithmetic": (
        "return _rpc_error(1, BASE - 20, 'Bad', status=400 + 13)",
        {"BASE": "-32000"},
        (-32020, 413),
    ),
    "HTTPStatus member": (
        "return _rpc_error(1, -32603, 'Bad', status=HTTPStatus.TOO_MANY_REQUESTS)",
        {},
        (-32603, 429),
    ),
    "constructor default": ("return _rpc_error(1, -32602, 'Bad')", {}, (-32602, 200)),
    "constant of a constant": (
        "return _rpc_error(1, CODE, 'Bad', status=LIMIT)",
        {"CODE": "OTHER", "OTHER": "-32601", "LIMIT": "HTTPStatus.NOT_FOUND"},
        (-32601, 404),
    ),
}


@pytest.mark.parametrize(("call", "constants", "expected"), RESOLUTION_CASES.values(), ids=RESOLUTION_CASES)
def test_code_and_status_resolve(
    tmp_path: Path, call: str, constants: dict[str, str], expected: tuple[int, int]
) -> None:
    header = "".join(f"{name} = {value}\n" for name, value in constants.items())
    make_project(tmp_path, f"{header}\ndef endpoint(request):\n    {call}\n")
    entry = single(tmp_path)
    assert (entry["code"], entry["status"]) == expected


def test_constants_imported_from_another_module_and_intenum_members(tmp_path: Path) -> None:
    make_project(
        tmp_path,
        """\
        from app.codes import Code, LIMIT_STATUS
        from . import codes

        def endpoint(request):
            if request:
                return _rpc_error(1, Code.PARSE, "Parse error", status=LIMIT_STATUS)
            return _rpc_error(1, codes.Code.INVALID, "Invalid", status=codes.BAD)
        """,
        extra={
            "app/codes.py": """\
                from enum import IntEnum
                from http import HTTPStatus

                BASE = -32000

                class Code(IntEnum):
                    PARSE = -32700
                    INVALID = BASE - 600

                LIMIT_STATUS = HTTPStatus.TOO_MANY_REQUESTS
                BAD = 400
                """
        },
    )
    found = [(e["code"], e["status"], e["constants_used"]) for e in entries(tmp_path)]
    assert found == [
        (-32700, 429, ["Code.PARSE", "LIMIT_STATUS"]),
        (-32600, 400, ["BAD", "BASE", "Code.INVALID"]),
    ]


def test_raise_style_constructor_with_a_class(tmp_path: Path) -> None:
    make_files(
        tmp_path,
        {
            "app/__init__.py": "",
            "app/server.py": """\
                class RpcError(Exception):
                    def __init__(self, code, message, status=500, data=None):
                        super().__init__(message)

                def endpoint(request):
                    if not request:
                        raise RpcError(-32600, "Empty request", status=400)
                    raise RpcError(-32603, "Boom")
                """,
            "mkdocs.yml": """\
                site_name: t
                plugins:
                  - docgen:
                      catalogs:
                        errors:
                          kind: errors
                          source: app/server.py
                          constructors: [RpcError]
                          functions: [endpoint]
                          arguments: {code: 0, message: 1, status: status}
                """,
        },
    )
    assert [(e["code"], e["status"], e["message"]) for e in entries(tmp_path)] == [
        (-32600, 400, "Empty request"),
        (-32603, 500, "Boom"),
    ]


def test_recorded_facts_of_a_call_site(tmp_path: Path) -> None:
    make_project(
        tmp_path,
        """\
        def endpoint(request):
            name = request.name
            if request.kind == "tool":
                if name not in TOOLS:
                    # The tool named in the call does not exist.
                    return _rpc_error(1, -32601, f"Unknown tool: {name}", data={"name": name, "hint": 1})
            return None

        TOOLS = {}
        """,
    )
    entry = single(tmp_path)
    assert entry["message"] == "Unknown tool: {name}"
    assert entry["function"] == "endpoint"
    assert entry["file"] == "app/server.py"
    assert entry["conditions"] == ["request.kind == 'tool'", "name not in TOOLS"]
    assert entry["data_keys"] == ["hint", "name"]
    assert entry["draft_cause"] == "The tool named in the call does not exist."
    assert entry["id"] == "unknown-tool"
    assert "line" not in entry


def test_else_and_except_branches_become_conditions(tmp_path: Path) -> None:
    make_project(
        tmp_path,
        """\
        def endpoint(request):
            try:
                if request:
                    pass
                else:
                    return _rpc_error(1, -32600, "Empty", status=400)
            except ValueError:
                return _rpc_error(1, -32700, "Parse error", status=400)
        """,
    )
    assert [e["conditions"] for e in entries(tmp_path)] == [["not (request)"], ["except ValueError"]]


def test_functions_are_scanned_in_configured_order(tmp_path: Path) -> None:
    make_project(
        tmp_path,
        """\
        def second(request):
            return _rpc_error(1, -32601, "Second")

        def first(request):
            return _rpc_error(1, -32600, "First")
        """,
        functions="first, second",
    )
    assert [e["message"] for e in entries(tmp_path)] == ["First", "Second"]


def test_a_function_imported_from_another_module_is_read_where_it_is_defined(tmp_path: Path) -> None:
    make_project(
        tmp_path,
        """\
        from app.handlers import handle

        def endpoint(request):
            return handle(request)
        """,
        functions="endpoint, handle",
        extra={
            "app/handlers.py": """\
                from app.server import _rpc_error

                REFUSED = 409


                def handle(request):
                    if request is None:
                        # The handler refused the request.
                        return _rpc_error(1, -32001, "Refused", status=REFUSED)
                """,
        },
    )
    result = run(tmp_path)
    [entry] = result.catalogs["errors"].as_data()["entries"]
    assert (entry["file"], entry["status"], entry["constants_used"]) == ("app/handlers.py", 409, ["REFUSED"])
    assert entry["draft_cause"] == "The handler refused the request."
    assert result.of("errors", ErrorsExtraction).sites[0].line == 9  # in app/handlers.py, not app/server.py
    assert result.catalogs["errors"].as_data()["sources"] == [
        {"path": "app/server.py", "symbols": ["_rpc_error", "endpoint"]},
        {"path": "app/handlers.py", "symbols": ["handle"]},
    ]


def test_a_form_feed_does_not_shift_the_comment_read_as_draft_cause(tmp_path: Path) -> None:
    make_project(
        tmp_path,
        """\
        def endpoint(request):
            x = 1  # a form feed here: \f is not a line break to Python
            # The request was empty.
            return _rpc_error(1, -32600, "Empty")
        """,
    )
    assert single(tmp_path)["draft_cause"] == "The request was empty."


def test_same_source_gives_the_same_bytes(tmp_path: Path) -> None:
    make_project(tmp_path, "def endpoint(request):\n    return _rpc_error(1, -32600, 'Bad', status=400)\n")
    assert run(tmp_path).outputs == run(tmp_path).outputs


UNRESOLVABLE = {
    "a string status": ("return _rpc_error(1, -32600, 'Bad', status='400')", "status", "not an integer"),
    "a tuple code": ("return _rpc_error(1, (1, 2), 'Bad')", "code", "not an integer or a string"),
}

KNOWN_AT_RUN_TIME = {
    "a call": ("return _rpc_error(1, compute(), 'Bad')", {"code": "compute()"}),
    "data that is not a literal": ("return _rpc_error(1, -32600, 'Bad', data=make())", {"data": "make()"}),
    "a local variable": ("code = -1\n    return _rpc_error(1, code, 'Bad')", {"code": "code"}),
    "an undefined name": ("return _rpc_error(1, -32600, 'Bad', status=MISSING)", {"status": "MISSING"}),
    "a name a module defines only when run": ("return _rpc_error(1, os.EX_OK, 'Bad')", {"code": "os.EX_OK"}),
}


@pytest.mark.parametrize(("body", "dynamic"), KNOWN_AT_RUN_TIME.values(), ids=KNOWN_AT_RUN_TIME)
def test_a_value_known_only_at_run_time_keeps_its_entry_marked_dynamic(
    tmp_path: Path, body: str, dynamic: dict[str, str]
) -> None:
    make_project(tmp_path, f"import os\n\ndef endpoint(request):\n    {body}\n")
    entry = single(tmp_path)
    assert entry["dynamic"] == dynamic
    for role in dynamic:
        assert role not in entry or entry[role] == []
    assert entry["message"] == "Bad"


def test_unpacked_arguments_are_known_only_at_run_time(tmp_path: Path) -> None:
    make_project(
        tmp_path, "def endpoint(request, options):\n    return _rpc_error(1, -32000, 'Bad', **options)\n"
    )
    entry = single(tmp_path)
    assert (entry["code"], entry["message"]) == (-32000, "Bad")
    assert entry["dynamic"] == {"status": "options", "data": "options"}


MESSAGES_AT_RUN_TIME = {
    "str of an exception": ("str(exc)", "{exc}"),
    "a variable": ("reason", "{reason}"),
    "an f-string of one": ("f'{exc}'", "{exc}"),
    "an f-string of str of one": ("f'Failed: {str(exc)}'", "Failed: {exc}"),
    "an expression": ("'Bad ' + str(1)", "{'Bad ' + str(1)}"),
}


@pytest.mark.parametrize(("message", "template"), MESSAGES_AT_RUN_TIME.values(), ids=MESSAGES_AT_RUN_TIME)
def test_a_message_known_only_at_run_time_is_a_template(tmp_path: Path, message: str, template: str) -> None:
    server = f"""\
        def endpoint(request):
            try:
                request.run()
            except ValueError as exc:
                reason = exc.args
                return _rpc_error(1, -32602, {message})
        """
    make_project(tmp_path, server)
    entry = single(tmp_path)
    assert (entry["code"], entry["message"]) == (-32602, template)
    assert "dynamic" not in entry


@pytest.mark.parametrize(("body", "role", "detail"), UNRESOLVABLE.values(), ids=UNRESOLVABLE)
def test_unresolvable_values_are_located_errors(tmp_path: Path, body: str, role: str, detail: str) -> None:
    make_project(tmp_path, f"import os\n\ndef endpoint(request):\n    {body}\n")
    with pytest.raises(SourceError) as caught:
        run(tmp_path)
    error = caught.value
    assert error.file == "app/server.py"
    assert error.line is not None and error.line > 5
    assert f"the {role} of this _rpc_error() call" in error.message
    assert detail in error.message
    assert error.hint


def test_a_configuration_that_matches_no_call_is_a_located_error(tmp_path: Path) -> None:
    make_project(tmp_path, "def endpoint(request):\n    return {'ok': True}\n")
    with pytest.raises(ConfigError) as caught:
        run(tmp_path)
    # At the function that reaches no call (its line under 'functions:'), with what to do about it.
    assert (caught.value.file, caught.value.line) == ("mkdocs.yml", 9)
    expected = "'catalogs.errors.functions': the function 'endpoint' reaches no call of '_rpc_error'"
    assert caught.value.message == expected
    assert caught.value.hint


def test_a_file_nothing_imports_is_not_read(tmp_path: Path) -> None:
    make_project(
        tmp_path,
        "def endpoint(request):\n    return _rpc_error(1, -32000, 'Bad')\n",
        extra={"app/other.py": "x = 1\ndef f(:\n"},
    )
    result = run(tmp_path)
    assert result.warnings == []


BROKEN_MODULES = {
    "a syntax error": ("x = 1\ndef f(:\n", 2, "syntax error"),
    "syntax of a newer Python": ("type Alias = int\nCODE = -32000\n", 1, "newer Python than"),
    "non-UTF-8 text": (b"x = 1\ny = '\xe9'\n", 2, "UTF-8"),
    "a crash inside griffe": (
        """\
        from typing import overload
        class C:
            @overload
            def __init__(self, x: int) -> None: ...
            @overload
            def __init__(self, x: str) -> None: ...
            def __init__(self, x):
                @overload
                def inner(y: int) -> int: ...
                @overload
                def inner(y: str) -> str: ...
                def inner(y):
                    return y
        """,
        None,
        "griffe could not read it",
    ),
}


@pytest.mark.parametrize(("text", "line", "reason"), BROKEN_MODULES.values(), ids=BROKEN_MODULES)
def test_a_broken_module_no_catalog_needs_is_skipped_with_a_warning(
    tmp_path: Path, text: str | bytes, line: int | None, reason: str
) -> None:
    server = "import app.other\n\ndef endpoint(request):\n    return _rpc_error(1, -32000, 'Bad')\n"
    make_project(tmp_path, server)
    _write(tmp_path / "app" / "other.py", text)
    result = run(tmp_path)
    assert len(result.catalogs["errors"].entries) == 1
    [warning] = result.warnings
    assert warning.startswith(f"app/other.py:{line}: skipped, " if line else "app/other.py: skipped, ")
    assert reason in warning and "no catalog needs the module app.other" in warning


@pytest.mark.parametrize(("text", "line", "reason"), BROKEN_MODULES.values(), ids=BROKEN_MODULES)
def test_a_broken_module_a_catalog_needs_is_a_located_error(
    tmp_path: Path, text: str | bytes, line: int | None, reason: str
) -> None:
    server = "from app.other import CODE\n\ndef endpoint(request):\n    return _rpc_error(1, CODE, 'Bad')\n"
    make_project(tmp_path, server)
    _write(tmp_path / "app" / "other.py", text)
    with pytest.raises(SourceError) as caught:
        run(tmp_path)
    assert (caught.value.file, caught.value.line) == ("app/other.py", line)
    assert reason in caught.value.message and "app.other" in caught.value.message
    assert caught.value.hint


def _write(path: Path, text: str | bytes) -> None:
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        import textwrap

        path.write_text(textwrap.dedent(text), encoding="utf-8")


def test_a_misspelled_function_gets_a_suggestion(tmp_path: Path) -> None:
    make_project(tmp_path, "def endpoint(request):\n    return None\n", functions="endpont")
    with pytest.raises(ConfigError) as caught:
        run(tmp_path)
    assert "'endpont' is not defined" in caught.value.message
    assert caught.value.hint == "did you mean 'endpoint'?"


def test_the_backend_is_never_imported(tmp_path: Path) -> None:
    marker = tmp_path / "imported.txt"
    make_project(
        tmp_path,
        f"""\
        import pathlib
        pathlib.Path({str(marker)!r}).write_text("the backend ran")
        raise SystemExit("importing this module is forbidden")

        def endpoint(request):
            return _rpc_error(1, -32600, "Bad", status=400)
        """,
        extra={"app/__init__.py": "raise ImportError('the package must not be imported')\n"},
    )
    assert single(tmp_path)["code"] == -32600
    assert not marker.exists()
    assert not any(name == "app" or name.startswith("app.") for name in sys.modules)


def test_module_constants_are_exported_for_notes(tmp_path: Path) -> None:
    make_project(
        tmp_path,
        """\
        MAX_BODY_BYTES = 256 * 1024
        VERSIONS = ("2025-06-18", "2026-07-28")
        lower_case = 1
        DYNAMIC = compute()

        def endpoint(request):
            return _rpc_error(1, -32600, "Bad", status=413)
        """,
    )
    constants = data(tmp_path)["constants"]
    assert constants["MAX_BODY_BYTES"] == 262144
    assert constants["VERSIONS"] == ["2025-06-18", "2026-07-28"]
    assert "lower_case" not in constants and "DYNAMIC" not in constants


def test_the_real_backend_gives_exactly_the_seed_rows(repo_root: Path) -> None:
    result = run(repo_root)
    pairs = sorted((e["code"], e["status"]) for e in result.catalogs["mcp-errors"].as_data()["entries"])
    assert pairs == sorted(SEED_ROWS)


def test_extract_reproduces_the_committed_files_byte_for_byte(repo_root: Path) -> None:
    result = run(repo_root)
    assert sorted(result.outputs) == ["data/mcp-errors.yaml", "data/mcp-tools.yaml"]
    for relative, text in result.outputs.items():
        assert (repo_root / relative).read_text(encoding="utf-8") == text, relative
