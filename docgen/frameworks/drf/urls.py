"""A Django project's URL configuration read statically: `urlpatterns` of the root urls module, with
`path()`, `re_path()` and `include()` (a module named by a string, a module, a list of patterns, a
router's `urls`), each include's prefix joined to what it includes, and REST framework routers with
the viewsets registered on them.

What a pattern leads to is kept as written (the view expression and where it is), for `views` to turn
into operations; only the joined path is worked out here.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

import griffe

from docgen.core.errors import SourceError
from docgen.core.limits import MAX_ROUTER_DEPTH
from docgen.core.records import record
from docgen.extract.program import Program
from docgen.extract.resolve import Resolver, Unresolvable
from docgen.extract.route_paths import Unread
from docgen.frameworks.drf.paths import openapi_path, route_text

PATH = {"django.urls.path", "django.urls.conf.path"}
RE_PATH = {"django.urls.re_path", "django.urls.conf.re_path", "django.conf.urls.url"}
INCLUDE = {"django.urls.include", "django.urls.conf.include", "django.conf.urls.include"}
ROUTERS = {
    "rest_framework.routers.DefaultRouter",
    "rest_framework.routers.SimpleRouter",
}


@record
class Pattern:
    """One URL pattern that leads to a view: the joined path, the view as written, and where."""

    path: str
    view: ast.expr
    module: griffe.Module
    line: int


@record
class Registration:
    """`router.register(prefix, ViewSet)` under the joined prefix the router's `urls` are included at."""

    prefix: str
    viewset: str
    """The dotted path of the viewset class."""
    trailing_slash: str
    module: griffe.Module
    line: int


class UrlReader:
    """Reads the patterns under a root urls module, following includes."""

    def __init__(self, program: Program, resolver: Resolver) -> None:
        self.program = program
        self.resolver = resolver
        self.patterns: list[Pattern] = []
        self.registrations: list[Registration] = []
        self.unfollowed: list[Unread] = []
        """Each `include()` of something docgen cannot find (`include(plugin.urls)`, a name made at run
        time), whose patterns the catalog lacks."""

    def read(self, urlconf: str) -> None:
        module = self.program.load(urlconf)
        if module is None:
            raise SourceError(
                f"cannot find the urls module {urlconf}",
                hint="point 'source:' at the settings module (ROOT_URLCONF) or at the root urls module",
            )
        self._module(module, "", ())

    def _module(self, module: griffe.Module, prefix: str, chain: tuple[str, ...]) -> None:
        if module.path in chain or len(chain) > MAX_ROUTER_DEPTH:
            raise SourceError(
                f"urls modules include each other, or more than {MAX_ROUTER_DEPTH} deep: "
                + " -> ".join((*chain, module.path)),
                file=self.program.files(module),
                hint="include each urls module once, from a module nearer the root",
            )
        tree = self._tree(module)
        imported = module.members.get("urlpatterns")
        if isinstance(imported, griffe.Alias):  # `from .base import urlpatterns`
            self._included_module(
                imported.target_path.rpartition(".")[0], prefix, (*chain, module.path), module, 1
            )
            return
        for item in _urlpatterns(tree):
            self._item(item, module, prefix, (*chain, module.path))

    def _tree(self, module: griffe.Module) -> ast.Module:
        return self.program.trees.modules.get(module.path) or ast.Module(body=[], type_ignores=[])

    def _item(self, node: ast.expr, module: griffe.Module, prefix: str, chain: tuple[str, ...]) -> None:
        if isinstance(node, ast.Starred):  # `*router.urls`
            self._router_urls(node.value, module, prefix)
            return
        if isinstance(node, ast.Attribute) and node.attr == "urls":  # `urlpatterns = router.urls`
            self._router_urls(node, module, prefix)
            return
        if not isinstance(node, ast.Call) or len(node.args) < 2:
            return
        kind = self.program.qualify(node.func, module)
        if kind not in PATH | RE_PATH:
            return
        route = self._text(node.args[0], module)
        joined = prefix + route_text(route, regex=kind in RE_PATH)
        view = node.args[1]
        if isinstance(view, ast.Call) and self.program.qualify(view.func, module) in INCLUDE and view.args:
            self._include(view.args[0], module, joined, chain)
        elif isinstance(view, ast.Attribute) and view.attr == "urls":  # `path("api/", router.urls)`
            self._router_urls(view, module, joined)
        else:
            self.patterns.append(Pattern(openapi_path(joined), view, module, node.lineno))

    def _include(self, target: ast.expr, module: griffe.Module, prefix: str, chain: tuple[str, ...]) -> None:
        if isinstance(target, ast.Tuple) and target.elts:  # include(("app.urls", "namespace"))
            target = target.elts[0]
        if isinstance(target, ast.List | ast.Tuple):
            for item in target.elts:
                self._item(item, module, prefix, chain)
        elif isinstance(target, ast.Attribute) and target.attr == "urls":
            self._router_urls(target, module, prefix)
        elif isinstance(target, ast.Constant) and isinstance(target.value, str):
            self._included_module(target.value, prefix, chain, module, target.lineno)
        else:
            path = self.program.qualify(target, module)
            if path is not None:
                self._included_module(path, prefix, chain, module, target.lineno)
            else:
                self._unfollowed(target, module, "a urls module, a list of patterns or a router's `urls`")

    def _included_module(
        self, dotted: str, prefix: str, chain: tuple[str, ...], module: griffe.Module, line: int
    ) -> None:
        included = self.program.load(dotted)
        if included is None:
            raise SourceError(
                f"include() names the module {dotted}, which cannot be found",
                file=self.program.files(module),
                line=line,
                hint="install the package that provides it, or add its folder to python_path",
            )
        self._module(included, prefix, chain)

    def _router_urls(self, node: ast.expr, module: griffe.Module, prefix: str) -> None:
        router = node.value if isinstance(node, ast.Attribute) else node
        name = router.id if isinstance(router, ast.Name) else None
        router_module = module
        path = self.program.qualify(router, module)
        if path is not None and "." in path:  # a router imported from another module
            owner = self.program.load(path.rsplit(".", 1)[0])
            router_module, name = (owner, path.rsplit(".", 1)[1]) if owner is not None else (module, name)
        if path is not None and path.startswith("django."):
            return  # Django's own pages (`admin.site.urls`): no operation of the API
        tree = self._tree(router_module)
        if name is None or not self._router_made(tree, name, router_module):
            self._unfollowed(node, module, "a router made at the top of a module of the source")
            return
        trailing = _trailing_slash(tree, name)
        calls = list(_registrations(tree, name))
        if not calls:  # registered in a way of its own (`register_endpoint`), or elsewhere
            self._unfollowed(node, module, f"a router with `{name}.register(prefix, viewset)` calls")
        for call in calls:
            viewset = self.program.qualify(call.args[1], router_module)
            if viewset is None:
                continue
            registered = prefix + self._text(call.args[0], router_module)
            self.registrations.append(Registration(registered, viewset, trailing, router_module, call.lineno))

    def _router_made(self, tree: ast.Module, name: str, module: griffe.Module) -> bool:
        """Whether the module makes `name` a router at its top (`router = DefaultRouter()`, a router class
        of the source's own that extends REST framework's, or an installed one named like a router); a class
        of the source that is not one (wagtail's `WagtailAPIRouter`) registers in its own way: unfollowed."""
        for statement in tree.body:
            if isinstance(statement, ast.Assign) and _names(statement.targets, name):
                made = statement.value
                path = self.program.qualify(made.func, module) if isinstance(made, ast.Call) else None
                if path is None:
                    continue
                if self.program.klass(path) is not None:  # a class docgen reads: REST framework's, or not
                    return _is_router(self.program, path)
                if path.endswith("Router"):  # an installed package's router, not read (drf-nested-routers)
                    return True
        return False

    def _unfollowed(self, target: ast.expr, module: griffe.Module, expected: str) -> None:
        reason = f"`{ast.unparse(target)}` is not {expected} that docgen can find"
        shown = f"include({ast.unparse(target)})"
        self.unfollowed.append(Unread(shown, reason, self.program.files(module), target.lineno))

    def _text(self, node: ast.expr, module: griffe.Module) -> str:
        try:
            value = self.resolver.evaluate(node, module).value
        except (Unresolvable, SourceError):
            return "{" + ast.unparse(node) + "}"
        return str(value)


