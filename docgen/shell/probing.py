"""`docgen probe`: replay the examples against the server and through the official clients, then write the
evidence of every catalog at once.

Imported only when probe runs (httpx and asyncio slow the start of every other command). Everything that can
fail fails before the writer: a client that cannot run stops probe before the server is started (exit 2,
naming what is missing), and the report on each row is worked out before anything is written.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping

from docgen.core.errors import ConfigError
from docgen.core.evidence import Evidence, source_fingerprints
from docgen.core.models import Catalog, ErrorsCatalog, RoutesCatalog
from docgen.core.notes import Notes
from docgen.core.project import Project, load_project
from docgen.core.settings import Settings
from docgen.core.writer import write_outputs
from docgen.examples.requests import Example, endpoint_of, examples_of
from docgen.extract.pipeline import Extraction, extract
from docgen.kinds.errors.catalog import ErrorsExtraction
from docgen.probe import replay
from docgen.probe.clients import (
    RUNNER_CLIENTS,
    ClientRun,
    Runner,
    changed_cells,
    probe_clients,
    require_reachable,
    runners,
)
from docgen.probe.kept import keep_skipped
from docgen.probe.links import LinkProblem, link_problems
from docgen.shell.probing_routes import Probed, RouteRun, probe_routes


def _say(message: str) -> None:
    print(message, file=sys.stderr)


def run_probe(settings: Settings, args: argparse.Namespace, *, date: str) -> int:
    """Probe every catalog with examples (or `--catalog`); write their evidence; name each failed row."""
    project = load_project(settings, site=False)
    catalogs = project.catalogs()
    names = _probe_catalogs(project, catalogs, args.catalog)
    args = argparse.Namespace(**{**vars(args), "app": _app(args, settings)})
    served = [name for name in names if isinstance(catalogs[name], ErrorsCatalog)]
    routed = [name for name in names if isinstance(catalogs[name], RoutesCatalog)]
    targets = {name: _target(args, settings, project.notes[name]) for name in served}
    skipped = skipped_runners(args)
    found = (
        runners(skipped) if served else []
    )  # a client that cannot run stops probe here, before anything runs
    extraction = _marked_sources(project)
    done = [
        _probe_catalog(
            settings,
            args,
            project,
            catalogs[name],
            targets[name],
            extraction,
            date=date,
            found=found,
            skipped=skipped,
        )
        for name in served
    ]
    run = RouteRun(args.app, args.url, args.timeout, date)
    done += probe_routes(settings, project, catalogs, routed, run, extraction)
    write_outputs(settings.root, {probed.path: probed.text for probed in done})
    for probed in done:
        for line in probed.rows:
            _say(line)
    return _closing(args, done, skipped if served else [], clients=bool(served))


def _app(args: argparse.Namespace, settings: Settings) -> str | None:
    """The application probe serves: `--app`, else (without `--url`) the configuration's `probe_app:`."""
    if args.app or args.url:
        return str(args.app) if args.app else None
    if settings.probe_app is None:
        raise ConfigError(
            "probe has no server to send the examples to",
            hint="name your application in the docgen section of mkdocs.yml (`probe_app: MODULE:ATTR`, "
            "e.g. myapp.main:app), or give --app MODULE:ATTR, or --url URL for a server already running",
        )
    return settings.probe_app


def _target(args: argparse.Namespace, settings: Settings, notes: Notes) -> replay.Target:
    """The server a catalog's examples go to, made before asking what this machine lacks, so that an `--app`
    that does not import, or an `--url` that is not http(s) or that nothing answers at, is heard first."""
    if args.app:
        return replay.app_target(args.app, settings.root, endpoint_of(notes))
    target = replay.url_target(args.url)
    require_reachable(args.url)
    return target


def skipped_runners(args: argparse.Namespace) -> list[str]:
    """The runners left out by name: every one with --no-clients, else those --skip-client names."""
    if args.no_clients:
        return list(RUNNER_CLIENTS)
    return [name for name in RUNNER_CLIENTS if name in (args.skip_client or [])]


def _probe_catalog(
    settings: Settings,
    args: argparse.Namespace,
    project: Project,
    catalog: Catalog,
    target: replay.Target,
    extraction: Extraction,
    *,
    date: str,
    found: list[Runner],
    skipped: list[str],
) -> Probed:
    assert isinstance(catalog, ErrorsCatalog)  # _probe_catalogs gives errors catalogs only
    notes = project.notes[catalog.name]
    examples, endpoint = examples_of(catalog, notes), endpoint_of(notes)
    # Against --url the clients go first: the replay's rate-limit example spends the whole budget.
    previous = project.evidence.get(catalog.name)
    clients = _probe_clients(settings, args, examples, previous, endpoint, found) if found else ClientRun()
    place = settings.catalogs[catalog.name].links
    keep = (place.key.lower(),) if place is not None and place.place == "header" else ()
    seen = replay.observe(target, list(examples.values()), timeout=args.timeout, keep=keep)
    extracted = extraction.of(catalog.name, ErrorsExtraction)
    source = source_fingerprints(project.sources, catalog, extracted.roots)
    fresh = replay.build_evidence(
        catalog, examples, seen, date=date, target=target.label, source=source, clients=clients
    )
    evidence, kept = keep_skipped(fresh, previous, skipped)
    for sentence in kept:
        _say(f"docgen probe: official clients: {sentence}")
    path = settings.relative(settings.evidence_path(catalog.name))
    unlinked = list(link_problems(place, seen, settings.site_url))
    rows, failed = _probe_report(path, evidence, _link_rows(extracted, unlinked))
    refused = {r.id: r.observed.status for r in replay.not_reproduced(evidence) if r.observed}
    return Probed(path, replay.dump_evidence(evidence, notes.file), rows, failed, refused)


