"""A Django REST framework project's OpenAPI document, with a routes catalog's error responses merged in.

REST framework builds a document only through a schema generator the project wires to a view
(`get_schema_view(generator_class=...)`, or drf-spectacular's `SpectacularAPIView`); the generator class
returned here builds the same document and adds the fragment's errors. Standard library only, as the
project imports it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from docgen.frameworks.openapi import merge_responses


def with_error_responses(generator_class: type, fragment: Mapping[str, Any]) -> type:
    """A subclass of `generator_class` (REST framework's `SchemaGenerator`, or another with `get_schema`)
    whose document lists the fragment's error responses on the operations it has. Its paths must name
    parameters as the URLs do: set `SCHEMA_COERCE_PATH_PK: False`, or REST framework writes `{pk}` as
    `{id}`."""

    class WithErrorResponses(generator_class):  # type: ignore[misc]
        def get_schema(self, *args: Any, **kwargs: Any) -> dict[str, Any]:
            return merge_responses(super().get_schema(*args, **kwargs), fragment)

    return WithErrorResponses
