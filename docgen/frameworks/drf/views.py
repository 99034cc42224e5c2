"""REST framework views as operations: which HTTP methods a view answers and which code answers each.

- a function decorated with `@api_view([...])` answers the methods listed (GET when none are);
- an `APIView` subclass answers each handler method (`get`, `post`, ...) its classes in the source define,
  and a generic view (`RetrieveAPIView`, ...) the methods its REST framework class gives, each calling
  a mixin's action (`retrieve`, ...);
- a viewset answers, on a router, `list`/`create` on the prefix and `retrieve`/`update`/
  `partial_update`/`destroy` on the detail path, for each action its source defines or its mixins give,
  and each `@action(detail=..., methods=[...], url_path=...)` on its own path; `as_view({...})` maps
  methods to actions itself.

An action the source writes is the operation's function; one a REST framework class gives is answered
by the view class itself (`Endpoint.function` is the class), with the view's own hooks (`get_object`,
`perform_create`, ...) as its dependencies. What the framework answers without a `raise` in the source
(a failed lookup, a refusing permission) is `implied`'s.
"""

from __future__ import annotations

import ast

import griffe

from docgen.core.records import record
from docgen.extract.http_classes import HttpClasses
from docgen.extract.program import Code, Program

HANDLER_METHODS = ("get", "post", "put", "patch", "delete", "head", "options", "trace")
LIST_ACTIONS = {"list": "get", "create": "post"}
DETAIL_ACTIONS = {"retrieve": "get", "update": "put", "partial_update": "patch", "destroy": "delete"}
LOOKUP_ACTIONS = frozenset({"retrieve", "update", "partial_update", "destroy"})
MIXINS = {
    "rest_framework.mixins.ListModelMixin": ("list",),
    "rest_framework.mixins.CreateModelMixin": ("create",),
    "rest_framework.mixins.RetrieveModelMixin": ("retrieve",),
    "rest_framework.mixins.UpdateModelMixin": ("update", "partial_update"),
    "rest_framework.mixins.DestroyModelMixin": ("destroy",),
    # REST framework's viewsets, known by name too, so that they give their actions when REST framework is
    # not installed where docgen runs (its files, which say the same through the mixins, cannot be read).
    "rest_framework.viewsets.ModelViewSet": (
        "list",
        "create",
        "retrieve",
        "update",
        "partial_update",
        "destroy",
    ),
    "rest_framework.viewsets.ReadOnlyModelViewSet": ("list", "retrieve"),
}
_RETRIEVE, _UPDATE = {"get": "retrieve"}, {"put": "update", "patch": "partial_update"}
GENERIC_VIEWS = {
    "CreateAPIView": {"post": "create"},
    "ListAPIView": {"get": "list"},
    "RetrieveAPIView": _RETRIEVE,
    "DestroyAPIView": {"delete": "destroy"},
    "UpdateAPIView": _UPDATE,
    "ListCreateAPIView": {"get": "list", "post": "create"},
    "RetrieveUpdateAPIView": _RETRIEVE | _UPDATE,
    "RetrieveDestroyAPIView": _RETRIEVE | {"delete": "destroy"},
    "RetrieveUpdateDestroyAPIView": _RETRIEVE | _UPDATE | {"delete": "destroy"},
}
"""`rest_framework.generics`' concrete views: the handler methods each defines and the mixin action each
calls (REST framework 3.18)."""
HOOKS = {
    "list": ("get_queryset", "filter_queryset"),
    "create": ("perform_create",),
    "retrieve": ("get_object", "get_queryset"),
    "update": ("get_object", "get_queryset", "perform_update"),
    "partial_update": ("get_object", "get_queryset", "perform_update"),
    "destroy": ("get_object", "get_queryset", "perform_destroy"),
}
"""The view methods a mixin's action calls that a view commonly overrides, followed when the source does."""
EVERY_ACTION = ("initial", "check_permissions", "permission_denied")
"""What REST framework calls before every action, followed when the view overrides it."""
API_VIEW = {"rest_framework.decorators.api_view"}
ACTION = {"rest_framework.decorators.action"}


@record
class Answer:
    """One method a view answers: the HTTP method, the action (a mixin's or the source's method name),
    the code that answers it (a function, or the view class for an inherited action), the extra path of
    an `@action`, and whether it works on one object (a lookup)."""

    method: str
    action: str
    function: griffe.Function | griffe.Class
    suffix: str = ""
    detail: bool = False
    decorator: ast.Call | None = None
    """The `@action(...)` call, whose keywords may set the permission classes."""


