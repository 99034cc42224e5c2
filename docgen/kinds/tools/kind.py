"""The tools kind as the registry finds it. Its catalogs have no notes: drift is all check says of them."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from docgen.core.catalog import REGENERATE
from docgen.core.catalog_config import CatalogConfig
from docgen.core.kinds import Companion
from docgen.core.models import Catalog, ToolsCatalog
from docgen.core.records import record
from docgen.core.schemas import validate
from docgen.core.settings_checks import Validator, role_map
from docgen.core.yamlio import LoadedYaml

if TYPE_CHECKING:
    from docgen.check.kind_stage import CheckedNotes
    from docgen.core.findings import Finding
    from docgen.core.project import CommittedCatalog, Project
    from docgen.extract.kind_stage import ExtractRun
    from docgen.extract.pipeline import Extraction
    from docgen.render.inputs import RenderInputs
    from docgen.render.kind_stage import Builder

DECORATOR_ROLES = {"tool", "resource", "prompt"}


@record
class ToolsExtraction:
    """A tools catalog as extracted: findings about it need nothing more."""

    catalog: ToolsCatalog


class ToolsKind:
    """Tools catalogs: configured by the names of the decorators that register tools, resources and
    prompts."""

    name = "tools"
    keys = frozenset({"decorators"})
    companions: frozenset[Companion] = frozenset()
    notes_regions: frozenset[str] = frozenset()

    def configure(
        self,
        name: str,
        source: str,
        raw: Mapping[str, Any],
        path: tuple[str | int, ...],
        check: Validator,
        root: Path,
    ) -> CatalogConfig:
        decorators = role_map(
            raw.get("decorators"), DECORATOR_ROLES, set(), (*path, "decorators"), check, positions=False
        )
        return CatalogConfig(name, "tools", source, decorators=decorators)

    def parse(self, loaded: LoadedYaml) -> ToolsCatalog:
        validate(loaded, "tools-catalog", REGENERATE)
        return ToolsCatalog.from_data(loaded.data)

    def summary(self, catalog: Catalog) -> str:
        assert isinstance(catalog, ToolsCatalog)  # the registry hands a kind its own catalogs
        return f"{len(catalog.tools)} tools"

    def extract(self, run: ExtractRun, name: str, config: CatalogConfig) -> ToolsExtraction:
        from docgen.kinds.tools.extract import tools_catalog  # noqa: PLC0415

        module = run.module(config)[0]
        return ToolsExtraction(tools_catalog(config, module, run.resolver, run.files(module)))

    def findings(
        self, project: Project, extraction: Extraction, name: str, committed: CommittedCatalog
    ) -> Iterator[Finding]:
        from docgen.kinds.tools.drift import tools_drift  # noqa: PLC0415

        catalog = extraction.results[name].catalog
        assert isinstance(catalog, ToolsCatalog)
        return tools_drift(committed, catalog)

    def late_findings(self, project: Project, extraction: Extraction, name: str) -> Iterator[Finding]:
        return iter(())

    def check_notes(
        self, project: Project, extraction: Extraction, name: str, drift: list[Finding]
    ) -> CheckedNotes | None:
        return None

    def view(self, catalog: Catalog, *, conditions: bool) -> dict[str, Any]:
        return catalog.as_data()

    def published(self, inputs: RenderInputs, name: str, shown: Iterable[str]) -> dict[str, Any]:
        return inputs.catalogs[name].as_data()

    def regions(self) -> Mapping[str, Builder]:
        from docgen.kinds.tools.regions import REGIONS  # noqa: PLC0415

        return REGIONS

    def reproduced(self, inputs: RenderInputs, name: str) -> dict[str, Any] | None:
        return None  # probe replays no example of a tool: there is no evidence to count

    def cited(self, catalog: Catalog) -> Mapping[str, list[str]]:
        return {}

    def row_id(self, line: str) -> str | None:
        return None  # the reference shows no notes, so any edit in it is the template's


KIND = ToolsKind()
