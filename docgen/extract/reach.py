"""Follow the configured functions into the helpers they call, so that a refactor does not lose an error.

A configured function may build its error response itself, or call a helper (a module function, imported or
not, a method on `self` or `cls`, inherited or not, or a method of an instance made by a class of the loaded
source: a module-level one, `Checks().more(...)`, or a local `checks = Checks()` bound once) that builds it,
perhaps through further helpers. From each configured function, every call that resolves statically to a
function of the loaded source is followed, depth first and in source order, so that the constructor calls
come out in the order a reader meets them.

What is not followed: a call of a configured function (its calls are listed under its own name), a call of a
configured constructor, a call through a value only known at run time (a callback, a registry filled by
decorators, a local variable bound twice or to anything but a call of a class). The walk is
`docgen.extract.walk`'s, one per catalog: a helper more than `MAX_CALL_DEPTH` calls below a configured
function is an error at its call, and so is walking more than `MAX_CALL_VISITS` bodies: a bound reached
never leaves a call out. A function that calls itself, directly or round a longer cycle, is walked once per
path. A helper that several functions call makes one entry per constructor call in it, under the first path
that reaches it (configuration order, then source order), as a reader counts the errors.
"""

from __future__ import annotations

import ast
import dataclasses
from collections.abc import Callable, Collection, Iterator, Mapping

import griffe

from docgen.core.errors import SourceError
from docgen.core.records import record
from docgen.extract.calls import Call, CallFinder, callee_name
from docgen.extract.class_calls import CLS, ClassCalls, defining_class, receiver_class
from docgen.extract.targets import CallTargets, Follow, final_target, local_name, resolved
from docgen.extract.walk import CallWalk, Into


@record
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
        files: Callable[[griffe.Module], str] | None = None,
    ) -> None:
        self.code = code
        self.files = files
        """The file of a module as messages name it, to locate an error at a call."""
        self.constructors = frozenset(constructors)
        self.class_calls = ClassCalls(self.constructors)
        self.configured = frozenset(configured)
        """Dotted paths of the configured functions and constructors: never followed into."""
        self.targets = CallTargets(nodes, follow)
        self.nodes = nodes
        self.handoffs: dict[str, set[str]] = {}
        """Configured function name -> paths of the configured functions it calls (and leaves to them)."""
        self.reached: set[str] = set()
        """The configured functions from which a constructor call was reached (listed or not)."""
        self._yielded: set[int] = set()
        """The constructor calls already listed (by id of their node, alive for the run)."""
        self._finders: dict[tuple[str, frozenset[str]], CallFinder] = {}
        self._walk: CallWalk[Where, tuple[Where, Call]] = CallWalk(
            self._visit,
            each="path",
            hint="configure a function nearer the constructor calls in 'functions:' (its calls are then "
            "followed from there), or call the deep helper from nearer",
            name=lambda where: where.name,
            file=lambda where: files(where.function.module) if files else None,
        )

    def start(self, function: griffe.Function, name: str, *, file: str) -> Where:
        """The configured function `function` (defined in `file`), named `name` as in the configuration."""
        node = self.nodes.get(function.path)
        if node is None:
            raise SourceError(f"no source for {function.path}", file=file, hint="is the module loaded?")
        return Where(function, node, self.code[function.path], (name,), (), cls=defining_class(function))

    def constructor_calls(self, where: Where) -> Iterator[tuple[Where, Call]]:
        """Every constructor call in `where` and in the helpers it reaches, in the order a reader meets them;
        each call's conditions include the guards of the calls that led to it."""
        return self._walk.walk(where, where.function.path)

    def _visit(self, where: Where) -> Iterator[tuple[Where, Call] | Into[Where]]:
        """The constructor calls in `where`'s own body, and the helpers it calls (for the walk to follow)."""
        names = self.targets.candidate_names(where.function) | self.constructors | {CLS}
        for each in self._finder(where.code, names).calls(where.node.body):
            found = self.class_calls.resolve(each, where.cls)
            if callee_name(found.call) not in self.constructors:
                helper = self._helper(found.call, where)
                if helper is not None:
                    yield self._into(helper, found, where)
                continue
            self.reached.add(where.path[0])
            if where.helpers and id(found.call) in self._yielded:
                continue  # a call in a shared helper is one entry, under the first path to it
            self._yielded.add(id(found.call))
            guarded = where.guards
            yield (
                where,
                dataclasses.replace(found, conditions=(*guarded, *found.conditions)) if guarded else found,
            )

    def _into(self, helper: griffe.Function, found: Call, where: Where) -> Into[Where]:
        """The call `found` in `where` of `helper`, as the walk follows it."""
        cls = self._cls_in(helper, found.call, where)
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
        return Into(inner, helper.path, found.call.lineno, variant=cls)

    def _helper(self, call: ast.Call, where: Where) -> griffe.Function | None:
        """The function of the loaded source `call` calls, unless it is configured (then it is noted as a
        handoff: its calls are listed under its own name)."""
        helper = self.targets.target(call, where.function)
        if helper is not None and helper.path in self.configured:
            self.handoffs.setdefault(where.path[0], set()).add(helper.path)
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
