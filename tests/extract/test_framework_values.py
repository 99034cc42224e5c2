"""What an errors catalog's framework gives a call that leaves the status or the message out: the raised
class's attributes, read up its ancestry into the installed framework (here `webkit`, a made-up one on
`python_path:`), else the framework's default for a function that raises (`abort(404)`); never a text the
framework does not send."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import pytest

import docgen.frameworks
from docgen.extract.program import Code, Program
from docgen.extract.resolve import Resolver
from docgen.extract.routes import Endpoint, ExceptionArguments, Handler
from docgen.kinds.errors.catalog import ErrorsExtraction
from tests.helpers import make_files, run_extract_in_memory

WEBKIT = {
    "vendor/webkit/__init__.py": "from webkit.exceptions import HTTPError, NotFound, abort\n",
    "vendor/webkit/exceptions.py": """\
        class HTTPError(Exception):
            code: int | None = None
            description = "An error occurred"

            def __init__(self, description=None):
                super().__init__(description)
                self.description = description or self.description


        class NotFound(HTTPError):
            code = 404
            description = "Nothing is here"


        class Gone(HTTPError):
            code = 410


        def abort(status, description=None):
            raise HTTPError(description)
        """,
}

APP = {
    "app/__init__.py": "",
    "app/views.py": """\
        from webkit import NotFound, abort
        from webkit.exceptions import Gone


        class NoTeapot(NotFound):
            description = "No teapot here"


        def show(item):
            if item is None:
                raise NotFound()
            if item == "old":
                raise Gone("Moved away for good")
            if item == "tea":
                raise NoTeapot()
            abort(404)
        """,
    "docs/index.md": "# Errors\n",
    "mkdocs.yml": """\
        site_name: t
        plugins:
          - docgen:
              python_path: [vendor]
              catalogs:
                errors:
                  kind: errors
                  source: app/views.py
                  framework: webkit
                  functions: [show]
        """,
}


class WebkitFramework:
    """Just enough of a framework for errors catalogs: its exceptions, its raising function, its default."""

    name = "webkit"
    body_key = "message"
    automatic_statuses: frozenset[int] = frozenset()
    http_exceptions: Mapping[str, ExceptionArguments] = {
        "webkit.exceptions.HTTPError": ExceptionArguments(
            status=(None, "code"),
            detail=(0, "description"),
            status_attribute="code",
            detail_attribute="description",
        )
    }
    raising_calls: Mapping[str, ExceptionArguments] = {
        "webkit.abort": ExceptionArguments(status=(0, "status"), detail=(1, "description"))
    }
    responses: Mapping[str, ExceptionArguments] = {}
    tuple_status = False
    import_roots = frozenset({"webkit"})
    openapi_guide = "nowhere"

    def __init__(self, resolver: Resolver) -> None:
        self.resolver = resolver

    def constant_status(self, path: str) -> int | None:
        return None

    def default_detail(self, exception: str, status: int | None) -> str:
        return {404: "Not Found"}.get(status or 0, "") if exception == "webkit.abort" else ""

    def endpoints(self, program: Program, app: str | None) -> list[Endpoint]:
        return []

    def parameter_dependencies(self, program: Program, code: Code) -> list[Code]:
        return []

    def handlers(self, program: Program) -> dict[str, Handler]:
        return {}


def test_left_out_values_come_from_the_class_or_the_frameworks_default(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(docgen.frameworks.BUILTIN, "webkit", f"{__name__}:WebkitFramework")
    root = make_files(tmp_path, {**WEBKIT, **APP})
    found = run_extract_in_memory(root).of("errors", ErrorsExtraction)
    assert [(entry.status, entry.message) for entry in found.catalog.entries] == [
        (404, "Nothing is here"),  # NotFound's own attributes
        (410, "Moved away for good"),  # Gone's code, the message as passed
        (404, "No teapot here"),  # the subclass's description, NotFound's code
        (404, "Not Found"),  # abort(404): the framework's default for the function
    ]
