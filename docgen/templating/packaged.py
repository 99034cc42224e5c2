"""The region templates docgen ships, read from the installed package (`builtin/`, declared as package data).

A project renders with them as they are; a file of the same name in the project's templates folder takes the
place of one (`docgen templates copy NAME` puts a copy there to start from). Both kinds render in the same
sandbox: a packaged template is trusted no more than the project's own.
"""

from __future__ import annotations

from functools import cache
from importlib import resources

PACKAGED = "docgen:templates"
"""How messages name the folder the packaged templates come from (an error's `file` is PACKAGED/NAME): it is
inside the installed package, not the project, so a path there would mean nothing to the reader."""


@cache
def packaged_templates() -> dict[str, str]:
    """Template name -> source of every region template docgen ships (read once: they belong to docgen)."""
    folder = resources.files("docgen.templating") / "builtin"
    found = {entry.name: entry.read_text(encoding="utf-8") for entry in folder.iterdir() if entry.is_file()}
    return {name: found[name] for name in sorted(found) if name.endswith(".j2")}
