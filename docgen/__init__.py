"""docgen: keep a documentation site true to the server source it documents.

The public API, for programs that drive docgen rather than run its command line:

    from docgen import load_project, load_settings, render_all, renderer_for, run_check

    project = load_project(load_settings(Path("mkdocs.yml")))
    findings = run_check(project)
    pages = render_all(renderer_for(project), project.pages)

Extraction on its own is `docgen.extract.pipeline.extract(project)` (the name `docgen.extract` is the
stage's package).

Each name is imported from its stage when first used, so importing `docgen` costs nothing (the MkDocs
plugin must not load griffe, and `docgen --help` must start fast). The exceptions, and the values listed
here, are the API; the modules behind them are not.
"""

from __future__ import annotations

import importlib

TYPE_CHECKING = False
"""Read as True by type checkers (as `typing.TYPE_CHECKING` is). Not imported from `typing`: importing that
module is about a tenth of what a `docgen check` answered from the verdict cache costs, and nothing else on
that path needs it."""

__version__ = "0.1.0"
"""The version of docgen; pyproject.toml reads it from here."""

_EXPORTS = {
    "ConfigError": "docgen.core.errors",
    "DocgenError": "docgen.core.errors",
    "InputError": "docgen.core.errors",
    "Settings": "docgen.core.settings",
    "load_settings": "docgen.core.settings",
    "Project": "docgen.core.project",
    "load_project": "docgen.core.project",
    "ErrorsCatalog": "docgen.core.models",
    "ToolsCatalog": "docgen.core.models",
    "Finding": "docgen.core.findings",
    "Kind": "docgen.core.findings",
    "as_github": "docgen.core.reports",
    "as_json": "docgen.core.reports",
    "as_text": "docgen.core.reports",
    "write_outputs": "docgen.core.writer",
    "Extraction": "docgen.extract.pipeline",
    "Renderer": "docgen.render.renderer",
    "render_all": "docgen.render.renderer",
    "renderer_for": "docgen.render.renderer",
    "run_check": "docgen.check.run",
}

__all__ = [
    "ConfigError",
    "DocgenError",
    "ErrorsCatalog",
    "Extraction",
    "Finding",
    "InputError",
    "Kind",
    "Project",
    "Renderer",
    "Settings",
    "ToolsCatalog",
    "__version__",
    "as_github",
    "as_json",
    "as_text",
    "load_project",
    "load_settings",
    "render_all",
    "renderer_for",
    "run_check",
    "write_outputs",
]

if TYPE_CHECKING:
    from typing import Any

    from docgen.check.run import run_check
    from docgen.core.errors import ConfigError, DocgenError, InputError
    from docgen.core.findings import Finding, Kind
    from docgen.core.models import ErrorsCatalog, ToolsCatalog
    from docgen.core.project import Project, load_project
    from docgen.core.reports import as_github, as_json, as_text
    from docgen.core.settings import Settings, load_settings
    from docgen.core.writer import write_outputs
    from docgen.extract.pipeline import Extraction
    from docgen.render.renderer import Renderer, render_all, renderer_for


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'docgen' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
