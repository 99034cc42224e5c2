"""A Django project's REST framework operations: the URL configuration (`urls`) joined with what each view
answers (`views`) and what the framework answers for it without a raise (`implied`).

The root urls module is the settings' `ROOT_URLCONF`, else `app:` (a dotted module path), else the
loaded module with the shortest path that defines `urlpatterns` (the configured source, when it is one).
"""

from __future__ import annotations

import ast

import griffe

from docgen.core.errors import ConfigError
from docgen.extract.http_classes import HttpClasses
from docgen.extract.program import Code, Program
from docgen.extract.resolve import Resolver
from docgen.extract.route_paths import Unread
from docgen.extract.routes import METHODS, Endpoint, FrameworkError
from docgen.frameworks.drf.declared import FRAMEWORK_PACKAGES
from docgen.frameworks.drf.implied import ImpliedErrors
from docgen.frameworks.drf.paths import openapi_path
from docgen.frameworks.drf.serializers import SerializerChecks
from docgen.frameworks.drf.settings import DjangoSettings
from docgen.frameworks.drf.urls import Pattern, Registration, UrlReader
from docgen.frameworks.drf.views import Answer, ViewReader


class ProjectRoutes:
    """Reads the operations of one Django project."""

    def __init__(
        self,
        program: Program,
        resolver: Resolver,
        classes: HttpClasses,
        settings: DjangoSettings,
        body_key: str,
    ) -> None:
        self.program = program
        self.resolver = resolver
        self.classes = classes
        self.views = ViewReader(program, classes)
        self.body_key = body_key
        self.implied = ImpliedErrors(program, classes, settings, body_key, resolver.stated)
        self.serializers = SerializerChecks(program, classes, settings.non_field_key, resolver.stated)
        self.settings = settings
        self.unfollowed: list[Unread] = []
        """The includes `endpoints` could not follow."""

    def endpoints(self, app: str | None) -> list[Endpoint]:
        urls = UrlReader(self.program, self.resolver)
        urls.read(self._root(app))
        self.unfollowed = urls.unfollowed
        found: list[Endpoint] = []
        for pattern in urls.patterns:
            found.extend(self._pattern(pattern))
        for registration in urls.registrations:
            found.extend(self._registration(registration))
        order = {method: index for index, method in enumerate(METHODS)}
        return sorted(found, key=lambda e: (e.path, order.get(e.method, 99), e.file, e.line))

    def _root(self, app: str | None) -> str:
        if self.settings.urlconf is not None:
            return self.settings.urlconf
        if app is not None:
            return app
        defining = [module.path for module, tree in self.program.modules() if "urlpatterns" in module.members]
        if not defining:
            raise ConfigError(
                "no ROOT_URLCONF and no urlpatterns in the source",
                file="mkdocs.yml",
                hint="point 'source:' at the Django settings module or at the root urls module",
            )
        return min(defining, key=lambda path: (path.count("."), path))

    def _pattern(self, pattern: Pattern) -> list[Endpoint]:
        cls, mapping = self.views.view_class(*self._bound_view(pattern))
        owner: griffe.Class | griffe.Function | None
        if cls is not None:
            owner = self.program.klass(self._loaded(cls))
            answers = self.views.class_answers(cls, mapping) if owner is not None else []
        else:
            owner = self.program.function(self._loaded(self.program.qualify(pattern.view, pattern.module)))
            answers = self.views.function_answers(owner) if owner is not None else []
        file = self.program.files(pattern.module)
        return [
            self._endpoint(owner, answer, pattern.path, file, pattern.line) for answer in answers if owner
        ]

    def _bound_view(self, pattern: Pattern) -> tuple[ast.expr, griffe.Module]:
        """The view as written, or, for a module-level name bound to one (`confirm = Confirm.as_view()`,
        then `path("confirm/", confirm)`), the call that binds it, with the module it is written in."""
        path = self._loaded(self.program.qualify(pattern.view, pattern.module))
        owner, _, name = (path or "").rpartition(".")
        module = self.program.load(owner) if owner and self.program.function(path) is None else None
        tree = self.program.trees.modules.get(module.path) if module is not None else None
        for statement in tree.body if tree is not None else []:
            if (
                isinstance(statement, ast.Assign)
                and any(isinstance(t, ast.Name) and t.id == name for t in statement.targets)
                and isinstance(statement.value, ast.Call)
            ):
                assert module is not None  # a tree is only read from a loaded module
                return statement.value, module
        return pattern.view, pattern.module

    def _registration(self, registration: Registration) -> list[Endpoint]:
        owner = self.program.klass(self._loaded(registration.viewset))
        if owner is None:
            return []
        base = registration.prefix
        lookup = "{" + self._lookup(owner) + "}"
        file = self.program.files(registration.module)
        found = []
        for answer in self.views.viewset_answers(owner.path):
            parts = [base, lookup] if answer.detail else [base]
            if answer.suffix:
                parts.append(answer.suffix)
            joined = "/".join(part for part in parts if part) + registration.trailing_slash
            found.append(self._endpoint(owner, answer, openapi_path(joined), file, registration.line))
        return found

    def _endpoint(
        self, owner: griffe.Class | griffe.Function, answer: Answer, path: str, file: str, line: int
    ) -> Endpoint:
        implied: list[FrameworkError] = []
        dependencies: list[Code] = []
        dependencies.extend(self.implied.authenticators(owner))
        refusals, checks = self.implied.permissions(owner, answer)
        implied.extend(refusals)
        implied.extend(self.implied.throttles(owner, answer))
        implied.extend(self.implied.not_allowed(answer))
        dependencies.extend(checks)
        view = owner if isinstance(owner, griffe.Class) else None
        chosen = self.serializers.chosen(view, answer)
        dependencies.extend(self.serializers.checks(chosen))
        if isinstance(owner, griffe.Class):
            calls = (
                self.views.called_on_self(answer.function)
                if isinstance(answer.function, griffe.Function)
                else set()
            )
            implied.extend(self.implied.lookup(owner, answer, calls))
            dependencies.extend(self.views.hooks(owner.path, answer))
        return Endpoint(
            method=answer.method,
            path=path,
            function=answer.function,
            dependencies=tuple(dependencies),
            file=file,
            line=line,
            implied=tuple(implied),
            undetermined=(*self.implied.declared.undetermined(owner, answer), *chosen.unread),
            statements=(*self.implied.declared.statements(owner, answer), *chosen.stated),
        )

    def _loaded(self, path: str | None) -> str | None:
        """`path`, its module read into the program first when a urls module imports a view from a package
        it does not otherwise load (`from rest_framework_simplejwt.views import TokenObtainPairView`)."""
        if (
            path is not None
            and path not in self.program.objects
            and path.split(".")[0] not in FRAMEWORK_PACKAGES
        ):
            self.program.load(path.rpartition(".")[0])
        return path

    def _lookup(self, viewset: griffe.Class) -> str:
        """The detail path's parameter: `lookup_url_kwarg`, else `lookup_field`, else `pk`."""
        ancestry = self.classes.ancestry(viewset.path)
        for name in ("lookup_url_kwarg", "lookup_field"):
            value = self.classes.attribute(ancestry, name)
            if isinstance(value, str) and value:
                return value
        return "pk"
