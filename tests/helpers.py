"""Small builders for tests: a throwaway project with a backend package and a docgen configuration."""

from __future__ import annotations

import shutil
import textwrap
from pathlib import Path

from docgen.core.catalog import parse_catalog
from docgen.core.models import Catalog
from docgen.core.notes import Notes, parse_notes
from docgen.core.project import Project, load_project
from docgen.core.settings import load_settings
from docgen.core.yamlio import read_yaml
from docgen.extract.pipeline import Extraction, extract
from docgen.templating.packaged import packaged_templates

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

PROJECT_PARTS = ("mkdocs.yml", "docs", "data", "backend")


def copy_project(repo_root: Path, target: Path) -> Path:
    """A throwaway copy of everything docgen and the site build read, with every packaged template copied
    out into its templates/ (as `docgen templates copy` does), so that a test can edit one as a project's own,
    untrusted, template; unedited, they render exactly as the packaged ones do."""
    target.mkdir(parents=True, exist_ok=True)
    for part in PROJECT_PARTS:
        source = repo_root / part
        if source.is_dir():
            shutil.copytree(source, target / part, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(source, target / part)
    (target / "templates").mkdir()
    for name, text in packaged_templates().items():
        (target / "templates" / name).write_text(text, encoding="utf-8")
    return target


def load(root: Path, *, site: bool = True) -> Project:
    """The project under `root` as a docgen command loads it."""
    return load_project(load_settings(root / "mkdocs.yml"), site=site)


def run_extract_in_memory(root: Path) -> Extraction:
    """Extract the project under `root` without writing anything."""
    return extract(load(root, site=False))


def read_catalog(path: Path, display: str) -> Catalog:
    """A catalog file, read and checked."""
    return parse_catalog(read_yaml(path, display))


def read_notes(path: Path, display: str) -> Notes:
    """A notes file (a missing one is empty), read and checked."""
    return parse_notes(read_yaml(path, display) if path.exists() else None, display)
