"""Where the text of a generated region really comes from, so that an editor's change can go there.

Two answers: per region, the files its begin marker names (`edit-in=templates/error-table.md.j2,data/…`),
and, for a region edited by hand, per edited line: a table row names its entry's notes field
(`data/mcp-errors.notes.yaml:31: body-too-large.action`) when the edit is in that field's text, and the
template otherwise.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterator, Mapping
from pathlib import PurePosixPath
from typing import Any

from docgen.core.notes import Notes
from docgen.render.context import render_entry_notes
from docgen.render.filters import cell
from docgen.render.inputs import RenderInputs
from docgen.render.kind_stage import RenderingKind, rendering
from docgen.render.regions import Region

_CELL_BORDER = re.compile(r"(?<!\\)\|")
"""A table cell's border: a pipe the `cell` filter did not escape."""
_MARKER_SAFE = re.compile(r"[^\s=,>]+")
"""A path the marker can name: no space, `=` or `,` (the attribute syntax) and no `>` (the comment's end)."""


def edit_in(inputs: RenderInputs, region: Region, meta: Mapping[str, Any]) -> tuple[str, ...]:
    """The files an editor changes to change this region: its template, and the notes it draws on."""
    files = [f"{inputs.templates_folder}/{region.name}.md.j2"]
    catalog = str(region.attr("catalog") or meta.get("catalog") or "")
    kind = rendering(inputs.catalogs[catalog]) if catalog in inputs.catalogs else None
    if kind is not None and region.name in kind.notes_regions and inputs.notes_of(catalog).file:
        files.append(inputs.notes_of(catalog).file)
    # A folder outside the project would put a machine's own path into the committed page: left out.
    return tuple(file for file in files if _MARKER_SAFE.fullmatch(file) and _inside_project(file))


def _inside_project(file: str) -> bool:
    path = PurePosixPath(file)
    return not path.is_absolute() and ".." not in path.parts and ":" not in file


def _rows_of(
    inputs: RenderInputs, region: Region, meta: Mapping[str, Any]
) -> tuple[str, RenderingKind] | None:
    """The region's catalog and its kind, which says which entry's row a line is; None without a catalog,
    or for a kind shown as its data (no line of it shows a note)."""
    name = region.attr("catalog") or meta.get("catalog")
    catalog = inputs.catalogs.get(str(name)) if name is not None else None
    kind = rendering(catalog) if catalog is not None else None
    return (str(name), kind) if kind is not None else None


def edited_places(
    inputs: RenderInputs, region: Region, meta: Mapping[str, Any], *, actual: str, expected: str
) -> tuple[str, ...]:
    """Where each hand-edited line of a region belongs, in page order, each place once.

    A line of a table row (the catalog's kind knows it by its anchor: `err-ID` for an errors catalog) whose
    cause or action differs from the notes belongs to that notes field; any other edited line belongs to the
    template.
    """
    rows = _rows_of(inputs, region, meta)
    template = f"{inputs.templates_folder}/{region.name}.md.j2"
    places: dict[str, None] = {}
    for edited, rendered in _changed_lines(actual, expected):
        found = list(_edited_fields(inputs, *rows, edited, rendered)) if rows else [None]
        for place in found:
            places.setdefault(place or template, None)
    return tuple(places)


def _changed_lines(actual: str, expected: str) -> Iterator[tuple[str, str]]:
    """(line as edited, the line render writes there; "" where there is none) for every changed line."""
    old, new = actual.splitlines(), expected.splitlines()
    matcher = difflib.SequenceMatcher(a=old, b=new, autojunk=False)
    for tag, a0, a1, b0, b1 in matcher.get_opcodes():
        if tag == "equal":
            continue
        edited, rendered = old[a0:a1], new[b0:b1]
        for index in range(max(len(edited), len(rendered))):
            yield (
                edited[index] if index < len(edited) else "",
                rendered[index] if index < len(rendered) else "",
            )


def _edited_fields(
    inputs: RenderInputs, catalog: str, kind: RenderingKind, edited: str, rendered: str
) -> Iterator[str | None]:
    """`notes-file:line: ID.field` for each changed cell of a table row whose text is that field's note.

    None (the template) for a changed cell that shows no note (the code, the status, the draft of an
    undocumented entry), for a row whose cells no longer line up, and for a line that is not a row.
    """
    entry_id = kind.row_id(edited) or kind.row_id(rendered)
    if entry_id is None:
        yield None
        return
    notes = inputs.notes_of(catalog)
    edited_cells, rendered_cells = _CELL_BORDER.split(edited), _CELL_BORDER.split(rendered)
    if len(edited_cells) != len(rendered_cells):
        yield None
        return
    unclaimed = [
        (text, field)
        for field in ("cause", "action")
        if notes.entry(entry_id).prose(field) and (text := _rendered_note(inputs, catalog, entry_id, field))
    ]
    for mine, theirs in zip(edited_cells, rendered_cells, strict=True):
        # The first cell showing a note's text is that note's (cause and action may read the same).
        field = next((f for text, f in unclaimed if text == theirs.strip()), None)
        unclaimed = [(text, f) for text, f in unclaimed if f != field]
        if mine != theirs:
            yield _notes_place(notes, entry_id, field) if field else None


def _notes_place(notes: Notes, entry_id: str, field: str) -> str:
    line = notes.line("entries", entry_id, field)
    return f"{notes.file}:{line}: {entry_id}.{field}" if line else f"{notes.file}: {entry_id}.{field}"


def _rendered_note(inputs: RenderInputs, catalog: str, entry_id: str, field: str) -> str | None:
    cause, action = render_entry_notes(inputs, catalog, entry_id)
    value = cause if field == "cause" else action
    return cell(value) if value is not None else None
