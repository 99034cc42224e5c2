"""docgen's reader of toyweb applications: a web framework docgen does not ship, added from outside.

It is found through the entry point its dist-info declares (`[docgen.frameworks] toyweb = ...`), never
imported by docgen's own code, and implements `docgen.extract.routes.Framework` as a third-party
package would: operations are the functions decorated with `@toyweb.route(METHOD, PATH)`, HTTP errors are
`toyweb.Fail(status, message)` and its subclasses, the body key is `error`, and a message left out is
`HTTP <status>`.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping

import griffe

from docgen.extract.program import Code, Program
from docgen.extract.resolve import Resolver
from docgen.extract.routes import Endpoint, ExceptionArguments, Handler

ROUTE = "toyweb.route"
FAIL = ExceptionArguments(status=(0, "status"), detail=(1, "message"))


class ToyFramework:
    """toyweb applications read statically: decorators for routes, no dependencies, no handlers."""

    name = "toyweb"
    body_key = "error"
    automatic_statuses = frozenset({400})
    http_exceptions: Mapping[str, ExceptionArguments] = {"toyweb.Fail": FAIL}
    raising_calls: Mapping[str, ExceptionArguments] = {}
    responses: Mapping[str, ExceptionArguments] = {}
    tuple_status = False
    import_roots = frozenset({"toyweb"})
    openapi_guide = "the toyweb plugin's README"

    def __init__(self, resolver: Resolver) -> None:
        self.resolver = resolver

    def constant_status(self, path: str) -> int | None:
        return None

    def default_detail(self, exception: str, status: int | None) -> str:
        return f"HTTP {status}" if status is not None else ""

    def endpoints(self, program: Program, app: str | None) -> list[Endpoint]:
        found = []
        for module, tree in program.modules():
            for statement in tree.body:
                if not isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef):
                    continue
                function = program.function(f"{module.path}.{statement.name}")
                for decorator in statement.decorator_list:
                    declared = _route(program, module, decorator)
                    if declared is not None and function is not None:
                        method, path = declared
                        line = decorator.lineno
                        found.append(Endpoint(method, path, function, (), program.file(function), line))
        return sorted(found, key=lambda e: (e.path, e.method))

    def parameter_dependencies(self, program: Program, code: Code) -> list[Code]:
        return []

    def handlers(self, program: Program) -> dict[str, Handler]:
        return {}


def _route(program: Program, module: griffe.Module, decorator: ast.expr) -> tuple[str, str] | None:
    """(method, path) of `@route("GET", "/items/{id}")`, written with literals; None for anything else."""
    if not (isinstance(decorator, ast.Call) and len(decorator.args) == 2):
        return None
    if program.qualify(decorator.func, module) != ROUTE:
        return None
    method, path = (arg.value if isinstance(arg, ast.Constant) else None for arg in decorator.args)
    return (method.lower(), path) if isinstance(method, str) and isinstance(path, str) else None
