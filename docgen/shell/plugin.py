"""The MkDocs plugin: the site always shows regions rendered from the current catalogs, notes and templates.

Configured in mkdocs.yml as the `docgen` plugin (the same section the CLI reads). At build time it

- re-renders every generated region of every page, so the site shows the current data even when a page was not
  re-rendered and committed; for the site, source links point at the commit being built, with line ranges;
- logs a WARNING per region whose committed text differs from what render writes now, so
  `mkdocs build --strict` fails on stale pages and says to run `docgen render`;
- fills the errors' changelog region, which committed pages hold as a placeholder, with each error's history
  from git, and adds that history to the catalog's JSON (see docgen/kinds/errors/changelog.py); outside git
  or in a shallow clone the region says the history is not available, with a warning strict mode does not
  count;
- publishes each catalog a page draws from as JSON beside the built page
  (`developers/mcp-errors/mcp-errors.json`), with only the constants the site shows and without the entries'
  guarding conditions unless the catalog publishes them; a shown constant that looks like a credential stops
  the build with a located error (see docgen/render/published.py); each JSON names by `$schema` the
  schema of published catalogs, which the site serves once at its root (`catalog-1.schema.json`);
- adds the catalog sources (backend/), data/ and templates/ to what `mkdocs serve` watches; while serving, the
  catalogs are extracted from the source in memory at each rebuild, so an edit to the server shows at the next
  reload (data/ is not written: run `docgen extract` for that).
"""

from __future__ import annotations

import gc
import logging
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mkdocs.config import base
from mkdocs.config import config_options as c
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

from docgen.core.errors import DocgenError, TemplateError
from docgen.core.evidence import probe_command, still_holds
from docgen.core.models import Catalog, ErrorsCatalog
from docgen.core.project import Project, load_project
from docgen.core.reader import read_text
from docgen.core.schemas import CATALOG_SCHEMA
from docgen.core.settings import Settings, settings_from_plugin_config
from docgen.core.settings_checks import source_path
from docgen.core.workflow_commands import inert
from docgen.examples.requests import examples_of
from docgen.render.renderer import PageResult
from docgen.shell.site_build import site_build

if TYPE_CHECKING:  # the live-reload server (http.server, watchdog) is not loaded by `mkdocs build`
    from mkdocs.livereload import LiveReloadServer

log = logging.getLogger("mkdocs.plugins.docgen")


class DocgenConfig(base.Config):  # type: ignore[no-untyped-call]
    """The docgen section of mkdocs.yml; validated in full by `docgen.core.settings`."""

    catalogs = c.Type(dict, default={})
    """Catalog name -> how to extract it (see docgen/core/settings.py)."""
    data_dir = c.Type(str, default="data")
    """Where catalogs and notes live, relative to mkdocs.yml."""
    templates_dir = c.Type(str, default="templates")
    """Where the region templates live, relative to mkdocs.yml."""
    python_path = c.Type((list, str), default=[])
    """Folders, relative to mkdocs.yml, searched for imported packages before the environment's."""
    probe_app = c.Optional(c.Type(str))
    """The server's application, MODULE:ATTR, that `docgen probe` serves by default."""


class DocgenPlugin(BasePlugin[DocgenConfig]):  # type: ignore[no-untyped-call]
    """Render generated regions at build time, flag stale pages, publish catalogs as JSON."""

    def __init__(self) -> None:
        super().__init__()
        self.settings: Settings | None = None
        self.site_pages: dict[str, str] = {}
        """Docs-relative page path -> the page text the site is built from."""
        self.serving = False
        """True under `mkdocs serve`: catalogs then come from the source, extracted in memory."""

    def on_startup(self, *, command: str, dirty: bool) -> None:
        self.serving = command == "serve"

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        options = {"catalogs": self.config.catalogs, "data_dir": self.config.data_dir}
        options["templates_dir"] = self.config.templates_dir
        options["python_path"] = self.config.python_path
        if self.config.probe_app is not None:
            options["probe_app"] = self.config.probe_app
        try:
            self.settings = settings_from_plugin_config(
                options,
                config_file=Path(config.config_file_path),
                docs_dir=Path(config.docs_dir),
                site_url=config.site_url,
                repo_url=config.repo_url,
            )
        except DocgenError as err:
            raise PluginError(inert(f"docgen: {err}")) from err
        return config

    def on_files(self, files: Files, config: MkDocsConfig) -> Files:
        settings = self._require_settings()
        try:
            pages = {file.src_uri: _read(file, settings) for file in files.documentation_pages()}
            project = load_project(settings, pages=pages)
            catalogs = project.catalogs()
            if self.serving:
                # Imported here: griffe is needed only while serving, and would slow every `mkdocs build`.
                from docgen.extract.pipeline import extract  # noqa: PLC0415

                catalogs = extract(project, dump=False).catalogs
            build = site_build(project, catalogs)
        except DocgenError as err:
            raise PluginError(inert(f"docgen: {err}")) from err
        for result in build.results:
            _warn_about(result, settings)
        shown = {name for result in build.results for name in result.catalogs}
        _warn_about_evidence(project, catalogs, shown)
        self.site_pages = build.pages
        if not self.serving:
            # What is loaded so far lives to the end of the build: kept out of the collector's full passes
            # (the objects docgen adds take the build past the threshold of one, over all of them) until
            # the build ends. Not under `mkdocs serve`, whose rebuilds replace what the last one loaded.
            gc.freeze()
        for path, text in build.published.items():
            if path == CATALOG_SCHEMA:
                _refuse_schema_page(files, config)
            if files.get_file_from_path(path) is None:
                files.append(File.generated(config, path, content=text))
        return files

    def on_post_build(self, *, config: MkDocsConfig) -> None:
        gc.unfreeze()  # a program that builds again in the same process collects as before

    def on_build_error(self, *, error: Exception) -> None:
        gc.unfreeze()

    def on_page_read_source(self, page: Page, config: MkDocsConfig) -> str | None:
        return self.site_pages.get(page.file.src_uri)

    def on_serve(
        self, server: LiveReloadServer, config: MkDocsConfig, builder: Any
    ) -> LiveReloadServer | None:
        for path in watched_paths(self._require_settings()):
            server.watch(str(path))
        return server

    def _require_settings(self) -> Settings:
        if self.settings is None:
            raise PluginError("docgen: the plugin was used before MkDocs loaded its configuration")
        return self.settings


