"""Errors catalogs of a builder that answers successes as well as errors (aiohttp's `json_response`): a call
whose status resolves below 400 and that states no code is a success, not an entry."""

from __future__ import annotations

from pathlib import Path

from docgen.kinds.errors.catalog import ErrorsExtraction
from tests.helpers import make_files, run_extract_in_memory

SERVER = """\
    STATUS = {"gone": 410}

    def json_response(data, *, status=200, code=None):
        return (data, status, code)

    def found(data):
        return json_response(data)

    def endpoint(request):
        if request is None:
            return json_response("No such book", status=404)
        if request == "new":
            return json_response("Created", status=201)
        if request == "rpc":
            return json_response("Method not found", code=-32601)
        if request in STATUS:
            return json_response("Gone", status=STATUS[request])
        return found(request)
    """

MKDOCS = """\
    site_name: t
    plugins:
      - docgen:
          catalogs:
            errors:
              kind: errors
              source: app/server.py
              constructors: [json_response]
              functions: [endpoint]
              arguments: {message: 0, status: status, code: code}
    """


def test_a_success_through_the_builder_is_not_an_entry_and_a_code_or_a_run_time_status_keeps_one(
    tmp_path: Path,
) -> None:
    make_files(tmp_path, {"app/__init__.py": "", "app/server.py": SERVER, "mkdocs.yml": MKDOCS})
    result = run_extract_in_memory(tmp_path).results["errors"]
    assert isinstance(result, ErrorsExtraction)
    found = [(e.status, e.code, e.message, dict(e.dynamic)) for e in result.catalog.entries]
    assert found == [
        (404, None, "No such book", {}),
        (200, -32601, "Method not found", {}),
        (None, None, "Gone", {"status": "STATUS[request]"}),
    ]
    assert len(result.sites) == len(found)
