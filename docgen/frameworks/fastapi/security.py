"""The errors FastAPI's own security schemes answer: a parameter that depends on one (`token:
Annotated[str, Depends(oauth2_scheme)]`, `oauth2_scheme = OAuth2PasswordBearer(tokenUrl=...)`) makes the
operation answer `401 {"detail": "Not authenticated"}` to a request without credentials, unless the scheme is
made with `auto_error=False`.

The status and detail are read from the installed FastAPI, statically, as its other classes are: the
`HTTPException` that the scheme class's `make_not_authenticated_error` (or, in versions without it,
`__call__`) builds, so an older FastAPI that answered 403 is documented as it answers. The error is placed at
the line that makes the scheme, which is where a reader looks for it.
"""

from __future__ import annotations

import ast

import griffe

from docgen.extract.http_classes import HttpClasses
from docgen.extract.http_values import detail_text, status_number
from docgen.extract.program import Code, Program
from docgen.extract.routes import Framework, FrameworkError
from docgen.extract.type_aliases import alias_value

SCHEMES = "fastapi.security."
"""The package of FastAPI's security schemes; a class from it is followed wherever it is re-exported."""
_METHODS = ("make_not_authenticated_error", "__call__")
_DEPENDS = {"Depends", "Security"}


def security_errors(program: Program, framework: Framework, code: Code) -> list[FrameworkError]:
    """The error each security scheme `code`'s parameters depend on answers, in order, each once."""
    found: list[FrameworkError] = []
    arguments = code.node.args
    parts = [*arguments.defaults, *(d for d in arguments.kw_defaults if d is not None)]
    parts += [
        a.annotation for a in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs] if a.annotation
    ]
    for part in parts:
        for call, module in _depends_calls(program, part, code.module):
            error = _scheme_error(program, framework, call.args[0], module) if call.args else None
            if error is not None and error not in found:
                found.append(error)
    return found


def _depends_calls(
    program: Program, node: ast.expr, module: griffe.Module
) -> list[tuple[ast.Call, griffe.Module]]:
    """`Depends(...)`/`Security(...)` calls in an annotation or default, through one module-level alias."""
    found = []
    for inner in ast.walk(node):
        if isinstance(inner, ast.Call) and _name(inner.func) in _DEPENDS:
            found.append((inner, module))
        elif isinstance(inner, ast.Name | ast.Attribute):
            alias = alias_value(program, program.qualify(inner, module))
            if alias is not None:
                found.extend(
                    (c, alias[1])
                    for c in ast.walk(alias[0])
                    if isinstance(c, ast.Call) and _name(c.func) in _DEPENDS
                )
    return found


def _scheme_error(
    program: Program, framework: Framework, target: ast.expr, module: griffe.Module
) -> FrameworkError | None:
    """The error of the scheme `target` names (a module-level instance, or one made right there)."""
    made: ast.expr | None = target
    where, name = module, None
    if isinstance(target, ast.Name | ast.Attribute):
        held = program.objects.get(program.qualify(target, module) or "")
        if not isinstance(held, griffe.Attribute) or not isinstance(held.parent, griffe.Module):
            return None
        made, where, name = _assigned(program, held), held.parent, held.path
    if not isinstance(made, ast.Call) or _switched_off(made):
        return None
    scheme = program.qualify(made.func, where)
    if scheme is None or not scheme.startswith(SCHEMES):
        return None
    status, detail = _installed_answer(HttpClasses(program, framework.resolver), framework, scheme)
    if status is None:
        return None
    return FrameworkError(
        status, detail, scheme.rsplit(".", 1)[-1], name or scheme, program.files(where), made.lineno
    )


def _installed_answer(classes: HttpClasses, framework: Framework, scheme: str) -> tuple[int | None, str]:
    """The status and detail of the HTTPException the installed scheme class raises when auto_error holds."""
    program = classes.program
    for path in classes.ancestry(scheme):
        klass = classes.klass(path)
        for method in _METHODS:
            node = program.trees.nodes.get(f"{klass.path}.{method}") if klass is not None else None
            for call in (c for c in ast.walk(node) if isinstance(c, ast.Call)) if node is not None else ():
                if (
                    klass is not None
                    and _installed_path(call.func, klass.module) in framework.http_exceptions
                ):
                    return _stated(program, framework, call, klass.module)
    return None, ""


def _stated(
    program: Program, framework: Framework, call: ast.Call, module: griffe.Module
) -> tuple[int | None, str]:
    keywords = {k.arg: k.value for k in call.keywords if k.arg}
    status_node = keywords.get("status_code", call.args[0] if call.args else None)
    detail_node = keywords.get("detail", call.args[1] if len(call.args) > 1 else None)
    named = _installed_path(status_node, module) if status_node is not None else None
    status = framework.constant_status(named) if named else None
    if status is None and status_node is not None:
        status = status_number(status_node, module, program, framework.resolver, framework.constant_status)
    return status, detail_text(detail_node, module, framework.resolver, framework.default_detail("", status))


def _installed_path(node: ast.expr, module: griffe.Module) -> str | None:
    """The dotted path a name in an installed module stands for (its import's target)."""
    if isinstance(node, ast.Attribute):
        base = _installed_path(node.value, module)
        return f"{base}.{node.attr}" if base else None
    member = module.members.get(node.id) if isinstance(node, ast.Name) else None
    if isinstance(member, griffe.Alias):
        return member.target_path
    return member.path if member is not None else None


def _assigned(program: Program, held: griffe.Attribute) -> ast.expr | None:
    tree = program.trees.modules.get(held.parent.path) if held.parent is not None else None
    for statement in tree.body if tree is not None else ():
        if isinstance(statement, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == held.name for t in statement.targets
        ):
            return statement.value
    return None


def _switched_off(call: ast.Call) -> bool:
    """`auto_error=False`: the scheme lets a request without credentials through."""
    value = next((k.value for k in call.keywords if k.arg == "auto_error"), None)
    return isinstance(value, ast.Constant) and value.value is False


def _name(func: ast.expr) -> str | None:
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None
