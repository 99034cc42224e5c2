"""Checks of the docgen section of mkdocs.yml that collect every located error before any is reported: the
validator itself, and the parts of a catalog's configuration that take more than a type check (constructors
with their own argument maps, argument roles, the `python_path:` folders)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from docgen.core.errors import ConfigError, suggest
from docgen.core.yamlio import LoadedYaml

ARGUMENT_ROLES = {"code", "message", "status", "data"}
_NAME_HINTS = {
    "constructors": "the functions, methods (Class.method) or exception classes that build error responses",
    "functions": "the functions whose bodies call the constructor, in page order",
}


@dataclass
class Validator:
    """Collects located configuration errors while settings are built."""

    loaded: LoadedYaml
    base: tuple[str | int, ...]
    """Where the docgen section sits in the file; messages name keys relative to it."""
    errors: list[ConfigError] = field(default_factory=list)

    def fail(self, path: tuple[str | int, ...], message: str, hint: str | None = None) -> None:
        dotted = ".".join(str(part) for part in path[len(self.base) :]) or "docgen"
        self.errors.append(
            ConfigError(
                f"'{dotted}': {message}", file=self.loaded.file, line=self.loaded.line_of(path), hint=hint
            )
        )

    def unknown_keys(self, mapping: Mapping[str, Any], known: set[str], path: tuple[str | int, ...]) -> None:
        for key in mapping:
            if key not in known:
                hint = suggest(str(key), known) or f"known keys: {', '.join(sorted(known))}"
                self.fail((*path, key), "unknown key", hint)

    def flag(self, value: Any, path: tuple[str | int, ...]) -> bool:
        """A yes/no option: `true` or `false`."""
        if not isinstance(value, bool):
            self.fail(path, f"expected true or false, got {value!r}")
            return False
        return value

    def names(self, value: Any, path: tuple[str | int, ...], *, required: bool = True) -> tuple[str, ...]:
        if value is None:
            key = str(path[-1])
            hint = f"add '{key}: [name, ...]' to this catalog ({_NAME_HINTS.get(key, 'names')})"
            self.fail(path, "missing", hint)
            return ()
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
            self.fail(path, f"expected a list of names, got {value!r}", "write a YAML list such as [a, b]")
            return ()
        if required and not value:
            self.fail(path, "expected at least one name")
        return tuple(value)


def source_path(root: Path, source: str) -> Path:
    """The file or folder a catalog's `source:` names: a path relative to mkdocs.yml (`shop/main.py`,
    `shop`), or, when no such path exists, a dotted module or package (`shop.api`) under the project root."""
    given = root / source
    if given.exists() or not _DOTTED.fullmatch(source):
        return given
    dotted = root.joinpath(*source.split("."))
    return dotted if dotted.is_dir() else dotted.with_suffix(".py")


_DOTTED = re.compile(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)+")


def python_path_folders(
    raw: Any, path: tuple[str | int, ...], check: Validator, root: Path
) -> tuple[Path, ...]:
    """The folders of 'python_path:', each inside the project and existing."""
    if isinstance(raw, str):
        raw = [raw]
    if not isinstance(raw, list) or not all(isinstance(item, str) and item for item in raw):
        check.fail(path, f"expected a list of folders relative to mkdocs.yml, got {raw!r}")
        return ()
    folders: list[Path] = []
    for index, item in enumerate(raw):
        folder = (root / item).resolve()
        if not folder.is_relative_to(root):
            check.fail((*path, index), f"{item} is outside the project", "keep docgen's folders inside it")
        elif not folder.is_dir():
            check.fail((*path, index), f"{item} is not a folder", "give a folder relative to mkdocs.yml")
        else:
            folders.append(folder)
    return tuple(folders)


def configured_name_lines(
    raw: Mapping[str, Any], path: tuple[str | int, ...], check: Validator
) -> dict[str, int]:
    """The line of each constructor and function name in the configuration, and of `framework:`, for
    located errors."""
    lines: dict[str, int] = {}
    if "framework" in raw:
        lines["framework"] = check.loaded.line_of((*path, "framework"))
    for key in ("constructors", "functions"):
        value = raw.get(key)
        items = list(value) if isinstance(value, list | dict) else [value]
        for index, item in enumerate(items):
            name = next(iter(item)) if isinstance(item, dict) and item else item
            if isinstance(name, str):
                where = (*path, key, name) if isinstance(value, dict) else (*path, key, index)
                lines[f"{key}.{name}"] = check.loaded.line_of(where)
    return lines


def constructor_maps(
    raw: Any, path: tuple[str | int, ...], check: Validator
) -> tuple[tuple[str, ...], dict[str, dict[str, Any]]]:
    """Constructor names in order, and the argument maps of those given as `Name: {arguments: {...}}`.

    Accepted: a list whose items are names or one-key mappings `Name: {arguments: ...}`, or a mapping of
    name to `{arguments: ...}` (or to nothing, for the catalog's own `arguments`).
    """
    mapping = isinstance(raw, dict)
    if isinstance(raw, dict):
        raw = [{name: value} if value is not None else name for name, value in raw.items()]
    if not isinstance(raw, list) or not raw:
        return check.names(raw, path), {}
    names: list[str] = []
    own: dict[str, dict[str, Any]] = {}
    for index, item in enumerate(raw):
        if isinstance(item, str) and item:
            names.append(item)
        elif isinstance(item, dict) and len(item) == 1 and isinstance(next(iter(item)), str):
            [(name, options)] = item.items()
            names.append(name)
            where = (*path, name) if mapping else (*path, index, name)
            own[name] = _own_arguments(options, where, check)
        else:
            check.fail((*path, index), f"expected a name or 'Name: {{arguments: ...}}', got {item!r}")
    return tuple(names), own


def _own_arguments(options: Any, path: tuple[str | int, ...], check: Validator) -> dict[str, Any]:
    if not isinstance(options, dict):
        check.fail(path, "expected a mapping with 'arguments:'", "write Name: {arguments: {message: 0}}")
        return {}
    check.unknown_keys(options, {"arguments"}, path)
    return role_map(options.get("arguments"), ARGUMENT_ROLES, {"message"}, (*path, "arguments"), check)


def role_map(
    raw: Any,
    roles: set[str],
    required: set[str],
    path: tuple[str | int, ...],
    check: Validator,
    *,
    positions: bool = True,
) -> dict[str, Any]:
    """Role -> argument position or keyword (`positions`), or role -> decorator name (not `positions`)."""
    if not isinstance(raw, dict):
        check.fail(path, f"expected a mapping with keys among {', '.join(sorted(roles))}")
        return {}
    check.unknown_keys(raw, roles, path)
    for role in sorted(required - raw.keys()):
        check.fail(path, f"missing '{role}'", f"add '{role}:' with a position (0-based) or a keyword name")
    result: dict[str, Any] = {}
    for role, value in raw.items():
        # bool is a subclass of int: `code: true` must not silently become position 1.
        position = positions and isinstance(value, int) and not isinstance(value, bool) and value >= 0
        valid = (isinstance(value, str) and value) or position
        if role in roles and not valid:
            expected = "a 0-based position or a name" if positions else "a decorator name"
            check.fail((*path, role), f"expected {expected}, got {value!r}")
        elif role in roles:
            result[role] = value
    return result
