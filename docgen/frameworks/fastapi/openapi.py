"""A FastAPI application's own OpenAPI document, with a routes catalog's error responses merged in."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from docgen.frameworks.openapi import merge_responses


def with_error_responses(app: Any, fragment: Mapping[str, Any]) -> Callable[[], dict[str, Any]]:
    """Make a FastAPI application's `/openapi.json` list the fragment's errors: `app.openapi` is replaced
    by a function that merges them into the document FastAPI builds (once, as FastAPI caches it)."""
    build = app.openapi
    merged: dict[str, dict[str, Any]] = {}

    def openapi() -> dict[str, Any]:
        if "document" not in merged:
            merged["document"] = merge_responses(build(), fragment)
            app.openapi_schema = merged["document"]
        return merged["document"]

    app.openapi = openapi
    return openapi
