"""A routes catalog's web framework when its configuration does not name one: the framework whose packages
(`Framework.import_roots`) the application's modules import. None, or more than one, is a configuration
error at the catalog's `source:` line that says what was found, since guessing would document the wrong
application."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from docgen.core.errors import ConfigError
from docgen.core.settings import FRAMEWORKS, CatalogConfig
from docgen.extract.program import Program
from docgen.extract.resolve import Resolver
from docgen.extract.routes import Framework, framework_named


def detected_framework(config: CatalogConfig, program: Program, resolver: Resolver) -> Framework:
    """The one known framework whose packages `program` imports."""
    imported = imported_roots(program)
    found: list[tuple[Framework, list[str]]] = []
    every_root: set[str] = set()
    for name in FRAMEWORKS.names():
        framework = framework_named(name, resolver)
        roots = framework.import_roots
        every_root |= roots
        if roots & imported.keys():
            found.append((framework, [imported[root] for root in sorted(roots & imported.keys())]))
    if len(found) == 1:
        return found[0][0]
    where = f"'catalogs.{config.name}.source': {config.source}"
    if not found:
        message = f"{where} imports no known web framework (none of {', '.join(sorted(every_root))})"
    else:
        each = "; ".join(f"{framework.name} (imported at {', '.join(at)})" for framework, at in found)
        message = f"{where} imports several web frameworks: {each}"
    raise ConfigError(
        message,
        file=config.config_file,
        line=config.lines.get("source"),
        hint=f"set 'framework:' to the application's framework: {', '.join(FRAMEWORKS.names())}",
    )


def imported_roots(program: Program) -> dict[str, str]:
    """The top-level package of each absolute import of `program` -> where it is first imported
    (`shop/main.py:3`)."""
    imported: dict[str, str] = {}
    for module, tree in program.modules():
        for root, line in _import_roots(tree):
            imported.setdefault(root, f"{program.files(module)}:{line}")
    return imported


def _import_roots(tree: ast.Module) -> Iterator[tuple[str, int]]:
    """The top-level package of each absolute import in a module, with its line."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from ((alias.name.split(".")[0], node.lineno) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.module.split(".")[0], node.lineno
