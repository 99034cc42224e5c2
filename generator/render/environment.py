"""The Jinja environment region templates and notes render in: docgen's bounded sandbox (a pull request can
change both), over the templates the project loaded."""

from __future__ import annotations

from collections.abc import Callable, Mapping

import jinja2

from generator.render.filters import FILTERS
from generator.templating import template_cache
from generator.templating.sandbox import BoundedSandbox


class ProjectTemplates(jinja2.BaseLoader):
    """Templates from the loaded project rather than from disk: rendering reads no file.

    Each template is named, in errors and tracebacks, by its path relative to the project root.
    """

    def __init__(self, templates: Mapping[str, str], folder: str) -> None:
        self.templates = templates
        self.folder = folder

    def get_source(
        self, environment: jinja2.Environment, template: str
    ) -> tuple[str, str, Callable[[], bool]]:
        if template not in self.templates:
            raise jinja2.TemplateNotFound(template)
        return self.templates[template], f"{self.folder}/{template}", lambda: True

    def list_templates(self) -> list[str]:
        return sorted(self.templates)


def make_environment(templates: Mapping[str, str], folder: str = "templates") -> jinja2.Environment:
    """The environment for region templates and notes: the sandbox, strict about undefined names, with
    deterministic whitespace and docgen's filters.

    Parameters:
        templates: Template name -> source, as the project loaded them.
        folder: Where they were loaded from, relative to the project root (for messages).
    """
    environment = BoundedSandbox(
        loader=ProjectTemplates(templates, folder),
        filters=FILTERS,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    # `tojson` of a catalog's constants (a recording mapping, not a dict) writes them as a dict would.
    environment.policies["json.dumps_kwargs"] = {"sort_keys": True, "default": _plain_mapping}
    return template_cache.attach(environment)


def _plain_mapping(value: object) -> dict[str, object]:
    if isinstance(value, Mapping):
        return dict(value)
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")
