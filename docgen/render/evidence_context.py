"""Context for the regions that show behaviour: probe evidence, example requests, and spec conformance.

- `page-header` with `evidence=CATALOG` in its marker: `header.reproduced` (`probed`, `rows`, `reproduced`,
  `untriggerable`, and the ids of the rows `differing` from the table, `unreplayed`: no evidence for the
  current example, and `changed`: replayed only before the row's code or status changed), from
  `data/<catalog>.evidence.yaml`; None without the attribute or the file, and for a catalog whose kind
  keeps no evidence. The errors kind's `reproduced` calls it, as it calls the regions below: these are its.
- `error-examples`: `examples`, one per entry with an example, in table order: `id`, `title`, `anchor`, `row`
  (the table row's anchor), `code`, `status`, `repeat`, `untriggerable`, `http`, `curl`,
  `client_note`, `response` (`probed`, `text`, the JSON body indented; None before probe has replayed the
  example), `clients` (see `docgen.render.client_context`) and `changed`: whether the row's code or
  status changed since probe replayed the example (then `response` and the clients' outputs are left out,
  since they answered the row as it was).
- `client-differences`: see `docgen.render.client_context`.
- `spec-differences`: `spec` (`title`, `url`, `file`, `revision`), `differences` and `agreements` (each
  `condition`, `here`, `required`, `level`, `section`, `url`, `note`, `reason`, `differs`, `defined`),
  `silent`: entries no condition names, and `earlier`: per older revision the specification file classifies,
  `revision` and `rows` (every condition, as that revision classifies it; `defined` false where it has none).
"""

from __future__ import annotations

import http
import json
from collections import ChainMap
from collections.abc import Mapping
from typing import Any

import jinja2

from docgen.core.errors import TemplateError
from docgen.core.evidence import Evidence, Record, still_holds
from docgen.core.models import ErrorEntry, ErrorsCatalog
from docgen.core.notes import Notes, in_notes_order
from docgen.core.pages import holds_marker
from docgen.core.spec import Comparison, Spec, compare, here, required
from docgen.examples.requests import curl_command, endpoint_of, examples_of, http_request
from docgen.render.client_context import client_differences, client_item
from docgen.render.inputs import RenderInputs
from docgen.render.regions import Region
from docgen.render.shown import ShownConstants
from docgen.templating import template_cache

Context = dict[str, Any]


def header_evidence(inputs: RenderInputs, name: str, catalog: ErrorsCatalog) -> dict[str, Any] | None:
    """How many rows of errors catalog `name` the last probe reproduced, for the page header; None when
    probe has recorded nothing for it."""
    evidence = inputs.evidence.get(name)
    if evidence is None:
        return None
    records = evidence.records()
    examples = examples_of(catalog, inputs.notes_of(name))
    rows = reproduced = untriggerable = 0
    differing: list[str] = []
    unreplayed: list[str] = []
    changed: list[str] = []
    for entry in catalog.entries:
        example = examples.get(entry.id)
        if example is not None and not example.triggerable:
            untriggerable += 1
            continue
        rows += 1
        record = records.get(entry.id)
        observed = record.observed if record is not None else None
        if example is None or record is None or observed is None or record.example != example.fingerprint:
            unreplayed.append(entry.id)
        elif not still_holds(record, entry):
            changed.append(entry.id)
        elif (observed.code, observed.status) == (entry.code, entry.status):
            reproduced += 1
        else:
            differing.append(entry.id)
    return {
        "probed": evidence.probed,
        "rows": rows,
        "reproduced": reproduced,
        "untriggerable": untriggerable,
        "differing": differing,
        "unreplayed": unreplayed,
        "changed": changed,
    }


def error_examples(inputs: RenderInputs, name: str, catalog: ErrorsCatalog) -> Context:
    """Each entry's example as HTTP, curl and Python, with the answer probe recorded."""
    notes = inputs.notes_of(name)
    examples = examples_of(catalog, notes)
    written, endpoint = notes.examples(), endpoint_of(notes)
    evidence = inputs.evidence.get(name)
    records = evidence.records() if evidence is not None else {}
    constants = ShownConstants(name, catalog.constants)  # what an example's text shows of them is recorded
    variables: Mapping[str, Any] = ChainMap({"endpoint": endpoint}, constants)  # type: ignore[arg-type]
    shown = []
    for entry in in_notes_order(catalog.entries, notes, lambda entry: entry.id):
        example = examples.get(entry.id)
        if example is None:
            continue
        raw = written[entry.id]
        record, changed = replayed_as_stated(records.get(entry.id), entry)
        item: Context = {
            "id": entry.id,
            "title": entry.id.replace("-", " ").capitalize(),
            "anchor": f"ex-{entry.id}",
            "row": f"err-{entry.id}",
            "code": entry.code,
            "status": entry.status,
            "repeat": example.repeat,
            "untriggerable": example.untriggerable,
            "http": http_request(example, endpoint) if example.triggerable else None,
            "curl": curl_command(example, endpoint) if example.triggerable else None,
            "client_note": _text(inputs, raw.client_note, "client_note", variables, notes, entry.id),
            "response": _response(record, evidence, example.fingerprint),
            "clients": client_item(entry, example, record, evidence, endpoint),
            "changed": changed,
        }
        shown.append(item)
    return {"examples": shown, "endpoint": endpoint}


