"""What an errors catalog's `framework:` adds to its configuration, read through the same `Framework` a routes
catalog reads an application with.

- Constructors without being listed: the framework's HTTP exceptions and raising calls (`HTTPException`,
  `abort`), each with the argument map its `ExceptionArguments` give, and every exception class an exception
  handler of the package is registered for (its message as the first argument). A listed constructor of the
  same name keeps its own map.
- Values a call leaves out: a missing status is the raised class's attribute (`status_attribute`, read up its
  ancestry, an installed framework's classes included), and so is a missing code (`code_attribute`: REST
  framework's `default_code`); a missing message is its `detail_attribute`, else
  the framework's default for that class and status (`default_detail`); never a text docgen makes up. A
  class that is no HTTP error of the framework gets an empty message.
- What a registered exception handler answers: its status, and its detail when it writes one, for every
  exception it catches (the handler of the nearest class in the raised class's ancestry).
"""

from __future__ import annotations

from collections.abc import Mapping

import griffe

from docgen.core.settings import ArgumentRef
from docgen.extract.binding import Constructor
from docgen.extract.http_classes import HttpClasses
from docgen.extract.program import Program
from docgen.extract.resolve import Resolver
from docgen.extract.routes import ExceptionArguments, Framework, Handler


class FrameworkErrors:
    """One errors catalog's framework: its constructors, the values a call leaves out, its handlers."""

    def __init__(self, framework: Framework, program: Program, resolver: Resolver) -> None:
        self.framework = framework
        self.classes = HttpClasses(program, resolver)
        self.handlers = framework.handlers(program)
        self.made: Mapping[str, ExceptionArguments] = {
            **framework.http_exceptions,
            **getattr(framework, "raising_calls", {}),
        }

    def constructors(self) -> dict[str, dict[str, ArgumentRef]]:
        """Dotted path -> argument map of each constructor the framework gives."""
        found = {path: _argument_map(arguments) for path, arguments in self.made.items()}
        for path, handler in self.handlers.items():
            if handler.status is not None:  # a handler of the framework's own HTTP errors keeps their status
                found.setdefault(path, {"message": 0})
        return found

    def status(self, constructor: Constructor) -> int | None:
        """The status a call of `constructor` that passes none gets from a class attribute, or None."""
        ancestry, arguments = self._of(constructor)
        if arguments is None or arguments.status_attribute is None:
            return None
        value = self.classes.attribute(ancestry, arguments.status_attribute)
        return value if isinstance(value, int) and not isinstance(value, bool) else None

    def code(self, constructor: Constructor) -> int | str | None:
        """The code a call of `constructor` that passes none gets from a class attribute, or None."""
        ancestry, arguments = self._of(constructor)
        if arguments is None or arguments.code_attribute is None:
            return None
        value = self.classes.attribute(ancestry, arguments.code_attribute)
        return value if isinstance(value, int | str) and not isinstance(value, bool) else None

    def message(self, constructor: Constructor, status: int | None) -> str:
        """The message a call of `constructor` that passes none gets: the class attribute, else the
        framework's default for an HTTP error of it, else none (an empty message)."""
        ancestry, arguments = self._of(constructor)
        if arguments is None:
            return ""
        if arguments.detail_attribute is not None:
            value = self.classes.attribute(ancestry, arguments.detail_attribute)
            if isinstance(value, str):
                return value
        # The raised class itself (a subclass may have a default of its own), or the function as listed.
        made_by = constructor.obj.path if isinstance(constructor.obj, griffe.Class) else ancestry[0]
        return self.framework.default_detail(made_by, status)

    def handler(self, constructor: Constructor) -> Handler | None:
        """The exception handler registered for the nearest class of `constructor`'s ancestry, if any."""
        ancestry, _ = self._of(constructor)
        return next((self.handlers[path] for path in ancestry if path in self.handlers), None)

    def _of(self, constructor: Constructor) -> tuple[list[str], ExceptionArguments | None]:
        """The dotted paths `constructor` answers to (configured path, then its class's ancestry), and the
        framework's arguments of the first one the framework knows."""
        ancestry = [constructor.configured, *self.classes.ancestry(constructor.obj.path)]
        return ancestry, next((self.made[path] for path in ancestry if path in self.made), None)


def _argument_map(arguments: ExceptionArguments) -> dict[str, ArgumentRef]:
    """The status and the message as an errors catalog maps them: by position when the framework gives one
    (a keyword is then also found, as Python binds it), else by keyword."""
    found: dict[str, ArgumentRef] = {}
    roles = [("status", arguments.status), ("message", arguments.detail)]
    roles += [("code", arguments.code)] if arguments.code is not None else []
    for role, (position, keyword) in roles:
        found[role] = position if position is not None else keyword
    return found
