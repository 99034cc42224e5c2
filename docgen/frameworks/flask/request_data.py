"""The errors Flask answers for reading the request, with no `raise` or `abort` in the application.

`request.args["page"]` (and `form`, `values`, `files`) raises Werkzeug's
`BadRequestKeyError` when the key is missing: a 400 with `BadRequest`'s description (the key is added to it
only in debug mode). `request.get_json()` and `request.json` answer a body that is not JSON with what
Werkzeug's `Request.on_json_loading_failed` raises, read from the installed Werkzeug: since 2.3 a 415
(`UnsupportedMediaType`, with the message it is given) for a request whose Content-Type is not JSON, unless
`force=True`, and a `BadRequest` for a body that does not parse, which Flask's own `Request` turns into a
plain `BadRequest()` outside debug mode (its description). `get_json(silent=True)` answers neither.

Each place is one error of the function that reads the request (the first of each kind in it), raised as its
Werkzeug class, so that an error handler registered for the class or its status answers it.
"""

from __future__ import annotations

import ast

import griffe

from docgen.extract.bound_calls import own_nodes
from docgen.extract.program import Code, Program
from docgen.extract.resolve import Resolver
from docgen.extract.routes import FrameworkError
from docgen.frameworks.flask.werkzeug import MODULE, WerkzeugExceptions

REQUESTS = frozenset({"flask.request", "flask.globals.request"})
MAPPINGS = frozenset({"args", "form", "values", "files"})
"""The request's mappings whose `[key]` raises `BadRequestKeyError` for a missing key. `headers` and
`cookies` do too, but are left out: a header is most often read after a check that it is there (a decorator
that answers 401 without it), which a static reading does not see."""
KEY_ERROR = f"{MODULE}.BadRequestKeyError"
BAD_REQUEST = f"{MODULE}.BadRequest"
JSON_FAILED = ("werkzeug.wrappers.request", "Request", "on_json_loading_failed")


