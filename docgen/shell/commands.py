"""What each docgen sub-command does: load the project once, run the stages on it, then report (and, except
for check, write through `docgen.core.writer`)."""

from __future__ import annotations

import argparse
import datetime
import os
import sys
from collections.abc import Mapping
from pathlib import Path

from docgen.check.run import check_report, run_check
from docgen.check.stamps import fingerprints, stamp
from docgen.core import kinds
from docgen.core.errors import ConfigError, OutputError
from docgen.core.extras import material_note, require_extra
from docgen.core.project import Project, load_project
from docgen.core.reports import as_github_log, as_json, as_text
from docgen.core.settings import Settings
from docgen.core.workflow_commands import inert
from docgen.core.writer import write_outputs
from docgen.extract.kind_stage import coverage_line, notices
from docgen.extract.pipeline import extract
from docgen.render.discarded import discarded_edits
from docgen.render.published import refuse_credentials
from docgen.render.renderer import RegionReport, render_all, renderer_for


def _say(message: str) -> None:
    """Tell the user, on standard error; no line of it can act as a GitHub workflow command."""
    print(inert(message), file=sys.stderr)


def extract_command(settings: Settings, args: argparse.Namespace) -> int:
    """`docgen extract`: rewrite data/<catalog>.yaml from the source."""
    project = load_project(settings, site=False)
    result = extract(project)
    for warning in result.warnings:
        _say(f"warning: {warning}")
    changed = write_outputs(settings.root, result.outputs)
    for name, found in result.results.items():
        path = settings.relative(settings.catalog_path(name))
        state = "updated" if path in changed else "unchanged"
        _say(f"{path}: {state} ({kinds.kind_of(found.catalog.kind).summary(found.catalog)})")
        for line in notices(project, name, found):
            _say(line)
        covered = coverage_line(found)
        if covered is not None:
            _say(f"{path}: {covered}")
    return 0


def render_command(settings: Settings, args: argparse.Namespace) -> int:
    """`docgen render`: rewrite the generated regions of docs/ from data/ and templates/."""
    project = load_project(settings)
    renderer = renderer_for(project)
    results = render_all(renderer, project.pages, force=args.force)
    refuse_credentials(renderer.inputs, results, project)  # before a page that shows one is written
    docs = settings.relative(settings.docs_dir)
    # Every page is handed to the writer, changed or not: it rewrites only those that changed, and clears
    # the temporary files a killed run left beside any of them.
    outputs = {f"{docs}/{result.page}": result.text for result in results}
    discarded = list(discarded_edits(results, docs)) if args.force else []
    outputs |= {edit.kept: edit.text for edit in discarded}  # written with the pages, or not at all
    changed = write_outputs(settings.root, outputs)
    skipped = 0
    for result in results:
        for region in result.regions:
            if region.state == "hand-edited" and not args.force:
                skipped += 1
                where = _places(region, settings.root)
                _say(
                    f"{docs}/{result.page}:{region.line}: region '{region.name}' was edited by hand; left as "
                    f"it is. Move the edit to {where}, then run `docgen render --force`"
                )
    for edit in discarded:
        _say(
            f"{edit.page}:{edit.region.line}: region '{edit.region.name}' was edited by hand and is now "
            f"overwritten; the edited text is kept in {edit.kept}. Move what should stay to "
            f"{_places(edit.region, settings.root)}. What changed:"
        )
        _say(edit.diff.rstrip("\n"))
    kept = {edit.kept for edit in discarded}
    pages = [path for path in changed if path not in kept]
    for path in pages:
        _say(f"{path}: updated")
    _say(f"{len(results)} page(s) with generated regions, {len(pages)} updated")
    _note_material(settings)
    return 1 if skipped else 0


