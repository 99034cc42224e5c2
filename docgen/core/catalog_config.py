"""One catalog's configuration: the settings every kind shares, and the keys of the built-in kinds.

It lives apart from `settings` so that the catalog kinds (`kinds`), which `settings` asks to check a
catalog's keys, can name it without importing `settings` back.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field
from typing import Any

from docgen.core.links import LinkPlace
from docgen.core.records import record

ArgumentRef = int | str
"""Where a constructor argument sits: a 0-based position, or a keyword name."""


@record
class CatalogConfig:
    """How to build one catalog from source."""

    name: str
    kind: str
    """The name of its catalog kind (`docgen/core/kinds.py`)."""
    source: str
    """A Python file or package directory, relative to the project root."""
    constructors: tuple[str, ...] = ()
    """Names of the error constructor: a function called, or an exception class raised."""
    functions: tuple[str, ...] = ()
    """The functions whose bodies are scanned for constructor calls, in page order."""
    arguments: Mapping[str, ArgumentRef] = field(default_factory=dict)
    """Role (code, message, status, data) -> 0-based position or keyword of the constructor: the map of every
    constructor that has none of its own."""
    constructor_arguments: Mapping[str, Mapping[str, ArgumentRef]] = field(default_factory=dict)
    """Constructor name -> its own argument map, for constructors given as `Name: {arguments: {...}}`."""
    config_file: str = field(default="mkdocs.yml", compare=False)
    """The configuration file these settings were read from, as messages name it."""
    lines: Mapping[str, int] = field(default_factory=dict, compare=False)
    """`constructors.NAME` / `functions.NAME` -> the line of the configuration that names it."""
    decorators: Mapping[str, str] = field(default_factory=dict)
    """Role (tool, resource, prompt) -> decorator name, for tools catalogs."""
    framework: str = ""
    """Routes catalogs: the web framework the application is written with."""
    openapi: str | None = None
    """Routes catalogs: a committed OpenAPI document (relative to the project root) that check compares."""
    app: str | None = None
    """Routes catalogs: the dotted path of the application documented (default: every application that
    is not mounted in another)."""
    publish_conditions: bool = False
    """Errors catalogs: the site shows each entry's guarding conditions (source text) and publishes them."""
    public_constants: tuple[str, ...] = ()
    """Errors catalogs: constants that look like credentials but are public, so the site may show them."""
    links: LinkPlace | None = None
    """Errors catalogs: where the server carries each error's link to its own entry (`links:`), which probe
    checks in every replayed answer; None when the server sends no links."""
    run_time_values: tuple[tuple[str, Any], ...] = ()
    """Routes catalogs: (expression, value) for each value the configuration states for an expression the
    source's paths use and docgen cannot read (`run_time_values:`)."""
    examples: str | None = None
    """`required`: once one entry has an example, check asks every entry for one; `optional`: only the
    entries that have one are checked. None: the kind's default (required for errors catalogs, optional for
    routes catalogs)."""
    options: Mapping[str, Any] = field(default_factory=dict)
    """The checked settings of a kind that is not built in, by key, as its `configure` keeps them."""
