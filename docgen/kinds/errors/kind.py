"""The errors kind as the registry finds it. Each stage's part is imported when that stage first asks, so
reading the settings imports none of them."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from docgen.core.catalog import REGENERATE
from docgen.core.catalog_config import CatalogConfig
from docgen.core.coverage import Coverage
from docgen.core.framework_config import framework_name
from docgen.core.kinds import Companion
from docgen.core.links import PLACES, LinkPlace
from docgen.core.models import Catalog, ErrorsCatalog
from docgen.core.schemas import validate
from docgen.core.settings_checks import (
    ARGUMENT_ROLES,
    Validator,
    configured_name_lines,
    constructor_maps,
    role_map,
)
from docgen.core.yamlio import LoadedYaml

if TYPE_CHECKING:
    from docgen.check.kind_stage import CheckedNotes
    from docgen.core.findings import Finding
    from docgen.core.project import CommittedCatalog, Project
    from docgen.extract.kind_stage import ExtractRun, KindResult
    from docgen.extract.pipeline import Extraction
    from docgen.kinds.errors.catalog import ErrorsExtraction
    from docgen.render.inputs import RenderInputs
    from docgen.render.kind_stage import Builder


def link_place(raw: Any, path: tuple[str | int, ...], check: Validator) -> LinkPlace | None:
    """`links: {in: data|body, key: NAME}` or `{in: header, name: NAME}`, with a located error otherwise."""
    example = "write links: {in: data, key: docs_url}, {in: body, key: type} or {in: header, name: Link}"
    if not isinstance(raw, dict):
        check.fail(path, f"expected a mapping, got {raw!r}", example)
        return None
    place = raw.get("in")
    if place not in PLACES:
        check.fail((*path, "in") if "in" in raw else path, f"expected one of {', '.join(PLACES)}", example)
        return None
    field = "name" if place == "header" else "key"
    check.unknown_keys(raw, {"in", field}, path)
    key = raw.get(field)
    if not isinstance(key, str) or not key:
        where = (*path, field) if field in raw else path
        check.fail(where, f"expected the {'header' if field == 'name' else 'field'} name as text", example)
        return None
    return LinkPlace(place, key)


class ErrorsKind:
    """Errors catalogs: configured by their constructors and the functions that call them."""

    name = "errors"
    keys = frozenset(
        {"constructors", "functions", "arguments", "framework", "publish_conditions", "public_constants"}
        | {"links"}
    )
    companions: frozenset[Companion] = frozenset({"notes", "evidence"})
    notes_regions = frozenset({"error-table", "error-examples", "spec-differences"})
    """Not `client-differences`: what the clients answered is the evidence's, not the notes'."""

    def configure(
        self,
        name: str,
        source: str,
        raw: Mapping[str, Any],
        path: tuple[str | int, ...],
        check: Validator,
        root: Path,
    ) -> CatalogConfig:
        framework = framework_name(raw, path, check, required=False)
        names: tuple[str, ...] = ()
        own: dict[str, dict[str, Any]] = {}
        if not framework or "constructors" in raw:  # a framework's errors are constructors by themselves
            names, own = constructor_maps(raw.get("constructors"), (*path, "constructors"), check)
        arguments: dict[str, Any] = {}
        if "arguments" in raw or len(own) < len(names):
            roles = (*path, "arguments")
            arguments = role_map(raw.get("arguments"), ARGUMENT_ROLES, {"message"}, roles, check)
        return CatalogConfig(
            name,
            "errors",
            source,
            constructors=names,
            functions=check.names(raw.get("functions"), (*path, "functions")),
            arguments=arguments,
            constructor_arguments=own,
            config_file=check.loaded.file,
            lines=configured_name_lines(raw, path, check),
            publish_conditions=check.flag(
                raw.get("publish_conditions", False), (*path, "publish_conditions")
            ),
            public_constants=check.names(
                raw.get("public_constants", []), (*path, "public_constants"), required=False
            ),
            links=link_place(raw["links"], (*path, "links"), check) if "links" in raw else None,
            framework=framework,
        )

    def parse(self, loaded: LoadedYaml) -> ErrorsCatalog:
        validate(loaded, "errors-catalog", REGENERATE)
        return ErrorsCatalog.from_data(loaded.data)

    def summary(self, catalog: Catalog) -> str:
        assert isinstance(catalog, ErrorsCatalog)  # the registry hands a kind its own catalogs
        return f"{len(catalog.entries)} entries"

    def extract(self, run: ExtractRun, name: str, config: CatalogConfig) -> ErrorsExtraction:
        from docgen.kinds.errors.catalog import extract_errors  # noqa: PLC0415 (see the module)

        return extract_errors(run, name, config)

    def notices(self, project: Project, name: str, result: KindResult) -> Iterator[str]:
        from docgen.kinds.errors.check import extract_notices  # noqa: PLC0415

        return extract_notices(project, name, result)

    def coverage(self, result: KindResult) -> Coverage:
        from docgen.kinds.coverage import errors_coverage  # noqa: PLC0415

        assert isinstance(result.catalog, ErrorsCatalog)  # the registry hands a kind its own catalogs
        return errors_coverage(result.catalog)

    def findings(
        self, project: Project, extraction: Extraction, name: str, committed: CommittedCatalog
    ) -> Iterator[Finding]:
        from docgen.kinds.errors.check import errors_findings  # noqa: PLC0415

        return errors_findings(project, extraction, name, committed)

    def check_notes(
        self, project: Project, extraction: Extraction, name: str, drift: list[Finding]
    ) -> CheckedNotes:
        from docgen.kinds.errors.check import errors_notes  # noqa: PLC0415

        return errors_notes(project, extraction, name, drift)

    def late_findings(self, project: Project, extraction: Extraction, name: str) -> Iterator[Finding]:
        from docgen.kinds.errors.check import late_findings  # noqa: PLC0415

        return late_findings(project, extraction, name)

    def view(self, catalog: Catalog, *, conditions: bool) -> dict[str, Any]:
        from docgen.kinds.errors.render import errors_view  # noqa: PLC0415

        return errors_view(catalog, conditions=conditions)

    def published(self, inputs: RenderInputs, name: str, shown: Iterable[str]) -> dict[str, Any]:
        from docgen.kinds.errors.render import errors_published  # noqa: PLC0415

        return errors_published(inputs, name, shown)

    def regions(self) -> Mapping[str, Builder]:
        from docgen.kinds.errors.regions import REGIONS  # noqa: PLC0415

        return REGIONS

    def reproduced(self, inputs: RenderInputs, name: str) -> dict[str, Any] | None:
        from docgen.kinds.errors.regions import reproduced  # noqa: PLC0415

        return reproduced(inputs, name)

    def cited(self, catalog: Catalog) -> Mapping[str, list[str]]:
        from docgen.kinds.errors.regions import cited  # noqa: PLC0415

        assert isinstance(catalog, ErrorsCatalog)  # the registry hands a kind its own catalogs
        return cited(catalog)

    def row_id(self, line: str) -> str | None:
        from docgen.kinds.errors.regions import row_id  # noqa: PLC0415

        return row_id(line)


KIND = ErrorsKind()