def _refuse_schema_page(files: Files, config: MkDocsConfig) -> None:
    """The site serves the schema the published catalogs name at its root; a file of docs/ of the same name
    would be served in its place, so it stops the build."""
    if files.get_file_from_path(CATALOG_SCHEMA) is not None:
        where = f"{Path(config.docs_dir).name}/{CATALOG_SCHEMA}"
        raise PluginError(
            inert(
                f"docgen: {where}: this name is where the site publishes the schema of its catalog JSON; "
                "rename or remove the file"
            )
        )


def watched_paths(settings: Settings) -> list[Path]:
    """What `mkdocs serve` should watch besides docs/: each catalog's source tree, data/ and templates/."""
    paths = {settings.data_dir, settings.templates_dir}
    for catalog in settings.catalogs.values():
        paths.add(
            settings.root / source_path(settings.root, catalog.source).relative_to(settings.root).parts[0]
        )
    return sorted(path for path in paths if path.exists())


def _warn(message: str) -> None:
    """A warning in the build's log; no line of it can act as a GitHub workflow command."""
    log.warning(inert(message))


def _warn_about(result: PageResult, settings: Settings) -> None:
    docs = settings.relative(settings.docs_dir)
    for region in result.regions:
        where = f"{docs}/{result.page}:{region.line}"
        if region.state == "stale":
            _warn(
                f"{where}: generated region '{region.name}' is out of date with data/ and templates/; "
                "run `docgen render` (after `docgen extract` if backend/ changed) and commit the page"
            )
        elif region.state == "hand-edited":
            places = "; ".join(region.places or region.edit_in) or "the notes or the template"
            _warn(
                f"{where}: generated region '{region.name}' was edited by hand; move that text to {places} "
                "(or outside the markers), then run `docgen render --force`"
            )


def _warn_about_evidence(project: Project, catalogs: Mapping[str, Catalog], shown: set[str]) -> None:
    """A WARNING per row a page shows whose current example has no recorded answer, or whose code or status
    changed since it was recorded, so a strict build fails while a page would read "not replayed yet" or
    "not replayed since the change"."""
    for name in sorted(shown):
        catalog, notes = catalogs.get(name), project.notes.get(name)
        if not isinstance(catalog, ErrorsCatalog) or notes is None or not notes.examples():
            continue
        evidence, probe = project.evidence.get(name), probe_command(project.settings.probe_app)
        records = evidence.records() if evidence is not None else {}
        shown_file = project.settings.relative(project.settings.evidence_path(name))
        entries = {entry.id: entry for entry in catalog.entries}
        for entry_id, example in examples_of(catalog, notes).items():
            record = records.get(entry_id)
            if example.triggerable and (record is None or record.example != example.fingerprint):
                _warn(
                    f"{shown_file}: row '{entry_id}' has no recorded answer to its current example, so its "
                    f"page says it was not replayed yet; run `{probe}`, then `docgen render`"
                )
            elif record is not None and not still_holds(record, entries[entry_id]):
                _warn(
                    f"{shown_file}: row '{entry_id}' has a new code or status since its answer was "
                    "recorded, so its page says it was not replayed since the change; "
                    f"run `{probe}`, then `docgen render`"
                )


def _read(file: File, settings: Settings) -> str:
    """A page as MkDocs reads it (a byte-order mark dropped), line endings kept."""
    path = Path(file.abs_src_path or "")
    shown = settings.relative(path)
    return read_text(path, shown, error=TemplateError, encoding="utf-8-sig", newline="", within=settings.root)
