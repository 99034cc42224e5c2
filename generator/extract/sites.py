"""Find every call of the error constructor in the scanned functions, and resolve what it says.

griffe models modules, functions and constants but not what happens inside a function body, so a small griffe
extension keeps each function's AST node (and each module's source) while griffe visits it; `calls`
finds the calls and their guarding conditions, and the code below resolves what each call says.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import griffe

from generator.core.errors import ConfigError, SourceError, suggest
from generator.core.models import Source
from generator.core.settings import CatalogConfig, relative_path
from generator.extract.calls import Call, callee_name, template
from generator.extract.handlers import HandlerRaises, RaiseIndex
from generator.extract.reach import Reach, Where, local_name
from generator.extract.resolve import Resolver, Unresolvable
from generator.extract.silence import Silence


class FunctionBodies(griffe.Extension):
    """A griffe extension that remembers the AST node of every function it visits, by dotted path, with the
    source text it was parsed from (so that the text's lines are the node's line numbers)."""

    def __init__(self) -> None:
        super().__init__()
        self.nodes: dict[str, ast.FunctionDef | ast.AsyncFunctionDef] = {}
        self.code: dict[str, str] = {}
        self.trees: dict[bytes, ast.Module] = {}
        """Each module's whole tree, by the bytes it was parsed from (for `SourceFiles.adopt`)."""
        self.modules: dict[str, ast.Module] = {}
        """Each module's whole tree, by its dotted path (for its top-level tables of functions)."""

    def on_module_node(self, *, node: Any, agent: Any, **kwargs: Any) -> None:
        code = getattr(agent, "code", None)
        if isinstance(node, ast.Module) and isinstance(code, str):
            # griffe reads files with universal newlines and without a BOM: the encoded text is the file's
            # bytes only when it has neither, and only then can a reader of the file find this tree.
            self.trees[code.encode("utf-8")] = node

    def on_module_instance(self, *, node: Any, mod: griffe.Module, agent: Any, **kwargs: Any) -> None:
        if isinstance(node, ast.Module):
            self.modules[mod.path] = node

    def on_function_instance(self, *, node: Any, func: griffe.Function, agent: Any, **kwargs: Any) -> None:
        code = getattr(agent, "code", None)  # only griffe's visitor parses source
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and isinstance(code, str):
            self.nodes[func.path] = node
            self.code[func.path] = code


@dataclass(frozen=True)
class ErrorSite:
    """One call of the error constructor, with everything resolved to values."""

    function: str
    file: str
    line: int
    end_line: int
    code: int
    status: int
    message: str
    data_keys: tuple[str, ...]
    conditions: tuple[str, ...]
    draft_cause: str | None
    constants_used: tuple[str, ...]
    path: tuple[str, ...] = ()
    """The configured function, then each helper on the way to `function`."""
    helpers: tuple[tuple[str, str], ...] = ()
    """(file, name in that file) of each helper on the path, for the catalog's sources."""
    raises: HandlerRaises | None = None
    """When the call sits in an `except` handler of a class of the loaded source: where it is raised."""


def find_function(module: griffe.Module, name: str, *, what: str = "function") -> griffe.Function:
    """The function `name` (or `Class.method`) of `module`, or a ConfigError with a suggestion."""
    obj: griffe.Object | griffe.Alias = module
    for part in name.split("."):
        member = obj.members.get(part) if isinstance(obj, griffe.Object) else None
        if member is None:
            choices = [
                n for n, m in module.members.items() if not m.is_alias and (m.is_function or m.is_class)
            ]
            raise ConfigError(
                f"{what} '{name}' is not defined in {module.path}",
                file="mkdocs.yml",
                hint=suggest(name, choices) or f"defined there: {', '.join(sorted(choices)) or 'nothing'}",
            )
        obj = member.final_target if isinstance(member, griffe.Alias) else member
    if isinstance(obj, griffe.Class):
        init = obj.members.get("__init__")
        if isinstance(init, griffe.Function):
            return init
    if not isinstance(obj, griffe.Function):
        raise ConfigError(f"{what} '{name}' in {module.path} is not a function", file="mkdocs.yml")
    return obj


