"""The docgen section `docgen init` writes into mkdocs.yml: a whole minimal file, or one item added to the
`plugins:` list of an existing file, as text, so that every other line (comments, tags, order) stays exactly
as it was."""

from __future__ import annotations

import json
import re

from docgen.core.errors import ConfigError

_PLAIN = re.compile(r"[A-Za-z0-9_./-]+")
_PLUGINS = re.compile(r"^plugins\s*:(.*)$")
_ITEM = re.compile(r"^(\s+)-\s*")
_DOCGEN_ITEM = re.compile(r"^\s+-\s*docgen\s*:?\s*(#.*)?$")


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
    located refusal where init cannot add it (`plugins_span`)."""
    lines = text.splitlines(keepends=True)
    span = plugins_span(lines, shown)
    if span is None:
        ending = "" if text.endswith("\n") or not text else "\n"
        return f"{text}{ending}plugins:\n  - search\n" + plugin_block("  ", name, framework, source)
    start, end = span
    items = [_ITEM.match(line) for line in lines[start + 1 : end]]
    indent = next((match.group(1) for match in items if match), "  ")
    before = "".join(lines[:end])
    before += "" if before.endswith("\n") else "\n"
    return before + plugin_block(indent, name, framework, source) + "".join(lines[end:])


def plugins_span(lines: list[str], shown: str) -> tuple[int, int] | None:
    """(index of the `plugins:` line, index after its last item) of a mkdocs.yml's lines; None without
    one. A ConfigError at its line where docgen is configured already, or where `plugins:` is not a list of
    one item a line (written inline, or as a mapping), which init does not rewrite."""
    start = next((i for i, line in enumerate(lines) if _PLUGINS.match(line)), None)
    if start is None:
        return None
    inline = _PLUGINS.match(lines[start])
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
    body = [line for line in lines[start + 1 : end] if line.strip() and not line.lstrip().startswith("#")]
    if (inline is not None and inline.group(1).split("#")[0].strip()) or not _is_list(body):
        raise ConfigError(
            "'plugins:' is not a list of one plugin a line; docgen init adds its item only to such a list",
            file=shown,
            line=start + 1,
            hint="write the plugins one a line (`  - search`), then run docgen init again",
        )
    return start, end


def _is_list(body: list[str]) -> bool:
    """Whether the lines under `plugins:` (comments and blank lines left out) are a list of one item a
    line: each an item at the first one's indent, or deeper (an item's options)."""
    if not body:
        return True
    first = _ITEM.match(body[0])
    if first is None:
        return False
    indent = first.group(1)
    return all(
        line.startswith(indent) and (_ITEM.match(line) is not None or line[len(indent)] in " \t")
        for line in body
    )
