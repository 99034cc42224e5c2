"""The status and detail of an exception that is no HTTP error of the framework, turned into a response by
an exception handler that answers with the exception's own attributes (`Response(status_code=
exc.status_code, content={"detail": exc.message})`).

Such an attribute is read as the raise sets it (a keyword of that name, or the argument at that parameter
of the class's `__init__`), else from the class attributes of the raised class and its bases (`class
NotFoundError(AppError): status_code = 404; message = "Resource not found"`).
"""

from __future__ import annotations

import ast

import griffe

from generator.extract.program import Program
from generator.extract.responses import CallReader
from generator.extract.routes import ExceptionArguments, Handler


def handled_values(
    reader: CallReader,
    call: ast.Call,
    module: griffe.Module,
    path: str,
    ancestry: list[str],
    handler: Handler,
) -> tuple[int | None, str]:
    """The status and detail the raise `call` of the class at `path` gives the attributes `handler`
    answers with."""
    arguments = ExceptionArguments(
        status=_where(reader.program, ancestry, handler.status_attribute),
        detail=_where(reader.program, ancestry, handler.detail_attribute),
        status_attribute=handler.status_attribute,
        detail_attribute=handler.detail_attribute,
    )
    stated = reader.stated(call, module, path, ancestry, arguments)
    return stated.status, stated.detail


def _where(program: Program, ancestry: list[str], attribute: str | None) -> tuple[int | None, str]:
    """Where a raise passes `attribute`: its keyword, and its position when the nearest loaded `__init__`
    of the class has a parameter of that name (none at all without an attribute)."""
    if attribute is None:
        return None, ""
    for path in ancestry:
        init = program.function(f"{path}.__init__")
        if init is not None:
            names = [parameter.name for parameter in init.parameters][1:]
            return (names.index(attribute) if attribute in names else None), attribute
    return None, attribute
