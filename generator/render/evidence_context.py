"""Context for the regions that show behaviour: probe evidence, example requests, and spec conformance.

- `page-header` with `evidence=CATALOG` in its marker: `header.reproduced` (`probed`, `rows`, `reproduced`,
  `untriggerable`), from `data/<catalog>.evidence.yaml`; None without the attribute or the file.
- `error-examples`: `examples`, one per entry with an example, in table order: `id`, `title`, `anchor`, `row`
  (the table row's anchor), `code`, `status`, `repeat`, `untriggerable`, `http`, `curl`, `client`,
  `client_note` and `response` (`probed`, `text`; None before probe has replayed the example).
- `spec-differences`: `spec` (`title`, `url`, `file`), `differences` and `agreements` (each `condition`,
  `here`, `required`, `level`, `section`, `url`, `note`, `reason`), and `silent`: entries no condition names.

Nothing here imports page_context (which imports this module); what it needs comes through the renderer.
"""

from __future__ import annotations

import http
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import jinja2

from generator.core import template_cache
from generator.core.catalog import notes_line
from generator.core.errors import TemplateError
from generator.core.evidence import evidence_path, load_evidence, records_by_id
from generator.core.examples import curl_command, endpoint_of, examples_of, http_request, raw_examples
from generator.core.pages import holds_marker
from generator.core.spec import Comparison, Spec, compare, here, load_spec, required
from generator.core.yamlio import read_text

if TYPE_CHECKING:
    from generator.render.regions import Region
    from generator.render.renderer import Renderer


def require_catalog_name(region: Region, page: str, context: Mapping[str, Any]) -> str:
    """The catalog a region draws from, or a located error saying how to name one."""
    if "catalog_name" not in context:
        raise TemplateError(
            f"region {region.name!r} needs a catalog",
            file=page,
            line=region.line,
            hint="write `catalog=NAME` in its begin marker, or `catalog: NAME` in the front matter",
        )
    return str(context["catalog_name"])


def header_evidence(renderer: Renderer, region: Region) -> dict[str, Any] | None:
    """How many rows the last probe reproduced, for the page header; None when the region asks for none."""
    name = region.attr("evidence")
    if name is None or name not in renderer.catalogs:
        return None
    evidence = _evidence(renderer, name)
    if evidence is None:
        return None
    records = records_by_id(evidence)
    rows = reproduced = untriggerable = 0
    for entry in renderer.catalogs[name].get("entries", []):
        record = records.get(entry["id"]) or {}
        if "untriggerable" in record:
            untriggerable += 1
            continue
        rows += 1
        observed = record.get("observed") or {}
        reproduced += (observed.get("code"), observed.get("status")) == (entry["code"], entry["status"])
    return {
        "probed": evidence["probed"],
        "rows": rows,
        "reproduced": reproduced,
        "untriggerable": untriggerable,
    }


def _evidence(renderer: Renderer, name: str) -> Mapping[str, Any] | None:
    path = evidence_path(renderer.settings.notes_path(name).parent, name)
    return load_evidence(path, _shown(renderer, path))


def _shown(renderer: Renderer, path: Any) -> str:
    try:
        return str(path.relative_to(renderer.settings.root).as_posix())
    except ValueError:
        return str(path)


def error_examples(renderer: Renderer, region: Region, page: str, context: dict[str, Any]) -> dict[str, Any]:
    """Each entry's example as HTTP, curl and Python, with the answer probe recorded."""
    name = require_catalog_name(region, page, context)
    catalog, notes = renderer.catalogs[name], renderer.notes.get(name) or {}
    notes_path = renderer.settings.notes_path(name)
    notes_file = _shown(renderer, notes_path)
    notes_text = read_text(notes_path, notes_file) if notes_path.exists() else ""
    examples = examples_of(catalog, notes, notes_file=notes_file, notes_text=notes_text)
    written, endpoint = raw_examples(notes), endpoint_of(notes)
    evidence = _evidence(renderer, name)
    records = records_by_id(evidence)
    order = {entry_id: index for index, entry_id in enumerate(notes.get("entries") or {})}
    variables = {**(catalog.get("constants") or {}), "endpoint": endpoint}
    shown = []
    for entry in sorted(catalog.get("entries", []), key=lambda e: order.get(e["id"], len(order))):
        example = examples.get(entry["id"])
        if example is None:
            continue
        raw, record = written[entry["id"]], records.get(entry["id"]) or {}
        item: dict[str, Any] = {
            "id": entry["id"],
            "title": entry["id"].replace("-", " ").capitalize(),
            "anchor": f"ex-{entry['id']}",
            "row": f"err-{entry['id']}",
            "code": entry["code"],
            "status": entry["status"],
            "repeat": example.repeat,
            "untriggerable": example.untriggerable,
            "http": http_request(example, endpoint) if example.triggerable else None,
            "curl": curl_command(example, endpoint) if example.triggerable else None,
            "client": _text(renderer, raw, "client", variables, name, entry["id"]),
            "client_note": _text(renderer, raw, "client_note", variables, name, entry["id"]),
            "response": _response(record, evidence, example.fingerprint),
        }
        shown.append(item)
    return {"examples": shown, "endpoint": endpoint}


