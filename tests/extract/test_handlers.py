"""Exceptions an `except` handler turns into an error: where each is raised, found by reach or anywhere."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from docgen.core.errors import SourceError
from docgen.core.limits import MAX_CALL_DEPTH
from tests.helpers import make_project, run_extract_in_memory

ERRORS = """\
class AppError(Exception):
    pass


class BadInput(AppError):
    pass


class TooBig(BadInput):
    pass


class Unrelated(Exception):
    pass
"""


def entries(root: Path) -> list[dict[str, Any]]:
    result: list[dict[str, Any]] = run_extract_in_memory(root).catalogs["errors"].as_data()["entries"]
    return result


def raises(entry: dict[str, Any]) -> list[tuple[str, str, str, str]]:
    return [(r["exception"], r["function"], r["file"], r["message"]) for r in entry["raises"]]


def test_raises_reached_from_the_try_body_through_calls_and_a_dispatch_table(tmp_path: Path) -> None:
    make_project(
        tmp_path,
        """\
        from app.errors import BadInput, Unrelated
        from app.handlers import HANDLERS

        def endpoint(request):
            handler = HANDLERS.get(request.method)
            try:
                if request.params is None:
                    raise BadInput("no params")
                result = run(handler, request.params)
            except BadInput as exc:
                return _rpc_error(None, -32602, f"Invalid params: {exc}", status=200)
            return result

        def run(handler, params):
            return handler(params)

        def never_called():
            raise BadInput("not reachable from the try body")
        """,
        extra={
            "app/errors.py": ERRORS,
            "app/handlers.py": """\
                from app.errors import BadInput, TooBig, Unrelated

                def _field(params, key):
                    if key not in params:
                        raise BadInput(f"'{key}' is missing")
                    return params[key]

                def get(params):
                    return _field(params, "name")

                def put(params):
                    if len(params) > 9:
                        raise TooBig("too many fields")
                    raise Unrelated("not caught")

                BASE = {"get": get}
                HANDLERS = {**BASE, "put": put}
                """,
        },
    )
    [entry] = entries(tmp_path)
    assert entry["raises_scope"] == "reachable"
    assert raises(entry) == [
        ("BadInput", "_field", "app/handlers.py", "'{key}' is missing"),
        ("TooBig", "put", "app/handlers.py", "too many fields"),
        ("BadInput", "endpoint", "app/server.py", "no params"),
    ]


def test_raises_anywhere_when_the_try_body_reaches_none(tmp_path: Path) -> None:
    make_project(
        tmp_path,
        """\
        from app.errors import AppError, BadInput

        def endpoint(request, callback):
            try:
                return callback(request)
            except AppError:
                return _rpc_error(None, -32000, "Application error", status=500)

        def elsewhere(value):
            if value:
                raise BadInput(value)
            raise AppError("plain", value)
        """,
        extra={"app/errors.py": ERRORS},
    )
    [entry] = entries(tmp_path)
    assert entry["raises_scope"] == "anywhere"
    assert raises(entry) == [
        ("BadInput", "elsewhere", "app/server.py", "{value}"),
        ("AppError", "elsewhere", "app/server.py", "'plain', value"),
    ]


def test_a_handler_of_a_class_outside_the_source_lists_nothing(tmp_path: Path) -> None:
    make_project(
        tmp_path,
        """\
        def endpoint(request):
            try:
                return int(request)
            except ValueError:
                return _rpc_error(None, -32700, "Parse error", status=400)
        """,
    )
    [entry] = entries(tmp_path)
    assert "raises" not in entry and "raises_scope" not in entry


def deep_table_project(root: Path, length: int) -> Path:
    """A `try` that looks its handler up in a dispatch table whose one function, `t0`, reaches `d<length>`
    through `length` calls; `d<length>` raises the caught `BadInput`. Nothing but the table leads there, so
    only the handler's search walks the chain (the errors catalog's walk does not follow a table)."""
    chain = "".join(f"\ndef d{i}(r):\n    return d{i + 1}(r)\n" for i in range(length))
    bottom = f"\ndef d{length}(r):\n    raise BadInput('deep')\n"
    top = "from app.errors import BadInput\n\ndef t0(r):\n    return d0(r)\n"
    table = f"{top}{chain}{bottom}\nTABLE = {{'t': t0}}\n"
    return make_project(
        root,
        """\
        from app.errors import BadInput
        from app.handlers import TABLE

        def endpoint(request):
            try:
                return TABLE[request.method](request)
            except BadInput:
                return _rpc_error(None, -32602, "Invalid params", status=200)
        """,
        extra={"app/errors.py": ERRORS, "app/handlers.py": table},
    )


def test_a_raise_at_the_call_depth_bound_behind_a_dispatch_table_is_reached(tmp_path: Path) -> None:
    deep_table_project(tmp_path, MAX_CALL_DEPTH - 1)  # t0 -> d0 -> ... -> d11: twelve calls
    [entry] = entries(tmp_path)
    assert entry["raises_scope"] == "reachable"
    assert raises(entry) == [("BadInput", "d11", "app/handlers.py", "deep")]


def test_a_raise_past_the_call_depth_bound_behind_a_handler_is_a_located_error(tmp_path: Path) -> None:
    root = deep_table_project(tmp_path, MAX_CALL_DEPTH)
    with pytest.raises(SourceError) as caught:
        run_extract_in_memory(root)
    lines = (root / "app" / "handlers.py").read_text(encoding="utf-8").splitlines()
    assert (caught.value.file, caught.value.line) == ("app/handlers.py", lines.index("    return d12(r)") + 1)
    chain = " -> ".join(["t0", *(f"d{i}" for i in range(13))])
    assert caught.value.message == f"t0 reaches d12 through 13 calls, more than docgen follows (12): {chain}"
    assert caught.value.hint == "catch the exception nearer the code that raises it"
