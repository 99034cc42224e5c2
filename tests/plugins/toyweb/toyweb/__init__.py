"""toyweb: a made-up web framework, just enough to be imported by the application the plugin test documents.

`@route(method, path)` declares an operation; `raise Fail(status, message)` answers with an error whose
body is `{"error": message}` (a message left out becomes `HTTP <status>`). Nothing serves it: docgen reads
the application that uses it statically, through the `docgen_toy_framework` plugin.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

F = TypeVar("F", bound=Callable[..., object])


def route(method: str, path: str) -> Callable[[F], F]:
    """Declare the decorated function as the answer to `method` on `path`."""

    def declare(function: F) -> F:
        return function

    return declare


class Fail(Exception):
    """An HTTP error: its status, and the message the client receives."""

    def __init__(self, status: int, message: str | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message if message is not None else f"HTTP {status}"
