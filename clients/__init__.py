"""Programs that drive the official MCP clients against a server and report what each client surfaced.

`python -m clients.python_client ACTION` runs the Python SDK (`mcp`, pinned in requirements/dev.txt);
`node clients/ts_client.mjs ACTION` runs the TypeScript SDK (pinned in clients/package.json). Both take the
same action (clients/action.schema.json) and print one JSON object. `clients.conformance` runs the official
conformance suite. Nothing here imports docgen or the server: callers run these as subprocesses.
"""
