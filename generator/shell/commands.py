"""What each docgen sub-command does: run the pure stages, then report (and, except for check, write)."""

from __future__ import annotations

import argparse
import datetime
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

from generator.check.drift import FIX
from generator.check.run import run_check
from generator.check.stamps import fingerprints, stamp
from generator.core import catalog as catalogs
from generator.core.catalog import notes_report
from generator.core.errors import ConfigError, TemplateError
from generator.core.evidence import evidence_path, source_fingerprints
from generator.core.examples import endpoint_of, examples_of, raw_examples
from generator.core.findings import as_github, as_json, as_text
from generator.core.pages import read_pages, split_front_matter
from generator.core.settings import Settings
from generator.core.writer import write_outputs
from generator.core.yamlio import read_text
from generator.extract.pipeline import extract
from generator.render.renderer import render_all


def _say(message: str) -> None:
    print(message, file=sys.stderr)


def extract_command(settings: Settings, args: argparse.Namespace) -> int:
    """`docgen extract`: rewrite data/<catalog>.yaml from the source."""
    result = extract(settings)
    changed = write_outputs(settings.root, result.outputs)
    for name, data in result.catalogs.items():
        path = settings.relative(settings.catalog_path(name))
        count = len(data.get("entries", [])) if data["kind"] == "errors" else len(data["tools"])
        state = "updated" if path in changed else "unchanged"
        _say(f"{path}: {state} ({count} {'entries' if data['kind'] == 'errors' else 'tools'})")
        for successor in result.successors.get(name, []):
            _say(
                f"{path}: new entry '{successor.new_id}' most likely replaces '{successor.old_id}' "
                f"(similarity {successor.similarity:.2f}); if so, rename its key in "
                f"{settings.relative(settings.notes_path(name))} so the prose follows it"
            )
        if data["kind"] == "errors":
            _report_notes(settings, name, data)
    return 0


def _report_notes(settings: Settings, name: str, data: dict[str, object]) -> None:
    notes_path = settings.notes_path(name)
    notes = catalogs.load_notes(notes_path, settings.relative(notes_path))
    report = notes_report(data, notes)
    shown = settings.relative(notes_path)
    for entry_id in report.gaps:
        _say(f"{shown}: entry '{entry_id}' has no cause or action yet; add them under 'entries:'")
    for entry_id in report.orphans:
        _say(f"{shown}: notes for '{entry_id}', which is no longer in the catalog; move or delete them")


def render_command(settings: Settings, args: argparse.Namespace) -> int:
    """`docgen render`: rewrite the generated regions of docs/ from data/ and templates/."""
    loaded, notes = catalogs.load_committed(settings)
    results = render_all(settings, loaded, notes, force=args.force)
    docs = settings.relative(settings.docs_dir)
    # Every page is handed to the writer, changed or not: it rewrites only those that changed, and clears
    # the temporary files a killed run left beside any of them.
    outputs = {f"{docs}/{result.page}": result.text for result in results}
    changed = write_outputs(settings.root, outputs)
    skipped = 0
    for result in results:
        for region in result.regions:
            if region.state == "hand-edited" and not args.force:
                skipped += 1
                _say(
                    f"{docs}/{result.page}:{region.line}: region '{region.name}' was edited by hand; left as "
                    "it is (move the edit to the notes or the template, then run `docgen render --force`)"
                )
    for path in changed:
        _say(f"{path}: updated")
    _say(f"{len(results)} page(s) with generated regions, {len(changed)} updated")
    return 1 if skipped else 0


def check_command(settings: Settings, args: argparse.Namespace) -> int:
    """`docgen check`: report drift between code and docs; write nothing."""
    findings = run_check(settings, base=args.base)
    if args.format == "github":
        sys.stdout.write(as_github(findings))
        if findings:
            sys.stdout.write(as_text(findings, fix=FIX))
    elif args.format == "json":
        sys.stdout.write(as_json(findings))
    else:
        sys.stdout.write(as_text(findings, fix=FIX))
    return 1 if findings else 0


def _date(given: str | None) -> str:
    """`--date`, checked, or today."""
    date = given or datetime.date.today().isoformat()
    try:
        datetime.date.fromisoformat(date)
    except ValueError as err:
        raise ConfigError(f"--date {date!r} is not a date", hint="write it as YYYY-MM-DD") from err
    return date


