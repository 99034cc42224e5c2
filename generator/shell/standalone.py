"""The sub-commands that need no configured project: what docgen ships, printed or copied out.

`docgen schema` prints one of the JSON Schemas docgen checks its files against (they live in the package, and
nothing is written into the project's data/ folder); `docgen templates` lists the region templates the package
ships and copies one into the project's templates folder, where it overrides the packaged one.
"""

from __future__ import annotations

import argparse
import sys

from generator.core.errors import ConfigError, suggest
from generator.core.schemas import packaged
from generator.core.settings import Settings

_SUFFIX = ".schema.json"


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
