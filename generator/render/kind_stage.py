"""What render asks of a catalog kind: the catalog as its regions see it, and as a page publishes it.

A kind that gives neither (`RenderingKind`) is shown and published as its file's data (`as_data`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Protocol, runtime_checkable

from generator.core import kinds
from generator.core.models import Catalog
from generator.render.inputs import RenderInputs


@runtime_checkable
class RenderingKind(Protocol):
    """A catalog kind as render calls it."""

    def view(self, catalog: Catalog, *, conditions: bool) -> dict[str, Any]:
        """The catalog as templates see it (`catalog` in a region's context); `conditions` says whether the
        configuration publishes the source text of guarding conditions."""
        ...

    def published(self, inputs: RenderInputs, name: str, shown: Iterable[str]) -> dict[str, Any]:
        """Catalog `name` as published beside a page whose regions show the constants `shown`."""
        ...


def rendering(catalog: Catalog) -> RenderingKind | None:
    """The kind of `catalog` as render calls it; None for a kind shown as its data."""
    kind = kinds.kind_of(catalog.kind)
    return kind if isinstance(kind, RenderingKind) else None
