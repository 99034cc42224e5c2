"""Editors' notes as typed values: per entry the prose readers see, the example request, the spec conditions.

`data/<catalog>.notes.yaml` belongs to editors; docgen reads it and never writes it. The values below keep
the file's order of entries (rows of the error table follow it) and the loaded document, whose lines
findings and errors point at.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import field
from typing import Any, TypeVar

from docgen.core.errors import CatalogError, CatalogErrors
from docgen.core.models import ErrorEntry, ErrorsCatalog, Json, NotedCatalog
from docgen.core.records import record
from docgen.core.run_time_values import EntryRunTimeValues, StatedValue, compare_statements, statement_hint
from docgen.core.schemas import located_problem, schema_problems
from docgen.core.yamlio import LoadedYaml

T = TypeVar("T")


@record
class WrittenExample:
    """An entry's `example:` as written, counts not yet worked out (see `docgen.examples.requests`)."""

    given: frozenset[str]
    """The fields the notes write: `body: null` is a body, a missing `body` is none."""
    method: str = "POST"
    headers: Mapping[str, str] = field(default_factory=dict)
    body: Json = None
    raw: str | None = None
    size: int | str | None = None
    repeat: int | str | None = None
    untriggerable: str | None = None
    client_note: str | None = None
    path: str | None = None
    """Routes catalogs: the path requested, parameters filled in."""
    query: Mapping[str, Json] = field(default_factory=dict)
    """Routes catalogs: the query parameters sent."""

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> WrittenExample:
        known = {name for name in cls.__dataclass_fields__ if name != "given"}
        values = {name: value for name, value in data.items() if name in known}
        if "method" in values:
            values["method"] = str(values["method"])
        if "query" in values:
            values["query"] = dict(values["query"] or {})
        if "headers" in values:
            values["headers"] = {str(k): str(v) for k, v in (values["headers"] or {}).items()}
        return cls(given=frozenset(data), **values)


@record
class EntryNotes:
    """What editors wrote about one entry."""

    cause: str | None = None
    action: str | None = None
    spec: tuple[str, ...] = ()
    """Ids of the specification's conditions this entry answers."""
    example: WrittenExample | None = None
    show_raises: bool = False
    """Whether the page lists where the exceptions behind this entry's handler are raised."""
    draft: bool = False
    """Written from the code by `docgen init` and not reviewed yet (`draft: true`)."""
    run_time_values: Mapping[str, StatedValue] = field(default_factory=dict)
    """Field -> what the editor states for a code or status the server sets at run time."""

    def prose(self, field_name: str) -> str | None:
        """`cause` or `action`."""
        value: str | None = getattr(self, field_name)
        return value

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> EntryNotes:
        example = data.get("example")
        return cls(
            cause=data.get("cause"),
            action=data.get("action"),
            spec=tuple(data.get("spec") or ()),
            example=WrittenExample.from_data(example) if isinstance(example, Mapping) else None,
            show_raises=data.get("show_raises") is True,
            draft=data.get("draft") is True,
            run_time_values={
                name: StatedValue.from_data(name, stated)
                for name, stated in (data.get("run_time_values") or {}).items()
            },
        )


PROSE_FIELDS = ("cause", "action")


@record
class Notes:
    """One catalog's notes file, as loaded; a catalog without one has empty notes."""

    file: str
    """The notes file, relative to the project root (it may not exist)."""
    entries: Mapping[str, EntryNotes] = field(default_factory=dict)
    endpoint: str | None = None
    """The server URL the examples show."""
    spec: str | None = None
    """The specification the catalog is compared with."""
    document: LoadedYaml | None = None

    def entry(self, entry_id: str) -> EntryNotes:
        return self.entries.get(entry_id) or EntryNotes()

    def line(self, *path: str | int) -> int | None:
        """The line of `path` (e.g. `"entries", entry_id`) in the notes file, or None where it is not."""
        return self.document.line(path) if self.document is not None else None

    def examples(self) -> dict[str, WrittenExample]:
        """Entry id -> the example as written, for every entry that has one, in the file's order."""
        return {i: notes.example for i, notes in self.entries.items() if notes.example is not None}


