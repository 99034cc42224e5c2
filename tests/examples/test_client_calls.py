"""The official clients' call for an example: what the SDK sends itself, and what only a proxy can add."""

from __future__ import annotations

import json

import pytest

from docgen.examples.client_calls import client_call
from docgen.examples.requests import DEFAULT_HEADERS, Example


def example(
    body: object = None,
    *,
    raw: str | None = None,
    headers: dict[str, str] | None = None,
    size: int | None = None,
    repeat: int = 1,
    method: str = "POST",
) -> Example:
    """An example as `docgen.examples.requests.resolve` would make it, without the notes around it."""
    text = raw if raw is not None else json.dumps(body)
    merged = tuple(DEFAULT_HEADERS) + tuple((headers or {}).items())
    return Example("e", method, merged, text.encode(), text, size, repeat)


CALL = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "t", "arguments": {"q": 1}}}


def test_a_plain_call_needs_no_proxy_and_keeps_its_arguments() -> None:
    call = client_call(example(CALL))
    assert call is not None and call.runs
    assert (call.action, call.proxy) == ({"action": "call_tool", "name": "t", "arguments": {"q": 1}}, ())


def test_an_origin_is_a_header_the_client_sends_itself() -> None:
    call = client_call(example(CALL, headers={"Origin": "https://evil.example"}))
    assert call is not None and call.action["headers"] == {"Origin": "https://evil.example"}
    assert "rewrite" not in call.action


def test_protocol_headers_and_meta_only_a_proxy_can_set() -> None:
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": {"k": "1999-01-01"}}}
    call = client_call(example(body, headers={"MCP-Protocol-Version": "1999-01-01"}))
    assert call is not None
    assert call.action["rewrite"] == {
        "method": "tools/list",
        "body": {"params": {"_meta": {"k": "1999-01-01"}}},
        "headers": {"MCP-Protocol-Version": "1999-01-01"},
    }
    assert call.proxy == ("sets `params._meta` to the example's", "sets `MCP-Protocol-Version: 1999-01-01`")


BATCH = [{"id": 1, "method": "a"}, {"id": 2, "method": "b"}]


@pytest.mark.parametrize(
    ("given", "rewrite"),
    [
        (example(raw='{"jsonrpc": "2.0", "method":'), {"raw": '{"jsonrpc": "2.0", "method":'}),
        (example(BATCH), {"body": BATCH}),
    ],
    ids=["not JSON", "batch"],
)
def test_a_body_no_client_writes_is_swapped_in_by_the_proxy(
    given: Example, rewrite: dict[str, object]
) -> None:
    call = client_call(given)
    assert call is not None and call.action["action"] == "list_tools"
    assert call.action["rewrite"] == {"method": "tools/list", **rewrite}


def test_padding_is_the_proxy_s_and_counts_bytes() -> None:
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
    text = json.dumps(body)
    call = client_call(example(body, size=len(text) + 5))
    assert call is not None and call.action["rewrite"]["raw"] == text + " " * 5
    assert call.proxy == (f"pads the body with spaces to {len(text) + 5} bytes",)


def test_a_repeat_is_the_client_s_own_loop() -> None:
    call = client_call(example(CALL, repeat=121))
    assert call is not None and call.action["repeat"] == 121


@pytest.mark.parametrize(
    ("built", "why"),
    [
        (
            example({"jsonrpc": "2.0", "id": 1, "method": "rpc.discover"}),
            "no call that sends the method `rpc.discover`",
        ),
        (example(CALL, method="GET"), "this request is a GET"),
    ],
)
def test_a_request_no_sdk_call_sends_is_named_so(built: Example, why: str) -> None:
    call = client_call(built)
    assert call is not None and not call.runs and why in (call.cannot or "")


def test_an_untriggerable_example_has_no_call() -> None:
    assert client_call(Example("e", untriggerable="only a server fault")) is None