def extract_error_sites(
    config: CatalogConfig,
    module: griffe.Module,
    bodies: FunctionBodies,
    resolver: Resolver,
    files: ModuleFiles,
) -> list[ErrorSite]:
    """All constructor calls in the configured functions, in configuration order, then source order.

    A configured function may be imported into the configured module from another one: its calls are
    located in, and its names resolved in, the module that defines it. So are the calls of the helpers it
    reaches (`generator.extract.reach`), each listed where the helper is called. A configured function that
    reaches no call, or a constructor that nothing calls, is a located configuration error.
    """
    constructors = {name: find_function(module, name, what="constructor") for name in config.constructors}
    functions = {name: find_function(module, name) for name in config.functions}
    configured = {function.path for function in [*constructors.values(), *functions.values()]}
    reach = Reach(bodies.nodes, bodies.code, constructors, configured)
    raises = RaiseIndex(module.package, reach.targets, bodies.modules)
    lines: dict[str, list[str]] = {}  # by source text: several functions may share a file
    sites: list[ErrorSite] = []
    silence = Silence(config)
    # The helpers on each path, cited; keyed by the ids of the helpers (alive for the whole run).
    helpers: dict[tuple[int, ...], tuple[tuple[str, str], ...]] = {}
    for function_name, function in functions.items():
        start = reach.start(function, function_name, file=files(function.module))
        for where, found in reach.constructor_calls(start):
            home, file = where.function.module, files(where.function.module)
            constructor_name = callee_name(found.call)
            site = _Site(config, home, resolver, file, constructors[constructor_name])
            if where.code not in lines:
                lines[where.code] = where.code.split("\n")
            key = tuple(map(id, where.helpers))
            if key not in helpers:
                helpers[key] = tuple((files(h.module), local_name(h)) for h in where.helpers)
            behind = raises.behind(where, found, files)
            sites.append(site.build(where, found, lines[where.code], helpers[key], behind))
            silence.heard(function_name, constructor_name)
    by_path = {function.path: name for name, function in functions.items()}
    for name, paths in reach.handoffs.items():
        silence.hands_off(name, {by_path[path] for path in paths if path in by_path})
    silence.raise_unheard(module.path)
    return sites