def _urlpatterns(tree: ast.Module) -> Iterator[ast.expr]:
    """The items of `urlpatterns = [...]` and of every `urlpatterns += [...]` after it, in order."""
    for statement in tree.body:
        if isinstance(statement, ast.Assign):
            targets = statement.targets
        elif isinstance(statement, ast.AugAssign | ast.AnnAssign):
            targets = [statement.target]
        else:
            continue
        if _names(targets, "urlpatterns"):
            yield from _items(statement.value)


def _items(value: ast.expr | None) -> Iterator[ast.expr]:
    if isinstance(value, ast.List | ast.Tuple):
        yield from value.elts
    elif isinstance(value, ast.BinOp) and isinstance(value.op, ast.Add):
        yield from _items(value.left)
        yield from _items(value.right)
    elif value is not None:
        yield value


def _names(targets: list[ast.expr], name: str) -> bool:
    return any(isinstance(target, ast.Name) and target.id == name for target in targets)


def _registrations(tree: ast.Module, router: str) -> Iterator[ast.Call]:
    for statement in tree.body:
        call = statement.value if isinstance(statement, ast.Expr) else None
        if (
            isinstance(call, ast.Call)
            and isinstance(call.func, ast.Attribute)
            and call.func.attr == "register"
            and isinstance(call.func.value, ast.Name)
            and call.func.value.id == router
            and len(call.args) >= 2
        ):
            yield call


def _trailing_slash(tree: ast.Module, router: str) -> str:
    """`/`, or none for a router made with `trailing_slash=False`."""
    for statement in tree.body:
        if (
            isinstance(statement, ast.Assign)
            and _names(statement.targets, router)
            and isinstance(statement.value, ast.Call)
        ):
            for keyword in statement.value.keywords:
                if keyword.arg == "trailing_slash" and isinstance(keyword.value, ast.Constant):
                    return "/" if keyword.value.value is True else ""
    return "/"


def _is_router(program: Program, path: str) -> bool:
    return any(base.startswith("rest_framework.routers.") for base in program.ancestry(path))
