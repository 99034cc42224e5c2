"""What counts as a constructor call, and which argument of a call gives each field of an error.

A configured constructor is a function, a method (`Class.method`, called on `self` or `cls`) or a class. A
class is called through its `__init__`, its own or inherited; a class without one anywhere in its bases (a
dataclass, a NamedTuple, a model) takes its annotated fields in order. Positions in an argument map count the
arguments a caller writes: after `self` or `cls`. A field mapped to a keyword is found by keyword or by
position, and one mapped to a position by position or by its parameter's keyword, as Python binds them.

Every subclass of a configured class in the loaded source is a constructor too. One that defines `__init__`
and passes its arguments on (`super().__init__(404, msg)`) is read through that call: a field the subclass
fixes comes from the subclass, a field it passes on comes from the caller's argument.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace

import griffe

from generator.core.errors import ConfigError, ConfigErrors, SourceError, suggest
from generator.core.settings import ArgumentRef, CatalogConfig
from generator.extract.calls import callee_name
from generator.extract.resolve import Resolver, Unresolvable

MAX_FORWARDS = 8
"""How many `super().__init__` calls one field is followed through (subclass of a subclass of ...)."""


@dataclass(frozen=True)
class Parameter:
    """A parameter a caller passes, after `self`/`cls`; `default` as source text, None when required."""

    name: str
    default: str | None = None
    keyword_only: bool = False
    variadic: bool = False


@dataclass(frozen=True)
class Forward:
    """A subclass's `super().__init__(...)` call, and the constructor it reaches."""

    call: ast.Call
    target: Constructor


@dataclass(frozen=True)
class Constructor:
    """One way of building an error, as calls name it."""

    name: str
    """The name calls use: the last part of `Class.method`, or the class name."""
    configured: str
    """The name it was configured by (for a subclass: its own name)."""
    obj: griffe.Object
    """The function, method or class itself."""
    module: griffe.Module
    """Where its defaults and the arguments of its forwarding call are evaluated."""
    parameters: tuple[Parameter, ...]
    arguments: Mapping[str, ArgumentRef] = field(default_factory=dict)
    forward: Forward | None = None


@dataclass(frozen=True)
class Bound:
    """The expression that gives a field at one call: source text of a default, or a node of a call."""

    node: ast.expr | str
    module: griffe.Module


def bind(
    constructor: Constructor, call: ast.Call, role: str, scope: griffe.Module, depth: int = 0
) -> Bound | None:
    """The expression of `call` (made in `scope`) that gives `role`, else the default that does; None when
    the configuration maps no argument to `role`."""
    ref = constructor.arguments.get(role)
    forward = constructor.forward
    if ref is None and forward is not None and depth < MAX_FORWARDS:
        inner = bind(forward.target, forward.call, role, constructor.module, depth + 1)
        names = {parameter.name for parameter in constructor.parameters}
        passed_on = inner is not None and isinstance(inner.node, ast.Name) and inner.node.id in names
        if passed_on and inner is not None and isinstance(inner.node, ast.Name):
            return _bind_parameter(constructor, call, inner.node.id, scope)
        return inner
    if ref is None:
        return None
    if isinstance(ref, str):
        return _bind_parameter(constructor, call, ref, scope)
    variadic = next((i for i, p in enumerate(constructor.parameters) if p.variadic), None)
    args = _positional(call)
    if (variadic is not None and ref >= variadic) or ref < len(args):
        return Bound(args[ref], scope) if ref < len(args) else None
    parameters = constructor.parameters
    return _bind_parameter(constructor, call, parameters[ref].name, scope) if ref < len(parameters) else None


def maps(constructor: Constructor, role: str) -> bool:
    """Whether some argument map on the way gives `role`."""
    for _ in range(MAX_FORWARDS + 1):
        if role in constructor.arguments:
            return True
        if constructor.forward is None:
            return False
        constructor = constructor.forward.target
    return False


def _positional(call: ast.Call) -> list[ast.expr]:
    """The call's positional arguments, up to a `*args` (after which positions cannot be told)."""
    args: list[ast.expr] = []
    for argument in call.args:
        if isinstance(argument, ast.Starred):
            break
        args.append(argument)
    return args


def _bind_parameter(
    constructor: Constructor, call: ast.Call, name: str, scope: griffe.Module
) -> Bound | None:
    for keyword in call.keywords:
        if keyword.arg == name:
            return Bound(keyword.value, scope)
    parameters = constructor.parameters
    index = next((i for i, p in enumerate(parameters) if p.name == name), None)
    if index is None:
        return None
    args = _positional(call)
    if not parameters[index].keyword_only and index < len(args):
        return Bound(args[index], scope)
    default = parameters[index].default
    return None if default is None else Bound(default, constructor.module)