def parse_notes(
    loaded: LoadedYaml | None, file: str, dynamic: Mapping[str, Mapping[str, str]] | None = None
) -> Notes:
    """Notes from a loaded notes file (None: there is none), checked against their schema.

    `dynamic` (entry id -> its fields set at run time, from the committed catalog) words the hints of
    problems in `run_time_values`; without it they name the fields a statement takes."""
    if loaded is None or loaded.data is None:
        return Notes(file)
    _check_schema(loaded, dynamic)
    data: Mapping[str, Any] = loaded.data
    entries = data.get("entries") or {}
    for key in entries:
        # YAML reads `404:` as an int and `yes:` as a bool; the schema's pattern only checks strings.
        if not isinstance(key, str):
            raise CatalogError(
                f"entries/{key}: an entry id must be text, not {type(key).__name__}",
                file=file,
                line=loaded.line_of(("entries", str(key))),
                hint=f"quote the id: '{key}':",
            )
    return Notes(
        file=file,
        entries={key: EntryNotes.from_data(value) for key, value in entries.items()},
        endpoint=data.get("endpoint"),
        spec=data.get("spec"),
        document=loaded,
    )


_SCHEMA_HINT = "`docgen schema errors-notes` prints the fields an entry takes"
_MAX_PROBLEMS = 20
"""Problems listed at once; the last line counts the rest."""


def _check_schema(loaded: LoadedYaml, dynamic: Mapping[str, Mapping[str, str]] | None) -> None:
    """Every problem the schema finds, each at its line, reported together."""
    problems = schema_problems(loaded, "errors-notes")
    errors = [
        located_problem(loaded, path, message, _hint(path, dynamic))
        for path, message in problems[:_MAX_PROBLEMS]
    ]
    if len(problems) > _MAX_PROBLEMS:
        left = len(problems) - _MAX_PROBLEMS
        errors.append(CatalogError(f"and {left} more problem(s)", file=loaded.file, hint=_SCHEMA_HINT))
    if errors:
        raise errors[0] if len(errors) == 1 else CatalogErrors(errors)


def _hint(path: tuple[str | int, ...], dynamic: Mapping[str, Mapping[str, str]] | None) -> str:
    if len(path) < 3 or path[0] != "entries" or path[2] != "run_time_values":
        return _SCHEMA_HINT
    entry_id = str(path[1])
    return statement_hint(entry_id, dynamic.get(entry_id) if dynamic is not None else None)


def stated_values(entry: ErrorEntry, notes: Notes) -> Mapping[str, StatedValue]:
    """Field -> the editor's statement for each of `entry`'s run-time values that a statement answers."""
    statements = notes.entry(entry.id).run_time_values
    if not entry.dynamic or not statements:
        return {}
    return compare_statements(entry.dynamic, {}, statements).stated


def in_notes_order(items: Iterable[T], notes: Notes, entry_id: Callable[[T], str]) -> list[T]:
    """`items` in the order the notes file writes their entries about, then those it does not, as given.

    Editors put related errors together in the notes; the table and the examples follow that order.
    """
    order = {key: index for index, key in enumerate(notes.entries)}
    return sorted(items, key=lambda item: order.get(entry_id(item), len(order)))


@record
class NotesReport:
    """Entries without prose (gaps) and prose without an entry (orphans), for one errors catalog."""

    gaps: tuple[str, ...]
    orphans: tuple[str, ...]
    drafts: Mapping[str, str] = field(default_factory=dict)
    """Gap id -> the comment above its call in the code, where there is one: what the page shows meanwhile."""
    run_time: Mapping[str, EntryRunTimeValues] = field(default_factory=dict)
    """Entry id -> its run-time values against the notes' statements, for each entry with a value set at
    run time or a statement (errors catalogs only), in catalog order."""


def notes_report(catalog: NotedCatalog, notes: Notes) -> NotesReport:
    """Compare a catalog's ids (of its entries, or of a routes catalog's errors) with the ids its notes
    file writes about; for an errors catalog, also the code comments a gap shows meanwhile and its values
    set at run time."""
    ids = catalog.note_ids()
    gaps = tuple(i for i in ids if not notes.entry(i).cause or not notes.entry(i).action)
    orphans = tuple(sorted(set(notes.entries) - set(ids)))
    if not isinstance(catalog, ErrorsCatalog):  # drafts and run-time values are facts of errors entries
        return NotesReport(gaps, orphans)
    missing = set(gaps)
    drafts = {e.id: e.draft_cause for e in catalog.entries if e.draft_cause and e.id in missing}
    return NotesReport(gaps, orphans, drafts, _run_time_values(catalog, notes))


def _run_time_values(catalog: ErrorsCatalog, notes: Notes) -> dict[str, EntryRunTimeValues]:
    found = {}
    for entry in catalog.entries:
        statements = notes.entry(entry.id).run_time_values
        if entry.dynamic or statements:
            values = {"code": entry.code, "status": entry.status}
            found[entry.id] = compare_statements(entry.dynamic, values, statements)
    return found
