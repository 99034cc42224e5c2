"""What render asks of a catalog kind: the catalog as its regions see it and as a page publishes it, the
regions it owns, and what the regions every kind shares (the page header, the based-on list) need of it.

A kind that gives none of this (`RenderingKind`) is shown and published as its file's data (`as_data`), owns
no region, and adds nothing to the shared regions.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, Protocol, runtime_checkable

from docgen.core import kinds
from docgen.core.models import Catalog
from docgen.render.inputs import RenderInputs
from docgen.render.regions import Region

Context = dict[str, Any]
"""What a template renders with: plain data (mappings, lists, text, numbers) or typed records it reads by
attribute, as docgen/templating/builtin/README.md lists for each region."""

Builder = Callable[[RenderInputs, Region, str, Context], Context]
"""What one region's template adds to the context every region gets, from the inputs, the region, the page
(docs-relative) and that shared context. A kind's builder is called only with `catalog_name` in the context,
naming a catalog of that kind."""


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

    def regions(self) -> Mapping[str, Builder]:
        """The regions only its catalogs can fill: region name -> the builder of what its template adds."""
        ...

    @property
    def notes_regions(self) -> frozenset[str]:
        """Those of its regions whose text shows its notes, so that their marker names the notes file as a
        place to edit (`edit-in`)."""
        ...

    def reproduced(self, inputs: RenderInputs, name: str) -> dict[str, Any] | None:
        """For a page header naming catalog `name` as `evidence=`: how many of its rows the last probe
        reproduced (see docgen.render.evidence_context); None when it has no evidence."""
        ...

    def cited(self, catalog: Catalog) -> Mapping[str, list[str]]:
        """Source file -> the symbols a based-on list cites for the catalog, after the page's own list: the
        helpers extract followed to reach its facts. Empty when it follows none."""
        ...

    def row_id(self, line: str) -> str | None:
        """The id of the entry a line of one of its regions is the table row of, whose notes fields the line
        shows; None for any other line. Says where an editor's change to that line belongs."""
        ...


def rendering(catalog: Catalog) -> RenderingKind | None:
    """The kind of `catalog` as render calls it; None for a kind shown as its data."""
    return rendering_kind(catalog.kind)


def rendering_kind(name: str) -> RenderingKind | None:
    """The kind called `name` as render calls it; None for a kind shown as its data."""
    kind = kinds.kind_of(name)
    return kind if isinstance(kind, RenderingKind) else None


def region_owner(region: str, configured: Iterable[str]) -> str | None:
    """The kind whose catalogs alone can fill the region called `region`, among the built-in kinds and the
    kinds `configured` (those of the project's catalogs); None for a region any catalog, or none, can fill.

    Only the built-in kinds and those a project configures are asked: a plugin kind the project does not
    use is never imported, nor are the installed distributions scanned for it.
    """
    for name in dict.fromkeys([*kinds.KINDS.builtin(), *configured]):
        kind = rendering_kind(name)
        if kind is not None and region in kind.regions():
            return name
    return None
