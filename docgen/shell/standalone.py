"""The sub-commands that need no configured project: what docgen ships, printed or copied out.

`docgen schema` prints one of the JSON Schemas docgen checks its files against (they live in the package, and
nothing is written into the project's data/ folder); `docgen templates` lists the region templates the package
ships and copies one into the project's templates folder, where it overrides the packaged one.
"""

from __future__ import annotations

import argparse
import sys

from docgen.core.errors import ConfigError, OutputError, suggest
from docgen.core.schemas import packaged
from docgen.core.settings import Settings
from docgen.core.writer import write_outputs
from docgen.templating.packaged import packaged_templates

_SUFFIX = ".schema.json"
_TEMPLATE = ".md.j2"


def schema_command(settings: Settings | None, args: argparse.Namespace) -> int:
    """`docgen schema [NAME]`: the schema's text on standard output, or the names there are."""
    names = [name.removesuffix(_SUFFIX) for name in packaged()]
    if args.name is None:
        print("\n".join(names))
        return 0
    if args.name.removesuffix(_SUFFIX) not in names:
        raise ConfigError(
            f"docgen ships no schema named {args.name!r}",
            hint=suggest(args.name, names) or f"the schemas: {', '.join(names)}",
        )
    sys.stdout.write(packaged()[args.name.removesuffix(_SUFFIX) + _SUFFIX])
    return 0


def templates_command(settings: Settings | None, args: argparse.Namespace) -> int:
    """`docgen templates [copy NAME...]`: list the packaged templates, or copy some into the project's
    templates folder (never over a file there)."""
    packaged = packaged_templates()
    if args.action is None:
        print("\n".join(name.removesuffix(_TEMPLATE) for name in packaged))
        return 0
    assert settings is not None  # `copy` is not standalone: it writes where mkdocs.yml says
    folder = settings.relative(settings.templates_dir)
    wanted = [_template_name(name, packaged) for name in args.names]
    taken = [name for name in wanted if (settings.templates_dir / name).exists()]
    if taken:
        raise OutputError(
            "the template already exists here; docgen never overwrites a project's template",
            file=f"{folder}/{taken[0]}",
            hint="rename or delete it first to start again from the packaged one; nothing was copied",
        )
    write_outputs(settings.root, {f"{folder}/{name}": packaged[name] for name in wanted})
    for name in wanted:
        print(f"{folder}/{name}: copied; it replaces the packaged template (edit it, then `docgen render`)")
    return 0


def _template_name(name: str, packaged: dict[str, str]) -> str:
    """The packaged template a NAME (`error-table` or `error-table.md.j2`) means; an error for none."""
    full = name if name.endswith(".j2") else f"{name}{_TEMPLATE}"
    if full not in packaged:
        known = [each.removesuffix(_TEMPLATE) for each in packaged]
        raise ConfigError(
            f"docgen ships no template named {name!r}",
            hint=suggest(name.removesuffix(_TEMPLATE), known) or f"the templates: {', '.join(known)}",
        )
    return full
