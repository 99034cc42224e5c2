"""What a call in the loaded source calls: resolving a callee statically to a function of the loaded source.

`CallTargets.target` is what `reach` follows a configured function's calls with, and what the handler and
raise finders use to tell which functions a `try` body reaches. It resolves module functions (defined in the
module or imported), `module.function(...)`, methods on `self` and `cls` (inherited too), `Class.method(...)`,
methods of a module-level instance, of an instance made where it is used (`Checks().more(...)`), of a local
bound once to a call of a class, and of a parameter annotated with a class and bound nowhere else
(`docgen.extract.local_names`). Anything known only at run time resolves to nothing. Nothing here imports
the server.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator, Mapping

import griffe

from docgen.core.errors import SourceError
from docgen.extract.local_names import LocalNames, dotted_name, local_names
from docgen.extract.resolve import Resolver, Unresolvable

MAX_BASE_DEPTH = 8
"""How many base classes up a method is looked for (a bound on what a cycle of bases could cost); a class
with more levels of bases is an error (DeepClasses) once a method is looked for in it."""

MAX_CLASS_BASES = 64
"""How many classes a walk of one class's bases (transitively) may visit."""


def too_many_bases(cls: griffe.Class, file: str) -> SourceError:
    """The error for `cls` (defined in `file`), whose bases, transitively, are more than MAX_CLASS_BASES."""
    return SourceError(
        f"the class {cls.path} has more than {MAX_CLASS_BASES} classes among its bases, counting their "
        f"bases; docgen reads at most {MAX_CLASS_BASES}",
        file=file,
        line=cls.lineno,
        hint="give the classes fewer levels of bases",
    )


_RESOLUTION_ERRORS = (griffe.AliasResolutionError, griffe.CyclicAliasError, KeyError, ValueError)


def local_name(function: griffe.Function) -> str:
    """A function's name in its module: `helper`, `Class.method`."""
    return function.path.removeprefix(f"{function.module.path}.")


Follow = Callable[[griffe.Alias], "griffe.Object | None"]
"""What an alias stands for, reading its module if needed; None when it is not a part of the loaded source."""


def final_target(alias: griffe.Alias) -> griffe.Object | None:
    """What `alias` stands for among the modules already read."""
    try:
        target = alias.final_target
    except _RESOLUTION_ERRORS:
        return None
    return target if isinstance(target, griffe.Object) else None


def project_aliases(top: str, resolver: Resolver) -> Follow:
    """Follows an alias into the package `top` (reading the module it leads to when needed), never out of
    it: a helper is a function of the loaded source, not of an installed dependency."""

    def follow(alias: griffe.Alias) -> griffe.Object | None:
        if alias.target_path.split(".")[0] != top:
            return None
        try:
            target = resolver.target(alias, f"the helper {alias.name}")
        except (SourceError, Unresolvable, *_RESOLUTION_ERRORS):  # not a helper docgen can follow
            return None
        return target if isinstance(target, griffe.Object) else None

    return follow


def resolved(
    member: griffe.Object | griffe.Alias | None, follow: Follow = final_target
) -> griffe.Object | None:
    """`member`, or what the alias points at; None when that cannot be told from the loaded source."""
    return follow(member) if isinstance(member, griffe.Alias) else member


def named(dotted: str, scope: griffe.Object, follow: Follow) -> griffe.Object | None:
    """The object `dotted` names in `scope` (`Name`, `module.Name`), aliases followed."""
    obj: griffe.Object | None = scope
    for part in dotted.split("."):
        obj = resolved(obj.members.get(part), follow) if obj is not None else None
    return obj


class DeepClasses(SourceError):
    """A class whose bases in the loaded source go more than MAX_BASE_DEPTH levels up (or round a cycle),
    met while looking for a method; `located` gives it the class's file and line."""

    def __init__(self, cls: griffe.Class) -> None:
        super().__init__(
            f"looking for a method, docgen went {MAX_BASE_DEPTH} levels of base classes up to {cls.path}, "
            f"which has more (or its bases form a cycle); it looks at most {MAX_BASE_DEPTH} levels up",
            hint="give the classes fewer levels of bases, or configure functions nearer the constructors",
        )
        self.cls = cls

    def located(self, files: Callable[[griffe.Module], str]) -> DeepClasses:
        self.file, self.line = files(self.cls.module), self.cls.lineno
        return self


def _bases_within_bound(cls: griffe.Class, follow: Follow, depth: int) -> list[griffe.Class]:
    bases = list(base_classes(cls, follow))
    if bases and depth >= MAX_BASE_DEPTH:
        raise DeepClasses(cls)
    return bases


def class_member(cls: griffe.Class, name: str, follow: Follow, depth: int = 0) -> griffe.Object | None:
    """The member `name` of `cls`, its own or inherited from a base class in the loaded source."""
    if name in cls.members:
        return resolved(cls.members[name], follow)
    for base in _bases_within_bound(cls, follow, depth):
        found = class_member(base, name, follow, depth + 1)
        if found is not None:
            return found
    return None


def class_functions(cls: griffe.Class, follow: Follow, depth: int = 0) -> Iterator[str]:
    """The names of the methods of `cls`, its own and those of its bases in the loaded source."""
    yield from (name for name, member in cls.members.items() if isinstance(member, griffe.Function))
    for base in _bases_within_bound(cls, follow, depth):
        yield from class_functions(base, follow, depth + 1)


