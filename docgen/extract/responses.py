"""What an HTTP error made by a call says: its status and detail, read from the call, from the class
attributes of what it makes, or from the framework's defaults.

Three kinds of call make an error, each declared by the framework with where it takes its arguments
(`ExceptionArguments`): an HTTP exception raised (`raise NotFound()`), a function that raises one
(`abort(404)`), and a response returned with an error status (`return JSONResponse(body, status_code=404)`,
or Flask's `return body, 404`). A response's detail comes from its body: text as it is, or the first text of
a dict (`{"error": "No such item"}`, whose key is then the body's key). A returned response with a
success status, or with none (a response's default), is not an error; one with a status docgen cannot read
(a helper's parameter) is an error without a status, which extract and check locate.
"""

from __future__ import annotations

import ast

import griffe

from docgen.core.records import record
from docgen.extract.calls import callee_name
from docgen.extract.http_classes import HttpClasses
from docgen.extract.http_values import detail_text, phrase, status_number
from docgen.extract.program import Program
from docgen.extract.routes import ExceptionArguments, Framework

ERROR_STATUS = 400
"""The first status that is an error: a response below it is a success or a redirect."""
MESSAGE_KEYS = ("message", "detail", "msg", "error", "description", "title")
"""Keys of a dict body whose value is the message a client reads, before the dict's first text."""


DICT_BUILDERS = frozenset({"jsonify", "dict"})
"""The calls whose keywords are the keys of the JSON object they make (`jsonify(error=...)`)."""


@record
class Stated:
    """What one call states about the error it makes."""

    exception: str
    """What makes it, as the code names it (`NotFound`, `abort`, `JSONResponse`)."""
    status: int | None
    detail: str
    body_key: str | None
    """The body's key for the detail when the call's own body says it (a dict); None: the framework's."""
    raised: str | None = None
    """For a function that raises: the exception class it raises (`ExceptionArguments.raises`), if known."""


