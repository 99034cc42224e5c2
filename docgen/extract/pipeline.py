"""The extract stage end to end, in memory: the loaded project in, catalogs and their texts out.

Each catalog is built by its kind (`extract/kind_stage.py` says what extract asks of one); this module only
runs them and collects their results. Nothing here writes a file.
"""

from __future__ import annotations

import ast
import json
from dataclasses import dataclass, field
from typing import TypeVar

from docgen.core.catalog import dump_catalog
from docgen.core.models import Catalog
from docgen.core.project import CommittedCatalog, Project
from docgen.core.symbols import SourceFiles
from docgen.extract.error_marks import MarkedCalls
from docgen.extract.kind_stage import ExtractRun, KindResult, extracting

Result = TypeVar("Result", bound=KindResult)


@dataclass
class Extraction:
    """What extract found: one typed result per catalog (its kind's), the texts to write, and what editors
    should hear about."""

    results: dict[str, KindResult] = field(default_factory=dict)
    """Catalog name -> what its kind's extraction returned: the catalog, and what findings about it need."""
    outputs: dict[str, str] = field(default_factory=dict)
    """Project-relative path -> the exact text docgen would write there."""
    trees: dict[bytes, ast.Module] = field(default_factory=dict)
    """The syntax tree of every source file read, by its bytes: check fingerprints citations with them."""
    warnings: list[str] = field(default_factory=list)
    """Files that were reached but could not be read, and that no catalog needed."""
    error_marks: MarkedCalls = field(default_factory=MarkedCalls)
    """Every call that leads to an errors catalog's entries, with their facts: fingerprints hash the
    statements holding them as those facts (`SourceFiles.mark_errors`)."""

    @property
    def catalogs(self) -> dict[str, Catalog]:
        """Catalog name -> the catalog as a value, in configuration order."""
        return {name: result.catalog for name, result in self.results.items()}

    def of(self, name: str, kind: type[Result]) -> Result:
        """The result of catalog `name`, which its kind's extraction made a `kind` (the caller knows the
        catalog's kind: it holds a catalog of it)."""
        found = self.results[name]
        assert isinstance(found, kind), f"catalog {name!r} was extracted as {type(found).__name__}"
        return found

    def inform(self, sources: SourceFiles) -> None:
        """Hand the project's source files what extraction learned: the trees griffe parsed (so cited files
        are not parsed again) and the calls that lead to catalogued errors (so fingerprints hash them as
        their errors' facts). check and probe both do, so that they compare the same fingerprints."""
        sources.adopt(self.trees)
        sources.mark_errors(self.error_marks)


def extract(project: Project, *, dump: bool = True) -> Extraction:
    """Read every configured source and build every catalog in memory, each by its kind; the committed
    catalogs give the ids.

    `dump=False` leaves the catalogs' YAML text out of `outputs` (check compares values, and dumping 10,000
    entries takes a while).
    """
    settings = project.settings
    run = ExtractRun(project)
    result = Extraction(outputs=run.outputs, error_marks=run.marks)
    for name, config in settings.catalogs.items():
        found = extracting(config.kind).extract(run, name, config)
        result.results[name] = found
        if dump:
            text = _catalog_text(found.catalog, project.committed[name])
            result.outputs[settings.relative(settings.catalog_path(name))] = text
    result.trees = run.trees()
    result.warnings = run.modules.warnings()
    return result


def _catalog_text(data: Catalog, committed: CommittedCatalog | None) -> str:
    """The text to write for a catalog: the committed file's when it states exactly these facts in this
    order (JSON tells types and key order apart, as the YAML would), otherwise a fresh dump.

    Dumping is what extract spends most on when a large backend's catalogs have not changed: about a second
    for 10,000 entries, against a hundredth for this comparison. A committed catalog that holds the same
    facts in another layout (reformatted by hand) is therefore left as it is until its facts change.
    """
    if committed is not None and _facts(data.as_data()) == _facts(committed.document.data):
        return committed.text
    return dump_catalog(data)


def _facts(data: object) -> str:
    return json.dumps(data, ensure_ascii=False)
