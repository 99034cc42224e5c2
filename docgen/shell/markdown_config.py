"""The site's Markdown as mkdocs.yml configures it, for `docgen publish`, which turns a region of a page into
the HTML the engine would have made of it (see docgen/shell/site_html.py).

MkDocs converts every page with Python-Markdown, its three built-in extensions (`toc`, `tables`,
`fenced_code`) first, then those `markdown_extensions:` lists, each with its options; Zensical reads the same
list from mkdocs.yml. An option written `!!python/name:module.attr` (a SuperFences fence's `format`, say)
names a Python object, which is imported here as MkDocs imports it, but only for the names `docgen check`
allows (functions Material and PyMdown Extensions ship for the purpose, docgen/check/build_config.py); any
other is a located error, as check reports it. Every other tag (`!ENV`, `!relative`) is read plainly.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

import markdown
import yaml

from docgen.check.build_config import KNOWN_CALLABLES, PYTHON_TAG
from docgen.core.errors import ConfigError
from docgen.core.settings import Settings

BUILT_IN = ("toc", "tables", "fenced_code")
"""The extensions MkDocs adds before those mkdocs.yml lists."""

_KEY = "markdown_extensions"


class _NamesLoader(yaml.SafeLoader):
    """SafeLoader that resolves the `!!python/` tags check allows and reads any other tag plainly."""


def _python_name(loader: yaml.SafeLoader, suffix: str, node: yaml.Node) -> Any:
    if suffix not in KNOWN_CALLABLES["name"]:
        # check reports any other name (`build-runs-code`): nothing a pull request names is imported here.
        raise yaml.YAMLError(f"!!python/name:{suffix} is not one that docgen check allows")
    return _imported(suffix)


def _python_apply(loader: yaml.SafeLoader, suffix: str, node: yaml.Node) -> Any:
    if suffix not in KNOWN_CALLABLES["object/apply"] or not isinstance(node, yaml.MappingNode):
        raise yaml.YAMLError(f"!!python/object/apply:{suffix} is not one that docgen check allows")
    arguments = loader.construct_mapping(node, deep=True)
    return _imported(suffix)(*arguments.get("args", ()), **arguments.get("kwds", {}))


def _imported(name: str) -> Any:
    module, _, attribute = name.rpartition(".")
    try:
        return getattr(importlib.import_module(module), attribute)
    except (ImportError, AttributeError) as err:
        raise yaml.YAMLError(f"{name} is not installed here ({err})") from err


def _plain(loader: yaml.SafeLoader, suffix: str, node: yaml.Node) -> Any:
    if isinstance(node, yaml.ScalarNode):
        return loader.construct_scalar(node)
    if isinstance(node, yaml.SequenceNode):
        return loader.construct_sequence(node)
    return loader.construct_mapping(node)  # type: ignore[arg-type]


_NamesLoader.add_multi_constructor(f"{PYTHON_TAG}name:", _python_name)
_NamesLoader.add_multi_constructor(f"{PYTHON_TAG}object/apply:", _python_apply)
_NamesLoader.add_multi_constructor(PYTHON_TAG, _plain)
_NamesLoader.add_multi_constructor("!", _plain)


def site_markdown(settings: Settings) -> markdown.Markdown:
    """A Markdown converter with the site's extensions and their options; a located error for a list that
    is not one, or an extension that is not installed."""
    extensions, configs = _extensions(settings)
    try:
        return markdown.Markdown(extensions=extensions, extension_configs=configs)
    except (ImportError, AttributeError, TypeError, KeyError, ValueError) as err:
        raise _error(settings, f"a Markdown extension the site lists cannot be loaded here ({err})") from err


def _extensions(settings: Settings) -> tuple[list[str], dict[str, dict[str, Any]]]:
    listed = _listed(settings)
    names = list(BUILT_IN)
    configs: dict[str, dict[str, Any]] = {}
    items = listed.items() if isinstance(listed, Mapping) else (_item(settings, each) for each in listed)
    for name, options in items:
        if not isinstance(name, str) or not isinstance(options, Mapping | None):
            raise _error(settings, "each item must be an extension's name, or its name mapped to its options")
        if name not in names:
            names.append(name)
        configs[name] = dict(options or {})
    return names, configs


def _listed(settings: Settings) -> Any:
    config = settings.config
    if config is None:
        return []
    try:
        data = yaml.load(config.text, Loader=_NamesLoader)  # a SafeLoader: only the tags above
    except yaml.YAMLError as err:
        raise _error(settings, f"the list cannot be read ({err})") from err
    listed = data.get(_KEY) if isinstance(data, Mapping) else None
    if listed is None:
        return []
    if not isinstance(listed, list | Mapping):
        raise _error(settings, "it must be a list of extensions")
    return listed


def _item(settings: Settings, item: Any) -> tuple[Any, Any]:
    if isinstance(item, Mapping) and len(item) == 1:
        return next(iter(item.items()))
    return item, None


def _error(settings: Settings, message: str) -> ConfigError:
    config = settings.config
    line = config.line((_KEY,)) if config is not None else None
    return ConfigError(
        f"{_KEY}: {message}",
        file=settings.relative(settings.config_file),
        line=line,
        hint="list only extensions installed where docgen runs, and tag only what `docgen check` allows",
    )