class ConstructorTable:
    """The constructors of one catalog, by the name calls use, configured ones and their subclasses."""

    def __init__(
        self, config: CatalogConfig, module: griffe.Module, resolver: Resolver, bodies: Bodies
    ) -> None:
        self.config = config
        self.module = module
        self.resolver = resolver
        self.bodies = bodies
        self.by_name: dict[str, Constructor] = {}
        errors: list[ConfigError] = []
        for configured in config.constructors:
            try:
                self._add(self._configured(configured))
            except ConfigError as err:
                errors.append(err)
        if errors:
            raise ConfigErrors(errors) if len(errors) > 1 else errors[0]
        self._add_wrappers()
        self._add_subclasses()

    def _add_wrappers(self) -> None:
        """A configured function that calls another configured constructor takes the fields its own map
        leaves out from that call (`def not_found(msg): return api_error(404, msg)` fixes the status)."""
        for name, constructor in list(self.by_name.items()):
            if not isinstance(constructor.obj, griffe.Function):
                continue
            others = {n: c for n, c in self.by_name.items() if n != name}
            call = _call_of(self.bodies.get(constructor.obj.path), others)
            if call is not None:
                target = others[callee_name(call)]
                self.by_name[name] = replace(constructor, forward=Forward(call, target))

    def _add(self, constructor: Constructor) -> None:
        self.by_name.setdefault(constructor.name, constructor)

    def _configured(self, name: str) -> Constructor:
        obj = lookup(self.module, name, self.resolver, self.config, what="constructor")
        arguments = self.config.constructor_arguments.get(name, self.config.arguments)
        if isinstance(obj, griffe.Class):
            return replace(self._of_class(obj, name), arguments=arguments, forward=None)
        if not isinstance(obj, griffe.Function):
            raise _config_error(self.config, "constructors", name, "is not a function, method or class")
        return Constructor(obj.name, name, obj, obj.module, _parameters(obj), arguments)

    def _of_class(self, cls: griffe.Class, name: str) -> Constructor:
        init = self._init(cls)
        if init is not None:
            return Constructor(cls.name, name, cls, cls.module, _parameters(init))
        return Constructor(cls.name, name, cls, cls.module, _fields(cls))

    def _init(self, cls: griffe.Class) -> griffe.Function | None:
        """The `__init__` a call of `cls` runs: its own, or the first of its bases' that the source has."""
        for klass in self._mro(cls):
            init = klass.members.get("__init__")
            if isinstance(init, griffe.Function):
                return init
        return None

    def _mro(self, cls: griffe.Class) -> Iterator[griffe.Class]:
        seen: set[str] = set()
        pending = [cls]
        while pending and len(seen) < 64:
            klass = pending.pop(0)
            if klass.path in seen:
                continue
            seen.add(klass.path)
            yield klass
            pending.extend(self._bases(klass))

    def _bases(self, cls: griffe.Class) -> list[griffe.Class]:
        found: list[griffe.Class] = []
        for base in cls.bases:
            try:
                target = self.resolver.reference(str(base), cls.module)
            except (Unresolvable, SourceError):
                continue  # a builtin base such as Exception, or one outside what can be read
            if isinstance(target, griffe.Class):
                found.append(target)
        return found

    def _add_subclasses(self) -> None:
        """Every class of the loaded source derived from a configured class becomes a constructor.

        Bases are resolved only for classes one of whose bases is spelt with the name of a class already
        known to derive (`class NotFound(errors.ApiError)`), so the classes of a large package cost a look
        at their base names, and resolving reads no module for a class that cannot be one.
        """
        done = {c.obj.path: c for c in self.by_name.values() if isinstance(c.obj, griffe.Class)}
        if not done or self.resolver.modules is None:
            return
        classes = list(self.resolver.modules.classes())
        grew = True
        while grew:
            grew = False
            names = {constructor.obj.name for constructor in done.values()}
            for cls in classes:
                if cls.path in done or not any(str(b).rsplit(".", 1)[-1] in names for b in cls.bases):
                    continue
                parent = next((done[b.path] for b in self._bases(cls) if b.path in done), None)
                if parent is not None:
                    done[cls.path] = self._derived(cls, parent)
                    grew = True
        for constructor in done.values():
            self._add(constructor)

    def _derived(self, cls: griffe.Class, parent: Constructor) -> Constructor:
        init = cls.members.get("__init__")
        if not isinstance(init, griffe.Function):
            return replace(parent, name=cls.name, configured=cls.name, obj=cls)
        call = _forwarding_call(self.bodies.get(init.path), parent.name)
        if call is None:
            # An __init__ that passes nothing on: its own parameters, mapped as the parent's are.
            return Constructor(cls.name, cls.name, cls, cls.module, _parameters(init), parent.arguments)
        return Constructor(
            cls.name, cls.name, cls, cls.module, _parameters(init), forward=Forward(call, parent)
        )


