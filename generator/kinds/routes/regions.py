"""The region only a routes catalog fills: the errors each operation can answer with."""

from __future__ import annotations

import html
import posixpath
import re
from typing import Any

from generator.core.models import RoutesCatalog
from generator.render.context import json_href, render_entry_notes
from generator.render.inputs import RenderInputs
from generator.render.kind_stage import Builder, Context
from generator.render.regions import Region


def route_errors(inputs: RenderInputs, region: Region, page: str, context: Context) -> Context:
    """`rows`: per operation, in catalog order, each error it can answer with, by status; `json_href`, and
    `openapi_file`, the OpenAPI fragment extract writes beside the catalog."""
    name = str(context["catalog_name"])
    catalog = inputs.catalogs[name]
    assert isinstance(catalog, RoutesCatalog)  # render hands a kind's builders only its own catalogs
    errors = {error.id: error for error in catalog.errors}
    rows: list[dict[str, Any]] = []
    for operation in catalog.operations:
        route = f"route-{operation.method}-" + re.sub(r"[^a-z0-9]+", "-", operation.path.lower()).strip("-")
        listed = sorted(operation.errors, key=lambda item: errors[item[0]].status or 0)
        for index, (error_id, via) in enumerate(listed):
            cause, action = render_entry_notes(inputs, name, error_id)
            rows.append(
                {
                    **errors[error_id].as_data(),
                    "method": operation.method.upper(),
                    "path": operation.path,
                    "detail_text": html.escape(errors[error_id].detail, quote=False),
                    "via": list(via),
                    "cause": cause,
                    "action": action,
                    "route_anchor": route,
                    "anchor": f"{route}-{error_id}",
                    "first": index == 0,
                }
            )
    openapi_file = posixpath.join(inputs.data_folder, f"{name}.openapi.json")
    return {"rows": rows, "json_href": json_href(page, name), "openapi_file": openapi_file}


REGIONS: dict[str, Builder] = {"route-errors": route_errors}
