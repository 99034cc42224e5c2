"""`docgen probe` for the routes catalogs: serve the HTTP application (or reach it at `--url`), send each
error's example, and work out the evidence and the report before anything is written.

The application is served once for every routes catalog probed: ASGI under uvicorn, WSGI under the standard
library's server, aiohttp under its own runner (`docgen.probe.apps`), on a free port of 127.0.0.1. Nothing
here runs the official MCP clients: an HTTP API's own answer is the evidence.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path

from docgen.core.models import Catalog, Json, RoutesCatalog
from docgen.core.project import Project
from docgen.core.records import record
from docgen.core.route_evidence import route_fingerprints
from docgen.core.settings import Settings
from docgen.core.yamlio import dump_yaml
from docgen.examples.routes import RouteExample, route_examples
from docgen.extract.pipeline import Extraction
from docgen.kinds.routes.catalog import RoutesExtraction
from docgen.probe.apps import detect, served_on_loopback
from docgen.probe.clients import require_reachable
from docgen.probe.routes import build_route_evidence, observe_routes, route_report


@record
class Probed:
    """One catalog's probe: the evidence file's path and text, and what to say once it is written."""

    path: str
    text: str
    rows: list[str]
    failed: list[str]
    refused: dict[str, int]


@record
class RouteRun:
    """Where the routes catalogs' examples go: the application or URL, and the probe's options."""

    app: str | None
    url: str | None
    timeout: float
    date: str


def probe_routes(
    settings: Settings,
    project: Project,
    catalogs: Mapping[str, Catalog],
    names: Sequence[str],
    run: RouteRun,
    extraction: Extraction,
) -> list[Probed]:
    """Probe each routes catalog in `names` against one serving of the application."""
    if not names:
        return []
    examples = {name: _examples(project, catalogs[name]) for name in names}
    with _serving(settings, run) as (base, label):
        seen = {
            name: observe_routes(base, list(examples[name].values()), timeout=run.timeout) for name in names
        }
    probed = []
    for name in names:
        catalog = catalogs[name]
        assert isinstance(catalog, RoutesCatalog)
        evidence = build_route_evidence(
            catalog,
            examples[name],
            seen[name],
            date=run.date,
            target=label,
            source=route_fingerprints(project.sources, catalog),
        )
        path = settings.relative(settings.evidence_path(name))
        rows, failed = route_report(path, evidence)
        sites = extraction.of(name, RoutesExtraction).sites
        rows = [_located(row, sites) for row in rows]
        refused = {r.id: r.reply.status for r in evidence.entries if r.reproduced is False and r.reply}
        probed.append(
            Probed(path, _dump(evidence.as_data(), project.notes[name].file), rows, failed, refused)
        )
    return probed


def _examples(project: Project, catalog: Catalog) -> dict[str, RouteExample]:
    assert isinstance(catalog, RoutesCatalog)  # the caller picks routes catalogs
    return route_examples(catalog, project.notes[catalog.name])


@contextmanager
def _serving(settings: Settings, run: RouteRun) -> Iterator[tuple[str, str]]:
    """The base URL the examples go to, and the evidence's `target`, while the application is served."""
    if run.app is None:
        assert run.url is not None
        require_reachable(run.url)
        yield run.url.rstrip("/"), f"url {run.url}"
        return
    served = detect(run.app, settings.root)
    with (
        tempfile.TemporaryDirectory(prefix="docgen-probe-") as logs,
        served_on_loopback(run.app, served, settings.root, Path(logs) / "server.log") as base,
    ):
        yield base, f"app {run.app} ({served.label})"


def _located(row: str, sites: Mapping[str, tuple[str, int]]) -> str:
    """A row that did not reproduce, prefixed with the file and line of the error's raise."""
    entry_id, _, said = row.strip().partition(": ")
    if not said.startswith("NOT reproduced") or entry_id not in sites:
        return row
    file, line = sites[entry_id]
    return f"  {file}:{line}: {entry_id}: {said}"


def _dump(data: Mapping[str, Json], notes_file: str) -> str:
    header = (
        f"# Written by `docgen probe` from the examples in {notes_file}: do not edit by hand.\n"
        "# What the application answered to each example; `docgen check` reports it when the source\n"
        "# or an example changes after probe ran, or when it contradicts the catalog.\n"
    )
    return dump_yaml(data, header=header)
