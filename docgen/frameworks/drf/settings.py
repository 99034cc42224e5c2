"""A Django project's settings as REST framework reads them: the root urls module (`ROOT_URLCONF`) and
the `REST_FRAMEWORK` dictionary (the exception handler, the default authentication and permission
classes), each value read statically from the settings module, with the line it is set on.

`source:` names either the settings module or the root urls module; with the latter, the settings are
those of any loaded module that sets `ROOT_URLCONF` or `REST_FRAMEWORK`, else REST framework's defaults.
"""

from __future__ import annotations

import ast

import griffe

from docgen.core.records import record
from docgen.extract.imports import MAX_ALIAS_HOPS
from docgen.extract.program import Program
from docgen.extract.route_paths import Unread

DEFAULT_AUTHENTICATION = (
    "rest_framework.authentication.SessionAuthentication",
    "rest_framework.authentication.BasicAuthentication",
)
DEFAULT_HANDLER = "rest_framework.views.exception_handler"
_READ = ("ROOT_URLCONF", "REST_FRAMEWORK")
_Value = tuple[ast.expr, griffe.Module]


@record
class Setting:
    """A setting's value (dotted paths, for class lists) and where it is set (None: REST framework's
    default)."""

    value: tuple[str, ...]
    module: griffe.Module | None = None
    line: int = 0
    unread: tuple[Unread, ...] = ()
    """Items of the list that name no class docgen can read (`settings.PERMISSIONS.user`, chosen at run
    time) and that the configuration does not state: the errors they decide are not listed."""
    stated: tuple[str, ...] = ()
    """The expressions whose classes the configuration states (`run_time_values:`) that the list took."""


@record
class DjangoSettings:
    """What the adapter reads of the settings."""

    urlconf: str | None
    exception_handler: Setting
    authentication: Setting
    permissions: Setting
    throttles: Setting = Setting(())
    non_field_key: str = "non_field_errors"
    """`NON_FIELD_ERRORS_KEY`: the body key of a serializer's `validate` errors."""


def read_settings(program: Program, source: griffe.Module | None) -> DjangoSettings:
    """The settings of the module that sets them: `source` when it does, else the first loaded module that
    does; a setting a settings module star-imports (`from .base import *`) is read where it is set."""
    candidates = [source] if source is not None else []
    candidates += [module for module, _ in program.modules()]
    for module in candidates:
        values = {name: found for name in _READ if (found := _value(program, module, name)) is not None}
        if "ROOT_URLCONF" in values or "REST_FRAMEWORK" in values:
            return _settings(values)
    return DjangoSettings(None, Setting((DEFAULT_HANDLER,)), Setting(DEFAULT_AUTHENTICATION), Setting(()))


def _value(program: Program, module: griffe.Module, name: str, depth: int = 0) -> _Value | None:
    """The expression `module` assigns to `name`, or the one of the module it imports the name from."""
    tree = program.trees.modules.get(module.path)
    assigned = _assignments(tree) if tree is not None else {}
    if name in assigned:
        return assigned[name], module
    imported = module.members.get(name)
    if not isinstance(imported, griffe.Alias) or depth >= MAX_ALIAS_HOPS:
        return None
    owner = program.load(imported.target_path.rpartition(".")[0])
    return _value(program, owner, name, depth + 1) if owner is not None else None


def _settings(values: dict[str, _Value]) -> DjangoSettings:
    urlconf = values.get("ROOT_URLCONF")
    framework = values.get("REST_FRAMEWORK")
    entries: dict[str, ast.expr] = {}
    if framework is not None and isinstance(framework[0], ast.Dict):
        entries = {
            key.value: value
            for key, value in zip(framework[0].keys, framework[0].values, strict=True)
            if isinstance(key, ast.Constant) and isinstance(key.value, str)
        }
    module = framework[1] if framework is not None else None
    return DjangoSettings(
        urlconf=_text(urlconf[0]) if urlconf is not None else None,
        exception_handler=_setting(entries.get("EXCEPTION_HANDLER"), module, (DEFAULT_HANDLER,)),
        authentication=_setting(
            entries.get("DEFAULT_AUTHENTICATION_CLASSES"), module, DEFAULT_AUTHENTICATION
        ),
        permissions=_setting(entries.get("DEFAULT_PERMISSION_CLASSES"), module, ()),
        throttles=_setting(entries.get("DEFAULT_THROTTLE_CLASSES"), module, ()),
        non_field_key=_text(entries.get("NON_FIELD_ERRORS_KEY")) or "non_field_errors",
    )


def _text(node: ast.expr | None) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _setting(node: ast.expr | None, module: griffe.Module | None, default: tuple[str, ...]) -> Setting:
    """Dotted paths written as strings, one or a list of them; REST framework's default when not set."""
    if node is None or module is None:
        return Setting(default)
    items = node.elts if isinstance(node, ast.List | ast.Tuple) else [node]
    paths = tuple(i.value for i in items if isinstance(i, ast.Constant) and isinstance(i.value, str))
    return Setting(paths, module, node.lineno)


def _assignments(tree: ast.Module) -> dict[str, ast.expr]:
    found: dict[str, ast.expr] = {}
    for statement in tree.body:
        if isinstance(statement, ast.Assign):
            found.update((t.id, statement.value) for t in statement.targets if isinstance(t, ast.Name))
    return found
