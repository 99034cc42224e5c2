"""The page's Python and TypeScript programs for an example, written from its client call, and their output.

`docgen.examples.client_calls` turns an example into the action `docgen probe` gives the runners in
`clients/`; the programs here make the same call with the official SDK, through the same proxy when the
example needs one, and print what surfaced the way the evidence is shown under them (`printed`). Values
are written as JSON literals, which both languages read, so nothing from the notes is pasted in as code.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from docgen.examples.client_calls import ClientCall

STREAMABLE_IMPORT = "from mcp.client.streamable_http import streamable_http_client"
PY_CALLS = {
    "list_tools": "client.list_tools()",
    "list_resources": "client.list_resources()",
    "list_prompts": "client.list_prompts()",
    "ping": "client.send_ping()",
    "call_tool": "client.call_tool({name}, {arguments})",
    "read_resource": "client.read_resource({uri})",
    "get_prompt": "client.get_prompt({name}, {arguments})",
    "complete": "client.session.complete(ref={ref}, argument={argument})",
}
TS_CALLS = {
    "list_tools": "client.listTools()",
    "list_resources": "client.listResources()",
    "list_prompts": "client.listPrompts()",
    "ping": "client.ping()",
    "call_tool": "client.callTool({{ name: {name}, arguments: {arguments} }})",
    "read_resource": "client.readResource({{ uri: {uri} }})",
    "get_prompt": "client.getPrompt({{ name: {name}, arguments: {arguments} }})",
    "complete": "client.complete({{ ref: {ref}, argument: {argument} }})",
}


def _literal(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _py_literal(value: Any) -> str:
    """A JSON value as Python source (true, false and null spelt the Python way)."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_literal(k)}: {_py_literal(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_py_literal(item) for item in value) + "]"
    if isinstance(value, bool) or value is None:
        return {True: "True", False: "False", None: "None"}[value]
    return _literal(value)


def _fields(action: Mapping[str, Any], literal: Any) -> dict[str, str]:
    keys = ("name", "arguments", "uri", "ref", "argument")
    return {key: literal(action.get(key, {})) for key in keys}


def python_program(call: ClientCall, endpoint: str, mode: str) -> str:
    """The example as a Python program using the official `mcp` client in connect mode `mode`."""
    action = call.action
    rewrite = action.get("rewrite")
    made = "await " + PY_CALLS[action["action"]].format(**_fields(action, _py_literal))
    head = (["import json", ""] if rewrite else []) + ["import anyio", "import httpx2"]
    head += ["from mcp import Client", STREAMABLE_IMPORT, "", ""]
    if rewrite:
        head += [*_python_proxy(rewrite), "", ""]
    repeat = action.get("repeat", 1)
    loop, prefix, indent = (
        ([f"for call in range(1, {repeat} + 1):"], 'f"call {call}:", ', "    ")
        if repeat > 1
        else ([], "", "")
    )
    options = [f"headers={_py_literal(action['headers'])}"] if action.get("headers") else []
    options += ["transport=Proxy()"] if rewrite else []
    connect = [
        f"    http = httpx2.AsyncClient({', '.join(options)})",
        f"    transport = streamable_http_client({_literal(endpoint)}, http_client=http)",
        f"    async with http, Client(transport, mode={_literal(mode)}) as client:",
    ]
    if not options:
        head = [line for line in head if line not in ("import httpx2", STREAMABLE_IMPORT)]
        connect = [f"    async with Client({_literal(endpoint)}, mode={_literal(mode)}) as client:"]
    body = [
        "async def main() -> None:",
        *connect,
        "        try:",
        *(f"            {line}" for line in loop),
        f"            {indent}result = {made}",
        f'            print({prefix}"result, isError:", getattr(result, "is_error", False))',
        "        except Exception as error:  # MCPError carries the JSON-RPC code",
        '            text = " ".join(str(error).split())',
        f'            print({prefix}type(error).__name__, getattr(error, "code", None), text)',
        "",
        "",
        "anyio.run(main)",
    ]
    return "\n".join(head + body)


def _python_proxy(rewrite: Mapping[str, Any]) -> list[str]:
    """A transport that rewrites the request of one method, as a proxy on the way would."""
    lines = [
        "class Proxy(httpx2.AsyncHTTPTransport):",
        f"    # Stands for a proxy on the way that rewrites the {rewrite['method']} request.",
        "    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:",
        "        body = await request.aread()",
        f'        if json.loads(body).get("method") == {_literal(rewrite["method"])}:',
        "            headers = request.headers.copy()",
        '            headers.pop("content-length", None)',
    ]
    if rewrite.get("headers"):
        lines.append(f"            headers.update({_py_literal(rewrite['headers'])})")
    if "raw" in rewrite:
        text, padded_to = _unpadded(rewrite["raw"])
        lines.append(f"            body = {_py_literal(text)}.encode()")
        if padded_to is not None:
            lines.append(f"            body = body.ljust({padded_to})  # padded with spaces")
    elif isinstance(rewrite.get("body"), list):
        lines.append(f"            body = json.dumps({_py_literal(rewrite['body'])}).encode()")
    elif "body" in rewrite:
        meta = rewrite["body"]["params"]["_meta"]
        lines += [
            "            message = json.loads(body)",
            f'            message["params"].setdefault("_meta", {{}}).update({_py_literal(meta)})',
            "            body = json.dumps(message).encode()",
        ]
    lines += [
        "            request = httpx2.Request(request.method, request.url, headers=headers, content=body)",
        "        return await super().handle_async_request(request)",
    ]
    return lines


