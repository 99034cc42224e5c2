"""Small builders for tests: a throwaway project with a backend package and a docgen configuration."""

from __future__ import annotations

import textwrap
from pathlib import Path

MKDOCS_ERRORS = """\
site_name: test
plugins:
  - docgen:
      catalogs:
        errors:
          kind: errors
          source: {source}
          constructors: [{constructors}]
          functions: [{functions}]
          arguments: {{code: 1, message: 2, status: status, data: data}}
"""

ERROR_HELPER = """\
from http import HTTPStatus

def _rpc_error(request_id, code, message, *, status=HTTPStatus.OK, data=None):
    return (request_id, code, message, status, data)
"""


def make_files(root: Path, files: dict[str, str]) -> Path:
    """Write `files` (relative path -> text, dedented) under `root`; return `root`."""
    for relative, text in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    return root


def make_project(
    root: Path,
    server: str,
    *,
    extra: dict[str, str] | None = None,
    functions: str = "endpoint",
    constructors: str = "_rpc_error",
) -> Path:
    """A project whose `app/server.py` is `ERROR_HELPER` followed by `server` (dedented)."""
    files = {
        "app/__init__.py": "",
        "app/server.py": ERROR_HELPER + "\n" + textwrap.dedent(server),
        "mkdocs.yml": MKDOCS_ERRORS.format(
            source="app/server.py", constructors=constructors, functions=functions
        ),
    }
    files.update(extra or {})
    return make_files(root, files)
