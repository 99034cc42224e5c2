"""An errors catalog as its regions see it and as a page publishes it: constants recorded as they are
shown, conditions only where the configuration publishes them, each entry with its notes rendered."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from docgen.core.models import Catalog, ErrorsCatalog
from docgen.render.context import render_entry_notes, stated_context
from docgen.render.inputs import RenderInputs
from docgen.render.shown import ShownConstants, entry_view, recording

_PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)")


def errors_view(catalog: Catalog, *, conditions: bool) -> dict[str, Any]:
    """The catalog's data, with its constants as `ShownConstants` (so that what a region reads of them is
    known) and its entries' `conditions` only with `conditions`."""
    assert isinstance(catalog, ErrorsCatalog)  # the registry hands a kind its own catalogs
    data: dict[str, Any] = catalog.as_data()
    data["constants"] = ShownConstants(catalog.name, catalog.constants)
    data["entries"] = [entry_view(entry, conditions=conditions) for entry in catalog.entries]
    return data


def errors_published(inputs: RenderInputs, name: str, shown: Iterable[str]) -> dict[str, Any]:
    """Catalog `name`'s facts, each entry's notes rendered (`cause` and `action` as Markdown, null where the
    notes have a gap) and the statements of its values set at run time (`stated`); of the constants, those
    the page's regions (`shown`), the notes or the entries show."""
    catalog = inputs.catalogs[name]
    assert isinstance(catalog, ErrorsCatalog)
    data: dict[str, Any] = catalog.as_data()
    conditions = name in inputs.publish_conditions
    entries = []
    with recording() as read:
        for entry in catalog.entries:
            cause, action = render_entry_notes(inputs, name, entry.id)
            shown_entry = entry_view(entry, conditions=conditions)
            if cause is not None:  # the page shows the comment from the code only in place of a cause
                shown_entry.pop("draft_cause", None)
            entries.append({**shown_entry, "cause": cause, "action": action})
            stated = stated_context(inputs, name, entry)
            if stated:
                entries[-1]["stated"] = stated
    data["entries"] = entries
    names = {*shown, *read.get(name, ()), *_named_by_entries(catalog)}
    data["constants"] = {key: value for key, value in catalog.constants.items() if key in names}
    return data


def _named_by_entries(catalog: ErrorsCatalog) -> set[str]:
    """The constants the entries themselves show: those each uses, and those its message names."""
    names = {name for entry in catalog.entries for name in entry.constants_used}
    names.update(name for entry in catalog.entries for name in _PLACEHOLDER.findall(entry.message))
    return names & set(catalog.constants)