class CallReader:
    """Reads the status and detail of the calls that make a framework's HTTP errors."""

    def __init__(self, program: Program, framework: Framework, classes: HttpClasses) -> None:
        self.program = program
        self.framework = framework
        self.classes = classes

    def raising_call(self, call: ast.Call, module: griffe.Module) -> Stated | None:
        """The error a call of one of the framework's raising functions (`abort(404)`) makes, or None."""
        path = self.program.qualify(call.func, module)
        arguments = self.framework.raising_calls.get(path or "")
        if arguments is None and isinstance(call.func, ast.Attribute) and self.program.function(path) is None:
            path = f".{call.func.attr}"  # a method of an object docgen does not follow, by its name
            arguments = self.framework.raising_calls.get(path)
        if path is None or arguments is None:
            return None
        given = argument(call, arguments.status)
        response = self._response(given, module) if isinstance(given, ast.Call) else None
        if response is not None:  # `abort(make_response(body, 400))` sends that response as it is
            return Stated(ast.unparse(call.func), response.status, response.detail, response.body_key)
        stated = self.stated(call, module, path, [path], arguments)
        raised = dict(arguments.raises).get(stated.status) if stated.status is not None else None
        return Stated(stated.exception, stated.status, stated.detail, stated.body_key, raised)

    def returned(
        self, value: ast.expr, module: griffe.Module, status: ast.expr | None = None
    ) -> Stated | None:
        """The error a returned value is, when it is a response with an error status, or None. `status` is
        one the code sets on the response before returning it (`response.status_code = 401`)."""
        if status is not None:
            return self._with_status(value, status, module)
        if isinstance(value, ast.Tuple) and self.framework.tuple_status and len(value.elts) in (2, 3):
            return self._with_status(value.elts[0], value.elts[1], module)
        if not isinstance(value, ast.Call):
            return None
        response = self._response(value, module)
        if response is None:
            return None
        if response.status is None:  # given but unreadable: located as an error without a status
            return response if self._status_given(value, module) else None
        return response if response.status >= ERROR_STATUS else None

    def _with_status(self, body: ast.expr, status_node: ast.expr, module: griffe.Module) -> Stated | None:
        """A body sent with a status given apart from it: `(body, 404)`, or a status set on it afterwards."""
        status = self._status(status_node, module)
        inner = self._response(body, module) if isinstance(body, ast.Call) else None
        unknown = status is None and (inner is not None or isinstance(body, ast.Dict))
        if not unknown and (status is None or status < ERROR_STATUS):
            return None  # a success, or a tuple that is not a response at all
        if inner is not None:
            return Stated(inner.exception, status, inner.detail, inner.body_key)
        key, detail = self.body(body, module, self.framework.default_detail("", status))
        return Stated("return", status, detail, key)

    def stated(
        self,
        call: ast.Call,
        module: griffe.Module,
        path: str,
        ancestry: list[str],
        arguments: ExceptionArguments,
    ) -> Stated:
        """Status and detail as `call` gives them, else the class attributes named by `arguments` on
        `ancestry`, else (for the detail) the framework's default, with the call's own reason phrase for the
        standard one."""
        status_node = argument(call, arguments.status)
        status = self._status(status_node, module) if status_node is not None else None
        if status_node is None and arguments.status_attribute is not None:
            found = self.classes.attribute(ancestry, arguments.status_attribute)
            status = found if isinstance(found, int) and not isinstance(found, bool) else None
        if status_node is None and status is None:
            status = arguments.status_default
        missing = self.framework.default_detail(path, status)
        if arguments.detail_attribute is not None:
            found = self.classes.attribute(ancestry, arguments.detail_attribute)
            missing = found if isinstance(found, str) else missing
        reason = argument(call, arguments.reason) if arguments.reason is not None else None
        if reason is not None and phrase(status) and phrase(status) in missing:
            own = detail_text(reason, module, self.framework.resolver, phrase(status))
            missing = missing.replace(phrase(status), own, 1)
        key, detail = self.body(argument(call, arguments.detail), module, missing)
        return Stated(ast.unparse(call.func), status, detail, key)

    def body(self, node: ast.expr | None, module: griffe.Module, missing: str) -> tuple[str | None, str]:
        """The body's key for its detail (None: the framework's) and the detail: a dict's first text value
        under a text key, else the node as text (`detail_text`). `json.dumps({...})` (text a framework sends
        as it is, aiohttp's `text=`) is read as its dict."""
        if isinstance(node, ast.Call) and len(node.args) == 1 and self._is_json_dumps(node.func, module):
            node = node.args[0]
        if isinstance(node, ast.Dict) and not node.keys:
            return None, ""  # `json_response({}, status=404)`: an empty object, no text to read
        if isinstance(node, ast.Dict):
            texts = [
                (key.value, value)
                for key, value in zip(node.keys, map(_first_message, node.values), strict=True)
                if isinstance(key, ast.Constant) and isinstance(key.value, str) and _text_like(value)
            ]
            if texts:  # the message, where a key says so (`{"code": "bad", "message": ...}`), else the first
                key, value = next((t for t in texts if t[0] in MESSAGE_KEYS), texts[0])
                return key, detail_text(value, module, self.framework.resolver, missing)
        if isinstance(node, ast.Call) and len(node.args) == 1 and isinstance(node.args[0], ast.Dict):
            return self.body(node.args[0], module, missing)  # `jsonify({"error": ...})`: the dict built
        if (
            isinstance(node, ast.Call)
            and callee_name(node) in DICT_BUILDERS  # not a template's `render(error=...)`: that is a page
            and not node.args
            and node.keywords
            and node.keywords[0].arg
        ):
            first = node.keywords[0]  # `jsonify(error="...")`: a dict written as keywords
            assert first.arg is not None
            return first.arg, detail_text(first.value, module, self.framework.resolver, missing)
        return None, detail_text(node, module, self.framework.resolver, missing)

    def _is_json_dumps(self, func: ast.expr, module: griffe.Module) -> bool:
        return self.program.qualify(func, module) == "json.dumps"

    def _response(self, call: ast.Call, module: griffe.Module) -> Stated | None:
        path = self.program.qualify(call.func, module)
        arguments = self.framework.responses.get(path or "")
        if arguments is None and isinstance(call.func, ast.Attribute) and self.program.function(path) is None:
            path = f".{call.func.attr}"  # a method of an object docgen does not follow, by its name
            arguments = self.framework.responses.get(path)
        if path is None or arguments is None:
            return None
        return self.stated(call, module, path, self.classes.ancestry(path), arguments)

    def _status_given(self, call: ast.Call, module: griffe.Module) -> bool:
        """Whether a response call states a status (which may be one docgen cannot read), not leaving it
        to the response's default."""
        path = self.program.qualify(call.func, module) or ""
        arguments = self.framework.responses.get(path)
        if arguments is None and isinstance(call.func, ast.Attribute):
            arguments = self.framework.responses.get(f".{call.func.attr}")
        return arguments is not None and argument(call, arguments.status) is not None

    def _status(self, node: ast.expr, module: griffe.Module) -> int | None:
        resolver, named = self.framework.resolver, self.framework.constant_status
        return status_number(node, module, self.program, resolver, named)


def _first_message(node: ast.expr) -> ast.expr:
    """The first message of a list of them written out (`{"email": [_("Not found")]}`, as REST framework
    answers errors by field), else `node`."""
    if isinstance(node, ast.List | ast.Tuple) and node.elts and all(_text_like(item) for item in node.elts):
        return node.elts[0]
    return node


def _text_like(node: ast.expr) -> bool:
    """Whether `node` can be a message: text, an f-string, a name or a call (not a number or a list)."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    return isinstance(node, ast.JoinedStr | ast.Name | ast.Attribute | ast.Call)


def argument(call: ast.Call, where: tuple[int | None, str]) -> ast.expr | None:
    """The argument a call passes at a position (None: keyword only) or by keyword, or None."""
    position, keyword = where
    value = next((k.value for k in call.keywords if k.arg == keyword), None)
    if value is not None:
        return value
    return call.args[position] if position is not None and position < len(call.args) else None
