"""A quick yes for documents that certainly conform to one of docgen's JSON Schemas.

jsonschema takes a tenth of a second to import, and a tenth of a millisecond per catalog entry to validate:
more than a site build spends on docgen otherwise. Nearly every file docgen reads is valid, so a compiled
checker tests the keywords docgen's schemas use in plain Python, and says True only when the document
certainly conforms. For anything else (a problem, or a keyword or value it does not know) it says False,
and jsonschema validates the document as always and words what is wrong.

A schema is turned once into a tree of small functions, one per keyword (`compile_schema`), rather than read
again for every node of the document: a 10,000-entry catalog has some 300,000 nodes.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

Checker = Callable[[Any], bool]
"""instance -> certainly conforms."""
Maker = Callable[[Any, Mapping[str, Any], "_Compiler"], Checker]
"""(keyword value, schema, compiler) -> the keyword's checker."""

_ANNOTATIONS = {"$schema", "$id", "$defs", "$comment", "title", "description", "default", "examples"}
_TYPES: dict[str, Checker] = {
    "object": lambda value: isinstance(value, dict),
    "array": lambda value: isinstance(value, list),
    "string": lambda value: isinstance(value, str),
    "integer": lambda value: type(value) is int,
    "boolean": lambda value: isinstance(value, bool),
    "null": lambda value: value is None,
}
_SCALARS = (str, int, bool, type(None))


def compile_schema(root: Mapping[str, Any]) -> Checker:
    """A checker that is True only if a document certainly conforms to the schema document `root`; compile
    once, check many documents."""
    return _Compiler(root).compile(root)


def _yes(instance: Any) -> bool:
    return True


def _no(instance: Any) -> bool:
    return False


class _Compiler:
    """Compiles the parts of one schema document; `$defs` entries once each, which also ends recursion."""

    def __init__(self, root: Mapping[str, Any]) -> None:
        self.root = root
        self.definitions: dict[str, Checker] = {}

    def compile(self, schema: Any) -> Checker:
        if schema is True:
            return _yes
        if not isinstance(schema, dict):
            return _no
        checks: list[Checker] = []
        for keyword, value in schema.items():
            if keyword in _ANNOTATIONS:
                continue
            make = _KEYWORDS.get(keyword)
            if make is None:
                return _no
            checks.append(make(value, schema, self))

        def check(instance: Any) -> bool:
            if isinstance(instance, dict) and not all(isinstance(key, str) for key in instance):
                return False
            # A loop rather than all(...) over a generator: this runs for every node of every document.
            for each in checks:  # noqa: SIM110
                if not each(instance):
                    return False
            return True

        return check

    def definition(self, name: str) -> Checker:
        """The checker of `#/$defs/name`, compiled when first checked: a definition may refer to itself."""
        if name not in self.definitions:
            self.definitions[name] = self.compile(self.root["$defs"][name])
        return self.definitions[name]


def _type(value: Any, schema: Mapping[str, Any], compiler: _Compiler) -> Checker:
    names = [value] if isinstance(value, str) else value
    if not all(name in _TYPES for name in names):
        return _no
    if len(names) == 1:
        return _TYPES[names[0]]
    tests = [_TYPES[name] for name in names]
    return lambda instance: any(test(instance) for test in tests)


def _same(instance: Any, value: Any) -> bool:
    return isinstance(value, _SCALARS) and type(instance) is type(value) and instance == value


def _const(value: Any, schema: Mapping[str, Any], compiler: _Compiler) -> Checker:
    return lambda instance: _same(instance, value)


def _enum(value: Any, schema: Mapping[str, Any], compiler: _Compiler) -> Checker:
    return lambda instance: any(_same(instance, option) for option in value)


def _properties(value: Any, schema: Mapping[str, Any], compiler: _Compiler) -> Checker:
    subs = [(key, compiler.compile(sub)) for key, sub in value.items()]

    def check(instance: Any) -> bool:
        if isinstance(instance, dict):
            for key, sub in subs:
                if key in instance and not sub(instance[key]):
                    return False
        return True

    return check


def _additional(value: Any, schema: Mapping[str, Any], compiler: _Compiler) -> Checker:
    known = schema.get("properties", {})
    sub = compiler.compile(value)

    def check(instance: Any) -> bool:
        if not isinstance(instance, dict):
            return True
        return all(sub(item) for key, item in instance.items() if key not in known)

    return check


def _required(value: Any, schema: Mapping[str, Any], compiler: _Compiler) -> Checker:
    return lambda instance: not isinstance(instance, dict) or all(key in instance for key in value)


def _names(value: Any, schema: Mapping[str, Any], compiler: _Compiler) -> Checker:
    sub = compiler.compile(value)
    return lambda instance: not isinstance(instance, dict) or all(sub(key) for key in instance)


def _items(value: Any, schema: Mapping[str, Any], compiler: _Compiler) -> Checker:
    if not isinstance(value, dict | bool):
        return lambda instance: not isinstance(instance, list)
    sub = compiler.compile(value)
    return lambda instance: not isinstance(instance, list) or all(sub(item) for item in instance)


def _min_items(value: Any, schema: Mapping[str, Any], compiler: _Compiler) -> Checker:
    return lambda instance: not isinstance(instance, list) or len(instance) >= value


def _unique(value: Any, schema: Mapping[str, Any], compiler: _Compiler) -> Checker:
    if value is False:
        return _yes

    def check(instance: Any) -> bool:
        if not isinstance(instance, list):
            return True
        return all(isinstance(item, str) for item in instance) and len(set(instance)) == len(instance)

    return check


def _min_length(value: Any, schema: Mapping[str, Any], compiler: _Compiler) -> Checker:
    return lambda instance: not isinstance(instance, str) or len(instance) >= value


def _pattern(value: Any, schema: Mapping[str, Any], compiler: _Compiler) -> Checker:
    search = re.compile(value).search
    return lambda instance: not isinstance(instance, str) or search(instance) is not None


def _bound(compare: Callable[[Any, Any], bool]) -> Maker:
    """minimum or maximum: they apply to numbers only."""

    def make(value: Any, schema: Mapping[str, Any], compiler: _Compiler) -> Checker:
        def check(instance: Any) -> bool:
            if isinstance(instance, bool) or not isinstance(instance, int | float):
                return True
            return isinstance(value, int | float) and compare(instance, value)

        return check

    return make


def _ref(value: Any, schema: Mapping[str, Any], compiler: _Compiler) -> Checker:
    """A definition of the same document, `#/$defs/NAME`; any other reference is left to jsonschema."""
    definitions = compiler.root.get("$defs", {})
    if not isinstance(value, str) or not value.startswith("#/$defs/"):
        return _no
    name = value.removeprefix("#/$defs/")
    if name not in definitions:
        return _no

    def check(instance: Any) -> bool:
        # Looked up when checking, not when compiling: the definition may be the one being compiled.
        return compiler.definition(name)(instance)

    return check


def _any_of(value: Any, schema: Mapping[str, Any], compiler: _Compiler) -> Checker:
    """Certainly conforms when it certainly conforms to one of the alternatives."""
    alternatives = [compiler.compile(each) for each in value] if isinstance(value, list) else []

    def check(instance: Any) -> bool:
        return any(alternative(instance) for alternative in alternatives)

    return check


_KEYWORDS: dict[str, Maker] = {
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
    "anyOf": _any_of,
}
