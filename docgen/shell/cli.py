"""The `docgen` command: a thin shell over the pure pipeline.

Exit codes: 0 clean, 1 drift (check) or a failed probe, 2 usage or configuration error, 3 unreadable input
(source, YAML, template) or an output that cannot be written (nothing is then changed), 4 a fault inside
docgen itself. A user error ends in a located message, never a traceback; a fault in one line naming the file
that holds its traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import os
import sys
import tempfile
import traceback
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import NoReturn

from docgen import __version__
from docgen.core.errors import DocgenError
from docgen.core.settings import load_settings
from docgen.shell.help_texts import (
    CHECK_EXAMPLES,
    DESCRIPTION,
    ENVIRONMENT,
    PROBE_DESCRIPTION,
    PROBE_EXAMPLES,
)
from docgen.shell.parsers import Command, add_init, add_schema, add_templates, lazy

_lazy = lazy


def _add_extract(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    extract = commands.add_parser(
        "extract",
        help="read the backend source into the catalogs in data/",
        description="Read the configured source with griffe (statically) and rewrite data/<catalog>.yaml. "
        "Editors' notes files are never written; entries without notes, and notes without an entry, "
        "are listed.",
    )
    extract.set_defaults(handler=_lazy("extract_command"))


def _add_render(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    render = commands.add_parser(
        "render",
        help="rewrite the generated regions of the pages in docs/",
        description="Render every generated region from data/ and templates/. Text outside the regions is "
        "never touched; a region edited by hand is reported and left alone unless --force is given.",
    )
    render.add_argument("--force", action="store_true", help="overwrite regions that were edited by hand")
    render.set_defaults(handler=_lazy("render_command"))


def _add_check(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    check = commands.add_parser(
        "check",
        help="fail when the docs no longer match the code (writes nothing)",
        description="Extract and render in memory, compare with data/ and docs/, and report every "
        "difference. Exit 0 when clean, 1 on drift, 2 on a configuration error, 3 on unreadable input.",
    )
    check.formatter_class = argparse.RawDescriptionHelpFormatter
    check.epilog = CHECK_EXAMPLES
    check.add_argument(
        "--format",
        choices=("text", "github", "json"),
        default="text",
        help="text (grouped, with diffs, ending with what is left to do; default), github (one ::error "
        "annotation per line at fault, at most 10, with --base only on lines changed since REF, then the "
        "text report inside ::stop-commands::; the Markdown report is appended to $GITHUB_STEP_SUMMARY when "
        "set) or json (a summary and every finding; see check-report.schema.json)",
    )
    check.add_argument(
        "--base",
        metavar="REF",
        help="also report contract changes (an error's code or status changed, or it vanished) since REF, "
        "a branch, tag or commit that git resolves (an empty ref or one starting with '-' is refused)",
    )
    check.set_defaults(handler=_lazy("check_command"))


def _add_verify(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    verify = commands.add_parser(
        "verify",
        help="stamp a page as re-read: today's date and a fingerprint of its cited source",
        description="Write 'last_verified' and the fingerprints of the symbols the page cites into its front "
        "matter. check reports the page stale as soon as one of those symbols changes. A page that still has "
        "findings (a stale or hand-edited region, drift in a catalog it shows) is not stamped: exit 1, "
        "naming them.",
    )
    verify.add_argument(
        "pages", nargs="+", type=Path, help="pages to stamp, e.g. docs/developers/mcp-errors.md"
    )
    verify.add_argument("--date", help="the date to stamp (YYYY-MM-DD; default: today)")
    verify.add_argument(
        "--force", action="store_true", help="stamp even a page with open findings (they are still listed)"
    )
    verify.set_defaults(handler=_lazy("verify_command"))


def _add_probe(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    probe = commands.add_parser(
        "probe",
        help="replay each error's example against the server and record the answers as evidence",
        description=PROBE_DESCRIPTION,
        epilog=PROBE_EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    target = probe.add_mutually_exclusive_group()
    target.add_argument(
        "--app",
        metavar="MODULE:ATTR",
        help="probe this ASGI or WSGI app (default: the configuration's probe_app)",
    )
    target.add_argument(
        "--url", metavar="URL", help="probe a running server (its MCP endpoint, or an HTTP API's root)"
    )
    probe.add_argument(
        "--catalog", metavar="NAME", help="probe one catalog (default: every errors catalog with examples)"
    )
    probe.add_argument("--date", help="the date to record (YYYY-MM-DD; default: today)")
    probe.add_argument(
        "--skip-client",
        action="append",
        choices=("python", "typescript"),
        metavar="NAME",
        help="do not run this official client (python or typescript; repeatable): keep what it recorded "
        "before, with its date",
    )
    probe.add_argument(
        "--no-clients",
        action="store_true",
        help="replay over HTTP only, running no official client (as --skip-client for each)",
    )
    probe.add_argument(
        "--timeout", type=float, default=10.0, metavar="SECONDS", help="per request (default: %(default)s)"
    )
    probe.set_defaults(handler=_lazy("probe_command"))


def _add_publish(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    publish = commands.add_parser(
        "publish",
        help="add the catalogs' JSON and the errors' changelog to a site built without the MkDocs plugin "
        "(Zensical)",
        description="Write into a built site what the docgen MkDocs plugin adds to it: each catalog a page "
        "draws on as JSON, the schema those files name, and the errors' changelog from git in place of the "
        "placeholder the built pages (and the search index) hold. Needed only when the site engine runs no "
        "MkDocs plugin (Zensical); `mkdocs build` and `properdocs build` do the same themselves. Build the "
        "site first.",
        epilog="example:\n  zensical build && docgen publish && docgen check",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    publish.add_argument(
        "--site-dir",
        type=Path,
        metavar="DIR",
        help="the built site (default: site_dir of mkdocs.yml, else site/); it must be inside the project",
    )
    publish.set_defaults(handler=_lazy("publish_command"))


SUBCOMMANDS = (
    add_init,
    _add_extract,
    _add_render,
    _add_check,
    _add_verify,
    _add_probe,
    _add_publish,
    add_schema,
    add_templates,
)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser, with one sub-command per pipeline stage."""
    parser = argparse.ArgumentParser(
        prog="docgen",
        description=DESCRIPTION,
        epilog=ENVIRONMENT,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"docgen {__version__}")
    parser.add_argument(
        "-f",
        "--config",
        type=Path,
        default=Path("mkdocs.yml"),
        help="the mkdocs.yml to read (default: %(default)s)",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for add in SUBCOMMANDS:
        add(commands)
    return parser


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """No cyclic garbage collection while a sub-command runs.

    A run is short and keeps nearly everything it allocates (the source model, the catalogs, the pages), so
    the collector would only scan that growing heap again and again: a quarter of the run on a large backend.
    Reference counting still frees the rest as usual.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def main(argv: Sequence[str] | None = None) -> int:
    """Run docgen with `argv` (default: the process arguments); return the exit code."""
    return _dispatch(argv)[0]


def _dispatch(argv: Sequence[str] | None) -> tuple[int, str | None]:
    """The exit code of the run, and the sub-command it ran (None when the arguments named none)."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as done:
        # --help (0) or a usage error (2): argparse has already printed what to say.
        return int(done.code or 0), None
    return _run_command(args), args.command


def _run_command(args: argparse.Namespace) -> int:
    try:
        handler: Command = args.handler
        # A standalone command (schema, init, templates) works before the project has a docgen section.
        settings = None if getattr(args, "standalone", False) else load_settings(args.config)
        with _collector_paused():
            return handler(settings, args)
    except DocgenError as error:
        _tell(f"docgen {args.command}: error: {error}")
        return error.exit_code
    except (RecursionError, MemoryError) as error:  # the last line of defence behind the limits
        print(
            f"docgen {args.command}: error: an input is too large or too deeply nested to process "
            f"({type(error).__name__}); no limit caught it first, which is a bug in docgen: please report it",
            file=sys.stderr,
        )
        return 3
    except KeyboardInterrupt:
        return 130
    except Exception as error:  # a bug in docgen: one line here, the traceback in a file
        _tell(f"docgen {args.command}: {fault_report(error)}")
        return 4


def _tell(message: str) -> None:
    """Print an error on standard error, with no line of it able to act as a GitHub workflow command."""
    # Imported here, on an error only, so that --help stays fast.
    from docgen.core.workflow_commands import inert

    print(inert(message), file=sys.stderr)


def fault_report(error: Exception) -> str:
    """One line about an unexpected exception, naming the file its traceback was written to."""
    what = " ".join(f"{type(error).__name__}: {error}".split())[:200]
    details = "".join(traceback.format_exception(error))
    try:
        handle, name = tempfile.mkstemp(prefix="docgen-fault-", suffix=".txt")
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            file.write(details)
    except OSError as err:
        return f"internal error ({what}); the details could not be written ({err.strerror}); please report it"
    return f"internal error ({what}), a bug in docgen; details in {name}; please report it with that file"


SLOW_EXIT = frozenset({"probe"})
"""Commands that end the usual way: probe runs the server's own code, whose exit hooks may matter."""


def run() -> NoReturn:
    """The `docgen` console command: `main` on the process arguments, then exit.

    A run is over once its report is flushed and its files are written and closed (the writer replaces each
    file before it returns), so the process ends there, without the interpreter's teardown: freeing every
    object of a loaded project one by one costs a short check about a tenth of its time, and a large
    project more. `docgen probe` runs the server's code in process and ends the usual way.
    """
    code, command = _dispatch(None)
    if command not in SLOW_EXIT:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except OSError:  # a closed pipe (`docgen check | head`): what could be said is said
            code = code or 1
        os._exit(code)
    sys.exit(code)


if __name__ == "__main__":  # pragma: no cover
    run()