class ModuleFiles:
    """The file each module was read from, relative to the project root (a package: its `__init__.py`),
    worked out once per module in a run: extract asks once per function, and naming a file resolves it."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._files: dict[str, str] = {}
        self._seen: dict[int, tuple[griffe.Module, str]] = {}
        """By id of the module object (asked once per call site): the module, kept alive, and its file."""

    def __call__(self, module: griffe.Module) -> str:
        seen = self._seen.get(id(module))
        if seen is not None and seen[0] is module:
            return seen[1]
        if module.path not in self._files:
            path = module.filepath[0] if isinstance(module.filepath, list) else module.filepath
            self._files[module.path] = relative_path(path, self.root)
        self._seen[id(module)] = (module, self._files[module.path])
        return self._files[module.path]


def cited_sources(
    config: CatalogConfig, module: griffe.Module, files: ModuleFiles, sites: Sequence[ErrorSite] = ()
) -> tuple[Source, ...]:
    """The files an errors catalog comes from, each with the constructors and functions defined there, by
    their names in that file, in configuration order, then the helpers the sites were reached through, in
    the order of the sites."""
    by_file: dict[str, list[str]] = {}
    named = [(name, "constructor") for name in config.constructors]
    for name, what in [*named, *((name, "function") for name in config.functions)]:
        function = find_function(module, name, what=what)
        local = function.path.removeprefix(f"{function.module.path}.")
        if local.endswith(".__init__") and not name.endswith("__init__"):
            local = local.removesuffix(".__init__")  # a class constructor is cited as the class
        by_file.setdefault(files(function.module), []).append(local)
    for site in sites:
        for file, helper in site.helpers:
            if helper not in by_file.setdefault(file, []):
                by_file[file].append(helper)
    return tuple(Source(path, tuple(symbols)) for path, symbols in by_file.items())


class _Site:
    """Resolves one call's arguments against the argument mapping of the configuration."""

    def __init__(
        self,
        config: CatalogConfig,
        module: griffe.Module,
        resolver: Resolver,
        file: str,
        constructor: griffe.Function,
    ) -> None:
        self.config = config
        self.module = module
        self.resolver = resolver
        self.file = file
        self.constructor = constructor

    def build(
        self,
        where: Where,
        found: Call,
        lines: list[str],
        helpers: tuple[tuple[str, str], ...] = (),
        raises: HandlerRaises | None = None,
    ) -> ErrorSite:
        call = found.call
        self.line = call.lineno
        function = ".".join((where.name, *found.scope))
        code, code_names = self._number("code", call)
        status, status_names = self._number("status", call, default=200)
        return ErrorSite(
            function=function,
            file=self.file,
            line=call.lineno,
            end_line=call.end_lineno or call.lineno,
            code=code,
            status=status,
            message=self._message(call),
            data_keys=self._data_keys(call),
            conditions=found.conditions,
            draft_cause=_comment_above(lines, found.statement),
            constants_used=tuple(sorted({*code_names, *status_names})),
            path=(*where.path[:-1], function),
            helpers=helpers,
            raises=raises,
        )

    def _argument(self, role: str, call: ast.Call) -> ast.expr | str | None:
        """The call's expression for `role`, else the constructor's default as source text, else None."""
        ref = self.config.arguments.get(role)
        if ref is None:
            return None
        if isinstance(ref, int):
            if ref < len(call.args):
                return call.args[ref]
            parameters = list(self.constructor.parameters)
            name = parameters[ref].name if ref < len(parameters) else None
        else:
            name = ref
        for keyword in call.keywords:
            if keyword.arg == name:
                return keyword.value
        if name and name in self.constructor.parameters:
            default = self.constructor.parameters[name].default
            return None if default is None else str(default)
        return None

    def _fail(self, role: str, problem: str, hint: str) -> SourceError:
        return SourceError(
            f"the {role} of this {self.constructor.name}() call {problem}",
            file=self.file,
            line=self.line,
            hint=hint,
        )

    def _number(self, role: str, call: ast.Call, default: int | None = None) -> tuple[int, tuple[str, ...]]:
        expression = self._argument(role, call)
        if expression is None:
            if default is None:
                raise self._fail(role, "is missing", f"pass the {role}, or give the constructor a default")
            return default, ()
        try:
            if isinstance(expression, str):
                resolved = self.resolver.evaluate_text(expression, self.constructor.module)
            else:
                resolved = self.resolver.evaluate(expression, self.module)
        except Unresolvable as err:
            raise self._fail(role, f"is not static: {err}", _STATIC_HINT) from err
        if not isinstance(resolved.value, int) or isinstance(resolved.value, bool):
            raise self._fail(role, f"is {resolved.value!r}, not an integer", _STATIC_HINT)
        return resolved.value, resolved.names

    def _message(self, call: ast.Call) -> str:
        expression = self._argument("message", call)
        if isinstance(expression, ast.JoinedStr):
            return template(expression)
        if expression is None:
            raise self._fail("message", "is missing", "pass a message string")
        try:
            value = (
                self.resolver.evaluate_text(expression, self.constructor.module)
                if isinstance(expression, str)
                else self.resolver.evaluate(expression, self.module)
            ).value
        except Unresolvable as err:
            raise self._fail(
                "message", f"is not static: {err}", "use a string literal or an f-string"
            ) from err
        if not isinstance(value, str):
            raise self._fail("message", f"is {value!r}, not a string", "use a string literal or an f-string")
        return value

    def _data_keys(self, call: ast.Call) -> tuple[str, ...]:
        expression = self._argument("data", call)
        if expression is None or isinstance(expression, str) or _is_none(expression):
            return ()
        if isinstance(expression, ast.Dict) and all(isinstance(k, ast.Constant) for k in expression.keys):
            return tuple(sorted(str(k.value) for k in expression.keys if isinstance(k, ast.Constant)))
        if isinstance(expression, ast.Call) and callee_name(expression) == "dict" and not expression.args:
            return tuple(sorted(k.arg for k in expression.keywords if k.arg))
        raise self._fail("data", "is not a dict literal", "write data as {'key': value, ...} at the call")


_STATIC_HINT = (
    "use a literal, a module constant, an IntEnum or HTTPStatus member, or simple arithmetic of those"
)


def _is_none(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and node.value is None


def _comment_above(lines: list[str], statement: ast.stmt) -> str | None:
    """The comment lines directly above `statement`, joined, as a draft cause."""
    index = statement.lineno - 2
    found: list[str] = []
    while index >= 0 and lines[index].strip().startswith("#"):
        found.insert(0, lines[index].strip().lstrip("#").strip())
        index -= 1
    text = " ".join(part for part in found if part)
    return text or None
