"""`docgen init`: from a server's project folder to a first page, without writing a line by hand.

It finds the application (`init_detect`), then writes, all at once or not at all: the docgen section of
mkdocs.yml (a minimal Material site when there is none; in an existing one, the plugin block added and
nothing else changed), one page per catalog holding its regions, and a notes file whose entries start from
the code, each marked `draft: true` (check lists drafts until an editor removes the mark). It never
overwrites: any file it would write that exists already, or a mkdocs.yml that configures docgen, is a located
refusal before anything is written; so a second run changes nothing.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from docgen.core.errors import DocgenError, OutputError
from docgen.core.extras import material_note
from docgen.core.models import RoutesCatalog
from docgen.core.project import load_project
from docgen.core.settings import Settings, settings_from_text
from docgen.core.workflow_commands import inert
from docgen.core.writer import write_outputs
from docgen.extract.pipeline import extract
from docgen.shell.init_config import catalog_name, minimal_config, plugins_span, with_plugin
from docgen.shell.init_detect import (
    comment_above_raise,
    find_application,
    framework_roots,
    imported_roots,
    python_files,
)


def init_command(settings: Settings | None, args: argparse.Namespace) -> int:
    """`docgen init [--framework NAME] [--source FILE]`: write the configuration, a page and draft notes."""
    config: Path = args.config
    root = config.resolve().parent
    shown = config.name
    existing = config.read_text(encoding="utf-8") if config.is_file() else None

    def configured(framework: str, source: str) -> str:
        name = catalog_name(source)
        if existing is None:
            return minimal_config(name, framework, source)
        return with_plugin(existing, shown, name, framework, source)

    refusals: dict[str, DocgenError] = {}

    def tryer(framework: str, source: str) -> Settings | None:
        # A mistake in the configuration (an existing mkdocs.yml's docs_dir, say) is the user's to hear;
        # what extract refuses only means this module is not the application, unless the user named it.
        found = settings_from_text(configured(framework, source), root, shown)
        try:
            catalogs = extract(load_project(found, site=False), dump=False).catalogs
        except OutputError:
            raise
        except DocgenError as err:
            refusals.setdefault(framework, err)
            return None
        return (
            found if any(isinstance(c, RoutesCatalog) and c.operations for c in catalogs.values()) else None
        )

    if existing is not None:
        plugins_span(existing.splitlines(keepends=True), shown)  # a mkdocs.yml init cannot add to: refused
    try:
        framework, source, found = find_application(
            root, python_files(root), tryer, framework=args.framework, source=args.source
        )
    except DocgenError:
        refused = _refusal(root, args.source, refusals) if args.source else None
        if refused is not None:  # the module the user named: why extract refused it is what they need
            raise refused from None
        raise
    outputs = {shown: configured(framework, source), **_pages_and_notes(found)}
    taken = [path for path in outputs if path != shown and (root / path).exists()]
    if taken:
        raise OutputError(
            "the file exists already; docgen init never overwrites, and nothing was written",
            file=taken[0],
            hint="move it aside to have init write it, or finish the setup by hand (README.md)",
        )
    write_outputs(root, outputs)
    for path in outputs:
        print(inert(f"{path}: {_what(path, shown, existing is None)}"), file=sys.stderr)
    note = material_note(found)
    if note is not None:
        print(inert(note), file=sys.stderr)
    print(inert("next: docgen extract && docgen render, then mkdocs serve to see the page"), file=sys.stderr)
    return 0


def _pages_and_notes(settings: Settings) -> dict[str, str]:
    """Project-relative path -> text of the page and the notes file of each catalog."""
    catalogs = extract(load_project(settings, site=False), dump=False).catalogs
    outputs: dict[str, str] = {}
    for name, catalog in catalogs.items():
        if isinstance(catalog, RoutesCatalog):
            outputs[settings.relative(settings.docs_dir / f"{name}.md")] = _page(name)
            outputs[settings.relative(settings.notes_path(name))] = draft_notes(settings, catalog)
    return outputs


def _page(name: str) -> str:
    return (
        f"---\ntitle: Errors\ncatalog: {name}\n---\n\n# Errors\n\n"
        "Every error each route of the API can answer with, read from the application's source by docgen.\n\n"
        "<!-- docgen:begin route-errors -->\n<!-- docgen:end route-errors -->\n"
    )


def draft_notes(settings: Settings, catalog: RoutesCatalog) -> str:
    """The notes file, one draft entry per error: its cause is the comment above the raise in the code, else
    where the code raises it and as what."""
    catalog_file = settings.relative(settings.catalog_path(catalog.name))
    lines = [
        f"# Editors' prose for {catalog_file}, keyed by error id. docgen never rewrites this file.\n",
        "# `cause` says what the client did to get the error; `action` says what to do next. docgen init\n",
        "# wrote each entry from the code as a draft: rewrite it, then delete its `draft: true` (check\n",
        "# lists drafts until then).\n",
        "entries:\n",
    ]
    for error in catalog.errors:
        function = error.function.rsplit(".", 1)[-1]
        comment = comment_above_raise(settings.root / error.file, function, error.exception, error.detail)
        cause = comment or f"Raised in `{function}` as `{error.exception}`."
        lines += [f"  {error.id}:\n", "    draft: true\n", f"    cause: {json.dumps(cause)}\n"]
    return "".join(lines)


def _what(path: str, shown: str, created: bool) -> str:
    if path == shown:
        return (
            "written: a Material site with the docgen plugin" if created else "the docgen plugin block added"
        )
    if path.endswith(".notes.yaml"):
        return "written: one draft entry per error, from the code"
    return "written: the page, with its generated region"


def _refusal(root: Path, source: str, refusals: dict[str, DocgenError]) -> DocgenError | None:
    """Why extract refused the module the user named, read as the framework it imports (None: it imports
    none, or none refused it)."""
    imported = imported_roots(root / source)
    named = [name for name, (roots, _) in framework_roots().items() if roots & imported]
    return next((refusals[name] for name in named if name in refusals), None)
