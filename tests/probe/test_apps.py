"""How an application is served, told from the object itself after importing it: for the real applications
and factories of the fixtures, and for plain callables of each calling convention."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import pytest

from docgen.core.errors import ConfigError
from docgen.probe.apps import Served, detect, interface_of, server_command

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "servers"


@pytest.mark.parametrize(
    ("fixture", "spec", "served"),
    [
        ("fastapi_app", "shop.main:app", Served("asgi")),
        ("starlette_app", "store.main:app", Served("asgi")),
        ("litestar_app", "bookshelf.app:app", Served("asgi")),
        ("litestar_app", "bookshelf.app:create_app", Served("asgi", factory=True)),
        ("flask_app", "lending.app:app", Served("wsgi")),
        ("flask_app", "lending.app:create_app", Served("wsgi", factory=True)),
        ("aiohttp_app", "library.app:create_app", Served("aiohttp", factory=True)),
    ],
)
def test_the_fixtures_applications(fixture: str, spec: str, served: Served) -> None:
    # Imported, and a factory called, in a process of its own from the project's folder, as probe does.
    assert detect(spec, FIXTURES / fixture) == served


def test_what_stops_the_detection_is_a_located_error() -> None:
    with pytest.raises(ConfigError, match=r"there is no module .shop\.nowhere."):
        detect("shop.nowhere:app", FIXTURES / "fastapi_app")
    with pytest.raises(ConfigError, match=r"module shop\.main has no .application."):
        detect("shop.main:application", FIXTURES / "fastapi_app")
    with pytest.raises(ConfigError, match=r"dict is not callable, so it is no ASGI or WSGI app"):
        detect("shop.deps:TOKENS", FIXTURES / "fastapi_app")


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


def make_wsgi() -> WsgiObject:
    """An application factory, as Flask's create_app is."""
    return WsgiObject()


def test_calling_conventions() -> None:
    assert interface_of(asgi_function, "m:asgi") == Served("asgi")
    assert interface_of(AsgiObject(), "m:a") == Served("asgi")
    assert interface_of(wsgi_function, "m:wsgi") == Served("wsgi")
    assert interface_of(WsgiObject(), "m:w") == Served("wsgi")
    assert interface_of(make_wsgi, "m:make_wsgi") == Served("wsgi", factory=True)


def test_neither_is_a_configuration_error() -> None:
    with pytest.raises(ConfigError, match="dict is not callable"):
        interface_of({}, "m:routes")
    with pytest.raises(ConfigError, match=r"neither an ASGI app .* nor a WSGI app") as raised:
        interface_of(lambda request: None, "m:handler")
    assert raised.value.hint == "serve it yourself and probe it with --url URL"
    with pytest.raises(ConfigError, match="calling the factory failed: RuntimeError: no database"):
        interface_of(_failing_factory, "m:create")


def _failing_factory() -> None:
    raise RuntimeError("no database")


def test_each_interface_has_its_server() -> None:
    assert server_command("m:app", Served("asgi"), 8123)[1:4] == ["-m", "uvicorn", "m:app"]
    assert server_command("m:make", Served("asgi", factory=True), 8123)[-1] == "--factory"
    assert server_command("m:app", Served("wsgi"), 8123)[1:] == [
        "-m",
        "docgen.probe.wsgi_server",
        "m:app",
        "8123",
    ]
    assert server_command("m:make", Served("aiohttp", factory=True), 8123)[1:] == [
        "-m",
        "docgen.probe.aiohttp_server",
        "m:make",
        "8123",
        "--factory",
    ]