def typescript_program(call: ClientCall, endpoint: str) -> str:
    """The example as a TypeScript (ES module) program using the official `@modelcontextprotocol/client` 2.x,
    pinned to 2026-07-28 as probe runs it (the 1.x SDK of legacy sessions differs in imports and options)."""
    action = call.action
    rewrite = action.get("rewrite")
    made = "await " + TS_CALLS[action["action"]].format(**_fields(action, _literal))
    options = []
    if action.get("headers"):
        options.append(f"requestInit: {{ headers: {_literal(action['headers'])} }}")
    if rewrite:
        options.append("fetch: proxy")
    opened = f", {{ {', '.join(options)} }}" if options else ""
    repeat = action.get("repeat", 1)
    loop = [f"  for (let n = 1; n <= {repeat}; n += 1) {{", "    call = n;"] if repeat > 1 else []
    prefix, indent = ("`call ${call}:`, ", "  ") if repeat > 1 else ("", "")
    lines = [
        "import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';",
        "",
        *([*_typescript_proxy(rewrite), ""] if rewrite else []),
        f"const transport = new StreamableHTTPClientTransport(new URL({_literal(endpoint)}){opened});",
        "const client = new Client(",
        "  { name: 'example', version: '1.0.0' },",
        "  { versionNegotiation: { mode: { pin: '2026-07-28' } } },",
        ");",
        *(["let call;", "let result;"] if repeat > 1 else []),
        "try {",
        "  await client.connect(transport);",
        *loop,
        f"  {indent}{'result' if repeat > 1 else 'const result'} = {made};",
        *(["  }"] if repeat > 1 else []),
        f"  console.log({prefix}'result, isError:', result.isError === true);",
        "} catch (error) {",
        "  const text = String(error.message).replace(/\\s+/g, ' ').trim();",
        "  // An error the SDK raises itself has a word for a code; one from the server, a number.",
        "  const code = Number.isInteger(error.code) ? error.code : null;",
        f"  console.log({prefix}error.constructor.name, code, text);",
        "}",
        "await client.close();",
    ]
    return "\n".join(lines)


def _typescript_proxy(rewrite: Mapping[str, Any]) -> list[str]:
    lines = [
        f"// Stands for a proxy on the way that rewrites the {rewrite['method']} request.",
        "async function proxy(url, init = {}) {",
        "  const message = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;",
        f"  if (message?.method === {_literal(rewrite['method'])}) {{",
        "    const headers = new Headers(init.headers);",
    ]
    for name, value in rewrite.get("headers", {}).items():
        lines.append(f"    headers.set({_literal(name)}, {_literal(value)});")
    if "raw" in rewrite:
        text, padded_to = _unpadded(rewrite["raw"])
        body = _literal(text)
        if padded_to is not None:
            body += f".padEnd({padded_to})"
            lines.append("    // The body padded with spaces.")
        lines.append(f"    init = {{ ...init, headers, body: {body} }};")
    elif isinstance(rewrite.get("body"), list):
        lines.append(f"    init = {{ ...init, headers, body: JSON.stringify({_literal(rewrite['body'])}) }};")
    elif "body" in rewrite:
        meta = _literal(rewrite["body"]["params"]["_meta"])
        lines += [
            f"    const meta = {{ ...message.params?._meta, ...{meta} }};",
            "    message.params = { ...message.params, _meta: meta };",
            "    init = { ...init, headers, body: JSON.stringify(message) };",
        ]
    else:
        lines.append("    init = { ...init, headers };")
    return [*lines, "  }", "  return fetch(url, init);", "}"]


def _unpadded(raw: str) -> tuple[str, int | None]:
    """The body without the spaces it is padded with, and the size in bytes it is padded to (None if it is
    not). Over the hundreds of kilobytes of a padded body, `rstrip(" ")` takes milliseconds; `rstrip()` and
    `count` take a tenth of that."""
    stripped = raw.rstrip()
    if raw.count(" ", len(stripped)) != len(raw) - len(stripped):  # the tail is not spaces alone
        stripped = raw.rstrip(" ")
    return stripped, (len(raw.encode()) if len(stripped) < len(raw) else None)


def printed(cell: Mapping[str, Any], repeat: int, *, typescript: bool = False) -> str:
    """What the page's program prints for a recorded outcome (one line), as Python or JavaScript spells it."""
    prefix = f"call {cell.get('call')}: " if repeat > 1 else ""
    none, outcome = ("null" if typescript else "None"), cell.get("outcome")
    if outcome == "result":
        flag = bool(cell.get("isError"))
        return f"{prefix}result, isError: {str(flag).lower() if typescript else flag}"
    code = cell.get("code")
    message = cell.get("why") if outcome == "cannot-send" else cell.get("message")
    return f"{prefix}{cell.get('class')} {none if code is None else code} {message}"
