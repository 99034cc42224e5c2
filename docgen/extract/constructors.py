"""What counts as a constructor call: the configured constructors and their subclasses, with their parameters.

A configured constructor is a function, a method (`Class.method`, called on `self` or `cls`) or a class. A
class is called through its `__init__`, its own or inherited; a class without one anywhere in its bases (a
dataclass, a NamedTuple, a model) takes its annotated fields in order. Which argument gives which field is
`binding`'s business.

Every subclass of a configured class in the loaded source is a constructor too. One that defines `__init__`
and passes its arguments on (`super().__init__(404, msg)`) is read through that call: a field the subclass
fixes comes from the subclass, a field it passes on comes from the caller's argument.
"""

from __future__ import annotations

import ast
import contextlib
from collections.abc import Iterator, Mapping
from dataclasses import replace

import griffe

from docgen.core.errors import ConfigError, ConfigErrors, SourceError
from docgen.core.settings import ArgumentRef, CatalogConfig
from docgen.extract.binding import Constructor, Forward, Parameter
from docgen.extract.calls import callee_name
from docgen.extract.names import config_error, lookup
from docgen.extract.resolve import Resolver, Unresolvable
from docgen.extract.targets import MAX_CLASS_BASES, too_many_bases


class ConstructorTable:
    """The constructors of one catalog, by the name calls use, configured ones and their subclasses."""

    def __init__(
        self,
        config: CatalogConfig,
        module: griffe.Module,
        resolver: Resolver,
        bodies: Bodies,
        given: Mapping[str, Mapping[str, ArgumentRef]] | None = None,
    ) -> None:
        """`given`: constructors the catalog's framework gives (dotted path -> argument map), after the
        listed ones, which keep their own maps; one that cannot be read (not installed) is left out."""
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
        for path, arguments in (given or {}).items():
            with contextlib.suppress(ConfigError, SourceError):
                self._add(self._configured(path, arguments))
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

    def _configured(self, name: str, given: Mapping[str, ArgumentRef] | None = None) -> Constructor:
        obj = lookup(self.module, name, self.resolver, self.config, what="constructor")
        arguments = given if given is not None else self.config.arguments
        arguments = self.config.constructor_arguments.get(name, arguments)
        if isinstance(obj, griffe.Class):
            return replace(self._of_class(obj, name), arguments=arguments, forward=None)
        if not isinstance(obj, griffe.Function):
            raise config_error(self.config, "constructors", name, "is not a function, method or class")
        return Constructor(obj.name, name, obj, obj.module, _parameters(obj), arguments)

    def _of_class(self, cls: griffe.Class, name: str) -> Constructor:
        init = self._init(cls)
        parameters = _parameters(init) if init is not None else _fields(cls)
        return Constructor(cls.name, name, cls, cls.module, parameters, attributes=self._attributes(cls))

    def _attributes(self, cls: griffe.Class) -> dict[str, tuple[str, griffe.Module]]:
        """The class attributes with a value of `cls` and of its bases in the source, nearest first."""
        found: dict[str, tuple[str, griffe.Module]] = {}
        for klass in self._mro(cls):
            for member in klass.members.values():
                if not isinstance(member, griffe.Attribute) or member.value is None:
                    continue
                if "class-attribute" in member.labels:
                    found.setdefault(member.name, (str(member.value), klass.module))
        return found

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
        while pending:
            klass = pending.pop(0)
            if klass.path in seen:
                continue
            if len(seen) >= MAX_CLASS_BASES:
                raise too_many_bases(cls, self.resolver.shown(cls.module))
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
        attributes = self._attributes(cls)
        if not isinstance(init, griffe.Function):
            return replace(parent, name=cls.name, configured=cls.name, obj=cls, attributes=attributes)
        call = _forwarding_call(self.bodies.get(init.path), parent.name)
        # An __init__ that passes nothing on has its own parameters, mapped as the parent's are; one that
        # calls the parent's takes what it leaves out from that call.
        arguments = parent.arguments if call is None else {}
        forward = Forward(call, parent) if call is not None else None
        return Constructor(
            cls.name, cls.name, cls, cls.module, _parameters(init), arguments, forward, attributes
        )


Bodies = Mapping[str, "ast.FunctionDef | ast.AsyncFunctionDef"]


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
