"""What every catalog model shares, whatever its kind: the plain value a file holds (`Json`), the source
files a catalog is drawn from (`Source`), and the protocols the stages hand catalogs on by.

The models of the built-in kinds build on these in their own modules (`error_models`, `tool_models`,
`route_models`); `models` gathers them all under one name to import from.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol, TypeAlias

from docgen.core.records import record

Json: TypeAlias = "bool | int | float | str | list[Json] | dict[str, Json] | None"
"""A value as YAML and JSON write it."""


@record
class Source:
    """A file a catalog draws on, with the symbols of it that the catalog cites."""

    path: str
    symbols: tuple[str, ...]

    def as_data(self) -> dict[str, Json]:
        return {"path": self.path, "symbols": list(self.symbols)}

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> Source:
        return cls(str(data["path"]), tuple(data["symbols"]))


class Catalog(Protocol):
    """What every catalog value gives, whatever its kind: the stages hand catalogs on by this, and the kind
    that built one (`docgen/core/kinds.py`) is what reads the rest of it."""

    @property
    def name(self) -> str: ...

    @property
    def kind(self) -> str: ...

    @property
    def sources(self) -> tuple[Source, ...]:
        """The files (and symbols) it was extracted from."""
        ...

    def as_data(self) -> dict[str, Json]:
        """Its file's plain data, key for key in the written order."""
        ...


class NotedCatalog(Catalog, Protocol):
    """A catalog whose items editors write notes for, keyed by the items' ids."""

    def note_ids(self) -> tuple[str, ...]: ...


class WithConstants(Protocol):
    """A catalog that carries the constants of its source, which notes may use (an errors catalog does)."""

    @property
    def constants(self) -> Mapping[str, Json]: ...


def constants_of(catalog: Catalog) -> Mapping[str, Json]:
    """The constants `catalog` carries; none for a catalog of a kind that carries none. (Read as an attribute:
    `isinstance` against the runtime-checkable protocol costs a hundred times more, and every note asks.)"""
    constants = getattr(catalog, "constants", None)
    return constants if isinstance(constants, Mapping) else {}