class RequestData:
    """Reads the request errors of a function, against the installed Werkzeug."""

    def __init__(self, resolver: Resolver, werkzeug: WerkzeugExceptions) -> None:
        self.resolver = resolver
        self.werkzeug = werkzeug
        self._failures: tuple[Program, list[tuple[str, str]]] | None = None

    def errors(self, program: Program, code: Code) -> list[FrameworkError]:
        """The first missing-key error and the JSON errors of `code`'s own body, in the order of reading."""
        found: dict[str, FrameworkError] = {}
        file = program.files(code.module)
        checked = _checked_keys(code)
        for node in own_nodes(code.node):
            if not isinstance(node, ast.expr) or _key_of(node) in checked:
                continue  # `if request.values.get("sql"): ... request.values["sql"]`: the key is there
            for kind, raised, status, detail in self._read(program, code, node):
                if kind not in found:
                    name = raised.rpartition(".")[2]
                    found[kind] = FrameworkError(status, detail, name, code.path, file, node.lineno, raised)
        return sorted(found.values(), key=lambda error: error.line)

    def _read(self, program: Program, code: Code, node: ast.expr) -> list[tuple[str, str, int, str]]:
        """(kind, class raised, status, detail) of what reading the request at `node` may answer."""
        if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load):
            mapping = node.value
            if (
                isinstance(mapping, ast.Attribute)
                and mapping.attr in MAPPINGS
                and self._is_request(program, code, mapping.value)
            ):
                return [("key", KEY_ERROR, 400, self._description(KEY_ERROR))]
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "get_json"
        ):
            reads = self._is_request(program, code, node.func.value) and not _flag(node, "silent")
            return self._json(program, forced=_flag(node, "force")) if reads else []
        if isinstance(node, ast.Attribute) and node.attr == "json" and isinstance(node.ctx, ast.Load):
            return self._json(program, forced=False) if self._is_request(program, code, node.value) else []
        return []

    @staticmethod
    def _is_request(program: Program, code: Code, node: ast.expr) -> bool:
        return program.qualify(node, code.module) in REQUESTS

    def _json(self, program: Program, *, forced: bool) -> list[tuple[str, str, int, str]]:
        found = []
        for failure, message in self._json_failures(program):
            cls = self.werkzeug.classes.get(failure)
            if cls is None or cls.code is None or (forced and cls.code != 400):
                continue
            if BAD_REQUEST in (failure, *self._bases(failure)):  # Flask raises a plain `BadRequest()` instead
                found.append(("json-400", BAD_REQUEST, 400, self._description(BAD_REQUEST)))
            else:
                found.append((f"json-{failure}", failure, cls.code, message or cls.description))
        return found

    def _bases(self, path: str) -> list[str]:
        module = self.resolver.modules.module(MODULE) if self.resolver.modules is not None else None
        cls = module.members.get(path.rpartition(".")[2]) if module is not None else None
        return [f"{MODULE}.{base}" for base in cls.bases] if isinstance(cls, griffe.Class) else []

    def _description(self, path: str) -> str:
        cls = self.werkzeug.classes.get(path)
        return cls.description if cls is not None else ""

    def _json_failures(self, program: Program) -> list[tuple[str, str]]:
        if self._failures is None or self._failures[0] is not program:
            self._failures = (program, self._read_failures(program))
        return self._failures[1]

    def _read_failures(self, program: Program) -> list[tuple[str, str]]:
        """(Werkzeug class, message given or "") of each `raise` in the installed Werkzeug's
        `Request.on_json_loading_failed`; none when it cannot be read (before 2.3 a wrong type is no error,
        and the 400 a body that does not parse gets is then not listed)."""
        module_name, class_name, method_name = JSON_FAILED
        module = self.resolver.modules.module(module_name) if self.resolver.modules is not None else None
        cls = module.members.get(class_name) if module is not None else None
        method = cls.members.get(method_name) if isinstance(cls, griffe.Class) else None
        tree = program.trees.nodes.get(method.path) if isinstance(method, griffe.Function) else None
        if tree is None:
            return []
        found = []
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Raise)
                and isinstance(node.exc, ast.Call)
                and isinstance(node.exc.func, ast.Name)
            ):
                first = node.exc.args[0] if node.exc.args else None
                message = (
                    first.value if isinstance(first, ast.Constant) and isinstance(first.value, str) else ""
                )
                found.append((f"{MODULE}.{node.exc.func.id}", message))
        return found


def _flag(call: ast.Call, name: str) -> bool:
    """Whether the call passes `name=True` (a value docgen cannot read counts as not passed)."""
    return any(
        k.arg == name and isinstance(k.value, ast.Constant) and k.value.value is True for k in call.keywords
    )


def _key_of(node: ast.expr) -> str | None:
    """The constant key `node` reads from a mapping of the request (`request.args["q"]`,
    `request.args.get("q")`), or None."""
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
        return str(node.slice.value) if _mapping(node.value) else None
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get":
        first = node.args[0] if node.args else None
        if _mapping(node.func.value) and isinstance(first, ast.Constant):
            return str(first.value)
    return None


def _mapping(node: ast.expr) -> bool:
    return isinstance(node, ast.Attribute) and node.attr in MAPPINGS


def _checked_keys(code: Code) -> set[str]:
    """The keys a test of the function checks are there (`if request.values.get("sql"):`, `if "q" in
    request.args:`): reading them under it raises nothing."""
    keys: set[str] = set()
    for inner in own_nodes(code.node):
        if not isinstance(inner, ast.If | ast.IfExp | ast.While):
            continue
        for part in ast.walk(inner.test):
            key = _key_of(part) if isinstance(part, ast.expr) else None
            if (
                isinstance(part, ast.Compare)
                and isinstance(part.ops[0], ast.In)
                and _mapping(part.comparators[0])
            ):
                key = str(part.left.value) if isinstance(part.left, ast.Constant) else None
            if key is not None:
                keys.add(key)
    return keys