def replayed_as_stated(record: Record | None, entry: ErrorEntry) -> tuple[Record | None, bool]:
    """`record` and False while it still holds for the row; None and True once the row's code or status
    changed since it was taken, so that nothing the server or a client answered then reads as today's."""
    if record is not None and not still_holds(record, entry):
        return None, True
    return record, False


def _text(
    inputs: RenderInputs,
    text: str | None,
    field: str,
    variables: Mapping[str, Any],
    notes: Notes,
    entry_id: str,
) -> str | None:
    """An example's `client` or `client_note`, rendered in the sandbox with the constants and `endpoint`."""
    if text is None or not str(text).strip():
        return None
    try:
        rendered = template_cache.render_text(inputs.environment, str(text), variables, name="example")
        rendered = rendered.strip("\n")
        if holds_marker(rendered):
            raise jinja2.TemplateRuntimeError(
                "it holds a line that starts like a docgen marker (`<!-- docgen:`)"
            )
        return rendered
    except jinja2.TemplateError as err:
        raise TemplateError(
            f"notes for entry {entry_id!r}, example {field}: {err.message or type(err).__name__}",
            file=notes.file,
            line=notes.line("entries", entry_id, "example", field),
            hint=f"the example may use these names and docgen's filters: {', '.join(sorted(variables))}",
        ) from err


def _response(record: Record | None, evidence: Evidence | None, fingerprint: str) -> dict[str, Any] | None:
    """The answer probe recorded, as an HTTP response; None when it is missing or for another example."""
    if evidence is None or record is None or record.observed is None or record.example != fingerprint:
        return None
    observed = record.observed
    status = int(observed.status)
    phrase = http.HTTPStatus(status).phrase if status in http.HTTPStatus._value2member_map_ else ""
    lines = [f"HTTP/1.1 {status} {phrase}".rstrip()]
    lines += [f"{name}: {value}" for name, value in observed.headers.items()]
    if observed.body:
        lines += ["", _pretty(str(observed.body))]
    return {"probed": evidence.probed, "text": "\n".join(lines)}


def _pretty(body: str) -> str:
    """A JSON body indented two spaces a level, so it reads (and fits a phone); any other body as it came."""
    try:
        return json.dumps(json.loads(body), indent=2, ensure_ascii=False)
    except ValueError:
        return body


def client_differences_region(inputs: RenderInputs, name: str, catalog: ErrorsCatalog) -> Context:
    """Where the official clients report a row differently from the table, or from each other."""
    notes = inputs.notes_of(name)
    entries = in_notes_order(catalog.entries, notes, lambda entry: entry.id)
    return client_differences(entries, examples_of(catalog, notes), inputs.evidence.get(name))


def spec_differences(
    inputs: RenderInputs, region: Region, page: str, name: str, catalog: ErrorsCatalog
) -> Context:
    """Where errors catalog `name` departs from the specification its notes name, and where it agrees."""
    notes = inputs.notes_of(name)
    if not notes.spec:
        raise TemplateError(
            f"region {region.name!r} compares catalog {name!r} with a specification, but its notes name none",
            file=page,
            line=region.line,
            hint=f"add `spec: <name>` at the top of data/{name}.notes.yaml (see data/specs/)",
        )
    spec = inputs.specs[notes.spec]
    comparisons = compare(catalog, notes, spec)
    rows = [(comparison, _spec_row(comparison, spec)) for comparison in comparisons]
    named = {entry.id for comparison in comparisons for entry in comparison.entries}
    silent = [
        {"id": e.id, "code": e.code, "status": e.status, "link": _row_link(e)}
        for e in in_notes_order(catalog.entries, notes, lambda entry: entry.id)
        if e.id not in named
    ]
    return {
        "spec": {"title": spec.title, "url": spec.url, "file": spec.spec_file, "revision": spec.revision},
        "differences": [row for comparison, row in rows if comparison.differs],
        "agreements": [row for comparison, row in rows if not comparison.differs],
        "silent": silent,
        "earlier": [_earlier_revision(catalog, notes, spec, revision) for revision in spec.earlier],
    }


def _earlier_revision(catalog: ErrorsCatalog, notes: Notes, spec: Spec, revision: str) -> Context:
    """How an earlier revision classifies every condition, and where the server differs from it: the
    `earlier` of the `spec-differences` region, one per revision the specification file names."""
    comparisons = {c.condition.id: c for c in compare(catalog, notes, spec, revision)}
    rows = []
    for condition in spec.conditions:
        comparison = comparisons.get(condition.id)
        row = _spec_row(comparison, spec, revision) if comparison is not None else None
        rows.append(row or {"condition": condition.condition, "here": None, "defined": False})
    return {"revision": revision, "rows": rows}


def _spec_row(comparison: Comparison, spec: Spec, revision: str | None = None) -> Context:
    condition = comparison.condition
    answer = here(comparison)
    for entry in comparison.entries:
        answer = answer.replace(f"`{entry.code}` at HTTP `{entry.status}`", _row_link(entry), 1)
    accepted = spec.accepted_at(revision).get(condition.id)
    return {
        "condition": condition.condition,
        "here": answer,
        "required": required(condition),
        "level": condition.level,
        "section": condition.source.section,
        "url": condition.source.url,
        "note": condition.note,
        "reason": accepted.reason if accepted is not None else None,
        "differs": bool(comparison.differs),
        "defined": True,
    }


def _row_link(entry: ErrorEntry) -> str:
    return f"[`{entry.code}` at HTTP `{entry.status}`](#err-{entry.id})"
