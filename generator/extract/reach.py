"""Follow the configured functions into the helpers they call, so that a refactor does not lose an error.

A configured function may build its error response itself, or call a helper (a module function, imported or
not, a method on `self` or `cls`, inherited or not, or a method of an instance made by a class of the loaded
source: a module-level one, `Checks().more(...)`, or a local `checks = Checks()` bound once) that builds it,
perhaps through further helpers. From each configured function, every call that resolves statically to a
function of the loaded source is followed, depth first and in source order, so that the constructor calls
come out in the order a reader meets them.

What is not followed: a call of a configured function (its calls are listed under its own name), a call of a
configured constructor, a call through a value only known at run time (a callback, a registry filled by
decorators, a local variable bound twice or to anything but a call of a class), and a call more than
`MAX_HELPER_DEPTH` helpers below a configured function. A function that calls itself, directly or round a
longer cycle, is walked once per path. A helper that several functions call makes one entry per constructor
call in it, under the first path that reaches it (configuration order, then source order), as a reader counts
the errors.
"""

from __future__ import annotations

import ast
import dataclasses
from collections.abc import Callable, Collection, Iterator, Mapping
from dataclasses import dataclass

import griffe

from generator.core.errors import SourceError
from generator.extract.calls import Call, CallFinder, callee_name
from generator.extract.class_calls import CLS, ClassCalls, defining_class, receiver_class
from generator.extract.local_names import LocalNames, dotted_name, local_names
from generator.extract.resolve import Resolver

MAX_HELPER_DEPTH = 8
"""How many helpers deep below a configured function calls are followed."""
MAX_HELPER_VISITS = 50_000
"""How many helper bodies one catalog may walk in all (each path counts): a bound on the work a pull request
can ask for with a fan of helpers calling each other."""

_RESOLUTION_ERRORS = (griffe.AliasResolutionError, griffe.CyclicAliasError, KeyError, ValueError)


@dataclass(frozen=True)
class Where:
    """A function reached from a configured one: the path that led there and the guards on the way."""

    function: griffe.Function
    node: ast.FunctionDef | ast.AsyncFunctionDef
    code: str
    path: tuple[str, ...]
    """The configured function's name, then each helper's (as `local_name` gives it)."""
    guards: tuple[str, ...]
    """The conditions under which the callers called their way here."""
    helpers: tuple[griffe.Function, ...] = ()
    """The helpers on the path, `function` last (none: `function` is the configured one)."""
    cls: str | None = None
    """The class `cls` stands for in `function`: the one the call that led here named, else its own."""
    hops: tuple[tuple[griffe.Function, ast.Call], ...] = ()
    """Each call that led here, with the function it sits in: the configured function's call of the first
    helper, and so on (none: `function` is the configured one)."""

    @property
    def name(self) -> str:
        return self.path[-1]


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
        except (SourceError, *_RESOLUTION_ERRORS):
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


def class_member(cls: griffe.Class, name: str, follow: Follow, depth: int = 0) -> griffe.Object | None:
    """The member `name` of `cls`, its own or inherited from a base class in the loaded source."""
    if name in cls.members:
        return resolved(cls.members[name], follow)
    for base in base_classes(cls, follow) if depth < MAX_HELPER_DEPTH else ():
        found = class_member(base, name, follow, depth + 1)
        if found is not None:
            return found
    return None


def class_functions(cls: griffe.Class, follow: Follow, depth: int = 0) -> Iterator[str]:
    """The names of the methods of `cls`, its own and those of its bases in the loaded source."""
    yield from (name for name, member in cls.members.items() if isinstance(member, griffe.Function))
    for base in base_classes(cls, follow) if depth < MAX_HELPER_DEPTH else ():
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
        if receiver in locals_.bound:  # a local: an instance made once here, or a value not known statically
            call = locals_.single_calls.get(receiver)
            holder = self._class_called(call, caller) if call is not None else None
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
        dotted = dotted_name(call.func)
        found = named(dotted, caller.module, self.follow) if dotted else None
        return found if isinstance(found, griffe.Class) else None

    def _local_names(self, caller: griffe.Function) -> LocalNames:
        """The names `caller` binds, read from its body once."""
        if caller.path not in self._locals:
            node = self.nodes.get(caller.path)
            self._locals[caller.path] = local_names(node) if node is not None else LocalNames(frozenset(), {})
        return self._locals[caller.path]


