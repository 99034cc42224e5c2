"""Whether an application is ASGI or WSGI, told from the object itself after importing it, for the real
applications of the fixtures and for plain callables of each calling convention."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import pytest

from docgen.core.errors import ConfigError
from docgen.probe.apps import interface_of, server_command
from docgen.probe.replay import load_app

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "servers"


@pytest.mark.parametrize(
    ("fixture", "spec", "interface"),
    [
        ("fastapi_app", "shop.main:app", "asgi"),
        ("starlette_app", "store.main:app", "asgi"),
        ("flask_app", "lending.app:app", "wsgi"),
    ],
)
def test_the_fixtures_applications(fixture: str, spec: str, interface: str) -> None:
    assert interface_of(load_app(spec, FIXTURES / fixture), spec) == interface


async def asgi_function(scope: Any, receive: Any, send: Any) -> None:
    """An ASGI application written as a function."""


def wsgi_function(environ: Any, start_response: Callable[..., Any]) -> Iterable[bytes]:
    return [b""]


class AsgiObject:
    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        """An ASGI application written as a class (as middleware is)."""


class WsgiObject:
    def __call__(self, environ: Any, start_response: Callable[..., Any]) -> Iterable[bytes]:
        return [b""]


def test_calling_conventions() -> None:
    assert interface_of(asgi_function, "m:asgi") == "asgi"
    assert interface_of(AsgiObject(), "m:a") == "asgi"
    assert interface_of(wsgi_function, "m:wsgi") == "wsgi"
    assert interface_of(WsgiObject(), "m:w") == "wsgi"


def test_neither_is_a_configuration_error() -> None:
    with pytest.raises(ConfigError, match="dict is not callable"):
        interface_of({}, "m:routes")
    with pytest.raises(ConfigError, match=r"neither an ASGI app .* nor a WSGI app") as raised:
        interface_of(lambda request: None, "m:handler")
    assert raised.value.hint == "serve it yourself and probe it with --url URL"


def test_each_interface_has_its_server() -> None:
    assert server_command("m:app", "asgi", 8123)[1:4] == ["-m", "uvicorn", "m:app"]
    assert server_command("m:app", "wsgi", 8123)[1:] == ["-m", "docgen.probe.wsgi_server", "m:app", "8123"]
