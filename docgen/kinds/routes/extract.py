"""A routes catalog from source, and its OpenAPI fragment (written beside it as `<name>.openapi.json`).

The web-framework readers are imported with this module only, when a routes catalog is configured.
"""

from __future__ import annotations

from docgen.core.catalog_config import CatalogConfig
from docgen.core.models import RoutesCatalog
from docgen.extract.kind_stage import ExtractRun
from docgen.kinds.routes.catalog import RoutesExtraction, routes_catalog
from docgen.kinds.routes.openapi import dump_fragment, error_fragment


def extract_routes(run: ExtractRun, name: str, config: CatalogConfig) -> RoutesExtraction:
    """Routes catalog `name`: its errors keep the committed catalog's ids where they are the same error;
    its fragment goes to `run.outputs`."""
    project = run.project
    committed = project.committed[name]
    previous = committed.catalog.errors if committed and isinstance(committed.catalog, RoutesCatalog) else ()
    found = routes_catalog(config, run.program(config), previous, run.resolver)
    fragment = project.settings.relative(project.settings.fragment_path(name))
    run.outputs[fragment] = dump_fragment(error_fragment(found.catalog, project.notes[name]))
    return found
