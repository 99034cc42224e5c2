"""What the site publishes of a catalog beside a page, and the credentials it must refuse to publish.

The JSON beside a page (`developers/mcp-errors/mcp-errors.json`) carries what a reader of that page needs:

- of the constants, only those shown: read by the page's regions (templates and notes, recorded while the
  page rendered, see docgen/render/shown.py), read by a note the JSON itself carries, counted in an
  entry's `constants_used`, or named in an entry's message (`{MAX_BODY_BYTES}`);
- of each entry, its facts, without the source text of its guarding `conditions` unless the catalog's
  configuration publishes them (`publish_conditions: true`), and without `draft_cause` (the comment above
  the call in the code) where the notes give a cause, as the page shows it only in place of one.

Each published JSON names its schema first, `"$schema": "../../catalog-1.schema.json"`: the schema of every
published catalog (docgen/core/schema/published/), which the site serves once at its root; the name is
relative to the JSON, so it resolves wherever the site is hosted.

A published constant that looks like a credential (docgen/core/credentials.py) is refused unless the
catalog's configuration lists it in `public_constants`: render and the plugin stop with a located error,
`docgen check` reports a `credential-published` finding.
"""

from __future__ import annotations

import ast
import posixpath
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from docgen.core.credentials import credential_reason
from docgen.core.errors import CredentialError
from docgen.core.project import Project
from docgen.core.records import record
from docgen.core.schemas import CATALOG_SCHEMA
from docgen.core.settings import Settings
from docgen.core.symbols import SourceFiles
from docgen.render.inputs import RenderInputs
from docgen.render.kind_stage import rendering
from docgen.render.renderer import PageResult


@record
class Refusal:
    """A constant that would be published although it looks like a credential."""

    catalog: str
    name: str
    reason: str
    """Why it looks like one (`its name says it holds a password`)."""


def catalog_as_json(inputs: RenderInputs, name: str, shown: Iterable[str] = ()) -> dict[str, Any]:
    """The catalog `name` as published beside a page whose regions show the constants `shown`: as its kind
    publishes it (an errors catalog's entries with their notes rendered, for one), or its facts."""
    catalog = inputs.catalogs[name]
    kind = rendering(catalog)
    return kind.published(inputs, name, shown) if kind is not None else catalog.as_data()


def schema_href(json_path: str) -> str:
    """The name of the published catalog schema relative to a catalog's JSON at `json_path` (relative to
    the site root), as its `$schema` gives it."""
    return posixpath.relpath(CATALOG_SCHEMA, posixpath.dirname(json_path) or ".")


def published_document(data: Mapping[str, Any], json_path: str) -> dict[str, Any]:
    """A catalog's published data (`catalog_as_json`) as the file at `json_path` carries it: `$schema`
    first, naming the published catalog schema."""
    return {"$schema": schema_href(json_path), **data}


def refusals(inputs: RenderInputs, name: str, published: Mapping[str, Any]) -> list[Refusal]:
    """The constants of `published` (a catalog's published `constants`) that look like credentials and
    that the catalog's configuration does not list as public, by name."""
    public = inputs.public_constants.get(name, frozenset())
    found = []
    for constant in sorted(published):
        reason = credential_reason(constant, published[constant])
        if reason is not None and constant not in public:
            found.append(Refusal(name, constant, reason))
    return found


def published_refusals(inputs: RenderInputs, shown: Mapping[str, Iterable[str]]) -> list[Refusal]:
    """The refusals of every catalog a page publishes, given the constants its regions show (by catalog)."""
    found = []
    for name in sorted(shown):
        # A catalog publishes constants if its kind gives it some (errors catalogs do).
        constants = (
            catalog_as_json(inputs, name, shown[name]).get("constants") if name in inputs.catalogs else None
        )
        if isinstance(constants, Mapping):
            found.extend(refusals(inputs, name, constants))
    return found


def constant_line(source: bytes | None, name: str) -> int | None:
    """The line of the module-level statement that defines (or imports) `name` in Python `source`."""
    if source is None:
        return None
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    for node in tree.body:
        if isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(target, ast.Name) and target.id == name for target in targets):
                return node.lineno
        elif isinstance(node, ast.ImportFrom) and any(
            (alias.asname or alias.name) == name for alias in node.names
        ):
            return node.lineno
    return None


def site_refusals(inputs: RenderInputs, results: Sequence[PageResult]) -> list[Refusal]:
    """The refusals of the whole site: the catalogs its pages draw from, each published with the constants
    any of its pages shows (the JSON beside every page of a catalog is the same)."""
    shown: dict[str, set[str]] = {}
    for result in results:
        for name in result.catalogs:
            shown.setdefault(name, set()).update(result.shown.get(name, ()))
    return published_refusals(inputs, shown)


def refusal_place(settings: Settings, sources: SourceFiles, refusal: Refusal) -> tuple[str, int | None]:
    """Where a refused constant is defined: the line of its catalog's source module that defines it."""
    source = settings.catalogs[refusal.catalog].source
    module = source if source.endswith(".py") else f"{source.rstrip('/')}/__init__.py"
    return module, constant_line(sources.read(module), refusal.name)


def refusal_message(refusal: Refusal) -> tuple[str, str]:
    """What is wrong and what to do, for the error and the finding alike."""
    message = (
        f"constant {refusal.name} of catalog {refusal.catalog!r} looks like a credential ({refusal.reason}) "
        "and a page or the catalog's published JSON would show it"
    )
    hint = (
        f"stop showing {refusal.name} in the templates and notes; if it is not a secret, list it under "
        f"`public_constants:` of catalog {refusal.catalog!r} in mkdocs.yml"
    )
    return message, hint


def refuse_credentials(inputs: RenderInputs, results: Sequence[PageResult], project: Project) -> None:
    """Raise a located `CredentialError` for the first constant the site would publish that looks like a
    credential (render and the plugin build stop before they write or publish anything)."""
    found = site_refusals(inputs, results)
    if not found:
        return
    file, line = refusal_place(project.settings, project.sources, found[0])
    message, hint = refusal_message(found[0])
    if len(found) > 1:
        message += f" (and {len(found) - 1} more: {', '.join(r.name for r in found[1:])})"
    raise CredentialError(message, file=file, line=line, hint=hint)
