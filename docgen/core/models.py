"""The catalogs as typed values: what extract builds, what the committed YAML is read back into.

A catalog file is plain data (`as_data` gives it, key for key, in the order it is written); everything else
in docgen works on these values. `from_data` reads data that has already passed the catalog's JSON Schema, so
it trusts the types the schema guarantees.

The models live by kind (`error_models`, `tool_models`, `route_models`) on what they all share
(`model_base`); this module gathers them, so that a stage imports every model from one place.
"""

from docgen.core.error_models import ErrorEntry, ErrorsCatalog, RaiseSite, entries_by_id
from docgen.core.model_base import Catalog, Json, NotedCatalog, Source, WithConstants, constants_of
from docgen.core.route_models import Operation, RouteError, RoutesCatalog
from docgen.core.tool_models import TOOL_KINDS, Parameter, Tool, ToolsCatalog

__all__ = [
    "TOOL_KINDS",
    "Catalog",
    "ErrorEntry",
    "ErrorsCatalog",
    "Json",
    "NotedCatalog",
    "Operation",
    "Parameter",
    "RaiseSite",
    "RouteError",
    "RoutesCatalog",
    "Source",
    "Tool",
    "ToolsCatalog",
    "WithConstants",
    "constants_of",
    "entries_by_id",
]
