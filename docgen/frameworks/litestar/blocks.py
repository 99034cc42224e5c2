"""Statements as Litestar applications are read: a block's statements with those of the blocks it opens,
and the body of a class of the loaded source."""

from __future__ import annotations

import ast

import griffe

from docgen.extract.program import Program


def class_body(program: Program, klass: griffe.Class) -> list[ast.stmt]:
    """The statements of a class of the loaded source, found in its module's tree by its name and line."""
    tree = program.trees.modules.get(klass.module.path)
    for node in ast.walk(tree) if tree is not None else ():
        if isinstance(node, ast.ClassDef) and node.name == klass.name and node.lineno == klass.lineno:
            return node.body
    return []


def flat(statements: list[ast.stmt]) -> list[ast.stmt]:
    """`statements` and, in order, those of the blocks they open (`if`, `try`, `with`, loops), but not of
    the functions and classes they define."""
    found: list[ast.stmt] = []
    for statement in statements:
        found.append(statement)
        if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            continue
        for block in ("body", "orelse", "finalbody"):
            found.extend(flat(getattr(statement, block, [])))
        for handler in getattr(statement, "handlers", []):
            found.extend(flat(handler.body))
    return found


def local_imports(tree: ast.Module, module: griffe.Module) -> dict[str, str]:
    """The names functions of `module` import in their own bodies (a plugin's `on_app_init` importing what
    it registers, to load it only when used) -> the dotted path each stands for. Names are taken for the
    whole module, as such imports rarely give one name two meanings."""
    found: dict[str, str] = {}
    top = set(tree.body)
    for node in ast.walk(tree):
        if not isinstance(node, ast.ImportFrom) or node in top:
            continue
        base = node.module or ""
        if node.level:  # relative: from the module's package, one level up for each dot past the first
            parts = module.path.split(".") if module.is_init_module else module.path.split(".")[:-1]
            parts = parts[: len(parts) - node.level + 1]
            base = ".".join([*parts, *([node.module] if node.module else [])])
        for alias in node.names:
            found[alias.asname or alias.name] = f"{base}.{alias.name}"
    return found


def qualified(program: Program, node: ast.expr, module: griffe.Module, local: dict[str, str]) -> str | None:
    """The dotted path `node` stands for in `module`, a name its functions import locally included."""
    path = program.qualify(node, module)
    if path is None and isinstance(node, ast.Name) and node.id in local:
        return program.final_path(local[node.id])
    return path
