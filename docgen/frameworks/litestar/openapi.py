"""A Litestar application's own OpenAPI document, with a routes catalog's error responses merged in."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from docgen.frameworks.openapi import merge_responses


def with_error_responses(app: Any, fragment: Mapping[str, Any]) -> dict[str, Any]:
    """Make a Litestar application's OpenAPI document (the one its schema routes serve, such as
    `/schema/openapi.json`) list the fragment's errors, and return it.

    Litestar's OpenAPI plugin builds the document once and keeps it; its class takes no new attributes and
    offers no hook after the build, so the merged document is built here and put where the plugin keeps
    its own. Call this once the application has every route (after `Litestar(...)` and any `register`).
    """
    plugin = next(p for p in app.plugins if callable(getattr(p, "provide_openapi_schema", None)))
    merged = merge_responses(plugin.provide_openapi_schema(), fragment)
    plugin._openapi_schema = merged
    return merged
