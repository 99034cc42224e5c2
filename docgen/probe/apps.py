"""The user's HTTP application served on 127.0.0.1 for `docgen probe --app MODULE:ATTR`: ASGI or WSGI.

Which interface an application speaks is told by how it is called, read off the object after importing it
(probe is the one stage that may import the server): an ASGI application is called with (scope, receive,
send) and is a coroutine function (or an object whose `__call__` is one); a WSGI application is called with
(environ, start_response) and returns an iterable. An ASGI app is served by uvicorn, a WSGI app by the
standard library's `wsgiref` server (`docgen.probe.wsgi_server`), each in a process of its own on a free
loopback port, from the project root, so the requests probe sends cross a real socket.
"""

from __future__ import annotations

import inspect
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Literal

from docgen.core.errors import ConfigError
from docgen.probe.servers import free_port, serve_command, uvicorn_command

Interface = Literal["asgi", "wsgi"]
ASGI_ARGUMENTS = 3
WSGI_ARGUMENTS = 2


def interface_of(app: Any, spec: str) -> Interface:
    """Whether `app` (imported from `spec`) is an ASGI or a WSGI application; a configuration error naming
    what it is instead when it is neither."""
    if not callable(app):
        raise ConfigError(
            f"--app {spec}: {type(app).__name__} is not callable, so it is neither an ASGI nor a WSGI app",
            hint="name the application object itself (FastAPI(), Flask(__name__), get_asgi_application())",
        )
    target = app if inspect.isroutine(app) else app.__call__
    asynchronous = inspect.iscoroutinefunction(target)
    count = _positional_count(target)
    if asynchronous and count in (None, ASGI_ARGUMENTS):
        return "asgi"
    if not asynchronous and count == WSGI_ARGUMENTS:
        return "wsgi"
    said = f"a {'coroutine ' if asynchronous else ''}callable of {count} positional argument(s)"
    raise ConfigError(
        f"--app {spec}: {type(app).__name__} is {said}, neither an ASGI app (scope, receive, send) nor a "
        "WSGI app (environ, start_response)",
        hint="serve it yourself and probe it with --url URL",
    )


def _positional_count(function: Any) -> int | None:
    """How many positional arguments `function` takes when called; None when its signature cannot be read
    or it takes any number."""
    try:
        parameters = inspect.signature(function).parameters.values()
    except (TypeError, ValueError):
        return None
    if any(p.kind is inspect.Parameter.VAR_POSITIONAL for p in parameters):
        return None
    positional = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    return sum(1 for p in parameters if p.kind in positional)


def server_command(spec: str, interface: Interface, port: int) -> list[str]:
    """The command serving `spec` on 127.0.0.1:`port` with the server its interface takes."""
    if interface == "asgi":
        return uvicorn_command(spec, port)
    return [sys.executable, "-m", "docgen.probe.wsgi_server", spec, str(port)]


@contextmanager
def served(spec: str, interface: Interface, root: Path, log: Path) -> Iterator[str]:
    """Serve the application `spec` from `root` until the block ends; yields its base URL."""
    port = free_port()
    with serve_command(server_command(spec, interface, port), port, root, log):
        yield f"http://127.0.0.1:{port}"
