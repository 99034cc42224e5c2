"""The tools catalog: public tools, resources and prompts, read from their decorators and docstrings."""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping

import griffe

from docgen.core.errors import SourceError
from docgen.core.models import Parameter, Source, Tool, ToolsCatalog
from docgen.core.settings import CatalogConfig
from docgen.extract.folding import TooLarge
from docgen.extract.resolve import Resolver, Unresolvable, Value, as_json

# Python annotations -> the JSON Schema type a client sends.
_JSON_TYPES = {
    "str": "string",
    "int": "integer",
    "float": "number",
    "bool": "boolean",
    "list": "array",
    "tuple": "array",
    "dict": "object",
    "None": "null",
}
_KINDS = {"tool": "tools", "resource": "resources", "prompt": "prompts"}


def tools_catalog(
    config: CatalogConfig, module: griffe.Module, resolver: Resolver, file: str
) -> ToolsCatalog:
    """The tools catalog of `module`, each list in source order."""
    found: dict[str, list[Tool]] = {kind: [] for kind in _KINDS.values()}
    functions = [m for m in module.members.values() if isinstance(m, griffe.Function)]
    for function in sorted(functions, key=lambda f: f.lineno or 0):
        for role, decorator_name in config.decorators.items():
            decorator = _decorator(function, decorator_name)
            if decorator is not None:
                found[_KINDS[role]].append(_item(function, decorator, resolver, file))
    symbols = tuple(item.function for kind in _KINDS.values() for item in found[kind])
    return ToolsCatalog(
        name=config.name,
        sources=(Source(file, symbols),),
        tools=tuple(found["tools"]),
        resources=tuple(found["resources"]),
        prompts=tuple(found["prompts"]),
    )


def _decorator(function: griffe.Function, name: str) -> ast.Call | ast.expr | None:
    for decorator in function.decorators:
        text = str(decorator.value)
        node = ast.parse(text, mode="eval").body
        target = node.func if isinstance(node, ast.Call) else node
        last = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", None)
        if last == name:
            return node
    return None


def _item(function: griffe.Function, decorator: ast.expr, resolver: Resolver, file: str) -> Tool:
    options = _decorator_options(decorator, function, resolver, file)
    summary, descriptions = _docstring(function)
    parameters = tuple(
        _parameter(parameter, descriptions, resolver, function, file)
        for parameter in function.parameters
        if parameter.name not in {"self", "cls"} and not parameter.name.startswith("_")
    )
    return Tool(
        name=str(options.get("name", function.name)),
        function=function.name,
        description=str(options.get("description", summary)),
        parameters=parameters,
        uri_template=str(options["uri_template"]) if "uri_template" in options else None,
    )


def _decorator_options(
    node: ast.expr, function: griffe.Function, resolver: Resolver, file: str
) -> dict[str, Value]:
    if not isinstance(node, ast.Call):
        return {}
    options: dict[str, Value] = {}
    try:
        if node.args:
            options["uri_template"] = resolver.evaluate(node.args[0], function.module).value
        for keyword in node.keywords:
            if keyword.arg in {"name", "description", "uri_template"}:
                options[keyword.arg] = resolver.evaluate(keyword.value, function.module).value
    except Unresolvable as err:
        raise SourceError(
            f"the decorator of {function.name} is not static: {err}",
            file=file,
            line=function.lineno,
            hint="use string literals or module constants in the decorator",
        ) from err
    return options


def _docstring(function: griffe.Function) -> tuple[str, dict[str, str]]:
    """The docstring's summary, and each parameter's description."""
    summary, parameters = "", {}
    if function.docstring is not None:
        for section in function.docstring.parse(griffe.Parser.google):
            if section.kind is griffe.DocstringSectionKind.text and not summary:
                summary = str(section.value).split("\n\n")[0].replace("\n", " ").strip()
            elif section.kind is griffe.DocstringSectionKind.parameters:
                parameters = {p.name: " ".join(p.description.split()) for p in section.value}
    return summary, parameters


def _parameter(
    parameter: griffe.Parameter,
    descriptions: Mapping[str, str],
    resolver: Resolver,
    function: griffe.Function,
    file: str,
) -> Parameter:
    default: Value = None
    if parameter.default is not None:
        try:
            default = resolver.evaluate_text(str(parameter.default), function.module).value
        except TooLarge as err:
            raise err.located(
                file, function.lineno, f"the default of {function.name}({parameter.name}): "
            ) from None
        except Unresolvable as err:
            raise SourceError(
                f"the default of {function.name}({parameter.name}) is not static: {err}",
                file=file,
                line=function.lineno,
                hint="use a literal or a module constant as the default",
            ) from err
    return Parameter(
        name=parameter.name,
        type=json_type(str(parameter.annotation)) if parameter.annotation is not None else "any",
        required=parameter.default is None,
        default=as_json(default),
        description=descriptions.get(parameter.name, ""),
    )


def json_type(annotation: str) -> str:
    """The JSON type for a Python annotation: `int` -> integer, `Optional[str]` -> string or null."""
    try:
        node = ast.parse(annotation, mode="eval").body
    except SyntaxError:
        return "any"
    names = [_JSON_TYPES.get(name, "object") for name in _alternatives(node)]
    return " or ".join(dict.fromkeys(names)) or "any"


def _alternatives(node: ast.expr) -> Iterator[str]:
    """The type names an annotation allows: `X | Y`, `Optional[X]`, `Union[X, Y]` unpacked."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        yield from _alternatives(node.left)
        yield from _alternatives(node.right)
    elif isinstance(node, ast.Subscript):
        origin = _last_name(node.value)
        arguments = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        if origin in {"Optional", "Union"}:
            for argument in arguments:
                yield from _alternatives(argument)
            if origin == "Optional":
                yield "None"
        else:
            yield origin
    elif isinstance(node, ast.Constant) and node.value is None:
        yield "None"
    else:
        yield _last_name(node)


def _last_name(node: ast.expr) -> str:
    return node.attr if isinstance(node, ast.Attribute) else getattr(node, "id", "")
