"""The region only a tools catalog fills: the reference of its tools, resources and prompts."""

from __future__ import annotations

from docgen.core.models import TOOL_KINDS, ToolsCatalog
from docgen.render.context import json_href
from docgen.render.inputs import RenderInputs
from docgen.render.kind_stage import Builder, Context
from docgen.render.regions import Region


def tools_reference(inputs: RenderInputs, region: Region, page: str, context: Context) -> Context:
    """`tools`, `resources` and `prompts`, each the catalog's `Tool` records as they are (a template reads
    `name`, `description`, `parameters` and `uri_template`, None where the decorator gives no address)."""
    name = str(context["catalog_name"])
    catalog = inputs.catalogs[name]
    assert isinstance(catalog, ToolsCatalog)  # render hands a kind's builders only its own catalogs
    return {**{kind: list(catalog.items(kind)) for kind in TOOL_KINDS}, "json_href": json_href(page, name)}


REGIONS: dict[str, Builder] = {"tools-reference": tools_reference}