def _marked_sources(project: Project) -> Extraction:
    """The project's extraction, with the project's source files told which calls lead to catalogued
    errors, so that the fingerprints probe records are the ones check compares (`SourceFiles.mark_errors`)."""
    extraction = extract(project, dump=False)
    extraction.inform(project.sources)
    return extraction


def _probe_clients(
    settings: Settings,
    args: argparse.Namespace,
    examples: Mapping[str, Example],
    previous: Evidence | None,
    endpoint: str,
    found: list[Runner],
) -> ClientRun:
    """The official clients' half of probe, saying what it left out and what changed."""
    run = probe_clients(examples, settings.root, app=args.app, url=args.url, endpoint=endpoint, found=found)
    for reason in run.skipped:
        _say(f"docgen probe: official clients: skipped {reason}")
    ran = ", ".join(f"{name} ({client['sdk']} {client['version']})" for name, client in run.clients.items())
    _say(f"docgen probe: official clients run: {ran or 'none'}")
    for line in changed_cells(previous, run, examples):
        _say(f"  {line}")
    return run


def _probe_catalogs(project: Project, catalogs: Mapping[str, Catalog], wanted: str | None) -> list[str]:
    """The catalogs to probe: `wanted`, or every errors or routes catalog whose notes carry examples."""
    with_examples = [
        name
        for name, catalog in catalogs.items()
        if isinstance(catalog, ErrorsCatalog | RoutesCatalog) and project.notes[name].examples()
    ]
    if wanted is not None and wanted not in with_examples:
        raise ConfigError(
            f"--catalog {wanted!r} is not an errors or routes catalog with examples",
            hint=f"catalogs with examples: {', '.join(with_examples) or 'none'}",
        )
    if not with_examples:
        raise ConfigError(
            "no errors or routes catalog has examples to probe",
            hint="add 'example:' under an entry in data/<catalog>.notes.yaml (`docgen schema errors-notes` "
            "prints the fields it takes)",
        )
    return [wanted] if wanted else with_examples


def _link_rows(extracted: ErrorsExtraction, problems: list[LinkProblem]) -> dict[str, str]:
    """Each entry whose answer lacked its own link: what to say, at the line of the call that built it."""
    calls = {
        entry.id: f"{site.entry.file}:{site.line}: "
        for entry, site in zip(extracted.catalog.entries, extracted.sites, strict=True)
    }
    return {problem.entry_id: calls.get(problem.entry_id, "") + problem.message for problem in problems}


def _probe_report(path: str, evidence: Evidence, unlinked: Mapping[str, str]) -> tuple[list[str], list[str]]:
    """What to say about each row once the evidence is written, and the ids of the rows that did not
    reproduce or did not link to their own entry (`unlinked`, by id)."""
    lines, failed = [], []
    for row in evidence.entries:
        if row.untriggerable is not None:
            lines.append(f"  {row.id}: not probed (cannot be triggered from outside)")
            continue
        seen = row.observed
        answer = f"{seen.code} / HTTP {seen.status}" if seen is not None else "nothing"
        if row.id in unlinked:
            failed.append(row.id)
            lines.append(f"  {row.id}: wrong link: {unlinked[row.id]}")
        if row.reproduced:
            if row.id not in unlinked:  # the code and status are right, but a wrong link fails the row
                lines.append(f"  {row.id}: reproduced ({answer})")
            continue
        if row.id not in unlinked:
            failed.append(row.id)
        table = (
            f"{row.expected[0]} / HTTP {row.expected[1]}"
            if row.expected is not None
            else "no literal code and status (they are set at run time), so nothing to compare with"
        )
        lines.append(f"  {row.id}: NOT reproduced: the table says {table}, the server answered {answer}")
    lines.append(f"{path}: written ({evidence.target}, {evidence.probed})")
    return lines, failed


def _closing(args: argparse.Namespace, done: list[Probed], skipped: list[str], *, clients: bool) -> int:
    """The last word of probe, and its exit code."""
    failed = [row for probed in done for row in probed.failed]
    refused = {row: status for probed in done for row, status in probed.refused.items()}
    if failed:
        _say(f"docgen probe: {len(failed)} row(s) did not reproduce: {', '.join(failed)}")
        if args.url and any(status == 429 for status in refused.values()):
            _say(
                "  hint: the server answered 429 to rows other than the rate limit: this client's budget "
                "was already spent (by an earlier probe within the window?); wait for it to pass, then probe"
            )
        return 1
    if skipped:
        _say(
            f"every row the server was sent reproduced; the {' and '.join(skipped)} client(s) did not run "
            "(skipped by name): the evidence keeps what they surfaced before, as said above. Run "
            "`docgen render` so the pages show the evidence"
        )
        return 0
    if not clients:  # an HTTP API's own answers: no client ran
        _say("every example reproduced; run `docgen render` so the route pages show the answers")
        return 0
    _say("every row a client can trigger reproduced; run `docgen render` so the pages show the evidence")
    return 0
