"""Which of a catalog's constants a rendering actually shows: the names templates and notes read.

Templates read the constants as `catalog.constants` and notes as variables; both are given a
`ShownConstants` mapping, which notes each name read into every `recording()` under way. Rendering a page
inside `recording()` then says which constants that page shows, and the JSON published beside it carries
those and no others (see docgen/render/published.py).

A read counts even where the value is only tested (`{% if c.X is defined %}`): the record errs towards
naming too much, never too little. Whatever reads every value at once (`items()`, `values()`, `{{ c }}`,
`tojson`) reads, and so records, every name.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from docgen.core.models import Catalog, ErrorEntry
from docgen.render.kind_stage import rendering

Shown = dict[str, set[str]]
"""Catalog name -> the names of its constants read."""

_RECORDINGS: ContextVar[tuple[Shown, ...]] = ContextVar("docgen_shown_constants", default=())


@contextmanager
def recording() -> Iterator[Shown]:
    """Collect the constants read while the block runs (a recording inside another feeds both)."""
    shown: Shown = {}
    token = _RECORDINGS.set((*_RECORDINGS.get(), shown))
    try:
        yield shown
    finally:
        _RECORDINGS.reset(token)


def _note(catalog: str, name: str) -> None:
    for shown in _RECORDINGS.get():
        shown.setdefault(catalog, set()).add(name)


class ShownConstants(Mapping[str, Any]):
    """A catalog's constants, read only: each name read is noted into the recordings under way."""

    def __init__(self, catalog: str, constants: Mapping[str, Any]) -> None:
        self._catalog = catalog
        self._constants = constants

    def __getitem__(self, name: str) -> Any:
        value = self._constants[name]
        _note(self._catalog, name)
        return value

    def __iter__(self) -> Iterator[str]:
        return iter(self._constants)

    def __len__(self) -> int:
        return len(self._constants)

    def __repr__(self) -> str:
        for name in self._constants:
            _note(self._catalog, name)
        return repr(dict(self._constants))

    __str__ = __repr__


def catalog_view(catalog: Catalog, *, conditions: bool) -> dict[str, Any]:
    """A catalog as templates see it: as its kind shows it (an errors catalog's constants as
    `ShownConstants`, its entries' `conditions` only where the configuration publishes them), or its data."""
    kind = rendering(catalog)
    return kind.view(catalog, conditions=conditions) if kind is not None else catalog.as_data()


def entry_view(entry: ErrorEntry, *, conditions: bool) -> dict[str, Any]:
    """An entry's data as pages and the JSON show it: without the source text of its guarding conditions
    unless the catalog's configuration asks for them (`publish_conditions: true`)."""
    data: dict[str, Any] = entry.as_data()
    if not conditions:
        del data["conditions"]
    return data
