"""Modules that could not be read, and names a module does not define: what extract says about them."""

from __future__ import annotations

import re
import sys

from docgen.core.errors import SourceError
from docgen.core.records import record


class UndefinedName(SourceError):
    """A name imported from a module that was read but does not define it statically (a module
    `__getattr__` makes it when the server runs)."""


@record
class BrokenModule:
    """A module file that could not be read, and why."""

    module: str
    file: str
    line: int | None
    reason: str
    hint: str | None = None

    def error(self, needed_for: str) -> SourceError:
        """The error to raise when `needed_for` lives in this module."""
        return SourceError(
            f"{self.reason} (the module {self.module} is needed for {needed_for})",
            file=self.file,
            line=self.line,
            hint=self.hint or _hint(self.reason),
        )

    @property
    def warning(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        return f"{where}: skipped, {self.reason}; no catalog needs the module {self.module}"


def _hint(reason: str) -> str:
    if "newer Python" in reason:
        return "run docgen on a Python at least as new as the server's"
    if reason.startswith("syntax error"):
        return "fix the Python syntax"
    if reason.startswith("griffe could not read it"):
        return "report the crash to griffe with this file; docgen reads the rest of the source without it"
    return "fix the file"


def unparsable(dotted: str, shown: str, code: str, err: BaseException) -> BrokenModule:
    if not isinstance(err, SyntaxError):
        return BrokenModule(dotted, shown, None, "too deeply nested or too large to parse")
    running = f"{sys.version_info.major}.{sys.version_info.minor}"
    reason = f"syntax error: {err.msg}"
    lines = code.splitlines()
    line = lines[err.lineno - 1] if err.lineno and err.lineno <= len(lines) else ""
    if _NEWER_SYNTAX.match(line):
        reason += f" (syntax of a newer Python than {running}, which docgen runs on)"
    return BrokenModule(dotted, shown, err.lineno, reason)


_NEWER_SYNTAX = re.compile(r"\s*(type\s+\w+.*=|(async\s+)?def\s+\w+\s*\[|class\s+\w+\s*\[)")
"""A line that fails to parse and reads as Python 3.12's type statement or type parameters."""
