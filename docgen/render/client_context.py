"""Context for what the official clients make of each example: programs, recorded output, summary.

- in `error-examples`, each example gains `clients`: `python` and `typescript` (each `title`, `program`,
  `outputs`: a list of `label` + `text`, one per mode; `also`: what else than the program ran for them, or
  None; and `probed`: the date, or dates, its outputs were recorded),
  `summary` (one line per client, Markdown), `proxy` (what the programs' proxy changes, or None), `cannot`
  (why no SDK call sends the request, or None) and `probed`; None when the example is untriggerable.
- `client-differences`: `differences`, one per example where a client reports something other than the
  table's code, where the clients disagree, where some client has not run it, or where the row's code or
  status changed since they ran it (`title`, `anchor`, `code`, `status`, `apart`: the clients that part from
  the table, each marked where it has not run the example, or None with `note` saying the row was not
  replayed since the change); `agreeing`: the examples every client has run and reports with the table's
  code; `missing`: the examples with no client evidence yet. The list only names the clients: what each one
  reports is said once, in the row's example.

Nothing is said that no run showed: a client with no outcome for an example is said not to have run it, and
an outcome kept from an earlier run than the evidence's (probe skipped that client) carries its own date.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from docgen.core.evidence import RECORDED, Evidence, Record, still_holds
from docgen.core.models import ErrorEntry
from docgen.examples.client_calls import (
    CLIENT_NAMES,
    PYTHON_MODES,
    TYPESCRIPT,
    TYPESCRIPT_MODES,
    client_call,
)
from docgen.examples.requests import Example
from docgen.render.client_programs import printed, python_program, typescript_program

Context = dict[str, Any]
LABELS = {f"python-{mode}": f"Python ({mode})" for mode in PYTHON_MODES} | {
    f"{TYPESCRIPT}-{mode}": f"TypeScript ({mode})" for mode in TYPESCRIPT_MODES
}
PYTHON_NAMES = tuple(f"python-{mode}" for mode in PYTHON_MODES)
TYPESCRIPT_NAMES = tuple(f"{TYPESCRIPT}-{mode}" for mode in TYPESCRIPT_MODES)
NOT_RUN = "has not run this example (no outcome recorded)"
NOT_SINCE = "not replayed by the official clients since this row's code or status changed"


def cells_of(record: Record | None, example: Example) -> Mapping[str, Mapping[str, Any]]:
    """The client cells recorded for this very example (none when the record is for another one)."""
    if record is None or record.example != example.fingerprint:
        return {}
    return record.clients


def client_item(
    entry: ErrorEntry, example: Example, record: Record | None, evidence: Evidence | None, endpoint: str
) -> Context | None:
    """The `clients` of one example in the `error-examples` region."""
    call = client_call(example)
    if call is None:
        return None
    cells = cells_of(record, example)
    known = evidence.clients if evidence is not None else {}
    if not call.runs:
        return {"cannot": call.cannot, "proxy": None, "python": None, "typescript": None, "summary": []}
    tab = _Tab(cells, example.repeat, evidence)
    legacy = known.get(TYPESCRIPT_NAMES[-1])
    return {
        "cannot": None,
        "proxy": " and ".join(call.proxy) or None,
        "python": tab.context(
            _title("Python", known.get(PYTHON_NAMES[0])),
            python_program(call, endpoint, PYTHON_MODES[0]),
            PYTHON_NAMES,
            'and with `mode="legacy"`',
        ),
        # The legacy outcome comes from the 1.x SDK, whose program differs in its imports and options only.
        "typescript": tab.context(
            _title("TypeScript", known.get(TYPESCRIPT_NAMES[0])),
            typescript_program(call, endpoint),
            TYPESCRIPT_NAMES,
            f"and, for a legacy session, the same call with `{legacy['sdk']}` {legacy['version']}"
            if legacy
            else None,
        ),
        "summary": [
            f"{label(name, cells.get(name))}: {describe(cells[name], entry) if name in cells else NOT_RUN}"
            for name in CLIENT_NAMES
        ]
        if cells
        else [],
        "probed": evidence.probed if evidence is not None and cells else None,
    }


class _Tab:
    """One language's tab of an example: its program and the outputs its clients recorded, one per mode."""

    def __init__(
        self, cells: Mapping[str, Mapping[str, Any]], repeat: int, evidence: Evidence | None
    ) -> None:
        self.cells, self.repeat, self.evidence = cells, repeat, evidence

    def context(self, title: str, program: str, names: tuple[str, ...], also: str | None) -> Context:
        typescript = names == TYPESCRIPT_NAMES
        shown = [(name, self.cells[name]) for name in names if name in self.cells]
        outputs = [
            {"label": LABELS[name], "text": printed(cell, self.repeat, typescript=typescript)}
            for name, cell in shown
        ]
        evidence = self.evidence
        dates = sorted({evidence.recorded(cell) for _name, cell in shown}) if evidence else []
        return {
            "title": title,
            "program": program,
            "outputs": outputs,
            "also": also,
            "probed": " and ".join(dates) or None,
        }