class ViewReader:
    """What views answer, for one program; classes are read through `classes` (installed ones too)."""

    def __init__(self, program: Program, classes: HttpClasses) -> None:
        self.program = program
        self.classes = classes

    def view_class(self, view: ast.expr, module: griffe.Module) -> tuple[str | None, ast.Dict | None]:
        """The class path of `X.as_view(...)` and the mapping it is given (a viewset's), else None."""
        if (
            isinstance(view, ast.Call)
            and isinstance(view.func, ast.Attribute)
            and view.func.attr == "as_view"
        ):
            mapping = view.args[0] if view.args and isinstance(view.args[0], ast.Dict) else None
            return self.program.qualify(view.func.value, module), mapping
        return None, None

    def function_answers(self, function: griffe.Function) -> list[Answer]:
        """The methods an `@api_view` function answers (a plain Django function is not read)."""
        node = self.program.node(function)
        for decorator in node.decorator_list:
            call = decorator if isinstance(decorator, ast.Call) else None
            name = call.func if call is not None else decorator
            if self.program.qualify(name, function.module) not in API_VIEW:
                continue
            listed = call.args[0] if call is not None and call.args else _keyword(call, "http_method_names")
            methods = _texts(listed) or ["GET"]
            return [
                Answer(m.lower(), function.name, function) for m in methods if m.lower() in HANDLER_METHODS
            ]
        return []

    def class_answers(self, path: str, mapping: ast.Dict | None) -> list[Answer]:
        """The methods an `APIView` subclass answers (or a viewset's, through `as_view({...})`)."""
        if mapping is not None:
            pairs = [
                (str(key.value).lower(), str(value.value))
                for key, value in zip(mapping.keys, mapping.values, strict=True)
                if isinstance(key, ast.Constant) and isinstance(value, ast.Constant)
            ]
            return [self._action(path, method, action, action in LOOKUP_ACTIONS) for method, action in pairs]
        generic = [
            GENERIC_VIEWS[own.rsplit(".", 1)[1]]
            for own in self.classes.ancestry(path)
            if own.startswith("rest_framework.generics.") and own.rsplit(".", 1)[1] in GENERIC_VIEWS
        ]
        found = []
        for method in HANDLER_METHODS:
            own = self.method(path, method)
            action = next((views[method] for views in generic if method in views), None)
            if own is not None:
                found.append(Answer(method, method, own))
            elif action is not None:  # RetrieveAPIView.get calls the mixin's retrieve
                found.append(self._action(path, method, action, action in LOOKUP_ACTIONS))
        return found

    def viewset_answers(self, path: str) -> list[Answer]:
        """The methods a viewset registered on a router answers, its `@action`s after its standard ones."""
        ancestry = self.classes.ancestry(path)
        found = []
        for actions, detail in ((LIST_ACTIONS, False), (DETAIL_ACTIONS, True)):
            for action, method in actions.items():
                if self.method(path, action) is not None or self._given(ancestry, action):
                    found.append(self._action(path, method, action, detail))
        for function, decorator in self._extra_actions(path):
            listed = _keyword(decorator, "methods") or (decorator.args[0] if decorator.args else None)
            methods = _texts(listed) or ["get"]
            detail_node = _keyword(decorator, "detail")
            detail = isinstance(detail_node, ast.Constant) and detail_node.value is True
            url_path = _keyword(decorator, "url_path")
            suffix = str(url_path.value) if isinstance(url_path, ast.Constant) else function.name
            for method in (m.lower() for m in methods):
                found.append(Answer(method, function.name, function, suffix, detail, decorator))
        return found

    def method(self, path: str, name: str) -> griffe.Function | None:
        """The method `name` of the class `path` as the source writes it, its own or a source base's."""
        for own in self.classes.ancestry(path):
            function = self.program.function(f"{own}.{name}")
            if function is not None:
                return function
        return None

    def hooks(self, path: str, answer: Answer) -> list[Code]:
        """The view's own overrides of what the action calls, as code to follow: those a mixin's action
        calls, or those the source's own action calls on `self` (which the walk does not follow)."""
        names = (*EVERY_ACTION, *HOOKS.get(answer.action, ()))
        if isinstance(answer.function, griffe.Function):
            names = (*EVERY_ACTION, *sorted(set(self.called_on_self(answer.function)) - set(EVERY_ACTION)))
        functions = (self.method(path, name) for name in names)
        return [self.program.code(function) for function in functions if function is not None]

    def called_on_self(self, function: griffe.Function) -> set[str]:
        """The names a method calls on `self` (`self.get_object()`)."""
        return {
            node.func.attr
            for node in ast.walk(self.program.node(function))
            if isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id == "self"
        }

    def _action(self, path: str, method: str, action: str, detail: bool) -> Answer:
        own = self.method(path, action)
        return Answer(method, action, own if own is not None else self._owner(path), detail=detail)

    def _owner(self, path: str) -> griffe.Function | griffe.Class:
        cls = self.classes.klass(path)
        assert cls is not None  # only a class read from the source reaches here
        return cls

    def _given(self, ancestry: list[str], action: str) -> bool:
        return any(action in MIXINS.get(path, ()) for path in ancestry)

    def _extra_actions(self, path: str) -> list[tuple[griffe.Function, ast.Call]]:
        found: dict[str, tuple[griffe.Function, ast.Call]] = {}
        for own in reversed(self.classes.ancestry(path)):
            cls = self.program.klass(own)
            for member in cls.members.values() if cls is not None else ():
                function = self.program.function(member.path) if isinstance(member, griffe.Function) else None
                decorator = self._action_decorator(function) if function is not None else None
                if function is not None and decorator is not None:
                    found[function.name] = (function, decorator)
        return list(found.values())

    def _action_decorator(self, function: griffe.Function) -> ast.Call | None:
        for decorator in self.program.node(function).decorator_list:
            if (
                isinstance(decorator, ast.Call)
                and self.program.qualify(decorator.func, function.module) in ACTION
            ):
                return decorator
        return None


def assigned(
    program: Program, classes: HttpClasses, path: str, name: str
) -> tuple[ast.expr, griffe.Module] | None:
    """The value a class of the source assigns to `name` in its body, the nearest in `path`'s ancestry,
    with the module it is written in."""
    for own in classes.ancestry(path):
        cls = program.klass(own)
        node = program.trees.classes.get(own) if cls is not None else None
        for statement in node.body if node is not None and cls is not None else []:
            if not isinstance(statement, ast.Assign) or cls is None:
                continue
            if any(isinstance(t, ast.Name) and t.id == name for t in statement.targets):
                return statement.value, cls.module
    return None


def _keyword(call: ast.Call | None, name: str) -> ast.expr | None:
    return next((k.value for k in call.keywords if k.arg == name), None) if call is not None else None


def _texts(node: ast.expr | None) -> list[str]:
    items = node.elts if isinstance(node, ast.List | ast.Tuple) else []
    return [str(item.value) for item in items if isinstance(item, ast.Constant) and item.value is not None]
