"""docgen: keep a documentation site true to the server source it documents.

The public API, for programs that drive docgen rather than run its command line:

    from generator import load_project, load_settings, render_all, renderer_for, run_check

    project = load_project(load_settings(Path("mkdocs.yml")))
    findings = run_check(project)
    pages = render_all(renderer_for(project), project.pages)

Extraction on its own is `generator.extract.pipeline.extract(project)` (the name `generator.extract` is the
stage's package).

Each name is imported from its stage when first used, so importing `generator` costs nothing (the MkDocs
plugin must not load griffe, and `docgen --help` must start fast). The exceptions, and the values listed
here, are the API; the modules behind them are not.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"
"""The version of docgen; pyproject.toml reads it from here."""

_EXPORTS = {
    "ConfigError": "generator.core.errors",
    "DocgenError": "generator.core.errors",
    "InputError": "generator.core.errors",
    "Settings": "generator.core.settings",
    "load_settings": "generator.core.settings",
    "Project": "generator.core.project",
    "load_project": "generator.core.project",
    "ErrorsCatalog": "generator.core.models",
    "ToolsCatalog": "generator.core.models",
    "Finding": "generator.core.findings",
    "Kind": "generator.core.findings",
    "as_github": "generator.core.reports",
    "as_json": "generator.core.reports",
    "as_text": "generator.core.reports",
    "write_outputs": "generator.core.writer",
    "Extraction": "generator.extract.pipeline",
    "Renderer": "generator.render.renderer",
    "render_all": "generator.render.renderer",
    "renderer_for": "generator.render.renderer",
    "run_check": "generator.check.run",
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
    from generator.check.run import run_check
    from generator.core.errors import ConfigError, DocgenError, InputError
    from generator.core.findings import Finding, Kind
    from generator.core.models import ErrorsCatalog, ToolsCatalog
    from generator.core.project import Project, load_project
    from generator.core.reports import as_github, as_json, as_text
    from generator.core.settings import Settings, load_settings
    from generator.core.writer import write_outputs
    from generator.extract.pipeline import Extraction
    from generator.render.renderer import Renderer, render_all, renderer_for


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'generator' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
