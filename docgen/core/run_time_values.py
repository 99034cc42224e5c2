"""Codes and statuses a server sets only when it runs, and what editors state about them in the notes.

Extract cannot read every value from the source: `raise JobError(STATUS_BY_REASON[reason], ...)` keeps
its entry with `dynamic: {status: STATUS_BY_REASON[reason]}` and no status. An editor who knows the answer
writes it under the entry's `run_time_values` in the notes, naming the expression the statement answers,
so that a change to that expression in the code makes the statement stale instead of silently wrong:

    run_time_values:
      status:
        expression: STATUS_BY_REASON[reason]
        value: [503, 429]        # one value, or the values the server picks among
        because: the two reasons the queue gives   # optional

Only the fields the error table shows can be stated (`STATABLE`); a dynamic `data` is tracked by check
(`run-time-value-changed`) but not asked for.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field
from typing import Any

from docgen.core.records import record

STATABLE = ("code", "status")
"""The fields a statement can be for, in the order they are reported."""

_SHAPE = {
    "code": "a code (an integer or a string, as the catalog's codes are) or a list of them",
    "status": "an HTTP status (an integer from 100 to 599) or a list of them",
}


@record
class StatedValue:
    """What an editor states for one field of one entry."""

    field: str
    expression: str
    """The expression in the code the statement answers, as the catalog records it."""
    values: tuple[int | str, ...]
    """The value, or the values the server picks among, in the order written."""
    because: str | None = None

    @classmethod
    def from_data(cls, field_name: str, data: Mapping[str, Any]) -> StatedValue:
        value = data["value"]
        values = tuple(value) if isinstance(value, list) else (value,)
        return cls(field_name, str(data["expression"]).strip(), values, data.get("because"))

    def as_context(self) -> dict[str, Any]:
        """What a template sees for the statement."""
        return {"value": list(self.values), "expression": self.expression, "because": self.because}


@record
class StaleStatement:
    """A statement the catalog no longer asks for: its expression changed, or the field is not dynamic."""

    statement: StatedValue
    now: str | None
    """The expression the catalog records now; None when the field is not set at run time."""
    value: int | str | None = None
    """When the field is not dynamic: the value the code gives (None where the catalog has none)."""

    def reason(self) -> str:
        said = f"the statement answers `{self.statement.expression}`"
        if self.now is not None:
            return f"{said}, but the code now sets {self.statement.field} with `{self.now}`"
        if self.value is not None:
            gives = f"the code gives {self.value}"
            return f"{said}, but {self.statement.field} is no longer set at run time: {gives}"
        return f"{said}, but the entry has no {self.statement.field} set at run time"


@record
class EntryRunTimeValues:
    """One entry's run-time values against its notes."""

    stated: Mapping[str, StatedValue] = field(default_factory=dict)
    """Field -> a statement that answers the expression the catalog records: what the page shows."""
    unstated: Mapping[str, str] = field(default_factory=dict)
    """Field -> the expression, for each statable field set at run time without a statement."""
    stale: tuple[StaleStatement, ...] = ()


def compare_statements(
    dynamic: Mapping[str, str], values: Mapping[str, int | str | None], statements: Mapping[str, StatedValue]
) -> EntryRunTimeValues:
    """Pair an entry's dynamic fields (field -> expression) with the statements about it.

    `values` gives the entry's static value of each statable field, for the message of a statement about a
    field that is no longer dynamic.
    """
    stated: dict[str, StatedValue] = {}
    unstated: dict[str, str] = {}
    stale: list[StaleStatement] = []
    for name in STATABLE:
        expression, statement = dynamic.get(name), statements.get(name)
        if statement is not None and statement.expression == expression:
            stated[name] = statement
            continue
        if statement is not None:  # reported once, as stale: reviewing it states the value again
            stale.append(StaleStatement(statement, expression, None if expression else values.get(name)))
        elif expression is not None:
            unstated[name] = expression
    return EntryRunTimeValues(stated, unstated, tuple(stale))


def statement_hint(entry_id: str, dynamic: Mapping[str, str] | None) -> str:
    """What to write under `run_time_values` of `entry_id`, naming the fields the catalog sets at run time
    (None: the catalog is not known, or has no such entry)."""
    fields = {name: expression for name, expression in (dynamic or {}).items() if name in STATABLE}
    if dynamic is None:
        shapes = "; ".join(f"{name} takes {shape}" for name, shape in _SHAPE.items())
        return f"each of code and status takes `expression` and `value` ({shapes})"
    if not fields:
        return (
            f"the catalog sets no code or status of entry {entry_id!r} at run time: "
            "delete its `run_time_values`"
        )
    listed = "; ".join(f"{name} = `{expression}`" for name, expression in fields.items())
    shapes = "; ".join(f"{name}'s `value` is {_SHAPE[name]}" for name in fields)
    return f"entry {entry_id!r} sets at run time: {listed} ({shapes})"


def statement_to_write(entry_id: str, name: str, expression: str) -> str:
    """How to state one unstated field, for a finding's hint."""
    return (
        f"under 'entries: {entry_id}: run_time_values: {name}:' write `expression: {quoted(expression)}` "
        f"and `value:` with {_SHAPE[name]}, and optionally `because:`"
    )


def quoted(expression: str) -> str:
    """An expression as a double-quoted YAML string, which reads back as exactly that text."""
    return '"' + expression.replace("\\", "\\\\").replace('"', '\\"') + '"'


def shown_values(values: tuple[int | str, ...]) -> str:
    """`503` or `503 or 429`, for messages."""
    return " or ".join(str(value) for value in values)
