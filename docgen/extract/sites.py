"""Find every call of the error constructor in the scanned functions, and resolve what it says.

griffe models modules, functions and constants but not what happens inside a function body, so a small griffe
extension (`source.FunctionBodies`) keeps each function's AST node (and each module's source) while griffe
visits it; `calls` finds the calls and their guarding conditions, and the code below resolves what each call
says.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence

import griffe

from docgen.core.errors import ConfigError, ConfigErrors, SourceError, SourceErrors
from docgen.core.fingerprints import call_span
from docgen.core.models import ErrorEntry, Source
from docgen.core.settings import CatalogConfig
from docgen.extract.binding import Constructor
from docgen.extract.calls import Call, callee_name
from docgen.extract.constructors import ConstructorTable
from docgen.extract.fields import ErrorSite, SiteReader
from docgen.extract.framework_errors import FrameworkErrors
from docgen.extract.handlers import RaiseIndex
from docgen.extract.local_names import LocalNames, local_names, parameter_names
from docgen.extract.names import lookup, where
from docgen.extract.reach import Reach, Where
from docgen.extract.resolve import Resolver
from docgen.extract.silence import Silence, satisfied_names
from docgen.extract.source import FunctionBodies, ModuleFiles
from docgen.extract.targets import DeepClasses, local_name, project_aliases
from docgen.extract.translated import with_local_messages

__all__ = [
    "ErrorSite",
    "cited_sources",
    "extract_error_sites",
    "find_function",
    "root_sources",
    "scanned_functions",
]


def find_function(
    module: griffe.Module,
    name: str,
    resolver: Resolver,
    config: CatalogConfig | None = None,
    *,
    what: str = "function",
) -> griffe.Function:
    """The function `name` (or `Class.method`, or a class's `__init__`) of `module`, imports followed; a
    ConfigError located at the configuration's line, with suggestions, when there is none."""
    obj = lookup(module, name, resolver, config, what=what)
    if isinstance(obj, griffe.Class):
        init = obj.members.get("__init__")
        if isinstance(init, griffe.Function):
            return init
    if not isinstance(obj, griffe.Function):
        key = "constructors" if what == "constructor" else "functions"
        raise ConfigError(
            f"{where(config, key)}'{name}' in {module.path} is not a function",
            file=config.config_file if config else "mkdocs.yml",
            line=config.lines.get(f"{key}.{name}") if config else None,
        )
    return obj


def scanned_functions(
    config: CatalogConfig, module: griffe.Module, resolver: Resolver
) -> list[tuple[str, griffe.Function]]:
    """The configured functions, in order; every name that is not one is reported at once."""
    found: list[tuple[str, griffe.Function]] = []
    errors: list[ConfigError] = []
    for name in config.functions:
        try:
            found.append((name, find_function(module, name, resolver, config)))
        except ConfigError as err:
            errors.append(err)
    if errors:
        raise ConfigErrors(errors) if len(errors) > 1 else errors[0]
    return found


def extract_error_sites(
    config: CatalogConfig,
    module: griffe.Module,
    bodies: FunctionBodies,
    resolver: Resolver,
    files: ModuleFiles,
    previous: Sequence[ErrorEntry] = (),
    defaults: FrameworkErrors | None = None,
) -> list[ErrorSite]:
    """All constructor calls in the configured functions, in configuration order, then source order.

    A configured function may be imported into the configured module from another one: its calls are
    located in, and its names resolved in, the module that defines it. So are the calls of the helpers it
    reaches (`docgen.extract.reach`), each listed where the helper is called. A configured function that
    reaches no call, or a constructor that nothing calls, is a located configuration error. `defaults`: the
    catalog's framework, which gives constructors of its own and the values a call leaves out.
    """
    given = defaults.constructors() if defaults is not None else None
    table = ConstructorTable(config, module, resolver, bodies.nodes, given)
    constructors = table.by_name
    functions = scanned_functions(config, module, resolver)
    configured = {c.obj.path for c in constructors.values()} | {f.path for _, f in functions}
    follow = project_aliases(module.package.path, resolver)
    reach = Reach(bodies.nodes, bodies.code, constructors, configured, follow, files)
    raises = RaiseIndex(module.package, reach.targets, bodies.modules)
    builder = _SiteBuilder(config, resolver, files, raises, defaults)
    sites: list[ErrorSite] = []
    silence = Silence(config, satisfied_names(config, module, resolver, constructors))
    problems: list[SourceError] = []
    try:
        for function_name, function in functions:
            start = reach.start(function, function_name, file=files(function.module))
            for at, found in reach.constructor_calls(start):
                constructor = constructors[callee_name(found.call)]
                try:
                    sites.append(builder.site(at, found, constructor))
                except SourceError as err:  # one call's own problem: every such call is reported at once
                    problems.append(err)
                silence.heard(function_name, constructor.configured)
    except DeepClasses as err:
        raise err.located(files) from None
    if problems:
        raise problems[0] if len(problems) == 1 else SourceErrors(problems)
    silence.functions |= reach.reached
    by_path = {function.path: name for name, function in functions}
    for name, paths in reach.handoffs.items():
        silence.hands_off(name, {by_path[path] for path in paths if path in by_path})
    silence.raise_unheard(module.path, gone_from(previous, sites))
    return sites


class _SiteBuilder:
    """Builds the site of one constructor call reached at `Where`, with the helpers it cites and the raise
    sites behind its handler; the texts' lines and the cited helpers are worked out once."""

    def __init__(
        self,
        config: CatalogConfig,
        resolver: Resolver,
        files: ModuleFiles,
        raises: RaiseIndex,
        defaults: FrameworkErrors | None,
    ) -> None:
        self.config, self.resolver, self.files, self.raises = config, resolver, files, raises
        self.defaults = defaults
        self.lines: dict[str, list[str]] = {}  # by source text: several functions may share a file
        self.helpers: dict[tuple[int, ...], tuple[tuple[str, str], ...]] = {}
        """The helpers of a path, cited; keyed by the ids of the helpers (alive for the whole run)."""
        self.names: dict[int, LocalNames] = {}
        """What a function binds, by the id of its node (alive for the whole run, in its syntax tree)."""

    def site(self, at: Where, found: Call, constructor: Constructor) -> ErrorSite:
        home, file = at.function.module, self.files(at.function.module)
        reader = SiteReader(self.config, home, self.resolver, file, constructor, self.defaults)
        if at.code not in self.lines:
            self.lines[at.code] = at.code.split("\n")
        key = tuple(map(id, at.helpers))
        if key not in self.helpers:
            self.helpers[key] = tuple((self.files(h.module), local_name(h)) for h in at.helpers)
        name = ".".join((at.name, *found.scope))
        path, behind = (*at.path[:-1], name), self.raises.behind(at, found, self.files)
        calls = (*((self.files(f.module), call_span(c)) for f, c in at.hops), (file, call_span(found.call)))
        lines = self.lines[at.code]
        read = self._messages_named(found, at, home)
        return reader.build(
            name, read, lines, path=path, helpers=self.helpers[key], raises=behind, calls=calls
        )

    def _messages_named(self, found: Call, at: Where, home: griffe.Module) -> Call:
        """`found` with a local naming a translated message read as the message (`translated`)."""
        named = {
            a.id
            for a in [*found.call.args, *(k.value for k in found.call.keywords)]
            if isinstance(a, ast.Name)
        }
        if named <= parameter_names(at.node):
            return found  # a parameter is never bound once by a call (`request_id`, in nearly every call)
        if id(at.node) not in self.names:
            self.names[id(at.node)] = local_names(at.node)
        call = with_local_messages(found.call, self.names[id(at.node)], home)
        return found if call is found.call else Call(call, found.statement, found.conditions, found.scope)


def gone_from(previous: Sequence[ErrorEntry], sites: Sequence[ErrorSite]) -> set[str]:
    """The configured functions of committed entries that no site states any more (by function and message:
    a removed call, not a changed one)."""
    now = {(site.entry.function, site.entry.message) for site in sites}
    return {entry.reached_by[0] for entry in previous if (entry.function, entry.message) not in now}


def root_sources(
    config: CatalogConfig, module: griffe.Module, files: ModuleFiles, resolver: Resolver
) -> tuple[Source, ...]:
    """The files an errors catalog's configuration names, each with the constructors and functions defined
    there, by their names in that file, in configuration order. A constructor of an installed dependency is
    not a file of the project, and is not cited."""
    by_file: dict[str, list[str]] = {}
    named = [(name, "constructor") for name in config.constructors]
    for name, what in [*named, *((name, "function") for name in config.functions)]:
        obj = lookup(module, name, resolver, config, what=what)
        if not files.inside(obj.module):
            continue
        local = obj.path.removeprefix(f"{obj.module.path}.")
        if local.endswith(".__init__") and not name.endswith("__init__"):
            local = local.removesuffix(".__init__")  # a class constructor is cited as the class
        by_file.setdefault(files(obj.module), []).append(local)
    return tuple(Source(path, tuple(symbols)) for path, symbols in by_file.items())


def cited_sources(roots: Sequence[Source], sites: Sequence[ErrorSite]) -> tuple[Source, ...]:
    """The files an errors catalog comes from: `roots` (`root_sources`), then the helpers the sites were
    reached through, in the order of the sites."""
    by_file = {source.path: list(source.symbols) for source in roots}
    for site in sites:
        for file, helper in site.helpers:
            if helper not in by_file.setdefault(file, []):
                by_file[file].append(helper)
    return tuple(Source(path, tuple(symbols)) for path, symbols in by_file.items())
