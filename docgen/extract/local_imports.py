"""Names a function imports in its own body (`from litestar.exceptions import NotFoundException` inside a
route handler, to load it only when used): what each stands for, so that a raise or a call of such a name
is read as one of a module-level import is.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterable

import griffe

from docgen.extract.calls import FunctionNode
from docgen.extract.program import Program


def imported_in(node: FunctionNode, module: griffe.Module) -> dict[str, str]:
    """Name -> the dotted path it stands for, for each `import` and `from ... import` in `node`'s body
    (nested blocks included; a relative import from `module`'s package)."""
    found: dict[str, str] = {}
    for name, level, source, imported in _imports(node):
        base = _base(level, source, module)
        found[name] = f"{base}.{imported}" if base and imported else base or imported
    return found


@functools.lru_cache(maxsize=4096)
def _imports(node: FunctionNode) -> tuple[tuple[str, int, str, str], ...]:
    """(bound name, level, module, name imported from it; "" for a whole module) of each import in `node`,
    read once per function: the walk asks for every call it cannot otherwise name."""
    found: list[tuple[str, int, str, str]] = []
    for statement in ast.walk(node):
        if isinstance(statement, ast.ImportFrom):
            found.extend(
                (alias.asname or alias.name, statement.level, statement.module or "", alias.name)
                for alias in statement.names
            )
        elif isinstance(statement, ast.Import):
            for alias in statement.names:  # `import a.b` binds `a`
                bound = alias.asname or alias.name.split(".")[0]
                found.append((bound, 0, alias.name if alias.asname else bound, ""))
    return tuple(found)


def _base(level: int, source: str, module: griffe.Module) -> str:
    if not level:
        return source
    parts = module.path.split(".") if module.is_init_module else module.path.split(".")[:-1]
    parts = parts[: len(parts) - level + 1]
    return ".".join([*parts, *([source] if source else [])])


def qualify_here(
    program: Program, node: ast.expr, module: griffe.Module, function: FunctionNode, *, anywhere: bool = True
) -> str | None:
    """The dotted path `node` stands for in `function` of `module`: a module-level name, else one the
    function imports in its own body (`NotFoundException`, `exceptions.NotFoundException`), its module read
    into the program; with `anywhere` false, only from the module's own top-level package."""
    path = program.qualify(node, module)
    if path is not None:
        return path
    attributes: list[str] = []
    while isinstance(node, ast.Attribute):
        attributes.insert(0, node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    imported = imported_in(function, module).get(node.id)
    if imported is None or not (anywhere or imported.split(".")[0] == module.path.split(".")[0]):
        return None
    program.load(imported.rpartition(".")[0] or imported)
    return program.final_path(".".join([imported, *attributes]))


def load_local_imports(program: Program, functions: Iterable[tuple[FunctionNode, griffe.Module]]) -> bool:
    """Loads the modules of each function's own top-level package that it imports in its body (an app
    factory's `import shop.blueprint.backups as backups`, airflow's `init_views` importing its routers), so
    that what they declare is read with the rest; whether any module is new."""
    before = len(program.objects)
    for node, module in functions:
        top = module.path.split(".")[0]
        for imported in imported_in(node, module).values():
            if imported.split(".")[0] == top and imported not in program.objects:
                program.load(imported) or program.load(imported.rpartition(".")[0])
    return len(program.objects) != before
