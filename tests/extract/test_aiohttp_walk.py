"""aiohttp patterns met in real applications that the style tests did not cover, each in a small program
written here, its routes held against the router aiohttp builds from it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from aiohttp import web

from docgen.shell.cli import main
from tests.extract.test_aiohttp_styles import catalog

LOCAL_PREFIXES = """\
from aiohttp import web


class Provisioning:
    def __init__(self, mount):
        self.app = web.Application()
        portal_prefix = "/v1/portal/{mxid}"
        user_prefix = f"/v1/user/{{mxid}}"
        self.app.router.add_route("GET", f"{portal_prefix}", self.portal)
        self.app.router.add_route("POST", portal_prefix + "/create", self.portal)
        self.app.router.add_route("GET", f"{user_prefix}/chats/{{chat}}", self.chats)
        self.app.router.add_route("GET", f"{mount}/health", self.portal)

    async def portal(self, request):
        return web.json_response({"error": "No such portal"}, status=404)

    async def chats(self, request):
        return web.json_response({})
"""


def test_paths_built_from_locals_of_the_function_that_routes_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A local bound once stands for its value; a parameter stays in braces, told at its place, and the
    fragment leaves that operation out rather than make up a path parameter."""
    found = catalog(tmp_path, {"app/main.py": LOCAL_PREFIXES})
    paths = [(o.method, o.path, [u.expression for u in o.unresolved]) for o in found.operations]
    assert paths == [
        ("get", "/v1/portal/{mxid}", []),
        ("post", "/v1/portal/{mxid}/create", []),
        ("get", "/v1/user/{mxid}/chats/{chat}", []),
        ("get", "{mount}/health", ["mount"]),
    ]
    namespace: dict[str, object] = {}
    exec(compile(LOCAL_PREFIXES, "app/main.py", "exec"), namespace)  # the test may run the program
    server = namespace["Provisioning"]("/m")  # type: ignore[operator]
    served = [
        (r.method.lower(), r.resource.canonical) for r in server.app.router.routes() if r.method != "HEAD"
    ]
    assert served[:3] == [(method, path) for method, path, _ in paths[:3]]
    assert isinstance(server.app, web.Application)
    assert main(["--config", str(tmp_path / "mkdocs.yml"), "extract"]) == 0
    told = [line for line in capsys.readouterr().err.splitlines() if line.startswith("app/main.py:12: ")]
    assert len(told) == 1 and "`mount`, which cannot be read statically" in told[0]
    fragment = json.loads((tmp_path / "data" / "api.openapi.json").read_text(encoding="utf-8"))
    assert sorted(fragment["paths"]) == ["/v1/portal/{mxid}", "/v1/portal/{mxid}/create"]
