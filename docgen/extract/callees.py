"""Which function of the loaded source a call or an attribute read runs, when the callee is a method: of
an instance made where it is used, bound once to a local, held at module level or injected by annotation;
the instance itself called (`__call__`); `super().name(...)`; `self.name(...)` as the class the walk started
from resolves it; a property's getter. Read statically; anything known only at run time is None."""

from __future__ import annotations

import ast

import griffe

from docgen.extract.local_names import LocalNames, local_names
from docgen.extract.members import first_parameter, property_getter
from docgen.extract.program import Code, Program
from docgen.extract.targets import final_target, instance_class
from docgen.extract.type_aliases import aliased_class


class Callees:
    """The methods calls name, for one program; `locals` caches each function's local names (shared with
    the raise finder, which reads them too)."""

    def __init__(self, program: Program, locals_: dict[tuple[str, int], LocalNames]) -> None:
        self.program = program
        self.locals = locals_

    def property_of_instance(self, node: ast.Attribute, code: Code) -> Code | None:
        """The getter of the property `node` reads on an instance of a class of the loaded source (`return
        resp.not_found`), its own or inherited."""
        cls = self.instance_class(node.value, code)
        for path in self.program.ancestry(cls.path) if cls is not None else ():
            getter = property_getter(self.program, path, node.attr)
            if getter is not None:
                return getter
        return None

    def overridden(self, func: ast.expr, code: Code, root: str) -> griffe.Function | None:
        """`self.name(...)` in a method of a base class of the class whose method the walk started from
        (a route handler of `ProvisioningAPI` calling `AuthAPI.post_login_phone`, which calls
        `self.get_login_response`): the method as that class resolves it, its own override first."""
        if not (
            isinstance(func, ast.Attribute)
            and isinstance(func.value, ast.Name)
            and func.value.id == "self" == first_parameter(code.node)
        ):
            return None
        own, started = code.path.rsplit(".", 1)[0], root.rsplit(".", 1)[0]
        if own == started or self.program.klass(started) is None:
            return None
        ancestry = self.program.ancestry(started)
        if own not in ancestry:
            return None
        return next(
            (m for path in ancestry if (m := self.program.function(f"{path}.{func.attr}")) is not None), None
        )

    def method_of_instance(self, func: ast.expr, code: Code) -> griffe.Function | None:
        """The method `func` names on an instance of a class of the loaded source (see `instance_class`),
        its own or inherited; the instance itself called (`check = KeyChecker(...)`, then `await
        check(request)`) runs its class's `__call__`; `super().name(...)` in a method runs the nearest
        base's."""
        if isinstance(func, ast.Attribute) and _is_super(func.value):
            return self._base_method(func.attr, code)
        if isinstance(func, ast.Attribute):
            cls, name = self.instance_class(func.value, code), func.attr
        elif isinstance(func, ast.Name | ast.Call):
            cls, name = self.instance_class(func, code), "__call__"
        else:
            return None
        for path in self.program.ancestry(cls.path) if cls is not None else ():
            method = self.program.function(f"{path}.{name}")
            if method is not None:
                return method
        return None

    def _base_method(self, name: str, code: Code) -> griffe.Function | None:
        """The method `name` of the nearest base (in the source) of the class whose method `code` is."""
        owner = code.path.rsplit(".", 1)[0]
        if self.program.klass(owner) is None or first_parameter(code.node) not in {"self", "cls"}:
            return None
        for path in self.program.ancestry(owner)[1:]:
            method = self.program.function(f"{path}.{name}")
            if method is not None:
                return method
        return None

    def instance_class(self, made: ast.expr, code: Code) -> griffe.Class | None:
        """The class an instance was made from: right there (`Service()`), by the only binding of a local
        (`service = Service()`), or in a module of the package (`service = Service()` at module level,
        imported or not), or by the annotation of a parameter bound nowhere else (`service: Service`, as
        a framework's dependency injection passes one), or `self` in a method of a class of the source
        (`self.check(request)` in a view); None for anything else."""
        if isinstance(made, ast.Name) and first_parameter(code.node) == made.id == "self":
            return self.program.klass(code.path.rsplit(".", 1)[0])
        if isinstance(made, ast.Name):
            key = (code.path, id(code.node))
            if key not in self.locals:
                self.locals[key] = local_names(code.node)
            names = self.locals[key]
            if made.id not in names.bound:
                held = self.program.objects.get(self.program.qualify(made, code.module) or "")
                return instance_class(held, final_target) if isinstance(held, griffe.Attribute) else None
            named = names.class_of(made.id)  # `service = Service()`, `service: Service = inject(...)`
            path = self.program.qualify(named, code.module) if named is not None else None
            return self.program.klass(path) or aliased_class(self.program, path)  # `service: ServiceDep`
        if not isinstance(made, ast.Call):
            return None
        return self.program.klass(self.program.qualify(made.func, code.module))


def _is_super(node: ast.expr) -> bool:
    """Whether `node` is `super()` (or `super(Class, self)`)."""
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "super"