Bodies = Mapping[str, "ast.FunctionDef | ast.AsyncFunctionDef"]


def lookup(
    module: griffe.Module, name: str, resolver: Resolver, config: CatalogConfig | None, *, what: str
) -> griffe.Object:
    """The function, method or class `name` (dotted for `Class.method`) of `module`, imports followed."""
    key = "constructors" if what == "constructor" else "functions"
    obj: griffe.Object = module
    for part in name.split("."):
        member = obj.members.get(part)
        if member is None:
            hint = suggest(name, defined_names(module)) or _listing(module)
            raise _config_error(config, key, name, f"is not defined in {module.path}", hint)
        if isinstance(member, griffe.Alias):
            try:
                target = resolver.target(member, "it")
            except (Unresolvable, SourceError) as err:
                if isinstance(err, SourceError) and err.file is not None:
                    raise  # a file on the way cannot be read: the error names it
                reason = err.reason if isinstance(err, Unresolvable) else err.message
                raise _config_error(config, key, name, reason.removeprefix("it "), _INSTALL_HINT) from None
            if not isinstance(target, griffe.Object):
                raise _config_error(config, key, name, "names a standard-library object")
            member = target
        obj = member
    return obj


_INSTALL_HINT = "install the package where docgen runs, or add its folder to 'python_path:' in mkdocs.yml"


def _config_error(
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


def _parameters(function: griffe.Function) -> tuple[Parameter, ...]:
    parameters = list(function.parameters)
    is_method = isinstance(function.parent, griffe.Class) and "staticmethod" not in _decorators(function)
    if is_method and parameters and parameters[0].kind is not griffe.ParameterKind.keyword_only:
        parameters = parameters[1:]
    return tuple(
        Parameter(
            name=p.name,
            default=None if p.default is None else str(p.default),
            keyword_only=p.kind is griffe.ParameterKind.keyword_only,
            variadic=p.kind is griffe.ParameterKind.var_positional,
        )
        for p in parameters
        if p.kind is not griffe.ParameterKind.var_keyword
    )


def _decorators(function: griffe.Function) -> set[str]:
    return {str(decorator.value).rsplit(".", 1)[-1] for decorator in function.decorators}


def _fields(cls: griffe.Class) -> tuple[Parameter, ...]:
    """A class without `__init__`: its annotated attributes in order (dataclass, NamedTuple, model), or, when
    it has none, Python's own `Exception(*args)`."""
    fields = [
        Parameter(m.name, None if m.value is None else str(m.value))
        for m in cls.members.values()
        if isinstance(m, griffe.Attribute)
        and m.annotation is not None
        and "ClassVar" not in str(m.annotation)
    ]
    fields.sort(key=lambda p: cls.members[p.name].lineno or 0)
    return tuple(fields) or (Parameter("args", variadic=True),)


def _call_of(
    node: ast.FunctionDef | ast.AsyncFunctionDef | None, constructors: Mapping[str, Constructor]
) -> ast.Call | None:
    """The first call in a function body of one of `constructors`."""
    if node is None:
        return None
    for inner in ast.walk(node):
        if isinstance(inner, ast.Call) and callee_name(inner) in constructors:
            return inner
    return None


def _forwarding_call(node: ast.FunctionDef | ast.AsyncFunctionDef | None, parent: str) -> ast.Call | None:
    """The `super().__init__(...)` (or `Parent.__init__(self, ...)`) call in an `__init__` body."""
    if node is None:
        return None
    for inner in ast.walk(node):
        if not isinstance(inner, ast.Call) or not isinstance(inner.func, ast.Attribute):
            continue
        if inner.func.attr != "__init__":
            continue
        base = inner.func.value
        if isinstance(base, ast.Call) and isinstance(base.func, ast.Name) and base.func.id == "super":
            return inner
        if isinstance(base, ast.Name) and base.id == parent and inner.args:
            return ast.Call(func=inner.func, args=inner.args[1:], keywords=inner.keywords)
    return None
