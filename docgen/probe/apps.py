"""The user's HTTP application served on 127.0.0.1 for `docgen probe --app MODULE:ATTR`: ASGI, WSGI or
aiohttp.

Which interface an application speaks is told by how it is called, read off the object after importing it
(probe is the one stage that may import the server): an ASGI application is called with (scope, receive,
send) and is a coroutine function (or an object whose `__call__` is one); a WSGI application is called with
(environ, start_response). An aiohttp `Application` is neither, and is served by aiohttp itself. A callable
that takes no argument is an application factory (`create_app`): it is called, and what it returns is told
apart the same way. An ASGI app is served by uvicorn, a WSGI app by the standard library's `wsgiref`
server (`docgen.probe.wsgi_server`), an aiohttp app by aiohttp's runner (`docgen.probe.aiohttp_server`),
each in a process of its own on a free loopback port, from the project root, so the requests probe sends
cross a real socket.
"""

from __future__ import annotations

import inspect
import json
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Literal

from docgen.core.errors import ConfigError, SourceError
from docgen.core.records import record
from docgen.probe.servers import free_port, serve_command, uvicorn_command

Interface = Literal["asgi", "wsgi", "aiohttp"]
ASGI_ARGUMENTS = 3
WSGI_ARGUMENTS = 2


@record
class Served:
    """How to serve an application: its interface, and whether `MODULE:ATTR` names a factory of it."""

    interface: Interface
    factory: bool = False

    @property
    def label(self) -> str:
        return f"{self.interface}{', from a factory' if self.factory else ''}"


def interface_of(app: Any, spec: str) -> Served:
    """How to serve `app` (imported from `spec`); a configuration error naming what it is instead when it is
    no application docgen can serve."""
    if _is_aiohttp(app):
        return Served("aiohttp")
    if not callable(app):
        raise ConfigError(
            f"--app {spec}: {type(app).__name__} is not callable, so it is no ASGI or WSGI app",
            hint="name the application object itself (FastAPI(), Flask(__name__), get_asgi_application())",
        )
    target = app if inspect.isroutine(app) else app.__call__
    asynchronous = inspect.iscoroutinefunction(target)
    count = _positional_count(target)
    if asynchronous and count in (None, ASGI_ARGUMENTS):
        return Served("asgi")
    if not asynchronous and count == WSGI_ARGUMENTS:
        return Served("wsgi")
    if not asynchronous and count == 0 and inspect.isroutine(app):
        return _from_factory(app, spec)
    said = f"a {'coroutine ' if asynchronous else ''}callable of {count} positional argument(s)"
    raise ConfigError(
        f"--app {spec}: {type(app).__name__} is {said}, neither an ASGI app (scope, receive, send) nor a "
        "WSGI app (environ, start_response), nor a factory that takes no argument",
        hint="serve it yourself and probe it with --url URL",
    )


def _from_factory(factory: Any, spec: str) -> Served:
    """How to serve what the application factory `factory` returns."""
    try:
        made = factory()
    except Exception as err:  # the server's own code failed; say so instead of a traceback
        raise ConfigError(
            f"--app {spec}: calling the factory failed: {type(err).__name__}: {err}",
            hint="name the application object instead, or fix the factory",
        ) from err
    if callable(made) and _positional_count(made) == 0 and not _is_aiohttp(made):
        raise ConfigError(f"--app {spec}: the factory returns another factory", hint="name the application")
    served = interface_of(made, spec)
    return Served(served.interface, factory=True)


def _is_aiohttp(app: Any) -> bool:
    return any(
        cls.__name__ == "Application" and cls.__module__.startswith("aiohttp.") for cls in type(app).__mro__
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
    return sum(1 for p in parameters if p.kind in positional and p.default is inspect.Parameter.empty)


def server_command(spec: str, served: Served, port: int) -> list[str]:
    """The command serving `spec` on 127.0.0.1:`port` with the server its interface takes."""
    factory = ["--factory"] if served.factory else []
    if served.interface == "asgi":
        return [*uvicorn_command(spec, port), *factory]
    module = f"docgen.probe.{served.interface}_server"
    return [sys.executable, "-m", module, spec, str(port), *factory]


DETECT_SECONDS = 60


def detect(spec: str, root: Path) -> Served:
    """How to serve `spec`, found by importing it in a process of its own from `root`
    (`python -m docgen.probe.detect`), so that neither the server's modules nor what its factory builds
    stay in probe's process; the located error the import or the detection gave, raised here."""
    command = [sys.executable, "-m", "docgen.probe.detect", spec]
    try:
        done = subprocess.run(
            command, cwd=root, capture_output=True, text=True, timeout=DETECT_SECONDS, check=False
        )
    except subprocess.TimeoutExpired as err:
        raise SourceError(
            f"importing {spec} took more than {DETECT_SECONDS} s", hint="check what the module does on import"
        ) from err
    lines = done.stdout.strip().splitlines()
    try:
        said = json.loads(lines[-1]) if lines else None
    except ValueError:
        said = None
    if not isinstance(said, dict):
        tail = (done.stderr.strip().splitlines() or ["(nothing on stderr)"])[-1]
        raise SourceError(f"importing {spec} to see how to serve it failed: {tail}", hint=_BY_HAND)
    if "error" in said:
        error = ConfigError if said["error"] == "config" else SourceError
        raise error(str(said["message"]), hint=said.get("hint"))
    return Served(said["interface"], factory=bool(said["factory"]))


_BY_HAND = "run `python -c 'import MODULE'` from the project root to see the traceback"


@contextmanager
def served_on_loopback(spec: str, served: Served, root: Path, log: Path) -> Iterator[str]:
    """Serve the application `spec` from `root` until the block ends; yields its base URL."""
    port = free_port()
    with serve_command(server_command(spec, served, port), port, root, log):
        yield f"http://127.0.0.1:{port}"
