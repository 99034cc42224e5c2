"""A quick yes for documents that certainly conform to one of docgen's JSON Schemas.

jsonschema takes a tenth of a second to import, and a tenth of a millisecond per catalog entry to validate:
more than a site build spends on docgen otherwise. Nearly every file docgen reads is valid, so `conforms`
checks the keywords docgen's schemas use in plain Python, and says True only when the document certainly
conforms. For anything else (a problem, or a keyword or value it does not know) it says False, and jsonschema
validates the document as always and words what is wrong.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from functools import cache
from typing import Any

Check = Callable[[Any, Any, Mapping[str, Any], Mapping[str, Any]], bool]
"""(instance, keyword value, schema, root schema) -> certainly conforms."""

_ANNOTATIONS = {"$schema", "$id", "$defs", "$comment", "title", "description", "default", "examples"}
_TYPES: dict[str, Callable[[Any], bool]] = {
    "object": lambda value: isinstance(value, dict),
    "array": lambda value: isinstance(value, list),
    "string": lambda value: isinstance(value, str),
    "integer": lambda value: type(value) is int,
    "boolean": lambda value: isinstance(value, bool),
    "null": lambda value: value is None,
}
_SCALARS = (str, int, bool, type(None))


def conforms(instance: Any, schema: Any, root: Mapping[str, Any]) -> bool:
    """True only if `instance` certainly conforms to `schema`, a part of the schema document `root`."""
    if schema is True:
        return True
    if not isinstance(schema, dict):
        return False
    if isinstance(instance, dict) and not all(isinstance(key, str) for key in instance):
        return False
    for keyword, value in schema.items():
        if keyword in _ANNOTATIONS:
            continue
        check = _KEYWORDS.get(keyword)
        if check is None or not check(instance, value, schema, root):
            return False
    return True


def _type(instance: Any, value: Any, schema: Mapping[str, Any], root: Mapping[str, Any]) -> bool:
    names = [value] if isinstance(value, str) else value
    return all(name in _TYPES for name in names) and any(_TYPES[name](instance) for name in names)


def _same(instance: Any, value: Any) -> bool:
    return isinstance(value, _SCALARS) and type(instance) is type(value) and instance == value


def _const(instance: Any, value: Any, schema: Mapping[str, Any], root: Mapping[str, Any]) -> bool:
    return _same(instance, value)


def _enum(instance: Any, value: Any, schema: Mapping[str, Any], root: Mapping[str, Any]) -> bool:
    return any(_same(instance, option) for option in value)


def _properties(instance: Any, value: Any, schema: Mapping[str, Any], root: Mapping[str, Any]) -> bool:
    if not isinstance(instance, dict):
        return True
    return all(conforms(instance[key], sub, root) for key, sub in value.items() if key in instance)


def _additional(instance: Any, value: Any, schema: Mapping[str, Any], root: Mapping[str, Any]) -> bool:
    if not isinstance(instance, dict):
        return True
    known = schema.get("properties", {})
    return all(conforms(item, value, root) for key, item in instance.items() if key not in known)


def _required(instance: Any, value: Any, schema: Mapping[str, Any], root: Mapping[str, Any]) -> bool:
    return not isinstance(instance, dict) or all(key in instance for key in value)


def _names(instance: Any, value: Any, schema: Mapping[str, Any], root: Mapping[str, Any]) -> bool:
    return not isinstance(instance, dict) or all(conforms(key, value, root) for key in instance)


def _items(instance: Any, value: Any, schema: Mapping[str, Any], root: Mapping[str, Any]) -> bool:
    if not isinstance(instance, list):
        return True
    return isinstance(value, dict | bool) and all(conforms(item, value, root) for item in instance)


def _min_items(instance: Any, value: Any, schema: Mapping[str, Any], root: Mapping[str, Any]) -> bool:
    return not isinstance(instance, list) or len(instance) >= value


def _unique(instance: Any, value: Any, schema: Mapping[str, Any], root: Mapping[str, Any]) -> bool:
    if not isinstance(instance, list) or value is False:
        return True
    return all(isinstance(item, str) for item in instance) and len(set(instance)) == len(instance)


def _min_length(instance: Any, value: Any, schema: Mapping[str, Any], root: Mapping[str, Any]) -> bool:
    return not isinstance(instance, str) or len(instance) >= value


def _pattern(instance: Any, value: Any, schema: Mapping[str, Any], root: Mapping[str, Any]) -> bool:
    return not isinstance(instance, str) or _compiled(value).search(instance) is not None


@cache
def _compiled(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)


def _bound(compare: Callable[[Any, Any], bool]) -> Check:
    """minimum or maximum: they apply to numbers only."""

    def check(instance: Any, value: Any, schema: Mapping[str, Any], root: Mapping[str, Any]) -> bool:
        if isinstance(instance, bool) or not isinstance(instance, int | float):
            return True
        return isinstance(value, int | float) and compare(instance, value)

    return check


def _ref(instance: Any, value: Any, schema: Mapping[str, Any], root: Mapping[str, Any]) -> bool:
    """A definition of the same document, `#/$defs/NAME`; any other reference is left to jsonschema."""
    definitions = root.get("$defs", {})
    if not isinstance(value, str) or not value.startswith("#/$defs/"):
        return False
    name = value.removeprefix("#/$defs/")
    return name in definitions and conforms(instance, definitions[name], root)


_KEYWORDS: dict[str, Check] = {
    "type": _type,
    "const": _const,
    "enum": _enum,
    "properties": _properties,
    "additionalProperties": _additional,
    "required": _required,
    "propertyNames": _names,
    "items": _items,
    "minItems": _min_items,
    "uniqueItems": _unique,
    "minLength": _min_length,
    "pattern": _pattern,
    "minimum": _bound(lambda number, limit: number >= limit),
    "maximum": _bound(lambda number, limit: number <= limit),
    "$ref": _ref,
}