def base_classes(cls: griffe.Class, follow: Follow) -> Iterator[griffe.Class]:
    """The direct base classes of `cls` that the loaded source defines."""
    for base in cls.bases:
        if isinstance(base, griffe.ExprName | griffe.ExprAttribute | str):
            found = named(str(base), cls.module, follow)
            if isinstance(found, griffe.Class) and found is not cls:
                yield found


def instance_class(attribute: griffe.Attribute, follow: Follow) -> griffe.Class | None:
    """The class of a module-level instance, from its annotation or the class called to build it."""
    value = attribute.value
    built = value.function if isinstance(value, griffe.ExprCall) else None
    for expression in (attribute.annotation, built):
        if isinstance(expression, griffe.ExprName | griffe.ExprAttribute):
            found = named(str(expression), attribute.module, follow)
            if isinstance(found, griffe.Class):
                return found
    return None


class CallTargets:
    """Resolves a call in a function's body to the function of the loaded source it calls, if any."""

    def __init__(
        self, nodes: Mapping[str, ast.FunctionDef | ast.AsyncFunctionDef], follow: Follow = final_target
    ) -> None:
        self.nodes = nodes
        self.follow = follow
        self._names: dict[str, frozenset[str]] = {}
        self._locals: dict[str, LocalNames] = {}

    def candidate_names(self, caller: griffe.Function) -> frozenset[str]:
        """The names a call in `caller` may call a helper by (a superset: used to skip statements)."""
        key = caller.parent.path if isinstance(caller.parent, griffe.Class) else caller.module.path
        if key not in self._names:
            names = set(self._module_names(caller.module))
            if isinstance(caller.parent, griffe.Class):
                names.update(class_functions(caller.parent, self.follow))
            self._names[key] = frozenset(name for name in names if name.isidentifier())
        return self._names[key]

    def _module_names(self, module: griffe.Module) -> Iterator[str]:
        """Functions of `module` (defined or imported), and those of the modules it imports (`mod.f()`)."""
        for name, member in list(module.members.items()):
            target = resolved(member, self.follow)
            if isinstance(target, griffe.Function):
                yield name
            elif isinstance(target, griffe.Module) and member.is_alias:
                yield from target.functions
                for owner in (m for m in target.members.values() if isinstance(m, griffe.Class)):
                    yield from class_functions(owner, self.follow)  # `module.Class().method(...)`
            elif isinstance(target, griffe.Class):
                yield from class_functions(target, self.follow)  # `Class.method(...)`: the method's name
            elif isinstance(target, griffe.Attribute) and (cls := instance_class(target, self.follow)):
                yield from class_functions(cls, self.follow)  # `POLICY.check(...)`

    def target(self, call: ast.Call, caller: griffe.Function) -> griffe.Function | None:
        """The function `call` calls, when it is one of the loaded source with a known body."""
        func, follow = call.func, self.follow
        found: griffe.Object | None = None
        if isinstance(func, ast.Name):
            found = resolved(caller.module.members.get(func.id), follow)
        elif isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
            receiver, owner = func.value.id, caller.parent
            if receiver in ("self", "cls") and isinstance(owner, griffe.Class):
                found = class_member(owner, func.attr, follow)
            else:
                found = self._member_of(receiver, func.attr, caller)
        elif isinstance(func, ast.Attribute) and isinstance(func.value, ast.Call):
            made = self._class_called(func.value, caller)  # a new instance: `Checks().more(...)`
            found = class_member(made, func.attr, follow) if made is not None else None
        if isinstance(found, griffe.Function) and found.path in self.nodes:
            return found
        return None

    def _member_of(self, receiver: str, name: str, caller: griffe.Function) -> griffe.Object | None:
        """The member `name` of what the name `receiver` holds in `caller`: a local instance of a class, a
        module-level instance, a module or a class."""
        follow = self.follow
        locals_ = self._local_names(caller)
        holder: griffe.Object | None
        if receiver in locals_.bound:  # an instance made once here, an annotated parameter, or not known
            made = locals_.class_of(receiver)
            holder = self._class_named(dotted_name(made), caller) if made is not None else None
        else:
            holder = resolved(caller.module.members.get(receiver), follow)
        if isinstance(holder, griffe.Attribute):  # a module-level instance: `_POLICY.check(...)`
            holder = instance_class(holder, follow)
        if isinstance(holder, griffe.Module):
            return resolved(holder.members.get(name), follow)
        if isinstance(holder, griffe.Class):
            return class_member(holder, name, follow)
        return None

    def _class_called(self, call: ast.Call, caller: griffe.Function) -> griffe.Class | None:
        """The class of the loaded source that `call` instantiates (`Checks()`, `checks.Checks()`), if any."""
        return self._class_named(dotted_name(call.func), caller)

    def _class_named(self, dotted: str | None, caller: griffe.Function) -> griffe.Class | None:
        """The class of the loaded source that the dotted name stands for in `caller`'s module, if any."""
        found = named(dotted, caller.module, self.follow) if dotted else None
        return found if isinstance(found, griffe.Class) else None

    def _local_names(self, caller: griffe.Function) -> LocalNames:
        """The names `caller` binds, read from its body once."""
        if caller.path not in self._locals:
            node = self.nodes.get(caller.path)
            self._locals[caller.path] = local_names(node) if node is not None else LocalNames(frozenset(), {})
        return self._locals[caller.path]
