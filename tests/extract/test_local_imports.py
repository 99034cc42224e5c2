"""An exception class a handler imports in its own body (`from litestar.exceptions import NotFoundException`
inside the function, as libraries do to load it only when used) is read as a module-level import is: the
raise is an error of the operation, with its status and detail. Checked against the application run in
Litestar's test client."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from litestar.testing import TestClient

from tests.extract.test_litestar_styles import catalog, responses

MAIN = """\
from litestar import Litestar, delete, get


@get("/keys/{key_id:str}")
async def read_key(key_id: str) -> dict[str, str]:
    from litestar.exceptions import NotFoundException

    raise NotFoundException(detail=f"API key not found: {key_id}")


@delete("/keys/{key_id:str}")
async def drop_key(key_id: str) -> None:
    from litestar import exceptions as errors

    from .rules import check_owner

    check_owner(key_id)
    raise errors.PermissionDeniedException()


app = Litestar(route_handlers=[read_key, drop_key])
"""
RULES = """\
def check_owner(key_id: str) -> None:
    from litestar.exceptions import NotAuthorizedException

    if key_id == "anonymous":
        raise NotAuthorizedException("Sign in first.")
"""


@pytest.fixture
def project(tmp_path: Path) -> Iterator[Path]:
    sys.path.insert(0, str(tmp_path))
    yield tmp_path
    sys.path.remove(str(tmp_path))
    for name in [name for name in sys.modules if name == "api" or name.startswith("api.")]:
        del sys.modules[name]


def test_exceptions_imported_inside_a_function_are_read(project: Path) -> None:
    found = responses(catalog(project, MAIN, files={"api/rules.py": RULES}))
    assert found == {
        ("get", "/keys/{key_id}"): [(404, "API key not found: {key_id}")],
        ("delete", "/keys/{key_id}"): [
            (401, "Sign in first."),
            (403, "Forbidden"),
        ],
    }
    app = importlib.import_module("api.main").app
    with TestClient(app) as client:
        got = client.get("/keys/k1")
        assert (got.status_code, got.json()["detail"]) == (404, "API key not found: k1")
        got = client.delete("/keys/anonymous")
        assert (got.status_code, got.json()["detail"]) == (401, "Sign in first.")
        got = client.delete("/keys/k1")
        assert (got.status_code, got.json()["detail"]) == (403, "Forbidden")
