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
import re
import sys
from pathlib import Path

from generator.core.errors import ConfigError, DocgenError, OutputError
from generator.core.models import RoutesCatalog
from generator.core.project import load_project
from generator.core.settings import Settings, settings_from_text
from generator.core.workflow_commands import inert
from generator.core.writer import write_outputs
from generator.extract.pipeline import extract
from generator.shell.init_detect import find_application, python_files

_PLAIN = re.compile(r"[A-Za-z0-9_./-]+")
_PLUGINS = re.compile(r"^plugins\s*:(.*)$")
_ITEM = re.compile(r"^(\s+)-\s*")
_DOCGEN_ITEM = re.compile(r"^\s+-\s*docgen\s*:?\s*(#.*)?$")


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

    def tryer(framework: str, source: str) -> Settings | None:
        try:
            found = settings_from_text(configured(framework, source), root, shown)
            catalogs = extract(load_project(found, site=False), dump=False).catalogs
        except OutputError:
            raise
        except DocgenError:
            return None
        return (
            found if any(isinstance(c, RoutesCatalog) and c.operations for c in catalogs.values()) else None
        )

    if existing is not None:
        with_plugin(existing, shown, "", "", "")  # a mkdocs.yml init cannot add to is refused first
    framework, source, found = find_application(
        root, python_files(root), tryer, framework=args.framework, source=args.source
    )
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
    print(inert("next: docgen extract && docgen render, then mkdocs serve to see the page"), file=sys.stderr)
    return 0


def catalog_name(source: str) -> str:
    """The routes catalog's name: the server's top package (or module) and `-routes`."""
    top = source.split("/", maxsplit=1)[0].removesuffix(".py")
    return f"{re.sub(r'[^a-z0-9]+', '-', top.lower()).strip('-') or 'server'}-routes"


def _scalar(value: str) -> str:
    return value if _PLAIN.fullmatch(value) else json.dumps(value)


def plugin_block(indent: str, name: str, framework: str, source: str) -> str:
    """The docgen item of `plugins:`, its dash at `indent`."""
    inner = indent + "    "
    return (
        f"{indent}- docgen:\n{inner}catalogs:\n{inner}  {name}:\n{inner}    kind: routes\n"
        f"{inner}    source: {_scalar(source)}\n{inner}    framework: {framework}\n"
    )


def minimal_config(name: str, framework: str, source: str) -> str:
    """A mkdocs.yml for a project that has none: Material, the Markdown extensions the tables need."""
    site = name.removesuffix("-routes").replace("-", " ").title()
    return (
        f"site_name: {json.dumps(site + ' API')}\n"
        "theme:\n  name: material\n"
        "markdown_extensions:\n  - attr_list\n  - md_in_html\n  - tables\n"
        "plugins:\n  - search\n" + plugin_block("  ", name, framework, source)
    )


def with_plugin(text: str, shown: str, name: str, framework: str, source: str) -> str:
    """`text` (a mkdocs.yml) with the docgen item added to `plugins:`, every other line as it was; a
    located refusal when docgen is configured already or `plugins:` is not a block list."""
    lines = text.splitlines(keepends=True)
    start = next((i for i, line in enumerate(lines) if _PLUGINS.match(line)), None)
    if start is None:
        ending = "" if text.endswith("\n") or not text else "\n"
        return f"{text}{ending}plugins:\n  - search\n" + plugin_block("  ", name, framework, source)
    inline = _PLUGINS.match(lines[start])
    if inline is not None and inline.group(1).split("#")[0].strip():
        raise ConfigError(
            "'plugins:' is written on one line; docgen init adds its block only to a list of one item a line",
            file=shown,
            line=start + 1,
            hint="write the plugins one a line (`  - search`), then run docgen init again",
        )
    end = start + 1
    while end < len(lines) and (not lines[end].strip() or lines[end][0] in " \t#"):
        if _DOCGEN_ITEM.match(lines[end]):
            raise ConfigError(
                "docgen is configured here already; docgen init changed nothing",
                file=shown,
                line=end + 1,
                hint="run `docgen extract && docgen render`; add a catalog under 'catalogs:' by hand",
            )
        end += 1
    while end > start + 1 and not lines[end - 1].strip():
        end -= 1
    items = [_ITEM.match(line) for line in lines[start + 1 : end]]
    indent = next((match.group(1) for match in items if match), "  ")
    before = "".join(lines[:end])
    before += "" if before.endswith("\n") else "\n"
    return before + plugin_block(indent, name, framework, source) + "".join(lines[end:])


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
    """The notes file, one draft entry per error: its cause says where the code raises it and as what."""
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
        cause = f"Raised in `{function}` as `{error.exception}`."
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
