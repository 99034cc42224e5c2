"""The arguments of the sub-commands that need no configured project (init, schema, templates), and the lazy
handler every sub-command runs through, apart from `cli` to keep each module short."""

from __future__ import annotations

import argparse
import importlib
from collections.abc import Callable

from docgen.core.settings import Settings

Command = Callable[[Settings | None, argparse.Namespace], int]
"""A sub-command's handler: the project's settings (None for a standalone command) and the arguments."""


def lazy(name: str, module: str = "commands") -> Command:
    """A handler that imports its module of `docgen.shell` only when its command runs, so --help stays
    fast."""

    def run(settings: Settings | None, args: argparse.Namespace) -> int:
        handler: Command = getattr(importlib.import_module(f"docgen.shell.{module}"), name)
        return handler(settings, args)

    return run


def add_schema(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    schema = commands.add_parser(
        "schema",
        help="print the JSON Schema of one kind of docgen file (for an editor's YAML language server)",
        description="Print the JSON Schema docgen checks a file of this kind against, as the installed "
        "package ships it; without a name, list the names. docgen reads its schemas from the package and "
        "writes none into the project.",
    )
    schema.add_argument("name", nargs="?", help="e.g. errors-notes (the notes file of an errors catalog)")
    schema.set_defaults(handler=lazy("schema_command", "standalone"), standalone=True)


def add_templates(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    templates = commands.add_parser(
        "templates",
        help="list the region templates docgen ships, or copy one into templates/ to customise it",
        description="Without an action, list the region templates the installed docgen renders with. "
        "`copy NAME...` writes each into the project's templates folder (templates_dir), where a file of "
        "the same name replaces the packaged one; an existing file is never overwritten.",
    )
    actions = templates.add_subparsers(dest="action", metavar="ACTION")
    copy = actions.add_parser("copy", help="copy packaged templates into the project to customise them")
    copy.add_argument("names", nargs="+", metavar="NAME", help="e.g. error-table (see `docgen templates`)")
    templates.set_defaults(handler=lazy("templates_command", "standalone"), standalone=True)
    copy.set_defaults(standalone=False)


def add_init(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    init = commands.add_parser(
        "init",
        help="set up docgen in a server's project folder: mkdocs.yml, a page and draft notes",
        description="Find the web framework the server imports and the module that builds its application, "
        "then write the docgen section of mkdocs.yml (a minimal Material site when there is none), one page "
        "per catalog with its region, and a notes file of drafts from the code. Nothing is overwritten: an "
        "existing file, or a mkdocs.yml that configures docgen already, is refused and nothing is written.",
    )
    init.add_argument("--framework", metavar="NAME", help="the framework (default: found from the imports)")
    init.add_argument("--source", metavar="FILE", help="the module that builds the application")
    init.set_defaults(handler=lazy("init_command", "init"), standalone=True)