def _places(region: RegionReport, root: Path) -> str:
    """Where an edit of the region belongs; a template the project does not hold yet (it renders with the
    packaged one) says how to get a copy to edit."""
    places = []
    for place in region.places or region.edit_in:
        name = place.rsplit("/", 1)[-1].removesuffix(".md.j2")
        missing = place.endswith(".md.j2") and not (root / place).exists()
        places.append(f"{place} (`docgen templates copy {name}` writes it)" if missing else place)
    return "; ".join(places) or "the notes or the template"


def check_command(settings: Settings, args: argparse.Namespace) -> int:
    """`docgen check`: report drift between code and docs; write nothing (but the job summary on GitHub)."""
    project = load_project(settings, base=args.base)
    findings = run_check(project)
    exit_code = 1 if findings else 0
    _list_drafts(project)
    _note_material(settings)
    if args.format == "github":
        sys.stdout.write(as_github_log(findings, changed=project.changed))
        from docgen.core.job_summary import as_markdown  # noqa: PLC0415  (only GitHub's format needs it)

        _append_job_summary(as_markdown(findings))
    elif args.format == "json":
        sys.stdout.write(as_json(findings, exit_code=exit_code))
    else:
        sys.stdout.write(inert(as_text(findings)))
    return exit_code


def _list_drafts(project: Project) -> None:
    """Name each notes entry still marked `draft: true` (written from the code by `docgen init`), on standard
    error: a draft is published, marked as one, so it is listed without failing the check."""
    for notes in project.notes.values():
        drafts = [entry_id for entry_id, entry in notes.entries.items() if entry.draft]
        for entry_id in drafts:
            _say(
                f"{notes.file}:{notes.line('entries', entry_id)}: note: '{entry_id}' is still a draft from "
                "the code; review its cause and action, then delete its 'draft: true'"
            )


def _note_material(settings: Settings) -> None:
    """Say how to install the Material theme when mkdocs.yml names it and it is not installed."""
    note = material_note(settings)
    if note is not None:
        _say(note)


def _append_job_summary(markdown: str) -> None:
    """Add the report to the GitHub job summary, when the job has one (`$GITHUB_STEP_SUMMARY`)."""
    target = os.environ.get("GITHUB_STEP_SUMMARY")
    if not target:
        return
    try:
        with open(target, "a", encoding="utf-8") as summary:
            summary.write(markdown)
    except OSError as err:
        raise OutputError(
            f"cannot append to the job summary $GITHUB_STEP_SUMMARY ({target}): {err.strerror}",
            hint="the annotations and the log above still carry every finding",
        ) from err


def _date(given: str | None) -> str:
    """`--date`, checked, or today."""
    date = given or datetime.date.today().isoformat()
    try:
        datetime.date.fromisoformat(date)
    except ValueError as err:
        raise ConfigError(f"--date {date!r} is not a date", hint="write it as YYYY-MM-DD") from err
    return date


def verify_command(settings: Settings, args: argparse.Namespace) -> int:
    """`docgen verify PAGE...`: stamp today's date and the cited symbols' fingerprints into each page,
    unless a page still has findings of its own or in its catalogs (then nothing is stamped, unless
    --force)."""
    date = _date(args.date)
    project = load_project(settings)
    pages = [_page_of(settings, page_path, project.pages) for page_path in args.pages]
    report = check_report(project)
    blocked = {shown: found for _page, shown in pages if (found := report.blocking(shown))}
    for shown, found in blocked.items():
        _say(f"{shown}: {len(found)} open finding(s) the page or its catalog still has:")
        _say(as_text(found, closing=False).rstrip("\n"))
    if blocked and not args.force:
        _say(
            f"docgen verify: nothing stamped; fix the findings above first (`docgen check` lists them all), "
            f"or stamp anyway with `docgen verify --force {' '.join(blocked)}`"
        )
        return 1
    renderer = renderer_for(project)
    outputs: dict[str, str] = {}
    for page, shown in pages:
        text = project.pages[page]
        prints = fingerprints(project.sources, project.fronts[page], page=shown)
        stamped = stamp(text, date=date, prints=prints, page=shown)
        outputs[shown] = renderer.render_page(stamped, page=page).text
        forced = " despite its open findings" if shown in blocked else ""
        _say(f"{shown}: verified {date}{forced}, {len(prints)} cited symbol(s) fingerprinted")
    write_outputs(settings.root, outputs)
    return 0


