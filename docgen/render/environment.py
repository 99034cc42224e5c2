"""The Jinja environment region templates and notes render in: docgen's bounded sandbox (a pull request can
change both), over the templates the project loaded and those docgen ships."""

from __future__ import annotations

from collections.abc import Callable, Mapping, MutableMapping
from typing import Any

import jinja2

from docgen.render.filters import FILTERS
from docgen.templating import precompiled, template_cache
from docgen.templating.packaged import PACKAGED, packaged_templates
from docgen.templating.sandbox import BoundedSandbox


class ProjectTemplates(jinja2.BaseLoader):
    """Templates from the loaded project, over those docgen ships, rather than from disk: rendering reads no
    file.

    A project template of the same name replaces the packaged one. Each template is named, in errors and
    tracebacks, by its path relative to the project root, or for a packaged one by `docgen:templates/NAME`.
    """

    def __init__(self, templates: Mapping[str, str], folder: str) -> None:
        self.templates = templates
        self.folder = folder
        self.packaged = packaged_templates()

    def get_source(
        self, environment: jinja2.Environment, template: str
    ) -> tuple[str, str, Callable[[], bool]]:
        if template in self.templates:
            return self.templates[template], f"{self.folder}/{template}", lambda: True
        if template in self.packaged:
            return self.packaged[template], f"{PACKAGED}/{template}", lambda: True
        raise jinja2.TemplateNotFound(template)

    def load(
        self, environment: jinja2.Environment, name: str, globals: MutableMapping[str, Any] | None = None
    ) -> jinja2.Template:
        """A packaged template from the code compiled with docgen (docgen/templating/precompiled.py) when
        that is what compiling it here would give; any other template compiled, as Jinja's loaders do."""
        if name not in self.templates and name in self.packaged:
            filename = f"{PACKAGED}/{name}"
            code = precompiled.code_for(environment, name, self.packaged[name], filename)
            if code is not None:
                return environment.template_class.from_code(environment, code, globals or {})
        return super().load(environment, name, globals)

    def list_templates(self) -> list[str]:
        return sorted({*self.templates, *self.packaged})


def make_environment(templates: Mapping[str, str], folder: str = "templates") -> jinja2.Environment:
    """The environment for region templates and notes: the sandbox, strict about undefined names, with
    deterministic whitespace and docgen's filters.

    Parameters:
        templates: Template name -> source, as the project loaded them (over the packaged templates).
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
