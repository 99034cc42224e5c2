"""What `mkdocs build` would run, or reach outside the project for, if it built this mkdocs.yml.

docgen reads mkdocs.yml with a safe YAML loader and never builds the site. The workflow builds it after
check, and MkDocs reads the same file with a loader that calls any Python named in a `!!python/...` tag,
runs the files under `hooks:`, imports the modules named as Markdown extensions, and renders theme
templates with Jinja outside any sandbox. A pull request can change mkdocs.yml, so check reports each of
these as a `build-runs-code` finding, and the workflow stops before the build.

Not reported: plugins and Markdown extensions that are installed packages (the pull request cannot change
what is installed in the build's environment once it runs), except the few whose purpose is to run code or
templates that the repository itself supplies (`REPOSITORY_CODE_PLUGINS`, `REPOSITORY_CODE_EXTENSIONS`).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import yaml

from docgen.core.findings import Finding, Kind
from docgen.core.settings import Settings
from docgen.core.yamlio import LoadedYaml

PYTHON_TAG = "tag:yaml.org,2002:python/"

KNOWN_CALLABLES: dict[str, frozenset[str]] = {
    "name": frozenset(
        {
            "material.extensions.emoji.twemoji",
            "material.extensions.emoji.to_svg",
            "pymdownx.emoji.twemoji",
            "pymdownx.emoji.emojione",
            "pymdownx.emoji.gemoji",
            "pymdownx.emoji.to_svg",
            "pymdownx.emoji.to_png",
            "pymdownx.emoji.to_svg_sprite",
            "pymdownx.emoji.to_png_sprite",
            "pymdownx.emoji.to_alt",
            "pymdownx.superfences.fence_code_format",
            "pymdownx.superfences.fence_div_format",
            "pymdownx.arithmatex.arithmatex_inline_format",
            "pymdownx.arithmatex.arithmatex_fenced_format",
            "pymdownx.slugs.uslugify",
            "pymdownx.slugs.uslugify_encoded",
            "markdown.extensions.toc.slugify",
            "markdown.extensions.toc.slugify_unicode",
        }
    ),
    "object/apply": frozenset({"pymdownx.slugs.slugify"}),
}
"""The Python a `!!python/name:` (or `!!python/object/apply:`) tag may name without a finding: functions that
Material and PyMdown Extensions ship to be named in mkdocs.yml (emoji indexes and generators, custom fence
formatters, slug functions). Naming one imports an installed package and hands its function to an
extension; it runs nothing the repository wrote. Any other name is reported: the loader imports its module
and, for `object/apply`, calls it while it reads the file."""

REPOSITORY_CODE_PLUGINS = frozenset(
    {"macros", "gen-files", "simple-hooks", "exec", "mkdocs-jupyter", "jupyter"}
)
"""Plugins whose purpose is to run Python or unsandboxed templates from the repository (mkdocs-macros'
`main.py` and page templates, mkdocs-gen-files' scripts, mkdocs-simple-hooks, notebook execution)."""
REPOSITORY_CODE_EXTENSIONS = frozenset({"markdown_exec"})
"""Markdown extensions that run code blocks written in the pages."""

HINT = (
    "a site build of this file would do that, and the workflow builds only after check passes: remove it, "
    "or build such a site only from reviewed commits (README.md, 'On an untrusted pull request')"
)


def build_config_findings(settings: Settings) -> Iterator[Finding]:
    """Everything in mkdocs.yml that a site build would run, or that reaches outside the project."""
    loaded = settings.config
    if loaded is None or not isinstance(loaded.data, dict):
        return
    yield from _tag_findings(loaded)
    yield from _key_findings(loaded, settings.root)
    yield from _plugin_findings(loaded)
    yield from _extension_findings(loaded, settings)


def _finding(loaded: LoadedYaml, line: int | None, subject: str, message: str) -> Finding:
    return Finding(Kind.BUILD_RUNS_CODE, loaded.file, line, subject, message, HINT)


def _tag_findings(loaded: LoadedYaml) -> Iterator[Finding]:
    """A `!!python/...` tag that names code outside `KNOWN_CALLABLES`, and every `!ENV` tag."""
    for node in _tagged_nodes(loaded):
        line = node.start_mark.line + 1
        if node.tag == "!ENV":
            message = (
                "`!ENV` copies an environment variable of the build machine into the site's configuration"
            )
            yield _finding(loaded, line, "!ENV", message)
        elif node.tag.startswith(PYTHON_TAG):
            form, _, target = node.tag.removeprefix(PYTHON_TAG).partition(":")
            if target not in KNOWN_CALLABLES.get(form, frozenset()):
                subject = f"!!python/{node.tag.removeprefix(PYTHON_TAG)}"
                yield _finding(loaded, line, subject, _tag_message(subject, form, target))


def _tag_message(subject: str, form: str, target: str) -> str:
    if form in ("name", "module"):
        return f"`{subject}` makes MkDocs' YAML loader import {target or 'a module'} while it reads the file"
    return (
        f"`{subject}` makes MkDocs' YAML loader run Python ({target or 'an object'}) while it reads the file"
    )


def _tagged_nodes(loaded: LoadedYaml) -> Iterator[yaml.Node]:
    """Every node of the document with a tag of its own, once each (an alias is the node it names)."""
    loader = loaded.loader(loaded.text)
    try:
        root = loader.get_single_node()
    finally:
        loader.dispose()
    seen: set[int] = set()
    stack = [root] if root is not None else []
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if node.tag.startswith(("!", PYTHON_TAG)):
            yield node
        if isinstance(node, yaml.SequenceNode):
            stack.extend(reversed(node.value))
        elif isinstance(node, yaml.MappingNode):
            stack.extend(part for pair in reversed(node.value) for part in reversed(pair))


def _key_findings(loaded: LoadedYaml, root: Path) -> Iterator[Finding]:
    """`hooks:`, `INHERIT:`, and a site_dir outside the project."""
    data = loaded.data
    hooks = data.get("hooks")
    for index, hook in enumerate(hooks if isinstance(hooks, list) else [hooks] if hooks else []):
        line = loaded.line_of(("hooks", index) if isinstance(hooks, list) else ("hooks",))
        yield _finding(loaded, line, f"hooks: {hook}", f"MkDocs runs the Python file {hook} during the build")
    if "INHERIT" in data:
        message = (
            f"`INHERIT: {data['INHERIT']}` makes MkDocs read another configuration, which docgen does not "
            "read and so cannot check"
        )
        yield _finding(loaded, loaded.line(("INHERIT",)), "INHERIT", message)
    site_dir = data.get("site_dir")
    if isinstance(site_dir, str) and not (root / site_dir).resolve().is_relative_to(root.resolve()):
        message = (
            f"site_dir {site_dir} is outside the project: the build empties that folder, then writes to it"
        )
        yield _finding(loaded, loaded.line(("site_dir",)), "site_dir", message)
    yield from _template_findings(loaded)


def _template_findings(loaded: LoadedYaml) -> Iterator[Finding]:
    """Templates from the repository that MkDocs renders: its Jinja has no sandbox, so they can run Python."""
    unsandboxed = "MkDocs renders them with Jinja outside any sandbox, where a template can run Python"
    theme = loaded.data.get("theme")
    if isinstance(theme, dict) and theme.get("custom_dir"):
        message = f"theme.custom_dir {theme['custom_dir']} holds templates; {unsandboxed}"
        yield _finding(loaded, loaded.line(("theme", "custom_dir")), "theme.custom_dir", message)
    if loaded.data.get("extra_templates"):
        message = f"extra_templates are templates; {unsandboxed}"
        yield _finding(loaded, loaded.line(("extra_templates",)), "extra_templates", message)


def _named_items(loaded: LoadedYaml, key: str) -> Iterator[tuple[str, Any, tuple[str | int, ...]]]:
    """The items of a `plugins:` or `markdown_extensions:` list or mapping: name, options, path."""
    value = loaded.data.get(key)
    if isinstance(value, dict):
        for name, options in value.items():
            yield str(name), options, (key, str(name))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            if isinstance(item, dict) and len(item) == 1:
                [(name, options)] = item.items()
                yield str(name), options, (key, index, str(name))
            elif isinstance(item, str):
                yield item, None, (key, index)


def _plugin_findings(loaded: LoadedYaml) -> Iterator[Finding]:
    for name, _options, path in _named_items(loaded, "plugins"):
        if name.rsplit("/", 1)[-1] in REPOSITORY_CODE_PLUGINS:
            message = f"the {name} plugin runs Python or templates from the repository during the build"
            yield _finding(loaded, loaded.line_of(path), f"plugins: {name}", message)


def _extension_findings(loaded: LoadedYaml, settings: Settings) -> Iterator[Finding]:
    for name, options, path in _named_items(loaded, "markdown_extensions"):
        line = loaded.line_of(path)
        module = name.partition(":")[0]
        if module in REPOSITORY_CODE_EXTENSIONS:
            message = f"the {name} extension runs the code blocks written in the pages during the build"
            yield _finding(loaded, line, f"markdown_extensions: {name}", message)
        elif settings.is_project_module(module):
            message = f"the extension {name} is a module of the repository, which the build would import"
            yield _finding(loaded, line, f"markdown_extensions: {name}", message)
        elif module == "pymdownx.snippets" and isinstance(options, dict):
            yield from _snippets_findings(loaded, options, path, settings.root)


def _snippets_findings(
    loaded: LoadedYaml, options: dict[str, Any], path: tuple[str | int, ...], root: Path
) -> Iterator[Finding]:
    """pymdownx.snippets includes files into pages: only from inside the project, and never from the web."""
    bases = options.get("base_path", ["."])
    for base in bases if isinstance(bases, list) else [bases]:
        if isinstance(base, str) and not (root / base).resolve().is_relative_to(root.resolve()):
            message = f"pymdownx.snippets base_path {base} lets pages include files from outside the project"
            yield _finding(loaded, loaded.line_of((*path, "base_path")), "pymdownx.snippets", message)
    if options.get("restrict_base_path") is False:
        message = "pymdownx.snippets restrict_base_path: false lets pages include any file on the machine"
        yield _finding(loaded, loaded.line_of((*path, "restrict_base_path")), "pymdownx.snippets", message)
    if options.get("url_download"):
        message = "pymdownx.snippets url_download lets pages include whatever a URL serves at build time"
        yield _finding(loaded, loaded.line_of((*path, "url_download")), "pymdownx.snippets", message)
