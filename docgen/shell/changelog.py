"""The errors catalogs' histories from git, for the site build (see docgen/kinds/errors/changelog.py).

The MkDocs plugin reads them once per build. A site built where there is no history to read (a folder that
is not a git repository, or a shallow clone, whose first commit would show every error as just added) says
so on the page and in a warning. That warning goes to a logger of its own, outside `mkdocs`, so that
`mkdocs build --strict` prints it but does not fail for it: where the site is built is the builder's choice,
not a fault in the documentation. The same holds for a committed version of a catalog that no longer parses:
no later commit can repair it, so it is named, and its changes are listed at the next version that parses.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Mapping

from docgen.core.changes import History, entry_history
from docgen.core.git_history import file_versions
from docgen.core.git_ref import run_git
from docgen.core.models import Catalog, ErrorsCatalog
from docgen.core.settings import Settings
from docgen.core.workflow_commands import inert


class _Stderr(logging.Handler):
    """Writes each record to the standard error of the moment (a handler made at import would keep the
    stream it saw then, which a test runner may have closed since)."""

    def emit(self, record: logging.LogRecord) -> None:
        sys.stderr.write(self.format(record) + "\n")


log = logging.getLogger("docgen.changelog")
"""Not under `mkdocs`: strict mode counts only the warnings of that logger and its children."""
if not log.handlers:
    _handler = _Stderr()
    _handler.setFormatter(logging.Formatter("WARNING -  %(message)s"))
    log.addHandler(_handler)
    log.propagate = False


def histories(settings: Settings, catalogs: Mapping[str, Catalog]) -> dict[str, History | None]:
    """Each errors catalog's history along HEAD's first parents, or None where there is none to read."""
    found: dict[str, History | None] = {}
    shallow = _shallow(settings)
    for name, catalog in catalogs.items():
        if not isinstance(catalog, ErrorsCatalog):
            continue
        relative = settings.relative(settings.catalog_path(name))
        versions = None if shallow else file_versions(settings.root, relative)
        if not versions:
            why = "a shallow clone" if shallow else "no committed version of it in a git repository"
            _warn(
                f"{relative}: the errors' changelog is not available in this build ({why}); the page says "
                "so. Build from a full clone (in CI, fetch the whole history) to publish it"
            )
            found[name] = None
            continue
        history = entry_history(versions, relative)
        for commit, reason in history.unreadable:
            _warn(
                f"{relative}: its version at commit {commit[:12]} could not be read ({reason}); the "
                "changelog lists that commit's changes at the next version that reads"
            )
        found[name] = history
    return found


def _shallow(settings: Settings) -> bool:
    done = run_git(settings.root, "rev-parse", "--is-shallow-repository")
    return done.returncode == 0 and done.stdout.strip() == b"true"


def _warn(message: str) -> None:
    log.warning(inert(f"docgen: {message}"))
