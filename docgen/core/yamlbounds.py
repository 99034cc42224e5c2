"""The shapes of YAML docgen refuses before building any data: anchors in its own files, aliases that expand
too far, nesting too deep, and a key given twice in one mapping (YAML keeps the last value and drops the
first without a word: a second `cause:` in the notes would lose an editor's sentence).

PyYAML builds an alias as a second reference to the same object, so an alias bomb (nine anchors each naming
the one before nine times) costs it nothing; it is everything that walks the data afterwards (schemas, lines,
JSON, dumping) that would visit its billions of values. docgen's own files (notes, catalogs, evidence,
specifications, front matter) need no anchors, so they may have none. mkdocs.yml may: MkDocs users write them
now and then, so there the aliases are followed and counted instead, up to YAML_MAX_NODES values.

Nesting is bounded too: libyaml's composer recurses in C, and a flow collection nested a hundred thousand
levels deep (`[[[[...`, 200 KB of text) overflows its stack and kills the process, and PyYAML's pure-Python
scanner takes time that grows with the square of the depth. So brackets are counted first, and a text whose
brackets nest past a thousand levels is refused before any parser sees it; every document composed is then
measured against YAML_MAX_DEPTH. (Block nesting needs indentation, whose size grows with the square of the
depth: the file-size limit keeps it within what libyaml composes.)
"""

from __future__ import annotations

import re
import sys
from typing import Any

import yaml

from docgen.core.limits import YAML_MAX_DEPTH, YAML_MAX_NODES

_BRACKET = re.compile(r"[\[\]{}]")
_COMPOSER_SAFE_DEPTH = 10 * YAML_MAX_DEPTH
"""Far below the depth at which libyaml's composer overflows its stack (it composes 10,000 levels)."""


class Refused(Exception):
    """A document docgen will not build, with the line to blame."""

    def __init__(self, message: str, line: int | None, hint: str) -> None:
        super().__init__(message)
        self.message, self.line, self.hint = message, line, hint


def refuse_deep_brackets(text: str) -> None:
    """Refuse, before libyaml sees it, a text whose flow brackets nest past _COMPOSER_SAFE_DEPTH levels.

    Brackets inside quoted strings count too, so the estimate can only be too high; the limit it is compared
    with is ten times YAML_MAX_DEPTH, so only a text with a thousand unclosed brackets in its strings could
    be refused wrongly. Anything shallower is composed by libyaml and then measured exactly.
    """
    text = text.replace("[]", "").replace("{}", "")
    if text.count("[") + text.count("{") <= _COMPOSER_SAFE_DEPTH:
        return
    depth = 0
    for match in _BRACKET.finditer(text):
        depth = depth + 1 if match.group() in "[{" else max(depth - 1, 0)
        if depth > _COMPOSER_SAFE_DEPTH:
            raise too_deep(text.count("\n", 0, match.start()) + 1)


def anchor_line(text: str, loader_class: type[Any]) -> int | None:
    """The line of the first anchor or alias in `text`, or None (an `&` inside a string is neither)."""
    loader = loader_class(text)
    try:
        while loader.check_event():
            event = loader.get_event()
            if getattr(event, "anchor", None) is not None:
                return int(event.start_mark.line) + 1
    finally:
        loader.dispose()
    return None


def refuse_anchors(text: str, loader_class: type[Any]) -> None:
    """Raise Refused at the first anchor or alias of `text`, if it has one."""
    line = anchor_line(text, loader_class) if "&" in text else None
    if line is not None:
        raise Refused(
            "YAML anchors and aliases (`&name`, `*name`) are not allowed in docgen's files",
            line,
            "write the value out in full where it is used",
        )


def check_expansion(root: yaml.Node, anchor: int | None) -> None:
    """Refuse a document whose aliases, followed, make more than YAML_MAX_NODES values (blamed on `anchor`,
    the line of its first anchor), or that nests past YAML_MAX_DEPTH. Each node is measured once, however
    many aliases name it."""
    measured: dict[int, tuple[int, int]] = {}

    def measure(node: yaml.Node) -> tuple[int, int]:
        if id(node) in measured:
            return measured[id(node)]
        measured[id(node)] = (1, 1)  # a node inside itself (a recursive alias) counts once
        children: list[yaml.Node] = []
        if isinstance(node, yaml.MappingNode):
            refuse_duplicate_keys(node)
            children = [part for pair in node.value for part in pair]
        elif isinstance(node, yaml.SequenceNode):
            children = list(node.value)
        sizes = [measure(child) for child in children]
        result = (1 + sum(count for count, _ in sizes), 1 + max((depth for _, depth in sizes), default=0))
        measured[id(node)] = result
        return result

    count, depth = measure(root)
    if depth > YAML_MAX_DEPTH:
        raise too_deep(None)
    if count > YAML_MAX_NODES:
        raise Refused(
            f"its aliases expand to {count:,} values, more than docgen follows ({YAML_MAX_NODES:,})",
            anchor,
            "write the repeated parts out, or use fewer aliases",
        )


_MERGE = "tag:yaml.org,2002:merge"


def refuse_duplicate_keys(mapping: yaml.MappingNode) -> None:
    """Refuse a mapping that gives one key twice: PyYAML would keep the last value without a word."""
    seen: dict[tuple[str, str], int] = {}
    for key, _value in mapping.value:
        if isinstance(key, yaml.ScalarNode) and key.tag != _MERGE:
            line = key.start_mark.line + 1
            if (key.tag, key.value) in seen:
                raise duplicate_key(key.value, seen[key.tag, key.value], line)
            seen[key.tag, key.value] = line


def duplicate_key(key: object, first: int, again: int) -> Refused:
    """The error for `key` (as written) given at line `again` after line `first`. The first is named by its
    distance, which reads right in front matter too, whose lines are counted from the page's."""
    above = again - first
    return Refused(
        f"the key {key!r} is given twice, here and {above} line{'s' if above != 1 else ''} above; "
        "YAML would keep only this one",
        again,
        "merge the two into one, or rename one of them",
    )


def too_deep(line: int | None) -> Refused:
    return Refused(
        f"mappings and lists nest more than {YAML_MAX_DEPTH} levels deep",
        line,
        "flatten the document; no file docgen reads needs that depth",
    )


def long_integer(text: str) -> Refused | None:
    """The integer too long for Python to read (past `sys.get_int_max_str_digits()`) that made the parser
    fail, at its line; None when the text has none (the failure was something else)."""
    limit = sys.get_int_max_str_digits()
    for match in re.finditer(r"[0-9][0-9_]*", text):  # one pass over the text, whatever its digits
        digits = match.end() - match.start() - text.count("_", match.start(), match.end())
        if limit and digits > limit:
            return Refused(
                f"an integer of {digits:,} digits; docgen reads integers of at most {limit:,} digits",
                text.count("\n", 0, match.start()) + 1,
                "write a smaller number, or quote it to make it text",
            )
    return None
