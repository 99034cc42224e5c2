"""docgen's JSON Schemas: one per kind of data file, read from the package and never copied into the project.

Every YAML file docgen reads is checked against its schema before anything uses it; the first problem becomes
a CatalogError located at the key or item at fault.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from docgen.core.errors import CatalogError
from docgen.core.schema_check import Checker, compile_schema
from docgen.core.yamlio import LoadedYaml

if TYPE_CHECKING:
    import jsonschema

SCHEMA_DIR = Path(__file__).resolve().parent / "schema"

CATALOG_SCHEMA = "catalog-1.schema.json"
"""The schema of the catalogs a site publishes as JSON (docgen/render/published.py), by the name the site
publishes it under at its root. It lives in schema/published/: it describes what the site serves, not a file
of data/, so `docgen schema` does not list it."""


@cache
def packaged() -> dict[str, str]:
    """File name -> text of every schema docgen ships (read once: they belong to docgen, not the project)."""
    return {path.name: path.read_text(encoding="utf-8") for path in sorted(SCHEMA_DIR.glob("*.schema.json"))}


def published_catalog_schema() -> str:
    """The text of the schema of published catalogs, as the site serves it."""
    return (SCHEMA_DIR / "published" / CATALOG_SCHEMA).read_text(encoding="utf-8")


@cache
def _schema(schema_name: str) -> dict[str, Any]:
    schema: dict[str, Any] = json.loads(packaged()[f"{schema_name}.schema.json"])
    return schema


@cache
def _conforms(schema_name: str) -> Checker:
    return compile_schema(_schema(schema_name))


@cache
def _validator(schema_name: str) -> jsonschema.Draft202012Validator:
    # Imported only for a document that may not conform: importing jsonschema takes a tenth of a second.
    import jsonschema  # noqa: PLC0415

    return jsonschema.Draft202012Validator(_schema(schema_name))


def validate(loaded: LoadedYaml, schema_name: str, hint: str) -> None:
    """Check a loaded file against its JSON Schema; the first problem becomes a located CatalogError."""
    problems = schema_problems(loaded, schema_name)
    if problems:
        path, message = problems[0]
        more = f" (and {len(problems) - 1} more problem(s))" if len(problems) > 1 else ""
        raise located_problem(loaded, path, f"{message}{more}", hint)


def located_problem(loaded: LoadedYaml, path: tuple[str | int, ...], message: str, hint: str) -> CatalogError:
    """A problem with the key or item at `path` of a loaded file, as an error at its line."""
    where = "/".join(str(p) for p in path) or "top level"
    return CatalogError(f"{where}: {message}", file=loaded.file, line=loaded.line_of(path), hint=hint)


def schema_problems(loaded: LoadedYaml, schema_name: str) -> list[tuple[tuple[str | int, ...], str]]:
    """Every way a loaded file breaks its JSON Schema, in document order: (the path of the key or item at
    fault, what is wrong). Empty when it conforms."""
    if _conforms(schema_name)(loaded.data):
        return []  # certainly valid (docgen/core/schema_check.py); jsonschema would find nothing
    errors = sorted(_validator(schema_name).iter_errors(loaded.data), key=lambda e: list(e.absolute_path))
    return [((*error.absolute_path, *_key_at_fault(error)), error.message) for error in errors]


def _key_at_fault(error: jsonschema.ValidationError) -> tuple[str, ...]:
    """The key an error is about, when it is a key (unexpected, or badly named) rather than a value.

    jsonschema locates both at the enclosing mapping, whose line is that of its first key.
    """
    if "propertyNames" in error.absolute_schema_path and isinstance(error.instance, str):
        return (error.instance,)
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        known = error.schema.get("properties", {})
        return tuple(str(key) for key in error.instance if key not in known)[:1]
    return ()
