"""A routes catalog's examples and evidence against the catalog: an error without an example (when the
catalog's `examples:` is `required`), and evidence missing, stale or contradicting the catalog.

check reads the evidence the project loaded (`Project.replies`): no server, no network. A catalog whose notes
carry no example at all is left alone; by default (`examples: optional`) only the errors that have an
example are held to one.
"""

from __future__ import annotations

from collections.abc import Iterator

from docgen.check.evidence_sources import stale_sources
from docgen.core.evidence import probe_command
from docgen.core.findings import Finding, Kind
from docgen.core.models import RoutesCatalog
from docgen.core.project import Project
from docgen.core.route_evidence import RouteEvidence, route_fingerprints
from docgen.core.route_models import RouteError
from docgen.examples.routes import RouteExample, route_examples


def reply_findings(project: Project, name: str, catalog: RoutesCatalog) -> Iterator[Finding]:
    """Findings about the examples and evidence of routes catalog `name`, when its notes have examples."""
    notes = project.notes[name]
    if not notes.examples():
        return
    examples = route_examples(catalog, notes)
    probe = probe_command(project.settings.probe_app)
    if project.settings.catalogs[name].examples == "required":
        for error in catalog.errors:
            if error.id not in examples:
                yield Finding(
                    Kind.EXAMPLE_MISSING,
                    notes.file,
                    notes.line("entries", error.id),
                    error.id,
                    "the error has no example request, so probe cannot show it is true",
                    f"add 'example:' with its `path` under 'entries: {error.id}:' (or 'untriggerable:' "
                    "with the reason), or set `examples: optional` on the catalog",
                )
    evidence = project.replies.get(name)
    if evidence is None:
        shown = project.settings.relative(project.settings.evidence_path(name))
        yield Finding(
            Kind.EVIDENCE_MISSING, shown, None, name, "no example has been sent to the application yet", probe
        )
        return
    yield from stale_sources(evidence, route_fingerprints(project.sources, catalog), probe)
    for error in catalog.errors:
        if error.id in examples:
            yield from _error_findings(evidence, error, examples[error.id], probe)


def _error_findings(
    evidence: RouteEvidence, error: RouteError, example: RouteExample, probe: str
) -> Iterator[Finding]:
    record = evidence.records().get(error.id)
    shown, line = evidence.file, evidence.record_line(error.id)
    if record is None:
        yield Finding(Kind.EVIDENCE_MISSING, shown, None, error.id, "probe has not sent this example", probe)
    elif record.example != example.fingerprint:
        yield Finding(
            Kind.EVIDENCE_STALE,
            shown,
            line,
            error.id,
            "the example changed after probe sent it",
            f"run `{probe}` again and commit the evidence",
        )
    elif record.reply is not None and record.expected != (error.status, error.detail):
        yield Finding(
            Kind.EVIDENCE_STALE,
            shown,
            line,
            error.id,
            f"probe compared the answer with HTTP {_pair(record.expected)}; the catalog now says "
            f"HTTP {_pair((error.status, error.detail))}",
            f"run `{probe}` again and commit the evidence",
        )
    elif record.reproduced is False and record.reply is not None:
        yield Finding(
            Kind.EVIDENCE_MISMATCH,
            shown,
            line,
            error.id,
            f"the application answered HTTP {_pair((record.reply.status, record.reply.detail))} to the "
            f"example; the catalog says HTTP {_pair((error.status, error.detail))}",
            "fix the server or the example, then run probe again; the catalog follows the code",
        )


def _pair(pair: tuple[int | None, str | None] | None) -> str:
    if pair is None:
        return "nothing"
    return f"{pair[0] if pair[0] is not None else '(set at run time)'} {pair[1]!r}"