def label(name: str, cell: Mapping[str, Any] | None) -> str:
    """A client's name as pages show it, with the date of its outcome where that is not the evidence's."""
    when = cell.get(RECORDED) if cell is not None else None
    return f"{LABELS[name]} (recorded {when})" if when else LABELS[name]


def _title(language: str, client: Mapping[str, str] | None) -> str:
    return f"{language} ({client['sdk']} {client['version']})" if client else language


def describe(cell: Mapping[str, Any], entry: ErrorEntry | None) -> str:
    """What a client surfaced, in a few Markdown words; against the table's answer when `entry` is given."""
    outcome, call = cell.get("outcome"), cell.get("call")
    at = f" at call {call}" if isinstance(call, int) and call > 1 else ""
    if outcome == "cannot-produce":
        return "cannot send this request"
    if outcome == "cannot-send":
        return f"raises `{cell.get('class')}` itself, before sending anything{at}"
    if outcome == "result":
        flag = str(bool(cell.get("isError"))).lower()
        if at:
            sent = cell.get("requests")
            requests = "request" if sent == 1 else "requests"
            return f"no error: a result (`isError: {flag}`) to all {call} calls, {sent} {requests} sent"
        return f"no error: a result with `isError: {flag}`"
    code, status = cell.get("code"), cell.get("status")
    said = f"raises `{cell.get('class')}`" + (
        f" with code `{code}`" if code is not None else " without a code"
    )
    if code is None and status is not None:
        said = f"{said}{at}, only the HTTP status `{status}`"
        if entry is None:
            return said
        in_text = str(entry.code) in str(cell.get("message"))
        where = "only in the message text" if in_text else "not in it at all"
        return f"{said}: the JSON-RPC `{entry.code}` is {where}"
    if entry is None or code == entry.code:
        return said + at
    if code == entry.status:
        return (
            f"{said}{at}: the HTTP status, not the JSON-RPC `{entry.code}` (that is only in the message text)"
        )
    return f"{said}{at}, where the table says `{entry.code}`"


def agrees(cell: Mapping[str, Any], entry: ErrorEntry) -> bool:
    """Whether a client reports the table's code as an exception's code."""
    return cell.get("outcome") == "exception" and cell.get("code") == entry.code


def client_differences(
    entries: list[ErrorEntry], examples: Mapping[str, Example], evidence: Evidence | None
) -> Context:
    """The `client-differences` region: where the official clients part from the table or from each other."""
    records = evidence.records() if evidence is not None else {}
    differences: list[Context] = []
    agreeing: list[Context] = []
    missing: list[Context] = []
    for entry in entries:
        example = examples.get(entry.id)
        if example is None or not example.triggerable:
            continue
        record = records.get(entry.id)
        cells = cells_of(record, example)
        link = {"title": entry.id.replace("-", " ").capitalize(), "anchor": f"ex-{entry.id}"}
        if cells and record is not None and not still_holds(record, entry):
            # What the clients reported answers the row as it was: say only that they have not run it since.
            differences.append(
                {**link, "code": entry.code, "status": entry.status, "apart": None, "note": NOT_SINCE}
            )
        elif not cells:
            missing.append(link)
        elif all(name in cells and agrees(cells[name], entry) for name in CLIENT_NAMES):
            agreeing.append(link)
        else:
            apart = list(_apart(cells, entry))
            differences.append(
                {**link, "code": entry.code, "status": entry.status, "apart": apart, "note": None}
            )
    return {"differences": differences, "agreeing": agreeing, "missing": missing}


def _apart(cells: Mapping[str, Mapping[str, Any]], entry: ErrorEntry) -> Iterator[str]:
    """The clients whose outcome is not the table's code, in the clients' order; one with no outcome is named
    with "(not run)"."""
    for name in CLIENT_NAMES:
        cell = cells.get(name)
        if cell is None:
            yield f"{LABELS[name]} (not run)"
        elif not agrees(cell, entry):
            yield label(name, cell)
