"""What rendering works from: one value, fixed when a renderer is made, that every context builder reads."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import field

import jinja2

from docgen.core.changes import History
from docgen.core.evidence import Evidence
from docgen.core.models import Catalog
from docgen.core.notes import Notes
from docgen.core.records import record
from docgen.core.route_evidence import RouteEvidence
from docgen.core.spec import Spec

SymbolLines = Callable[[str, str], tuple[int, int] | None]
"""(file relative to the project root, symbol name) -> its first and last line, or None when unknown."""


def no_lines(file: str, symbol: str) -> None:
    """The symbol locator of a renderer that links no source lines."""
    return None


@record
class RenderInputs:
    """The catalogs, notes, evidence, specifications and templates regions are rendered from.

    Attributes:
        catalogs: Catalog name -> catalog.
        notes: Catalog name -> its notes; a missing name means no notes.
        evidence: Catalog name -> the evidence probe recorded for it.
        specs: Specification name -> the specification, for the notes that name one.
        titles: Every page of the site (docs-relative path) -> its title, for Related links.
        environment: The Jinja environment of the region templates (notes render in it too).
        templates_folder: Where the templates came from, relative to the project root (for messages).
        docs_folder: Where the pages live, relative to the project root (for messages).
        data_folder: Where the catalogs live, relative to the project root (a page names files there).
        site_url, repo_url: From mkdocs.yml.
        source_ref: The git ref source links point at (a branch for committed pages, a commit for the site).
        symbol_lines: Links each cited symbol to its lines (by default, no lines).
        publish_conditions, public_constants: From each catalog's configuration (see README.md).
        histories: Errors catalog name -> its history from git, or None where the site build found none;
            None as a whole where no history is asked for (see docgen/kinds/errors/changelog.py).
        replies: Routes catalog name -> what its application answered to the examples (probe's evidence).
    """

    catalogs: Mapping[str, Catalog]
    notes: Mapping[str, Notes]
    evidence: Mapping[str, Evidence]
    specs: Mapping[str, Spec]
    titles: Mapping[str, str]
    environment: jinja2.Environment
    templates_folder: str = "templates"
    docs_folder: str = "docs"
    data_folder: str = "data"
    site_url: str | None = None
    repo_url: str | None = None
    source_ref: str = "HEAD"
    symbol_lines: SymbolLines = no_lines
    publish_conditions: frozenset[str] = frozenset()
    """The catalogs whose configuration publishes their entries' guarding conditions."""
    public_constants: Mapping[str, frozenset[str]] = field(default_factory=dict)
    """Catalog name -> the constants its configuration lists as public (never refused as credentials)."""
    histories: Mapping[str, History | None] | None = None
    replies: Mapping[str, RouteEvidence] = field(default_factory=dict)
    """Only the MkDocs plugin's site renderer has them: committed pages hold the changelog's placeholder."""

    def notes_of(self, catalog: str) -> Notes:
        """The notes of `catalog` (empty ones when it has none)."""
        return self.notes.get(catalog) or Notes(file="")
