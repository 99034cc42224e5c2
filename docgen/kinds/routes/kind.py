"""The routes kind as the registry finds it. Each stage's part is imported when that stage first asks: a
project without a routes catalog (most JSON-RPC and MCP servers) never imports the web-framework readers."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from docgen.core.catalog import REGENERATE
from docgen.core.catalog_config import CatalogConfig
from docgen.core.coverage import Coverage
from docgen.core.framework_config import framework_name
from docgen.core.kinds import Companion
from docgen.core.models import Catalog, RoutesCatalog
from docgen.core.schemas import validate
from docgen.core.settings_checks import Validator
from docgen.core.yamlio import LoadedYaml

if TYPE_CHECKING:
    from docgen.check.kind_stage import CheckedNotes
    from docgen.core.findings import Finding
    from docgen.core.project import CommittedCatalog, Project
    from docgen.extract.kind_stage import ExtractRun, KindResult
    from docgen.extract.pipeline import Extraction
    from docgen.kinds.routes.catalog import RoutesExtraction
    from docgen.render.inputs import RenderInputs
    from docgen.render.kind_stage import Builder


class RoutesKind:
    """Routes catalogs: configured by the application's web framework, and optionally the application and
    a committed OpenAPI document to compare."""

    name = "routes"
    keys = frozenset({"framework", "app", "openapi", "run_time_values"})
    companions: frozenset[Companion] = frozenset({"notes", "replies", "openapi"})
    notes_regions = frozenset({"route-errors"})

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
        openapi = raw.get("openapi")
        if openapi is not None and not (isinstance(openapi, str) and openapi):
            check.fail((*path, "openapi"), f"expected the path of an OpenAPI JSON document, got {openapi!r}")
            openapi = None
        elif isinstance(openapi, str) and not (root / openapi).resolve().is_relative_to(root):
            hint = "give a path inside the project"
            check.fail((*path, "openapi"), f"{openapi} is outside the project", hint)
        stated_at = stated_values(raw.get("run_time_values"), (*path, "run_time_values"), check)
        stated = tuple((expression, value) for (expression, value), _ in stated_at)
        app = raw.get("app")
        if app is not None and not (isinstance(app, str) and app):
            check.fail((*path, "app"), f"expected the dotted path of the application, got {app!r}")
            app = None
        return CatalogConfig(
            name,
            "routes",
            source,
            framework=framework,
            openapi=openapi,
            app=app,
            config_file=check.loaded.file,
            run_time_values=stated,
            lines={
                "source": check.loaded.line_of((*path, "source")),
                **({"framework": check.loaded.line_of((*path, "framework"))} if framework else {}),
                **{
                    f"run_time_values.{expression}": check.loaded.line_of(at)
                    for (expression, _), at in stated_at
                },
            },
        )

    def parse(self, loaded: LoadedYaml) -> RoutesCatalog:
        validate(loaded, "routes-catalog", REGENERATE)
        return RoutesCatalog.from_data(loaded.data)

    def summary(self, catalog: Catalog) -> str:
        assert isinstance(catalog, RoutesCatalog)  # the registry hands a kind its own catalogs
        listed = sum(len(operation.errors) for operation in catalog.operations)
        counted = f"{len(catalog.operations)} operations, {len(catalog.errors)} errors"
        return f"{counted}, {listed} listed on operations"

    def extract(self, run: ExtractRun, name: str, config: CatalogConfig) -> RoutesExtraction:
        from docgen.kinds.routes.extract import extract_routes  # noqa: PLC0415 (see the module)

        return extract_routes(run, name, config)

    def notices(self, project: Project, name: str, result: KindResult) -> Iterator[str]:
        from docgen.kinds.coverage import routes_without_status  # noqa: PLC0415
        from docgen.kinds.notes_notices import notes_notices  # noqa: PLC0415
        from docgen.kinds.routes.catalog import (  # noqa: PLC0415
            RoutesExtraction,
            operations_named,
            undetermined_groups,
        )

        assert isinstance(result, RoutesExtraction)  # the registry hands a kind its own results
        yield from notes_notices(project.notes[name], result.catalog)
        yield from routes_without_status(result.catalog, result.sites)
        for expression, reason, file, line in result.unfollowed:
            yield f"{file}:{line}: {expression} cannot be followed: {reason} ({name})"
        yield from result.cut
        for (file, line, expression, reason), operations in undetermined_groups(result.unread).items():
            yield (
                f"{file}:{line}: the paths of {operations_named(operations)} use `{expression}`, which "
                f"cannot be read statically ({reason}); state its value in the catalog's `run_time_values:` "
                f"({name})"
            )
        for (file, line, expression, reason), operations in undetermined_groups(result.undetermined).items():
            yield (
                f"{file}:{line}: `{expression}` decides which errors the framework answers for "
                f"{operations_named(operations)} and cannot be read statically ({reason}); the errors it "
                f"decides are not listed until the catalog's `run_time_values:` states the classes ({name})"
            )

    def coverage(self, result: KindResult) -> Coverage:
        from docgen.kinds.coverage import routes_coverage  # noqa: PLC0415

        assert isinstance(result.catalog, RoutesCatalog)  # the registry hands a kind its own catalogs
        return routes_coverage(result.catalog)

    def findings(
        self, project: Project, extraction: Extraction, name: str, committed: CommittedCatalog
    ) -> Iterator[Finding]:
        from docgen.kinds.routes.check import findings  # noqa: PLC0415

        return findings(project, extraction, name)

    def late_findings(self, project: Project, extraction: Extraction, name: str) -> Iterator[Finding]:
        return iter(())

    def check_notes(
        self, project: Project, extraction: Extraction, name: str, drift: list[Finding]
    ) -> CheckedNotes:
        from docgen.kinds.routes.check import check_notes  # noqa: PLC0415

        return check_notes(project, extraction, name, drift)

    def view(self, catalog: Catalog, *, conditions: bool) -> dict[str, Any]:
        return catalog.as_data()

    def published(self, inputs: RenderInputs, name: str, shown: Iterable[str]) -> dict[str, Any]:
        from docgen.render.context import render_entry_notes  # noqa: PLC0415

        catalog = inputs.catalogs[name]
        assert isinstance(catalog, RoutesCatalog)
        data: dict[str, Any] = catalog.as_data()
        errors = []
        for error in catalog.errors:
            cause, action = render_entry_notes(inputs, name, error.id)
            errors.append({**error.as_data(), "cause": cause, "action": action})
        data["errors"] = errors
        return data

    def regions(self) -> Mapping[str, Builder]:
        from docgen.kinds.routes.regions import REGIONS  # noqa: PLC0415

        return REGIONS

    def reproduced(self, inputs: RenderInputs, name: str) -> dict[str, Any] | None:
        return None  # probe replays no example of a route: there is no evidence to count

    def cited(self, catalog: Catalog) -> Mapping[str, list[str]]:
        return {}

    def row_id(self, line: str) -> str | None:
        return None  # an edited line of the route table is not traced to a notes field: it is the template's


KIND = RoutesKind()


_CLASS = re.compile(r"^[A-Za-z_]\w*(\.[A-Za-z_]\w*)+$")
"""A dotted path naming a class (`djoser.permissions.CurrentUserOrAdmin`), in a stated list of classes."""


def stated_values(
    raw: Any, path: tuple[str | int, ...], check: Validator
) -> list[tuple[tuple[str, Any], tuple[str | int, ...]]]:
    """`run_time_values:`: a list of `{expression, value, because}`, as notes state a value set at run
    time, each the value of an expression a route's path uses that docgen cannot read, or the classes (a
    list of dotted paths) of a list a REST framework view chooses at run time (`because` is for reviewers);
    each with where it is written."""
    if raw is None:
        return []
    hint = "write a list of {expression: settings.API_V1_STR, value: /api/v1, because: ...}"
    if not isinstance(raw, list):
        check.fail(path, f"expected a list of stated values, got {raw!r}", hint)
        return []
    found: list[tuple[tuple[str, Any], tuple[str | int, ...]]] = []
    for index, item in enumerate(raw):
        where = (*path, index)
        if not isinstance(item, Mapping):
            check.fail(where, f"expected a mapping, got {item!r}", hint)
            continue
        check.unknown_keys(item, {"expression", "value", "because"}, where)
        expression, value = item.get("expression"), item.get("value")
        if not (isinstance(expression, str) and expression):
            check.fail((*where, "expression"), "expected the expression as the source writes it", hint)
        elif isinstance(value, list) and value and all(isinstance(v, str) and _CLASS.match(v) for v in value):
            found.append(((expression, tuple(value)), where))  # classes a REST framework view chooses
        elif not isinstance(value, str | int) or isinstance(value, bool):
            message = (
                f"expected a text, an integer or a list of class paths (package.module.Class), got {value!r}"
            )
            check.fail((*where, "value"), message, hint)
        else:
            found.append(((expression, value), where))
    return found
