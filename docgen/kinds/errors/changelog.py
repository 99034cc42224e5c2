"""The errors' changelog: the `error-changelog` region's context and the history the published JSON carries.

An error's history is made of commits (`docgen.core.changes.entry_history` reads it from the catalog's
committed versions). Those commits do not exist yet when an author renders a page, and a squash merge gives
them new ids, so the history cannot be part of a committed, drift-checked region: `docgen render` writes a
short placeholder (what `docgen check` then compares, like any region), and the MkDocs plugin, which renders
every page again when it builds the site, hands the renderer the histories it read from git
(`RenderInputs.histories`) so that the built page and the JSON beside it carry them.

The region's context is `changelog`: None when no history was asked for (render and check: the
placeholder); `{"available": False}` when the site build found none (outside git, or a shallow clone);
otherwise `{"available": True, "errors": [...]}`, each error with `id`, `anchor` (None for an error the
catalog no longer holds) and `events`, newest first, each with `date`, `commit`, `short` (its first seven
characters), `change` (`added`, `removed`, `code`, `status` or `message`), `before`, `after` and `effect`
(`breaking`, `additive` or `editorial`). Errors come in catalog order, then removed ones in the order they
first appeared.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from docgen.core.changes import Event, History
from docgen.core.models import ErrorsCatalog
from docgen.render.inputs import RenderInputs

SHORT_COMMIT = 7
"""How many characters of a commit id the page shows (the JSON carries the full id)."""

REGION = "error-changelog"
"""The region that shows the changelog: only the site build fills it (see the module's description)."""


def changelog_context(inputs: RenderInputs, name: str) -> dict[str, Any]:
    """The `error-changelog` region's context for errors catalog `name` (see the module's description)."""
    if inputs.histories is None:
        return {"changelog": None}
    history = inputs.histories.get(name)
    if history is None:
        return {"changelog": {"available": False}}
    errors = [
        {
            "id": entry,
            "anchor": f"err-{entry}" if entry in _current(inputs, name) else None,
            "events": [{**event_data(event), "short": event.commit[:SHORT_COMMIT]} for event in events],
        }
        for entry, events in _in_order(inputs, name, history)
    ]
    return {"changelog": {"available": True, "errors": errors}}


def event_data(event: Event) -> dict[str, Any]:
    """One event as the published JSON gives it."""
    change = event.change
    return {
        "date": event.date,
        "commit": event.commit,
        "change": change.what,
        "before": change.before,
        "after": change.after,
        "effect": change.effect,
    }


def with_history(data: Mapping[str, Any], history: History | None) -> dict[str, Any]:
    """A published errors catalog (`catalog_as_json`) with each entry's `history` added, newest first, and
    the errors the catalog no longer holds under `removed` (each `id` and `history`); unchanged when no
    history is known."""
    if history is None or data.get("kind") != "errors":
        return dict(data)
    entries = [
        {**entry, "history": [event_data(e) for e in history.events.get(entry["id"], ())]}
        for entry in data.get("entries", [])
    ]
    held = {entry["id"] for entry in entries}
    removed = [
        {"id": entry, "history": [event_data(e) for e in events]}
        for entry, events in history.events.items()
        if entry not in held
    ]
    return {**data, "entries": entries, **({"removed": removed} if removed else {})}


def _current(inputs: RenderInputs, name: str) -> set[str]:
    catalog = inputs.catalogs.get(name)
    return {entry.id for entry in catalog.entries} if isinstance(catalog, ErrorsCatalog) else set()


def _in_order(inputs: RenderInputs, name: str, history: History) -> list[tuple[str, tuple[Event, ...]]]:
    """Every error with a history: the catalog's in its order, then those it no longer holds."""
    catalog = inputs.catalogs.get(name)
    held = [entry.id for entry in catalog.entries] if isinstance(catalog, ErrorsCatalog) else []
    listed = [entry for entry in held if entry in history.events]
    listed += [entry for entry in history.events if entry not in held]
    return [(entry, history.events[entry]) for entry in listed]
