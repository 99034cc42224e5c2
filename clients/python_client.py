"""One action of the official Python MCP client (`mcp`, pinned in requirements/dev.txt) against an endpoint.

    python -m clients.python_client '{"url": "http://127.0.0.1:8000/mcp", "action": "list_tools"}'

The action (clients/action.schema.json) is the first argument, or stdin when there is none or it is `-`. One
JSON object on stdout says what the client surfaced: an exception (class, code, message), a result (`isError`
and its text), or that the client would not send the request at all (`cannot-send`).

Exit codes: 0 an outcome was observed and printed; 2 the action is not valid; 3 the server could not be
reached or did not answer in time; 4 this program failed in a way it did not foresee.
"""

from __future__ import annotations

import json
import logging
import sys
from pathlib import Path
from typing import Any

import jsonschema

SCHEMA_PATH = Path(__file__).with_name("action.schema.json")
EXIT_BAD_ACTION, EXIT_UNREACHABLE, EXIT_FAULT = 2, 3, 4


class BadAction(Exception):
    """The action is not JSON or does not follow clients/action.schema.json."""


def read_action(argv: list[str]) -> dict[str, Any]:
    """Parse and check the action from the first argument, or from stdin."""
    source = argv[0] if argv and argv[0] != "-" else sys.stdin.read()
    try:
        action = json.loads(source)
    except ValueError as error:
        raise BadAction(f"the action is not valid JSON: {error}") from None
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    problem = jsonschema.exceptions.best_match(jsonschema.Draft202012Validator(schema).iter_errors(action))
    if problem is not None:
        where = ".".join(str(part) for part in problem.absolute_path) or "the action"
        raise BadAction(f"{where}: {problem.message}")
    assert isinstance(action, dict)
    return action


def main(argv: list[str] | None = None) -> int:
    """Run the action given on the command line (or stdin) and print the outcome as JSON."""
    logging.disable(logging.CRITICAL)  # the SDK logs transport errors; the outcome already says what happened
    try:
        action = read_action(sys.argv[1:] if argv is None else argv)
    except BadAction as error:
        print(f"python_client: bad action: {error}", file=sys.stderr)
        return EXIT_BAD_ACTION
    # Loading the SDK takes a second or so; only a valid action needs it.
    import anyio

    from clients.python_session import (
        DEFAULT_TIMEOUT_SECONDS,
        Unreachable,
        describe_error,
        innermost,
        observe_within,
    )

    seconds = action.get("timeout_seconds", DEFAULT_TIMEOUT_SECONDS)
    try:
        observed = anyio.run(observe_within, action, seconds)
    except Unreachable as error:
        print(f"python_client: cannot reach the server: {error}", file=sys.stderr)
        return EXIT_UNREACHABLE
    except TimeoutError:
        print(f"python_client: no answer from {action['url']} within {seconds} s", file=sys.stderr)
        return EXIT_UNREACHABLE
    except Exception as error:
        fault = describe_error(innermost(error))
        print(f"python_client: unexpected failure: {fault['class']}: {fault['message']}", file=sys.stderr)
        return EXIT_FAULT
    print(json.dumps(observed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