def _text(
    renderer: Renderer,
    raw: Mapping[str, Any],
    field: str,
    variables: Mapping[str, Any],
    catalog: str,
    entry_id: str,
) -> str | None:
    """An example's `client` or `client_note`, rendered in the sandbox with the constants and `endpoint`."""
    text = raw.get(field)
    if text is None or not str(text).strip():
        return None
    try:
        template = template_cache.from_string(renderer.environment, str(text), name="example")
        rendered = template.render(variables).strip("\n")
        if holds_marker(rendered):
            raise jinja2.TemplateRuntimeError(
                "it holds a line that starts like a docgen marker (`<!-- docgen:`)"
            )
        return rendered
    except jinja2.TemplateError as err:
        notes_path = renderer.settings.notes_path(catalog)
        shown = _shown(renderer, notes_path)
        raise TemplateError(
            f"notes for entry {entry_id!r}, example {field}: {err.message or type(err).__name__}",
            file=shown,
            line=notes_line(notes_path, shown, "entries", entry_id, "example", field),
            hint=f"the example may use these names and docgen's filters: {', '.join(sorted(variables))}",
        ) from err


def _response(
    record: Mapping[str, Any], evidence: Mapping[str, Any] | None, fingerprint: str
) -> dict[str, Any] | None:
    """The answer probe recorded, as an HTTP response; None when it is missing or for another example."""
    observed = record.get("observed")
    if evidence is None or observed is None or record.get("example") != fingerprint:
        return None
    status = int(observed["status"])
    phrase = http.HTTPStatus(status).phrase if status in http.HTTPStatus._value2member_map_ else ""
    lines = [f"HTTP/1.1 {status} {phrase}".rstrip()]
    lines += [f"{name}: {value}" for name, value in (observed.get("headers") or {}).items()]
    if observed.get("body"):
        lines += ["", str(observed["body"])]
    return {"probed": evidence["probed"], "text": "\n".join(lines)}


def spec_differences(
    renderer: Renderer, region: Region, page: str, context: dict[str, Any]
) -> dict[str, Any]:
    """Where the catalog departs from the specification its notes name, and where it agrees."""
    name = require_catalog_name(region, page, context)
    catalog, notes = renderer.catalogs[name], renderer.notes.get(name) or {}
    if not notes.get("spec"):
        raise TemplateError(
            f"region {region.name!r} compares catalog {name!r} with a specification, but its notes name none",
            file=page,
            line=region.line,
            hint=f"add `spec: <name>` at the top of data/{name}.notes.yaml (see data/specs/)",
        )
    notes_path = renderer.settings.notes_path(name)
    spec = load_spec(
        renderer.settings.root, notes_path.parent, str(notes["spec"]), named_in=_shown(renderer, notes_path)
    )
    comparisons = compare(catalog, notes, spec)
    rows = [(comparison, _spec_row(comparison, spec)) for comparison in comparisons]
    named = {entry["id"] for comparison in comparisons for entry in comparison.entries}
    order = {entry_id: index for index, entry_id in enumerate(notes.get("entries") or {})}
    silent = [
        {"id": e["id"], "code": e["code"], "status": e["status"], "link": _row_link(e)}
        for e in sorted(catalog.get("entries", []), key=lambda e: order.get(e["id"], len(order)))
        if e["id"] not in named
    ]
    return {
        "spec": {"title": spec.data["title"], "url": spec.data["url"], "file": spec.spec_file},
        "differences": [row for comparison, row in rows if comparison.differs],
        "agreements": [row for comparison, row in rows if not comparison.differs],
        "silent": silent,
    }


def _spec_row(comparison: Comparison, spec: Spec) -> dict[str, Any]:
    condition, source = comparison.condition, comparison.condition["source"]
    answer = here(comparison)
    for entry in comparison.entries:
        answer = answer.replace(f"`{entry['code']}` at HTTP `{entry['status']}`", _row_link(entry), 1)
    return {
        "condition": condition["condition"],
        "here": answer,
        "required": required(condition),
        "level": condition["level"],
        "section": source["section"],
        "url": source["url"],
        "note": condition.get("note"),
        "reason": (spec.accepted.get(condition["id"]) or {}).get("reason"),
    }


def _row_link(entry: Mapping[str, Any]) -> str:
    return f"[`{entry['code']}` at HTTP `{entry['status']}`](#err-{entry['id']})"
