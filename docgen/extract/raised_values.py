"""What a raised HTTP exception states: its status and detail as the raise passes them, through the
`__init__` of a subclass that forwards them to the framework's class (`super().__init__(404, ...)`), a
parameter of that `__init__` taken from the raise, a dict it builds as the detail, and the class attributes
for what it forwards none of."""

from __future__ import annotations

import ast

import griffe

from docgen.core.route_models import TEXT_BODY
from docgen.extract.bound_calls import own_nodes
from docgen.extract.built_details import built_detail
from docgen.extract.calls import FunctionNode
from docgen.extract.http_classes import HttpClasses
from docgen.extract.http_values import detail_text, status_number
from docgen.extract.program import Program
from docgen.extract.responses import CallReader, argument
from docgen.extract.routes import ExceptionArguments, Framework


class RaisedValues:
    """Reads what raises state, for one program and framework."""

    def __init__(
        self, program: Program, framework: Framework, classes: HttpClasses, calls: CallReader
    ) -> None:
        self.program = program
        self.framework = framework
        self.classes = classes
        self.calls = calls
        self.resolver = framework.resolver

    def stated(
        self, call: ast.Call, module: griffe.Module, path: str, ancestry: list[str], base: str | None
    ) -> tuple[int | None, str, str | None]:
        """The status and detail the raise itself states, through the `__init__` of a subclass, and the key
        of a JSON body it sends as its whole body (`text=json.dumps({"error": ...})` where the framework's
        body is the detail as plain text; None: the framework's key)."""
        if base is None:
            message = call.args[0] if call.args else _keyword(call, "message")
            return None, detail_text(message, module, self.resolver, "") if message else "", None
        arguments = self.framework.http_exceptions[base]
        for own in ancestry[: ancestry.index(base)]:
            init = self.program.function(f"{own}.__init__")
            forwarded = _super_call(self.program.node(init)) if init is not None else None
            if init is not None and forwarded is not None:
                return (*self._through(init, forwarded, call, module, path, arguments), None)
        stated = self.calls.stated(call, module, path, ancestry, arguments)
        whole = self.framework.body_key == TEXT_BODY  # otherwise the framework wraps the detail in its body
        return stated.status, stated.detail, stated.body_key if whole else None

    def _through(
        self,
        init: griffe.Function,
        forwarded: ast.Call,
        call: ast.Call,
        module: griffe.Module,
        path: str,
        arguments: ExceptionArguments,
    ) -> tuple[int | None, str]:
        """Status and detail of a subclass whose `__init__` forwards them to its base: a parameter of the
        `__init__` is taken from the raise, anything else is read in the subclass's module; what it forwards
        none of comes from the class attributes, as for a raise of the class itself."""
        parameters = [p.name for p in init.parameters][1:]
        values = []
        for role in (arguments.status, arguments.detail):
            node = argument(forwarded, role)
            scope = init.module
            if isinstance(node, ast.Name) and node.id in parameters:
                position = parameters.index(node.id)
                node, scope = argument(call, (position, node.id)), module
            elif isinstance(node, ast.Name) and role is arguments.detail:  # a dict the `__init__` builds
                node, where = built_detail(self.program.node(init), node.id, call, self.framework.body_key)
                scope = module if where == "raise" else init.module
            values.append((node, scope))
        status = self._status(values[0][0], values[0][1])
        ancestry = self.classes.ancestry(path)
        if values[0][0] is None and arguments.status_attribute is not None:  # `status_code = 404` on a class
            found = self.classes.attribute(ancestry, arguments.status_attribute)
            status = found if isinstance(found, int) and not isinstance(found, bool) else None
        missing = self.framework.default_detail(path, status)
        if arguments.detail_attribute is not None:
            found = self.classes.attribute(ancestry, arguments.detail_attribute)
            missing = found if isinstance(found, str) else missing
        return status, detail_text(values[1][0], values[1][1], self.resolver, missing)

    def _status(self, node: ast.expr | None, module: griffe.Module) -> int | None:
        if node is None:
            return None
        return status_number(node, module, self.program, self.resolver, self.framework.constant_status)


def _super_call(node: FunctionNode) -> ast.Call | None:
    """The `super().__init__(...)` call of an `__init__`, if it makes one."""
    for inner in own_nodes(node):
        if (
            isinstance(inner, ast.Call)
            and isinstance(inner.func, ast.Attribute)
            and inner.func.attr == "__init__"
            and isinstance(inner.func.value, ast.Call)
            and isinstance(inner.func.value.func, ast.Name)
            and inner.func.value.func.id == "super"
        ):
            return inner
    return None


def _keyword(call: ast.Call, name: str) -> ast.expr | None:
    return next((keyword.value for keyword in call.keywords if keyword.arg == name), None)
