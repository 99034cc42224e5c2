"""Describe decorated Python functions as MCP tools, prompts and resource templates.

Everything a client sees (description, JSON Schema of the arguments, per-argument text)
comes from the function's signature and its Google-style docstring, so the code is the
single source of truth for the published reference.
"""

from __future__ import annotations

import contextlib
import inspect
import re
import typing
from collections.abc import Callable
from typing import Any

_JSON_TYPES: dict[Any, str] = {
    str: "string",
    int: "integer",
    float: "number",
    bool: "boolean",
    list: "array",
    dict: "object",
    type(None): "null",
}
_SECTION = re.compile(r"^(Args|Arguments|Returns|Raises|Yields|Examples?|Notes?):\s*$")
_ARG_LINE = re.compile(r"^(\w+)(?:\s*\(.*?\))?:\s*(.*)$")


class ArgumentError(ValueError):
    """The arguments given do not fit the function; the message says how, for a model to read."""


def _doc_parts(func: Callable[..., Any]) -> tuple[str, dict[str, str]]:
    """Split a docstring into its free text and the per-argument descriptions under `Args:`."""
    lines = inspect.cleandoc(func.__doc__ or "").splitlines()
    prose: list[str] = []
    args: dict[str, str] = {}
    section: str | None = None
    current: str | None = None
    for line in lines:
        if header := _SECTION.match(line):
            section, current = header.group(1), None
        elif section is None:
            prose.append(line)
        elif section in {"Args", "Arguments"} and line.strip():
            match = _ARG_LINE.match(line.strip()) if not line.startswith("        ") else None
            if match:
                current = match.group(1)
                args[current] = match.group(2)
            elif current is not None:
                args[current] = f"{args[current]} {line.strip()}"
    return "\n".join(prose).strip(), args


def _parameters(func: Callable[..., Any]) -> list[tuple[inspect.Parameter, type]]:
    hints = typing.get_type_hints(func)
    params = inspect.signature(func).parameters.values()
    return [(param, hints.get(param.name, str)) for param in params]


def describe(func: Callable[..., Any]) -> str:
    """The description of `func`: its docstring without the `Args:` and later sections.

    Args:
        func: A decorated tool, resource or prompt function.
    """
    return _doc_parts(func)[0]


def input_schema(func: Callable[..., Any]) -> dict[str, Any]:
    """A JSON Schema object for the keyword arguments of `func`.

    Args:
        func: A decorated tool function.
    """
    arg_docs = _doc_parts(func)[1]
    properties: dict[str, Any] = {}
    required: list[str] = []
    for param, hint in _parameters(func):
        prop: dict[str, Any] = {"type": _JSON_TYPES.get(hint, "string")}
        if param.name in arg_docs:
            prop["description"] = arg_docs[param.name]
        if param.default is inspect.Parameter.empty:
            required.append(param.name)
        else:
            prop["default"] = param.default
        properties[param.name] = prop
    return {"type": "object", "properties": properties, "required": required, "additionalProperties": False}


def prompt_arguments(func: Callable[..., Any]) -> list[dict[str, Any]]:
    """The `arguments` list of a prompt definition.

    Args:
        func: A decorated prompt function.
    """
    arg_docs = _doc_parts(func)[1]
    return [
        {
            "name": param.name,
            "description": arg_docs.get(param.name, ""),
            "required": param.default is inspect.Parameter.empty,
        }
        for param, _ in _parameters(func)
    ]


def bind(func: Callable[..., Any], arguments: dict[str, Any], *, coerce: bool = False) -> dict[str, Any]:
    """Check `arguments` against the signature of `func` and return them ready to pass.

    Args:
        func: The function about to be called.
        arguments: The arguments object from the request.
        coerce: Convert strings to the annotated type (prompt arguments always arrive as strings).
    """
    known = _parameters(func)
    names = {param.name for param, _ in known}
    if unknown := sorted(set(arguments) - names):
        raise ArgumentError(
            f"Unexpected argument '{unknown[0]}'. Accepted arguments: {', '.join(sorted(names))}."
        )
    bound: dict[str, Any] = {}
    for param, hint in known:
        if param.name not in arguments:
            if param.default is inspect.Parameter.empty:
                raise ArgumentError(f"Missing required argument '{param.name}'.")
            continue
        bound[param.name] = _check_type(param.name, arguments[param.name], hint, coerce=coerce)
    return bound


def _check_type(name: str, value: Any, hint: type, *, coerce: bool) -> Any:
    if coerce and isinstance(value, str) and hint is not str:
        with contextlib.suppress(ValueError):
            value = hint(value)
    if isinstance(value, hint) and not (hint is int and isinstance(value, bool)):
        return value
    expected = _JSON_TYPES.get(hint, hint.__name__)
    actual = _JSON_TYPES.get(type(value), type(value).__name__)
    raise ArgumentError(f"Argument '{name}' must be of type {expected}, not {actual}.")
