"""Configured names (`function`, `Class.method`, `Class`) looked up in the loaded source, imports followed;
a name that is not there is a ConfigError at its line in the configuration, with names that are."""

from __future__ import annotations

import griffe

from docgen.core.errors import ConfigError, SourceError, suggest
from docgen.core.settings import CatalogConfig
from docgen.extract.imports import ImportFailure
from docgen.extract.resolve import Resolver, Unresolvable


def lookup(
    module: griffe.Module, name: str, resolver: Resolver, config: CatalogConfig | None, *, what: str
) -> griffe.Object:
    """The function, method or class `name` (dotted for `Class.method`) of `module`, imports followed.

    A name whose first part `module` does not define is a dotted path: from the package `module` is (a
    source that names a package: `errors.ApiError`), or from the top (`myapp.api.views.UserView.get`, or an
    installed package's `werkzeug.exceptions.NotFound`).
    """
    key = "constructors" if what == "constructor" else "functions"
    obj: griffe.Object = module
    parts = name.split(".")
    if parts[0] not in module.members and len(parts) > 1:
        obj, parts = _dotted(module, parts, resolver)
    for part in parts:
        member = obj.members.get(part)
        if member is None and isinstance(obj, griffe.Module) and resolver.modules is not None:
            member = resolver.modules.module(f"{obj.path}.{part}")
        if member is None:
            home = obj if isinstance(obj, griffe.Module) else module  # `Class.method`: the source's names
            hint = suggest(name if home is module else part, defined_names(home)) or _listing(home)
            raise config_error(config, key, name, f"is not defined in {home.path}", hint)
        if isinstance(member, griffe.Alias):
            member = _followed(member, resolver, config, key, name)
        obj = member
    return obj


def _dotted(module: griffe.Module, parts: list[str], resolver: Resolver) -> tuple[griffe.Object, list[str]]:
    """The deepest module that a dotted name's leading parts name, and the parts left to look up in it;
    `module` itself, with every part, when none does."""
    modules = resolver.modules
    if modules is None:
        return module, parts
    is_package = str(module.filepath).endswith("__init__.py")
    starts = [[module.path], []] if is_package else [[]]
    for start in starts:
        for end in range(len(parts) - 1, 0, -1):
            found = modules.module(".".join([*start, *parts[:end]]))
            if found is not None:
                return found, parts[end:]
    return module, parts


def _followed(
    member: griffe.Alias, resolver: Resolver, config: CatalogConfig | None, key: str, name: str
) -> griffe.Object:
    """What an imported name stands for, or the configuration error saying why it cannot be followed."""
    try:
        target = resolver.target(member, "it")
    except (Unresolvable, SourceError) as err:
        if isinstance(err, SourceError) and err.file is not None and not isinstance(err, ImportFailure):
            raise  # a file on the way cannot be read: the error names it
        reason = err.reason if isinstance(err, Unresolvable) else err.message
        if isinstance(err, ImportFailure):
            reason += f" (the import at {err.location})"
        raise config_error(config, key, name, reason.removeprefix("it "), _INSTALL_HINT) from None
    if not isinstance(target, griffe.Object):
        raise config_error(config, key, name, "names a standard-library object")
    return target


_INSTALL_HINT = "install the package where docgen runs, or add its folder to 'python_path:' in mkdocs.yml"


def config_error(
    config: CatalogConfig | None, key: str, name: str, problem: str, hint: str | None = None
) -> ConfigError:
    what = "constructor" if key == "constructors" else "function"
    return ConfigError(
        f"{where(config, key)}{what} '{name}' {problem}",
        file=config.config_file if config else "mkdocs.yml",
        line=config.lines.get(f"{key}.{name}") if config else None,
        hint=hint,
    )


def where(config: CatalogConfig | None, key: str) -> str:
    """The configuration key a message is about, as its prefix."""
    return f"'catalogs.{config.name}.{key}': " if config else ""


def defined_names(module: griffe.Module) -> list[str]:
    """The names a configuration may give for `module`: its functions and classes, each class's methods as
    `Class.method`, and the names imported into it."""
    names: list[str] = []
    for name, member in module.members.items():
        if member.is_alias or member.is_function:
            names.append(name)
        elif isinstance(member, griffe.Class):
            names.append(name)
            names.extend(f"{name}.{m}" for m, method in member.members.items() if method.is_function)
    return names


def _listing(module: griffe.Module) -> str:
    names = sorted(defined_names(module))
    shown = ", ".join(names[:12]) + (", ..." if len(names) > 12 else "")
    return f"defined or imported there: {shown or 'nothing'}"