class Reach:
    """Walks configured functions and the helpers they reach, yielding every constructor call with where it
    sits."""

    def __init__(
        self,
        nodes: Mapping[str, ast.FunctionDef | ast.AsyncFunctionDef],
        code: Mapping[str, str],
        constructors: Collection[str],
        configured: Collection[str],
        follow: Follow = final_target,
    ) -> None:
        self.code = code
        self.constructors = frozenset(constructors)
        self.class_calls = ClassCalls(self.constructors)
        self.configured = frozenset(configured)
        """Dotted paths of the configured functions and constructors: never followed into."""
        self.targets = CallTargets(nodes, follow)
        self.nodes = nodes
        self.visits = 0
        self.handoffs: dict[str, set[str]] = {}
        self.reached: set[str] = set()
        """The configured functions from which a constructor call was reached (listed or not)."""
        self._yielded: set[int] = set()
        """The constructor calls already listed (by id of their node, alive for the run)."""
        """Configured function name -> paths of the configured functions it calls (and leaves to them)."""
        self._finders: dict[tuple[str, frozenset[str]], CallFinder] = {}

    def start(self, function: griffe.Function, name: str, *, file: str) -> Where:
        """The configured function `function` (defined in `file`), named `name` as in the configuration."""
        node = self.nodes.get(function.path)
        if node is None:
            raise SourceError(f"no source for {function.path}", file=file, hint="is the module loaded?")
        return Where(function, node, self.code[function.path], (name,), (), cls=defining_class(function))

    def constructor_calls(self, where: Where) -> Iterator[tuple[Where, Call]]:
        """Every constructor call in `where` and in the helpers it reaches, in the order a reader meets them;
        each call's conditions include the guards of the calls that led to it."""
        names = self.targets.candidate_names(where.function) | self.constructors | {CLS}
        finder = self._finder(where.code, names)
        stack = {where.function.path}
        yield from self._walk(where, finder.calls(where.node.body), stack)

    def _walk(self, where: Where, calls: Iterator[Call], stack: set[str]) -> Iterator[tuple[Where, Call]]:
        followed: set[tuple[str, str | None]] = set()  # a helper called twice is walked once (per `cls`)
        for each in calls:
            found = self.class_calls.resolve(each, where.cls)
            if callee_name(found.call) in self.constructors:
                self.reached.add(where.path[0])
                if where.helpers and id(found.call) in self._yielded:
                    continue  # a call in a shared helper is one entry, under the first path to it
                self._yielded.add(id(found.call))
                guarded = where.guards
                yield (
                    where,
                    (
                        dataclasses.replace(found, conditions=(*guarded, *found.conditions))
                        if guarded
                        else found
                    ),
                )
                continue
            helper = self._helper(found.call, where, stack)
            if helper is None:
                continue
            cls = self._cls_in(helper, found.call, where)
            if (helper.path, cls) in followed:
                continue
            followed.add((helper.path, cls))
            self.visits += 1
            if self.visits > MAX_HELPER_VISITS:
                raise SourceError(
                    f"following the helpers of {where.path[0]} walked over {MAX_HELPER_VISITS:,} bodies",
                    hint="configure the functions nearer the constructor calls",
                )
            inner = Where(
                helper,
                self.nodes[helper.path],
                self.code[helper.path],
                (*where.path, local_name(helper)),
                (*where.guards, *found.conditions),
                (*where.helpers, helper),
                cls,
                (*where.hops, (where.function, found.call)),
            )
            names = self.targets.candidate_names(helper) | self.constructors | {CLS}
            stack.add(helper.path)
            yield from self._walk(inner, self._finder(inner.code, names).calls(inner.node.body), stack)
            stack.discard(helper.path)

    def _helper(self, call: ast.Call, where: Where, stack: set[str]) -> griffe.Function | None:
        if len(where.path) > MAX_HELPER_DEPTH:
            return None
        helper = self.targets.target(call, where.function)
        if helper is not None and helper.path in self.configured:
            self.handoffs.setdefault(where.path[0], set()).add(helper.path)
            return None
        if helper is None or helper.path in stack:
            return None
        return helper

    def _cls_in(self, helper: griffe.Function, call: ast.Call, where: Where) -> str | None:
        """What `cls` stands for in `helper`, reached by `call` from `where`."""
        module = where.function.module
        named_class = receiver_class(call, where.cls, lambda name: resolved(module.members.get(name)))
        return named_class or defining_class(helper)

    def _finder(self, code: str, names: frozenset[str]) -> CallFinder:
        key = (code, names)
        if key not in self._finders:
            self._finders[key] = CallFinder(names)
        return self._finders[key]
