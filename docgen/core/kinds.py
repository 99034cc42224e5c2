"""Catalog kinds: what makes an errors, a tools or a routes catalog (or one a plugin adds) what it is.

A kind is one object that every stage asks about the catalogs of that kind: its configuration keys and how
they are checked, its typed model, its extraction, its findings and what its regions see. The stages never
test a kind's name; they look the kind up here by the `kind:` a catalog's configuration (or its committed
file) gives, and call it.

Core may import no other docgen package, so this registry knows the built-in kinds by dotted path and
imports each only when a catalog of that kind is configured: a project of errors catalogs never imports the
routes readers. Other kinds come from installed distributions that declare them in the `docgen.kinds`
entry-point group (`name = "package.module:OBJECT"`); that group is read only when a name is not built in,
because scanning every installed distribution's metadata costs more than the rest of reading the settings.

This module fixes only what core itself calls (`CatalogKind`); each stage declares the part it calls in its
own module (`extract/kind_stage.py`, `check/kind_stage.py`, `render/kind_stage.py`), so that a kind's stage
methods are typed by the stage's own values without core importing them.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal, Protocol, runtime_checkable

from docgen.core.catalog_config import CatalogConfig
from docgen.core.errors import ConfigError
from docgen.core.models import Catalog
from docgen.core.plugins import PluginGroup
from docgen.core.settings_checks import Validator
from docgen.core.yamlio import LoadedYaml

Companion = Literal["notes", "evidence", "replies", "openapi"]
"""A file a catalog can have beside it: `notes`, editors' prose keyed by the ids of its entries
(`<name>.notes.yaml`; the catalog's header points at it); `evidence`, what probe observed of the notes'
examples (`<name>.evidence.yaml`), and the catalog as committed at a base ref, for contract changes;
`replies`, what an HTTP application answered to the notes' examples (`<name>.evidence.yaml`, schema
`routes-evidence`);
`openapi`, an OpenAPI fragment written beside it (`<name>.openapi.json`) and the document its configuration
names."""

KINDS = PluginGroup("docgen.kinds", "docgen.kinds:BUILT_IN")
"""The catalog kinds: the built-in ones by dotted path (`docgen/kinds/__init__.py`), found without reading
any distribution's metadata, and those installed distributions declare in the `docgen.kinds` entry points."""


@runtime_checkable
class CatalogKind(Protocol):
    """What core asks of a catalog kind: its name, its configuration and its typed model."""

    @property
    def name(self) -> str:
        """The `kind:` value that selects it."""
        ...

    @property
    def keys(self) -> frozenset[str]:
        """Every key its catalog's configuration may hold (besides `kind` and `source`)."""
        ...

    @property
    def companions(self) -> frozenset[Companion]:
        """The files its catalogs have beside them, which the project loader reads for them."""
        ...

    def configure(
        self,
        name: str,
        source: str,
        raw: Mapping[str, Any],
        path: tuple[str | int, ...],
        check: Validator,
        root: Path,
    ) -> CatalogConfig:
        """The catalog's configuration with its keys checked: problems go to `check`, located at `path`
        (`source` is checked already; `root` is the project's folder, for paths the keys give)."""
        ...

    def summary(self, catalog: Catalog) -> str:
        """What `docgen extract` says of one of its catalogs after the file's name (`12 entries`)."""
        ...

    def parse(self, loaded: LoadedYaml) -> Catalog:
        """The typed catalog a committed catalog file holds; a located `CatalogError` when the file does not
        have the kind's shape (its schema)."""
        ...


def known() -> tuple[str, ...]:
    """Every kind a configuration may name: the built-in ones, then those installed distributions add."""
    return KINDS.names()


def is_known(name: object) -> bool:
    """Whether `name` names a kind, reading the installed ones only when it is not built in."""
    return isinstance(name, str) and KINDS.known(name)


@functools.cache
def kind_of(name: str) -> CatalogKind:
    """The kind called `name` (one `is_known` accepts), imported on first use."""
    found = KINDS.load(name)
    if not isinstance(found, CatalogKind) or found.name != name:
        raise ConfigError(
            f"{KINDS.where(name)} is not a docgen catalog kind called {name!r}",
            hint="see CatalogKind in docgen/core/kinds.py for what a kind gives",
        )
    return found
