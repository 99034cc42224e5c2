"""One action of the official Python MCP client (`mcp`, pinned in requirements/dev.txt) against an endpoint.

    python -m clients.python_client '{"url": "http://127.0.0.1:8000/mcp", "action": "list_tools"}'

The action (clients/action.schema.json) is the first argument, or stdin when there is none or it is `-`. One
JSON object on stdout says what the client surfaced: an exception (class, code, message), a result (`isError`
and its text), or that the client would not send the request at all (`cannot-send`). A JSON array of actions
is run in order in this one process (each in a session of its own), with one outcome per line on stdout:
loading the SDK costs a second of CPU, so `docgen probe` and the tests send every action at once.

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


def read_actions(argv: list[str]) -> tuple[list[dict[str, Any]], bool]:
    """Parse and check the action, or the array of actions, from the first argument or from stdin.

    Returns the actions and whether they came as an array (then each outcome is printed on a line of its own).
    """
    source = argv[0] if argv and argv[0] != "-" else sys.stdin.read()
    try:
        given = json.loads(source)
    except ValueError as error:
        raise BadAction(f"the action is not valid JSON: {error}") from None
    batch = isinstance(given, list)
    validator = jsonschema.Draft202012Validator(json.loads(SCHEMA_PATH.read_text(encoding="utf-8")))
    for index, action in enumerate(given if batch else [given]):
        problem = jsonschema.exceptions.best_match(validator.iter_errors(action))
        if problem is not None:
            where = ".".join(str(part) for part in problem.absolute_path) or "the action"
            raise BadAction(f"{f'action {index + 1}: ' if batch else ''}{where}: {problem.message}")
    return (given if batch else [given]), batch


def main(argv: list[str] | None = None) -> int:
    """Run the action given on the command line (or stdin) and print the outcome as JSON."""
    logging.disable(logging.CRITICAL)  # the SDK logs transport errors; the outcome already says what happened
    try:
        actions, batch = read_actions(sys.argv[1:] if argv is None else argv)
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

    for action in actions:
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
        print(json.dumps(observed), flush=batch)
    return 0


if __name__ == "__main__":
    sys.exit(main())
