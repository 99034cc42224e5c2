"""Errors made by calls other than `raise`, and values read from an installed framework's classes.

A framework declares functions that raise (`abort`), responses that carry a status, whether a returned
`(body, status)` tuple sets the status, and the class attributes that hold a status or detail a raise does
not pass. `mini` below is such a framework, made for these tests from FastAPI's route reading, with its
exceptions in a package found on `python_path` (read as an installed package is, never imported)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import pytest

from docgen.core.models import RoutesCatalog
from docgen.extract.routes import ExceptionArguments
from docgen.frameworks import BUILTIN
from docgen.frameworks.fastapi.framework import FastAPIFramework
from tests.helpers import make_files, run_extract_in_memory


class MiniFramework(FastAPIFramework):
    """FastAPI's routes with the errors of `minifw`, a framework written for these tests."""

    name = "mini"
    http_exceptions: Mapping[str, ExceptionArguments] = {
        "minifw.errors.HTTPError": ExceptionArguments(
            status=(None, "code"),
            detail=(0, "description"),
            status_attribute="code",
            detail_attribute="description",
        )
    }
    raising_calls: Mapping[str, ExceptionArguments] = {
        "minifw.abort": ExceptionArguments(status=(0, "code"), detail=(1, "description"))
    }
    responses: Mapping[str, ExceptionArguments] = {
        "minifw.Reply": ExceptionArguments(status=(1, "status"), detail=(0, "body"))
    }
    tuple_status = True
    import_roots = frozenset({"minifw"})

    def default_detail(self, exception: str, status: int | None) -> str:
        return f"{exception} answered {status}"


MINIFW = {
    "vendor/minifw/__init__.py": """\
        from minifw.errors import Gone, HTTPError, NotFound, abort

        class Reply:
            def __init__(self, body, status=200):
                self.body, self.status = body, status
        """,
    "vendor/minifw/errors.py": """\
        class HTTPError(Exception):
            code = None
            description = "Something went wrong."

            def __init__(self, description=None):
                self.description = description or self.description

        class ClientError(HTTPError):
            pass

        class NotFound(ClientError):
            code = 404
            description = "Nothing here."

        class Gone(HTTPError):
            code = 410

        def abort(code, description=None):
            raise HTTPError(description)
        """,
}

APP = """\
from fastapi import FastAPI
from minifw import Gone, HTTPError, NotFound, Reply, abort

app = FastAPI()


@app.get("/abort")
def aborts(flag: bool):
    if flag:
        abort(403)
    abort(409, "Taken")


@app.get("/raise")
def raises(flag: bool):
    if flag:
        raise NotFound()
    if not flag:
        raise Gone("Moved on")
    raise HTTPError()


@app.get("/return")
def returns(flag: bool):
    if flag:
        return {"error": "Bad flag"}, 400
    if not flag:
        return Reply({"message": "Gone away"}, status=410)
    if flag is None:
        return Reply("fine")
    return {"ok": True}, 200
"""

MKDOCS = """\
site_name: t
plugins:
  - docgen:
      python_path: [vendor]
      catalogs:
        api:
          kind: routes
          source: api/main.py
          framework: mini
"""


@pytest.fixture
def found(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> RoutesCatalog:
    monkeypatch.setitem(BUILTIN, "mini", f"{__name__}:MiniFramework")
    make_files(tmp_path, {**MINIFW, "api/__init__.py": "", "api/main.py": APP, "mkdocs.yml": MKDOCS})
    catalog = run_extract_in_memory(tmp_path).catalogs["api"]
    assert isinstance(catalog, RoutesCatalog)
    return catalog


def errors_of(found: RoutesCatalog) -> dict[str, list[tuple[int | None, str, str, str]]]:
    """Path -> (status, detail, body key, what made it) of each error, in the operation's order."""
    errors = {error.id: error for error in found.errors}
    return {
        operation.path: [
            (errors[e].status, errors[e].detail, errors[e].body_key, errors[e].exception)
            for e, _ in operation.errors
        ]
        for operation in found.operations
    }


def test_a_raising_call_is_an_error_with_its_default_detail(found: RoutesCatalog) -> None:
    assert errors_of(found)["/abort"] == [
        (403, "minifw.abort answered 403", "detail", "abort"),
        (409, "Taken", "detail", "abort"),
    ]


def test_a_raise_takes_what_the_call_leaves_out_from_the_installed_classes(found: RoutesCatalog) -> None:
    assert errors_of(found)["/raise"] == [
        (404, "Nothing here.", "detail", "NotFound"),  # both from NotFound's own attributes
        (410, "Moved on", "detail", "Gone"),  # the status from Gone's, the detail from the call
        (None, "Something went wrong.", "detail", "HTTPError"),  # `code = None`: not a status
    ]


def test_returned_responses_with_an_error_status_are_errors_and_successes_are_not(
    found: RoutesCatalog,
) -> None:
    assert errors_of(found)["/return"] == [
        (400, "Bad flag", "error", "return"),
        (410, "Gone away", "message", "Reply"),
    ]


def test_fastapi_responses_returned_with_an_error_status(tmp_path: Path) -> None:
    app = """\
        from fastapi import FastAPI, status
        from fastapi.responses import JSONResponse, Response

        app = FastAPI()


        @app.get("/items/{item_id}")
        def item(item_id: int):
            if item_id < 0:
                return JSONResponse({"message": "Ids are positive"}, status_code=status.HTTP_400_BAD_REQUEST)
            if item_id == 0:
                return Response(status_code=204)
            return JSONResponse({"id": item_id})
        """
    mkdocs = MKDOCS.replace("      python_path: [vendor]\n", "").replace("mini", "fastapi")
    make_files(tmp_path, {"api/__init__.py": "", "api/main.py": app, "mkdocs.yml": mkdocs})
    catalog = run_extract_in_memory(tmp_path).catalogs["api"]
    assert isinstance(catalog, RoutesCatalog)
    assert errors_of(catalog) == {"/items/{item_id}": [(400, "Ids are positive", "message", "JSONResponse")]}
