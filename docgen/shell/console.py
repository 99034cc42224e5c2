"""The `docgen` console script: the cyclic collector off from the first import to the exit.

`cli._collector_paused` keeps the collector off while a sub-command runs; importing docgen's modules and
their libraries before that (griffe, PyYAML, Jinja: most of a short check) allocates many objects that live
until the exit, which the collector would only scan again and again (about 2% of a check of this
repository). Only the console script does this: a program that imports `docgen.shell.cli` keeps its own
collector settings. `docgen probe`, which ends the usual way, runs its command with the collector paused
as every command does; the interpreter's own teardown still collects.
"""

from __future__ import annotations

import gc

gc.disable()

from docgen.shell.cli import run  # noqa: E402  (imported with the collector off, on purpose)

__all__ = ["run"]
