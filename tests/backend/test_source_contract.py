"""The shape of backend/app/mcp_server.py that docgen's extractor reads statically.

The docs are generated from the `_rpc_error` call sites, so this checks what the extractor
relies on: one helper with a fixed signature, exactly eleven calls in `mcp_endpoint` and
`_handle`, a comment above each, and (code, status) pairs equal to the published table.
"""

from __future__ import annotations

import ast
import inspect
from http import HTTPStatus
from pathlib import Path

from backend.app import mcp_server, protocol
from tests.helpers import SEED_ROWS

SERVER_SOURCE = Path(mcp_server.__file__)
TABLE = SEED_ROWS


def _calls_by_function() -> dict[str, list[ast.Call]]:
    tree = ast.parse(SERVER_SOURCE.read_text(encoding="utf-8"))
    found: dict[str, list[ast.Call]] = {}
    for function in ast.walk(tree):
        if isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
            for node in ast.walk(function):
                if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "_rpc_error":
                    found.setdefault(function.name, []).append(node)
    return found


def _status(call: ast.Call) -> int:
    keyword = next((k.value for k in call.keywords if k.arg == "status"), None)
    if keyword is None:
        return 200
    if isinstance(keyword, ast.Constant):
        return int(keyword.value)
    if isinstance(keyword, ast.Attribute):
        return int(HTTPStatus[keyword.attr])
    assert isinstance(keyword, ast.Name)
    return int(getattr(mcp_server, keyword.id))


def test_rpc_error_signature() -> None:
    signature = inspect.signature(mcp_server._rpc_error)
    params = signature.parameters
    assert list(params) == ["request_id", "code", "message", "status", "data", "doc"]
    assert params["status"].kind is inspect.Parameter.KEYWORD_ONLY
    assert params["data"].kind is inspect.Parameter.KEYWORD_ONLY
    assert params["doc"].kind is inspect.Parameter.KEYWORD_ONLY
    assert params["status"].default is HTTPStatus.OK
    assert params["data"].default is None
    assert params["doc"].default is inspect.Parameter.empty  # every call must name its entry


def test_eleven_calls_only_in_the_two_documented_functions() -> None:
    calls = _calls_by_function()
    assert set(calls) == {"mcp_endpoint", "_handle"}
    assert sum(len(found) for found in calls.values()) == 11
    for module in Path(mcp_server.__file__).parent.glob("*.py"):
        if module != SERVER_SOURCE:
            assert "_rpc_error" not in module.read_text(encoding="utf-8"), module


def test_call_sites_reproduce_the_table() -> None:
    pairs = []
    for calls in _calls_by_function().values():
        for call in calls:
            code_name = call.args[1]
            assert isinstance(code_name, ast.Name), ast.dump(code_name)
            pairs.append((getattr(protocol, code_name.id), _status(call)))
    assert sorted(pairs) == sorted(TABLE)


def test_every_call_has_a_comment_line_directly_above() -> None:
    lines = SERVER_SOURCE.read_text(encoding="utf-8").splitlines()
    for calls in _calls_by_function().values():
        for call in calls:
            statement_line = lines[call.lineno - 1]
            above = lines[call.lineno - 2].strip()
            assert above.startswith("# ") and len(above) > 10, statement_line


def test_messages_are_literals_or_simple_f_strings() -> None:
    for calls in _calls_by_function().values():
        for call in calls:
            message = call.args[2]
            if isinstance(message, ast.JoinedStr):
                names = [v.value for v in message.values if isinstance(v, ast.FormattedValue)]
                assert all(isinstance(name, ast.Name) for name in names), ast.dump(message)
            else:
                assert isinstance(message, ast.Constant) and isinstance(message.value, str)


def test_documented_constants() -> None:
    assert mcp_server.MAX_BODY_BYTES == 256 * 1024
    assert (mcp_server.RATE_LIMIT_REQUESTS, mcp_server.RATE_LIMIT_WINDOW_SECONDS) == (120, 60)
    assert mcp_server.SUPPORTED_PROTOCOL_VERSIONS == ("2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28")
    assert mcp_server.SUPPORTED_PROTOCOL_VERSIONS[-1] == mcp_server.LATEST_PROTOCOL_VERSION
    assert "https://connectbyjbrh.com" in mcp_server.ALLOWED_ORIGINS