def _page_of(settings: Settings, given: Path, pages: Mapping[str, str]) -> tuple[str, str]:
    """The docs-relative path of a page named on the command line, and the path messages show."""
    path = given if given.is_absolute() else Path.cwd() / given
    shown = settings.relative(path)
    try:
        page = path.resolve().relative_to(settings.docs_dir.resolve()).as_posix()
    except ValueError:
        page = None
    if page is not None and page not in pages and not path.is_file():
        raise ConfigError(f"{shown}: no such page", hint="pass a Markdown file inside docs_dir")
    if page is None or page not in pages:
        raise ConfigError(
            f"{shown} is not a page under {settings.relative(settings.docs_dir)}/",
            hint="pass a Markdown file inside docs_dir",
        )
    return page, shown


def publish_command(settings: Settings, args: argparse.Namespace) -> int:
    """`docgen publish`: write into a site an engine built without the MkDocs plugin (Zensical) the files the
    plugin publishes beside the pages: each catalog's JSON and their schema, byte for byte the same, and the
    errors' changelog in place of the placeholder the built pages hold (`docgen.shell.site_html`)."""
    site = _site_dir(settings, args.site_dir)
    shown = settings.relative(site)
    if not site.is_dir():
        raise ConfigError(
            f"{shown}: no such folder, so the site is not built (or built elsewhere)",
            hint="build the site first (`zensical build`, `mkdocs build`), or pass --site-dir DIR",
        )
    # Imported here: Markdown and its extensions, and what check never needs, are needed by this command only.
    from docgen.shell.site_build import site_build  # noqa: PLC0415
    from docgen.shell.site_html import built_pages, changelog_html  # noqa: PLC0415

    build = site_build(load_project(settings))
    unbuilt = [page for page in built_pages(settings, build) if not (site / page).is_file()]
    if unbuilt:
        raise ConfigError(
            f"{shown}/{unbuilt[0]}: no such file, so the site is not built (or built elsewhere)",
            hint="build the site first (`zensical build`, `mkdocs build`), or pass --site-dir DIR",
        )
    files = {**build.published, **changelog_html(settings, build, site)}
    outputs = {f"{shown}/{path}": text for path, text in files.items()}
    changed = write_outputs(settings.root, outputs)
    for path in sorted(outputs):
        _say(f"{path}: {'written' if path in changed else 'unchanged'}")
    _say(f"{len(outputs)} file(s) published into {shown}/, {len(changed)} written")
    return 0


def _site_dir(settings: Settings, given: Path | None) -> Path:
    """`--site-dir`, or mkdocs.yml's `site_dir` (default `site`): a folder inside the project, the only
    place docgen writes."""
    configured = settings.config.data.get("site_dir", "site") if settings.config is not None else "site"
    site = (Path.cwd() / given) if given is not None else settings.root / str(configured)
    if (
        not site.resolve().is_relative_to(settings.root.resolve())
        or site.resolve() == settings.root.resolve()
    ):
        raise ConfigError(
            f"the site folder {site} is not a folder inside the project; docgen writes only inside it",
            hint="build the site into a folder of the project (mkdocs.yml's site_dir, default `site`)",
        )
    return site.resolve()


def probe_command(settings: Settings, args: argparse.Namespace) -> int:
    """`docgen probe`: replay the examples against the server, write the evidence, name each failed row
    (`docgen.shell.probing`, imported only here: httpx and asyncio slow the start of every command)."""
    require_extra("probe", "docgen probe")  # before the import that would fail without it
    from docgen.shell.probing import run_probe  # noqa: PLC0415

    return run_probe(settings, args, date=_date(args.date))
