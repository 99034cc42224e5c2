"""Translated messages, recorded as their message id: `_("User not found")` is `User not found`.

A server that translates its messages marks them with a gettext function (Django's `gettext_lazy` imported
as `_`, `pgettext`, Flask-Babel's `lazy_gettext`, the standard library's `gettext`). What the client
receives depends on the language of the request, which is known only at run time; the message id is what
the source states, what the default language (untranslated) sends, and what a translator's catalog is keyed
by, so it is what docgen records. The resolver unwraps such a call wherever it evaluates a value, so routes
catalogs (`http_values`), errors catalogs (`fields`) and constants holding a marked message all read it
the same way. The function is recognised by where it is imported from, never by importing it.
"""

from __future__ import annotations

import ast

import griffe

from docgen.extract.bound_calls import bound_call
from docgen.extract.calls import FunctionNode
from docgen.extract.imports import MAX_ALIAS_HOPS
from docgen.extract.local_names import LocalNames

TRANSLATION_MODULES = frozenset(
    {
        "django.utils.translation",
        "flask_babel",
        "flask_babelex",
        "gettext",
        "babel.support",
        "builtins",
    }
)
"""Modules whose gettext functions mark a translated message (`builtins`: the `_` that
`gettext.install()` puts there, called without an import)."""

MESSAGE_POSITION = {
    "_": 0,
    "gettext": 0,
    "gettext_lazy": 0,
    "gettext_noop": 0,
    "ugettext": 0,
    "ugettext_lazy": 0,
    "ugettext_noop": 0,
    "lazy_gettext": 0,
    "ngettext": 0,
    "ngettext_lazy": 0,
    "ungettext": 0,
    "ungettext_lazy": 0,
    "lazy_ngettext": 0,
    "pgettext": 1,
    "pgettext_lazy": 1,
    "npgettext": 1,
    "npgettext_lazy": 1,
    "lazy_pgettext": 1,
}
"""Function name -> the position of its message id: after the context for `pgettext(context, message)`;
the singular form for the plural functions."""


def message_id(call: ast.Call, scope: griffe.Object) -> ast.expr | None:
    """The message-id argument of `call` when it calls a gettext function, else None."""
    path = _callee_path(call.func, scope.module)
    if path is None:
        return None
    module, _, name = path.rpartition(".")
    position = MESSAGE_POSITION.get(name)
    if position is None or module not in TRANSLATION_MODULES:
        return None
    for keyword in call.keywords:
        if keyword.arg in ("message", "msgid", "singular"):
            return keyword.value
    return call.args[position] if position < len(call.args) else None


def _callee_path(func: ast.expr, module: griffe.Module, depth: int = 0) -> str | None:
    """The dotted path a called name stands for, following imports through the loaded source; an
    import from outside it is taken as written (Django is never loaded for this)."""
    if depth > MAX_ALIAS_HOPS:
        return None
    if isinstance(func, ast.Name):
        member = module.members.get(func.id)
        return f"builtins.{func.id}" if member is None else _final_path(member, depth)
    if isinstance(func, ast.Attribute):
        base = _callee_path(func.value, module, depth)
        return f"{base}.{func.attr}" if base is not None else None
    return None


def _final_path(member: griffe.Object | griffe.Alias, depth: int) -> str | None:
    for _hop in range(MAX_ALIAS_HOPS):
        if isinstance(member, griffe.Attribute) and member.value is not None and member.parent is not None:
            try:  # `_ = gettext.gettext`: the name stands for what its value names
                value = ast.parse(str(member.value), mode="eval").body
            except SyntaxError:
                return None
            named = isinstance(value, ast.Name | ast.Attribute)
            return _callee_path(value, member.module, depth + 1) if named else None
        if not isinstance(member, griffe.Alias):
            return member.path
        alias = member
        try:
            member = alias.target
        except (griffe.AliasResolutionError, griffe.CyclicAliasError):
            return alias.target_path
    return None


def with_local_messages(
    call: ast.Call, names: LocalNames, scope: griffe.Object, at: tuple[FunctionNode, ast.stmt] | None = None
) -> ast.Call:
    """`call` with each argument that names a local bound once to a translated message (`msg = _("User
    not found")`, then `raise NotFound(msg)`) replaced by that message's call, so that it reads as its
    message id; `call` itself when it has none. With `at` (the function and the statement the call is
    in), a local bound in several branches takes the assignment just before that statement in its own
    block (`if ...: msg = _("A"); raise Failed(msg)` then `elif ...: msg = _("B"); raise Failed(msg)`)."""

    def message(node: ast.expr) -> ast.expr:
        bound = names.single_calls.get(node.id) if isinstance(node, ast.Name) else None
        if bound is None and at is not None:
            bound = bound_call(node, *at)
        return bound if bound is not None and message_id(bound, scope) is not None else node

    arguments = [message(argument) for argument in call.args]
    keywords = [ast.keyword(arg=k.arg, value=message(k.value)) for k in call.keywords]
    same = all(new is old for new, old in zip(arguments, call.args, strict=True)) and all(
        new.value is old.value for new, old in zip(keywords, call.keywords, strict=True)
    )
    return call if same else ast.copy_location(ast.Call(call.func, arguments, keywords), call)
