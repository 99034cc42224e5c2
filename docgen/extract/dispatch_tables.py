"""The functions of the dispatch tables a `try` body looks a callable up in (`handler = TABLE.get(name)` or
`TABLE[name]`, a module-level dict of functions, `**OTHER` tables included), for `handlers`."""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping

import griffe

from docgen.core.errors import SourceError
from docgen.extract.targets import CallTargets, resolved

MAX_TABLE_DEPTH = 4
"""How many levels of `**OTHER_TABLE` a dispatch table's functions are looked for through; one more is an
error at the `try` statement."""


class _DeepTables(Exception):
    """A dispatch table nested past MAX_TABLE_DEPTH (its path as the argument)."""


class DispatchTables:
    """Reads module-level dict literals of functions from the syntax trees of the loaded modules."""

    def __init__(self, modules: Mapping[str, ast.Module], targets: CallTargets) -> None:
        self.modules = modules
        self.targets = targets

    def functions_used(
        self, statements: list[ast.stmt], function: ast.AST, module: griffe.Module, place: tuple[str, int]
    ) -> Iterator[griffe.Function]:
        """The functions of the tables the statements (of `function`, in `module`) look a callable up in;
        `place` (file, line) is the `try` statement they sit under."""
        tables = _table_locals(function)
        used = {n.id for s in statements for n in ast.walk(s) if isinstance(n, ast.Name)}
        for name in sorted(used):
            table = tables.get(name, name)
            try:
                yield from self._table_functions(table, module, depth=0)
            except _DeepTables as err:
                raise SourceError(
                    f"the dispatch table {table} includes tables (`**OTHER`) more than {MAX_TABLE_DEPTH} "
                    f"deep, down to {err.args[0]}; docgen follows at most {MAX_TABLE_DEPTH}",
                    file=place[0],
                    line=place[1],
                    hint="merge the nested tables into fewer levels",
                ) from None

    def _table_functions(self, name: str, module: griffe.Module, depth: int) -> Iterator[griffe.Function]:
        attribute = resolved(module.members.get(name), self.targets.follow)
        if not isinstance(attribute, griffe.Attribute):
            return
        if depth > MAX_TABLE_DEPTH:
            raise _DeepTables(attribute.path)
        value = _assigned_dict(self.modules.get(attribute.module.path), attribute.name)
        if value is None:
            return
        home = attribute.module
        for key, item in zip(value.keys, value.values, strict=True):
            if key is None and isinstance(item, ast.Name):  # `**OTHER_TABLE`
                yield from self._table_functions(item.id, home, depth + 1)
            elif isinstance(item, ast.Name):
                function = resolved(home.members.get(item.id), self.targets.follow)
                if isinstance(function, griffe.Function) and function.path in self.targets.nodes:
                    yield function


def _table_locals(function: ast.AST) -> dict[str, str]:
    """Local name -> the module-level name it was looked up in: `x = TABLE.get(k)`, `x = TABLE[k]`."""
    tables: dict[str, str] = {}
    for node in ast.walk(function):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            value = node.value
            if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute):
                value = value.func.value if value.func.attr == "get" else value
            elif isinstance(value, ast.Subscript):
                value = value.value
            if isinstance(value, ast.Name):
                tables[node.targets[0].id] = value.id
    return tables


def _assigned_dict(module: ast.Module | None, name: str) -> ast.Dict | None:
    """The dict literal assigned to `name` at the top level of `module`."""
    for statement in module.body if module is not None else ():
        targets = (
            statement.targets
            if isinstance(statement, ast.Assign)
            else [statement.target]
            if isinstance(statement, ast.AnnAssign)
            else []
        )
        value = getattr(statement, "value", None)
        if any(isinstance(t, ast.Name) and t.id == name for t in targets) and isinstance(value, ast.Dict):
            return value
    return None
