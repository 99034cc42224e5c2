"""What a routes page shows of probe's evidence: each example sent, and what the application answered.

Only the records that still hold are shown as answers: one whose example has changed since, or whose error
the catalog now documents with another status or detail, is listed as not replayed since the change, so the
page never shows an old answer as what the application does now. Without evidence there is nothing to show
and the region is as it was.
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from typing import Any

from docgen.core.models import RoutesCatalog
from docgen.core.route_evidence import RouteRecord
from docgen.core.route_models import RouteError
from docgen.examples.routes import route_examples
from docgen.render.inputs import RenderInputs


def replies_context(
    inputs: RenderInputs, name: str, catalog: RoutesCatalog, anchors: Mapping[tuple[str, str], str]
) -> dict[str, Any] | None:
    """`probed`; `sent`, the rows replayed and still holding, each linking to the table's row of its error
    on the operation its example names (`anchors`, by operation and error id); `reproduced`, how many of
    those answered as the table says; `changed`, the ids of the examples not replayed since a change.
    None without evidence."""
    evidence, notes = inputs.replies.get(name), inputs.notes.get(name)
    if evidence is None or notes is None:
        return None
    examples = route_examples(catalog, notes)
    records = evidence.records()
    sent, changed = [], []
    for error in catalog.errors:
        example, record = examples.get(error.id), records.get(error.id)
        if example is None or not example.triggerable:
            continue
        if record is None or record.example != example.fingerprint or not _holds(record, error):
            changed.append(error.id)
            continue
        sent.append({**_row(error, record), "anchor": anchors.get((example.operation, error.id), "")})
    reproduced = sum(1 for row in sent if row["reproduced"])
    return {"probed": evidence.probed, "sent": sent, "reproduced": reproduced, "changed": changed}


def _holds(record: RouteRecord, error: RouteError) -> bool:
    return record.reply is not None and record.expected == (error.status, error.detail)


def _row(error: RouteError, record: RouteRecord) -> dict[str, Any]:
    assert record.reply is not None and record.request is not None  # _holds and probe's records say so
    detail = record.reply.detail
    return {
        "id": error.id,
        "request": f"{record.request[0]} {record.request[1]}",
        "status": record.reply.status,
        "detail_text": html.escape(detail, quote=False) if detail is not None else None,
        "reproduced": bool(record.reproduced),
    }
