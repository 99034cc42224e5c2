"""The runners' own contract: a clear message and a distinct exit code when the action or the server is wrong.

Exit codes: 2 for an action that is not valid, 3 for a server that cannot be reached or does not answer in
time; never a traceback. Both runners share clients/action.schema.json, so both are held to the same cases.
"""

from __future__ import annotations

import copy
import socket
from collections.abc import Iterator
from typing import Any

import pytest

from clients.watching_transport import merge_patch
from tests.clients.harness import TYPESCRIPT, TYPESCRIPT_MODES, node_problem, run_client, skip_or_fail

RUNNERS = ["python-2026-07-28", *TYPESCRIPT_MODES]
PREFIX = {"python-2026-07-28": "python_client: "} | {client: "ts_client: " for client in TYPESCRIPT_MODES}


def _run(client: str, action: dict[str, Any] | str) -> tuple[int, str, str]:
    if client.startswith(TYPESCRIPT) and (problem := node_problem()) is not None:
        skip_or_fail(problem)
    done = run_client(client, action)
    return done.returncode, done.stdout, done.stderr


@pytest.fixture
def closed_port() -> int:
    """A loopback port nothing listens on."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


@pytest.fixture
def silent_port() -> Iterator[int]:
    """A loopback port that accepts connections and never answers."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen(8)
        yield sock.getsockname()[1]


BAD_ACTIONS = {
    "not JSON": ("{nope", "not valid JSON"),
    "not an object": ("[1, 2]", "object"),
    "unknown action": ({"url": "http://127.0.0.1:9/mcp", "action": "pong"}, "action"),
    "missing name": ({"url": "http://127.0.0.1:9/mcp", "action": "call_tool"}, "name"),
    "unknown key": ({"url": "http://127.0.0.1:9/mcp", "action": "ping", "colour": "red"}, "colour"),
    "repeat zero": ({"url": "http://127.0.0.1:9/mcp", "action": "ping", "repeat": 0}, "repeat"),
    "no url": ({"action": "ping"}, "url"),
}


@pytest.mark.parametrize("client", RUNNERS)
@pytest.mark.parametrize("case", list(BAD_ACTIONS))
def test_a_bad_action_exits_2_with_a_message(client: str, case: str) -> None:
    action, mentioned = BAD_ACTIONS[case]
    code, stdout, stderr = _run(client, action)
    assert (code, stdout) == (2, "")
    assert stderr.startswith(PREFIX[client] + "bad action: ")
    assert mentioned in stderr
    assert "Traceback" not in stderr and "    at " not in stderr


def test_the_typescript_runner_refuses_a_python_mode() -> None:
    code, _, stderr = _run(TYPESCRIPT, '{"url": "http://127.0.0.1:9/mcp", "action": "ping", "mode": "auto"}')
    assert code == 2
    assert "'mode' auto is a mode of the Python runner only (here: legacy, 2026-07-28)" in stderr


@pytest.mark.parametrize("client", RUNNERS)
def test_an_unreachable_server_exits_3(client: str, closed_port: int) -> None:
    code, stdout, stderr = _run(
        client, {"url": f"http://127.0.0.1:{closed_port}/mcp", "action": "list_tools"}
    )
    assert (code, stdout) == (3, "")
    assert stderr.startswith(PREFIX[client] + "cannot reach the server: ")
    assert str(closed_port) in stderr


@pytest.mark.parametrize("client", RUNNERS)
def test_a_server_that_never_answers_exits_3_after_the_timeout(client: str, silent_port: int) -> None:
    action = {"url": f"http://127.0.0.1:{silent_port}/mcp", "action": "list_tools", "timeout_seconds": 1}
    code, stdout, stderr = _run(client, action)
    assert (code, stdout) == (3, "")
    assert stderr.strip() == f"{PREFIX[client]}no answer from {action['url']} within 1 s"


@pytest.mark.parametrize(
    ("target", "patch", "merged"),
    [
        ({"a": 1, "b": {"c": 2}}, {"b": {"d": 3}}, {"a": 1, "b": {"c": 2, "d": 3}}),
        ({"a": 1, "b": 2}, {"b": None}, {"a": 1}),
        ({"params": {}}, {"params": {"_meta": {"k": "v"}}}, {"params": {"_meta": {"k": "v"}}}),
        ({"a": 1}, [1, 2], [1, 2]),
        ({"a": [1]}, {"a": "x"}, {"a": "x"}),
    ],
)
def test_merge_patch_follows_rfc_7386(target: Any, patch: Any, merged: Any) -> None:
    before = copy.deepcopy(target)
    assert merge_patch(target, patch) == merged
    assert target == before  # the target is left as it was
