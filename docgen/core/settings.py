"""The one configuration: the `docgen` plugin section of mkdocs.yml, read by the CLI and the plugin alike.

Every problem is collected before anything is reported, so a user fixes them all in one go.
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Mapping
from dataclasses import field
from pathlib import Path
from typing import Any

from docgen.core import kinds

# Re-exported: the stages name a catalog's configuration as part of the settings.
from docgen.core.catalog_config import ArgumentRef as ArgumentRef  # noqa: PLC0414
from docgen.core.catalog_config import CatalogConfig as CatalogConfig  # noqa: PLC0414
from docgen.core.errors import ConfigError, ConfigErrors
from docgen.core.plugins import PluginGroup
from docgen.core.records import record
from docgen.core.settings_checks import (
    Validator,
    python_path_folders,
    source_path,
)
from docgen.core.yamlio import LoadedYaml, load_yaml, read_yaml

TOP_KEYS = {"catalogs", "data_dir", "templates_dir", "python_path", "probe_app"}
EXAMPLES = ("required", "optional")
"""A catalog's `examples:`: whether check asks every entry for an example once one has one."""
FRAMEWORKS = PluginGroup("docgen.frameworks", "docgen.frameworks:BUILTIN")
"""The web frameworks a routes catalog can read: built in (`docgen/frameworks/`), or installed by a package
that declares one in the entry-point group (CONTRIBUTING.md: Add a web framework)."""


@record
class Settings:
    """Everything docgen needs to know about a project."""

    root: Path
    config_file: Path
    docs_dir: Path
    data_dir: Path
    templates_dir: Path
    site_url: str | None
    repo_url: str | None
    catalogs: Mapping[str, CatalogConfig]
    python_path: tuple[Path, ...] = ()
    """Folders searched for imported packages before the environment docgen runs in (a sibling package, or
    the server's own virtual environment's site-packages)."""
    config: LoadedYaml | None = field(default=None, compare=False, repr=False)
    """mkdocs.yml as read, for check's findings about what a site build of it would run."""
    probe_app: str | None = None
    """The server's application as `MODULE:ATTR` (`probe_app:`): what `docgen probe` serves by default."""

    def catalog_path(self, name: str) -> Path:
        """Where the machine-owned catalog `name` lives."""
        return self.data_dir / f"{name}.yaml"

    def fragment_path(self, name: str) -> Path:
        """Where the OpenAPI fragment of routes catalog `name` is written."""
        return self.data_dir / f"{name}.openapi.json"

    def notes_path(self, name: str) -> Path:
        """Where the editor-owned notes of catalog `name` live."""
        return self.data_dir / f"{name}.notes.yaml"

    def evidence_path(self, name: str) -> Path:
        """Where probe writes the evidence of catalog `name`."""
        return self.data_dir / f"{name}.evidence.yaml"

    def spec_paths(self, spec: str) -> tuple[Path, Path]:
        """The classification and the baseline of specification `spec`."""
        return self.data_dir / "specs" / f"{spec}.yaml", self.data_dir / "specs" / f"{spec}.baseline.yaml"

    def relative(self, path: Path) -> str:
        """`path` relative to the project root, for messages and catalogs."""
        return relative_path(path, self.root)

    def is_project_module(self, dotted: str) -> bool:
        """Whether the module `dotted` names would be found in the project's root folder (where `python -m
        mkdocs` looks first) rather than among installed packages."""
        top = dotted.partition(".")[0]
        return bool(top.isidentifier()) and (
            (self.root / f"{top}.py").is_file() or (self.root / top / "__init__.py").is_file()
        )


def relative_path(path: Path, root: Path, *, follow_links: bool = True) -> str:
    """`path` relative to `root` when it is inside it (as POSIX text), else `path` itself: the one way docgen
    names a file in a message, a catalog or a finding.

    `follow_links=False` names a link by where it stands rather than by the file it leads to; a link inside
    the project to a file outside it is named where it stands either way.
    """
    if follow_links:
        with contextlib.suppress(ValueError):
            return path.resolve().relative_to(root.resolve()).as_posix()
    try:
        return path.absolute().relative_to(root.absolute()).as_posix()
    except ValueError:
        return path.as_posix() if follow_links else relative_path(path, root)


