"""Where an imported name leads when griffe cannot follow it: names a module gets from `from m import *`,
and the located error for an import that leads nowhere.

An error names the import statement at fault (`file:line`), so that a name imported through a few modules
is blamed where the chain breaks: a package that is not installed where docgen reads the source, a module
that does not define the name (not even through its star imports), a name a module imports from itself, a
cycle of imports, or a chain of re-exports longer than docgen follows.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import griffe

from docgen.core.errors import SourceError
from docgen.extract.unreadable import UndefinedName

MAX_ALIAS_HOPS = 64
"""How many imports one name may be followed through (re-exports, star imports) before docgen refuses it."""


class ImportFailure(SourceError):
    """An import that fails when the server runs, or that leads further than docgen follows; located at the
    import statement, with what is wrong in the message."""


Load = Callable[[str], griffe.Module | None]
Shown = Callable[[griffe.Module], str]
"""The file of a module as messages show it."""


def star_sources(module: griffe.Module) -> list[str]:
    """The modules `module` star-imports (`from package.module import *`), in the order written."""
    return [
        member.target_path
        for name, member in list(module.members.items())
        if name.endswith("/*") and isinstance(member, griffe.Alias)
    ]


class StarSearch:
    """A name looked for in a module and, breadth first, in the modules it star-imports."""

    def __init__(self, module: griffe.Module, name: str, load: Load) -> None:
        self.name = name
        self.searched: list[str] = []
        """The modules looked in, in order (the first is `module`)."""
        self.unread: list[str] = []
        """Star-imported modules that could not be read: the name may come from one of them."""
        self.overflow = False
        """True when the star imports lead through more than MAX_ALIAS_HOPS modules (the search stopped)."""
        self.module = module
        self._getattr = False
        self.found = self._search(module, load)

    @property
    def made_at_run_time(self) -> bool:
        """True when the name may still exist when the server runs: a module of the search makes names on
        demand (a module `__getattr__`), or a star-imported module could not be read."""
        return bool(self.unread) or self._getattr

    def _search(self, module: griffe.Module, load: Load) -> griffe.Object | griffe.Alias | None:
        pending, seen = [module], {module.path}
        while pending:
            if len(self.searched) >= MAX_ALIAS_HOPS:
                self.overflow = True
                return None
            current = pending.pop(0)
            self.searched.append(current.path)
            self._getattr = self._getattr or "__getattr__" in current.members
            member = current.members.get(self.name)
            if member is not None:
                return member
            for dotted in star_sources(current):
                if dotted not in seen:
                    seen.add(dotted)
                    star = load(dotted)
                    self.unread.extend([dotted] if star is None else [])
                    pending.extend([star] if star is not None else [])
        return None


def place(alias: griffe.Alias, shown: Shown) -> tuple[str | None, int | None]:
    """The file and line of the import statement that made `alias` (not of what it names)."""
    home = alias.parent
    while home is not None and not isinstance(home, griffe.Module):
        home = home.parent
    return (shown(home) if home is not None else None), alias.alias_lineno


def undefined(
    alias: griffe.Alias, search: StarSearch, what: str, shown: Shown, itself: int | None
) -> SourceError:
    """The error for `alias`, whose module was read and does not define the name it imports; `itself`: the
    line where that module imports the name from itself, if it does."""
    module, name = alias.target_path.rpartition(".")[::2]
    file, line = place(alias, shown)
    if search.overflow:
        return ImportFailure(
            f"{what} is imported from {module}, whose star imports lead through more than {MAX_ALIAS_HOPS} "
            f"modules without defining {name}; docgen follows at most {MAX_ALIAS_HOPS}",
            file=file,
            line=line,
            hint=f"import {name} from the module that defines it",
        )
    if itself is not None:
        return ImportFailure(
            f"{what} is imported from {module}, which imports {name} from itself and defines no {name}",
            file=shown(search.module),
            line=itself,
            hint=f"define {name} in {module}, or import it there from the module that does",
        )
    if search.made_at_run_time:
        return UndefinedName(
            f"{what} is imported from {alias.target_path}, but {module} does not define {name}",
            file=file,
            line=line,
            hint="a name made only when the module runs (a module __getattr__) cannot be read statically",
        )
    stars = search.searched[1:]
    through = f" (nor do the modules it star-imports: {', '.join(stars)})" if stars else ""
    return ImportFailure(
        f"{what} is imported from {alias.target_path}, but {module} does not define {name}{through}, "
        "so the import fails when the server runs",
        file=file,
        line=line,
        hint=f"define {name} in {module}, or import it from the module that does",
    )


def not_installed(alias: griffe.Alias, what: str, shown: Shown) -> SourceError:
    """The error for `alias`, which imports from a package that is neither in the source nor installed."""
    top = alias.target_path.split(".", maxsplit=1)[0]
    file, line = place(alias, shown)
    return ImportFailure(
        f"{what} is imported from {alias.target_path}, but {top} is not in the source nor installed in the "
        "environment docgen reads",
        file=file,
        line=line,
        hint=f"install {top} in the environment docgen runs in, or add its folder to 'python_path:'",
    )


def import_cycle(alias: griffe.Alias, chain: Sequence[str], what: str, shown: Shown) -> SourceError:
    """The error for `alias`, which leads back to itself through `chain` (dotted names) without a value."""
    names = list(dict.fromkeys(chain))
    modules = sorted({path.rpartition(".")[0] for path in names})
    chain = [*names, names[0]]
    file, line = place(alias, shown)
    return ImportFailure(
        f"{what} is imported in a cycle ({' -> '.join(chain)}): the modules {', '.join(modules)} import it "
        "from each other and none defines it",
        file=file,
        line=line,
        hint="define the name in one of these modules, or import it from the module that defines it",
    )


def too_many_hops(first: griffe.Alias, what: str, shown: Shown) -> SourceError:
    """The error for a name re-exported through more than MAX_ALIAS_HOPS imports, at the first of them."""
    file, line = place(first, shown)
    return ImportFailure(
        f"{what} is imported through more than {MAX_ALIAS_HOPS} names (re-exported from module to module, "
        f"starting with this import of {first.target_path}); docgen follows at most {MAX_ALIAS_HOPS}",
        file=file,
        line=line,
        hint="import the name from the module that defines it, or shorten the chain of re-exports",
    )


class ImportedModules(griffe.Extension):
    """Records the dotted names each module imports, from its syntax tree (griffe keeps only the first
    part of `import a.b`), and the names it imports from itself (which griffe leaves out)."""

    def __init__(self) -> None:
        super().__init__()
        self._names: dict[str, list[str]] = {}
        self._from_itself: dict[str, dict[str, int]] = {}

    def on_module_instance(self, *, node: Any, mod: griffe.Module, **kwargs: Any) -> None:
        if not isinstance(node, ast.Module):
            return
        names: list[str] = []
        pending: list[ast.stmt] = list(node.body)
        while pending:  # statements only: an import is never inside an expression
            statement = pending.pop()
            if isinstance(statement, ast.Import):
                names.extend(alias.name for alias in statement.names)
            elif isinstance(statement, ast.ImportFrom) and _from_module(statement, mod) == mod.path:
                itself = self._from_itself.setdefault(mod.path, {})
                itself.update({alias.name: statement.lineno for alias in statement.names})
            for key in ("body", "orelse", "finalbody", "handlers", "cases"):
                pending.extend(getattr(statement, key, ()))
        self._names[mod.path] = names

    def of(self, module: griffe.Module) -> Iterable[str]:
        """The dotted paths `module` imports: `import` statements anywhere in it, and its imported names."""
        yield from self._names.get(module.path, ())
        for member in list(module.members.values()):
            if isinstance(member, griffe.Alias):
                yield member.target_path

    def from_itself(self, module: griffe.Module, name: str) -> int | None:
        """The line where `module` imports `name` from itself (`from package.module import name` inside
        package/module.py), if it does."""
        return self._from_itself.get(module.path, {}).get(name)


def _from_module(statement: ast.ImportFrom, module: griffe.Module) -> str:
    """The dotted module a `from ... import` statement imports from, relative imports made absolute."""
    if not statement.level:
        return statement.module or ""
    package = module.path if module.is_init_module else module.path.rpartition(".")[0]
    parts = package.split(".")
    base = ".".join(parts[: len(parts) - (statement.level - 1)])
    return f"{base}.{statement.module}" if statement.module else base
