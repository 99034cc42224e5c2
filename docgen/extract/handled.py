"""The status and detail of an application's own exception, as the exception handler that answers it reads
them off the exception (`JSONResponse(status_code=exc.status_code, content={"message": exc.message})`).

Applications commonly give each domain error its status and default message as class attributes
(`class NotFoundError(AppException): status_code = 404; message = "Resource not found"`) and let the
constructor override the message (`raise NotFoundError(message="No avatar set")`). An attribute the handler
reads is therefore the argument the raise passes under that name (by keyword, or at the position of the
`__init__` parameter of that name), else the value its class, or the nearest base, assigns in its body.
"""

from __future__ import annotations

import ast

import griffe

from docgen.extract.http_classes import HttpClasses
from docgen.extract.http_values import detail_text, status_number
from docgen.extract.program import Program
from docgen.extract.routes import Framework, Handler


def handled_values(
    classes: HttpClasses,
    framework: Framework,
    call: ast.Call,
    module: griffe.Module,
    ancestry: list[str],
    handler: Handler,
) -> tuple[int | None, str | None]:
    """The status and the detail of the exception `call` raises as `handler` answers them: None where the
    handler does not read that one off the exception, or its value cannot be told statically."""
    program = classes.program
    status = detail = None
    if handler.status_attribute is not None:
        node = _passed(program, call, ancestry, handler.status_attribute)
        if node is not None:
            status = status_number(node, module, program, framework.resolver, framework.constant_status)
        else:
            found = classes.attribute(ancestry, handler.status_attribute)
            status = found if isinstance(found, int) and not isinstance(found, bool) else None
    if handler.detail_attribute is not None:
        node = _passed(program, call, ancestry, handler.detail_attribute)
        found = classes.attribute(ancestry, handler.detail_attribute) if node is None else None
        if node is not None:
            detail = detail_text(node, module, framework.resolver, "")
        elif isinstance(found, str):
            detail = found
    return status, detail


def _passed(program: Program, call: ast.Call, ancestry: list[str], name: str) -> ast.expr | None:
    """The argument `call` passes for the `__init__` parameter `name` (of the nearest class of `ancestry`
    in the loaded source that defines `__init__`), by keyword or position; None when it passes none."""
    given = next((k.value for k in call.keywords if k.arg == name), None)
    if given is not None:
        return given
    for path in ancestry:
        init = program.function(f"{path}.__init__")
        if init is not None:
            parameters = [p.name for p in init.parameters][1:]
            position = parameters.index(name) if name in parameters else None
            return call.args[position] if position is not None and position < len(call.args) else None
    return None