def load_settings(config_file: Path = Path("mkdocs.yml")) -> Settings:
    """Read the docgen section of `config_file` (a mkdocs.yml)."""
    display = config_file.name
    if not config_file.is_file():
        raise ConfigError(
            "no mkdocs.yml here", file=display, hint="run docgen from the project root, or pass --config PATH"
        )
    loaded = read_yaml(config_file, display, error=ConfigError, aliases=True)
    if not isinstance(loaded.data, dict):
        raise ConfigError("expected a mapping at the top of the file", file=display, line=1)
    section, base = _plugin_section(loaded)
    root = config_file.resolve().parent
    return _build_settings(
        section,
        loaded=loaded,
        base=base,
        root=root,
        docs_dir=_docs_dir(loaded, root),
        site_url=loaded.data.get("site_url"),
        repo_url=loaded.data.get("repo_url"),
    )


def settings_from_text(text: str, root: Path, display: str = "mkdocs.yml") -> Settings:
    """The settings a mkdocs.yml with this text would give in `root`, before it is written (`docgen init`
    tries the configuration it is about to write)."""
    loaded = load_yaml(text, display, error=ConfigError, aliases=True)
    section, base = _plugin_section(loaded)
    docs = root / str(loaded.data.get("docs_dir", "docs"))
    return _build_settings(
        section, loaded=loaded, base=base, root=root, docs_dir=docs, site_url=None, repo_url=None
    )


def _docs_dir(loaded: LoadedYaml, root: Path) -> Path:
    """mkdocs.yml's `docs_dir`: inside the project (render would write outside it otherwise), and, when
    given, a folder that exists (a misspelt one would leave check nothing to compare, and call it clean)."""
    given = loaded.data.get("docs_dir", "docs")
    docs_dir = root / str(given)
    problem = None
    if not isinstance(given, str) or not given:
        problem = f"expected a folder relative to mkdocs.yml, got {given!r}"
    elif not docs_dir.resolve().is_relative_to(root):
        problem = f"{given} is outside the project; docgen reads and writes pages inside it only"
    elif "docs_dir" in loaded.data and not docs_dir.is_dir():  # the default may be missing: see read_pages
        problem = f"{given} is not a folder" if docs_dir.exists() else f"{given} does not exist"
    if problem:
        raise ConfigError(
            f"'docs_dir': {problem}",
            file=loaded.file,
            line=loaded.line_of(("docs_dir",)) if "docs_dir" in loaded.data else None,
            hint="point docs_dir at the folder of the site's pages (default: docs)",
        )
    return docs_dir


def settings_from_plugin_config(
    plugin_config: Mapping[str, Any],
    *,
    config_file: Path,
    docs_dir: Path,
    site_url: str | None = None,
    repo_url: str | None = None,
) -> Settings:
    """Build settings from the plugin options MkDocs has already parsed (for the MkDocs plugin)."""
    loaded = read_yaml(config_file, config_file.name, error=ConfigError, aliases=True)
    base: tuple[str | int, ...]
    try:
        _section, base = _plugin_section(loaded)
    except ConfigError:
        base = ("plugins", 0, "docgen")
    return _build_settings(
        dict(plugin_config),
        loaded=loaded,
        base=base,
        root=config_file.resolve().parent,
        docs_dir=docs_dir,
        site_url=site_url,
        repo_url=repo_url,
    )


def _plugin_section(loaded: LoadedYaml) -> tuple[dict[str, Any], tuple[str | int, ...]]:
    """The docgen options and their path in the file; MkDocs accepts `plugins:` as a list or a mapping."""
    plugins = loaded.data.get("plugins") or []
    if isinstance(plugins, dict) and "docgen" in plugins:
        return plugins["docgen"] or {}, ("plugins", "docgen")
    for index, item in enumerate(plugins if isinstance(plugins, list) else []):
        if item == "docgen":
            return {}, ("plugins", index, "docgen")
        if isinstance(item, dict) and "docgen" in item:
            return item["docgen"] or {}, ("plugins", index, "docgen")
    raise ConfigError(
        "the docgen plugin is not configured",
        file=loaded.file,
        line=loaded.line_of(("plugins",)),
        hint="add '- docgen:' with a 'catalogs:' mapping under 'plugins:' (see README.md)",
    )


