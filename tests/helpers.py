"""Small builders for tests: a throwaway project with a backend package and a docgen configuration."""

from __future__ import annotations

import shutil
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


SEED_ROWS = [
    (-32700, 400),
    (-32600, 403),
    (-32600, 413),
    (-32600, 400),
    (-32600, 400),
    (-32020, 400),
    (-32601, 404),
    (-32601, 200),
    (-32602, 200),
    (-32603, 429),
    (-32603, 200),
]
"""(JSON-RPC code, HTTP status) of each row of the target page's table (shared/seeds/003), in its order."""

PROJECT_PARTS = ("mkdocs.yml", "docs", "data", "templates", "backend")


def copy_project(repo_root: Path, target: Path) -> Path:
    """A throwaway copy of everything docgen and the site build read."""
    target.mkdir(parents=True, exist_ok=True)
    for part in PROJECT_PARTS:
        source = repo_root / part
        if source.is_dir():
            shutil.copytree(source, target / part, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(source, target / part)
    return target