def verify_command(settings: Settings, args: argparse.Namespace) -> int:
    """`docgen verify PAGE...`: stamp today's date and the cited symbols' fingerprints into each page."""
    date = _date(args.date)
    loaded, notes = catalogs.load_committed(settings)
    outputs: dict[str, str] = {}
    for page_path in args.pages:
        path = page_path if page_path.is_absolute() else Path.cwd() / page_path
        shown = settings.relative(path)
        try:
            page = path.resolve().relative_to(settings.docs_dir.resolve()).as_posix()
        except ValueError as err:
            raise ConfigError(
                f"{shown} is not a page under {settings.relative(settings.docs_dir)}/",
                hint="pass a Markdown file inside docs_dir",
            ) from err
        if not path.is_file():
            raise ConfigError(f"{shown}: no such page", hint="pass a Markdown file inside docs_dir")
        text = read_text(path, shown, error=TemplateError)
        meta, _body = split_front_matter(text, page=shown)
        prints = fingerprints(settings.root, meta, page=shown, text=text)
        stamped = stamp(text, date=date, prints=prints, page=shown)
        pages = {**read_pages(settings.docs_dir), page: stamped}
        rendered = {r.page: r.text for r in render_all(settings, loaded, notes, pages=pages)}
        outputs[shown] = rendered.get(page, stamped)
        _say(f"{shown}: verified {date}, {len(prints)} cited symbol(s) fingerprinted")
    write_outputs(settings.root, outputs)
    return 0


def probe_command(settings: Settings, args: argparse.Namespace) -> int:
    """`docgen probe`: replay the examples against the server, write the evidence, name each failed row."""
    probe, date = _probe_module(), _date(args.date)
    loaded, notes = catalogs.load_committed(settings)
    names = _probe_catalogs(settings, loaded, notes, args.catalog)
    failed: list[str] = []
    refused: dict[str, int] = {}
    for name in names:
        notes_path = settings.notes_path(name)
        shown_notes = settings.relative(notes_path)
        examples = examples_of(
            loaded[name],
            notes[name],
            notes_file=shown_notes,
            notes_text=read_text(notes_path, shown_notes),
        )
        if args.app:
            target = probe.app_target(args.app, settings.root, endpoint_of(notes[name]))
        else:
            target = probe.url_target(args.url)
        seen = probe.observe(target, list(examples.values()), timeout=args.timeout)
        source = source_fingerprints(settings.root, loaded[name])
        evidence = probe.build_evidence(
            loaded[name], examples, seen, date=date, target=target.label, source=source
        )
        path = settings.relative(evidence_path(settings.data_dir, name))
        write_outputs(settings.root, {path: probe.dump_evidence(evidence, shown_notes)})
        failed += _probe_report(path, evidence)
        refused |= {r["id"]: r["observed"]["status"] for r in probe.not_reproduced(evidence)}
    if failed:
        _say(f"docgen probe: {len(failed)} row(s) did not reproduce: {', '.join(failed)}")
        if args.url and any(status == 429 for status in refused.values()):
            _say(
                "  hint: the server answered 429 to rows other than the rate limit: this client's budget "
                "was already spent (by an earlier probe within the window?); wait for it to pass, then probe"
            )
        return 1
    _say("every row a client can trigger reproduced; run `docgen render` so the pages show the evidence")
    return 0


def _probe_module() -> ModuleType:
    """generator.probe, imported by `docgen probe` only: httpx and asyncio slow the start of every command."""
    from generator.probe import replay as probe  # noqa: PLC0415

    return probe


def _probe_catalogs(
    settings: Settings, loaded: dict[str, Any], notes: dict[str, Any], wanted: str | None
) -> list[str]:
    """The errors catalogs to probe: `wanted`, or every one whose notes carry examples."""
    with_examples = [n for n, c in loaded.items() if c.get("kind") == "errors" and raw_examples(notes[n])]
    if wanted is not None and wanted not in with_examples:
        raise ConfigError(
            f"--catalog {wanted!r} is not an errors catalog with examples",
            hint=f"catalogs with examples: {', '.join(with_examples) or 'none'}",
        )
    if not with_examples:
        raise ConfigError(
            "no errors catalog has examples to probe",
            hint="add 'example:' under an entry in data/<catalog>.notes.yaml (see data/schema/)",
        )
    return [wanted] if wanted else with_examples


def _probe_report(path: str, evidence: dict[str, Any]) -> list[str]:
    """Say what each row answered; return the ids of the rows that did not reproduce."""
    failed = []
    for record in evidence["entries"]:
        if "untriggerable" in record:
            _say(f"  {record['id']}: not probed (cannot be triggered from outside)")
            continue
        seen, wanted = record["observed"], record["expected"]
        answer = f"{seen['code']} / HTTP {seen['status']}"
        if record["reproduced"]:
            _say(f"  {record['id']}: reproduced ({answer})")
        else:
            failed.append(record["id"])
            _say(
                f"  {record['id']}: NOT reproduced: the table says {wanted['code']} / HTTP "
                f"{wanted['status']}, the server answered {answer}"
            )
    _say(f"{path}: written ({evidence['target']}, {evidence['probed']})")
    return failed