def _build_settings(
    section: Any,
    *,
    loaded: LoadedYaml,
    base: tuple[str | int, ...],
    root: Path,
    docs_dir: Path,
    site_url: str | None,
    repo_url: str | None,
) -> Settings:
    check = Validator(loaded, base)
    if not isinstance(section, dict):
        section = {}
        check.fail(base, "expected a mapping")
    check.unknown_keys(section, TOP_KEYS, base)
    folders = _folders(section, base, check, root)
    probe_app = _probe_app(section.get("probe_app"), base, check)
    raw_catalogs = section.get("catalogs")
    catalogs: dict[str, CatalogConfig] = {}
    if not isinstance(raw_catalogs, dict) or not raw_catalogs:
        check.fail((*base, "catalogs"), "expected a mapping of catalog name to its settings")
    else:
        for name, raw in raw_catalogs.items():
            catalog = _catalog(str(name), raw, (*base, "catalogs", name), check, root)
            if catalog is not None:
                catalogs[catalog.name] = catalog
    if check.errors:
        raise ConfigErrors(check.errors) if len(check.errors) > 1 else check.errors[0]
    return Settings(
        root=root,
        config_file=root / loaded.file,
        docs_dir=docs_dir,
        data_dir=root / str(section.get("data_dir", "data")),
        templates_dir=root / str(section.get("templates_dir", "templates")),
        site_url=site_url,
        repo_url=repo_url,
        catalogs=catalogs,
        python_path=folders,
        config=loaded,
        probe_app=probe_app,
    )


def _probe_app(value: Any, base: tuple[str | int, ...], check: Validator) -> str | None:
    """`probe_app:`, the application `docgen probe` serves by default, as MODULE:ATTR."""
    if value is None or (isinstance(value, str) and _is_app_spec(value)):
        return value
    check.fail((*base, "probe_app"), f"expected MODULE:ATTR, got {value!r}", "e.g. myapp.main:app")
    return None


def _is_app_spec(spec: str) -> bool:
    module, _, attribute = spec.partition(":")
    parts = [*module.split("."), *attribute.split(".")]
    return bool(module and attribute) and all(part.isidentifier() for part in parts)


def _folders(
    section: Mapping[str, Any], base: tuple[str | int, ...], check: Validator, root: Path
) -> tuple[Path, ...]:
    """Check `data_dir` and `templates_dir`; the folders of `python_path`."""
    for key in ("data_dir", "templates_dir"):
        if key in section and not (isinstance(section[key], str) and section[key]):
            check.fail((*base, key), f"expected a folder relative to mkdocs.yml, got {section[key]!r}")
        elif key in section and not (root / section[key]).resolve().is_relative_to(root):
            hint = "keep docgen's folders inside the project"
            check.fail((*base, key), f"{section[key]} is outside the project", hint)
    return python_path_folders(section.get("python_path", []), (*base, "python_path"), check, root)


def _catalog(
    name: str, raw: Any, path: tuple[str | int, ...], check: Validator, root: Path
) -> CatalogConfig | None:
    if not isinstance(raw, dict):
        check.fail(path, "expected a mapping with at least 'kind' and 'source'")
        return None
    name_of_kind = raw.get("kind")
    if not kinds.is_known(name_of_kind):
        known = kinds.known()
        listed = [repr(known_kind) for known_kind in known]
        expected = f"{', '.join(listed[:-1])} or {listed[-1]}"
        check.fail((*path, "kind"), f"expected {expected}, got {name_of_kind!r}")
        # Still report mistyped keys (`knd:` is the likeliest reason kind is missing).
        check.unknown_keys(
            raw, {"kind", "source", "examples"}.union(*(kinds.kind_of(each).keys for each in known)), path
        )
        return None
    kind = kinds.kind_of(str(name_of_kind))
    check.unknown_keys(raw, {"kind", "source", "examples", *kind.keys}, path)
    examples = raw.get("examples")
    if examples is not None and examples not in EXAMPLES:
        check.fail((*path, "examples"), f"expected required or optional, got {examples!r}")
        examples = None
    source = raw.get("source")
    if not isinstance(source, str) or not source:
        check.fail((*path, "source"), "expected the path of a Python file or package")
        source = ""
    elif Path(source).is_absolute() or not source_path(root, source).resolve().is_relative_to(root):
        hint = "give a path relative to mkdocs.yml, inside the project"
        check.fail((*path, "source"), f"{source} is outside the project", hint)
    elif not source_path(root, source).exists():
        check.fail((*path, "source"), f"{source} does not exist", "give a path relative to mkdocs.yml")
    config = kind.configure(name, source, raw, path, check, root)
    return dataclasses.replace(config, examples=examples) if examples is not None else config
