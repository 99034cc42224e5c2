"""Authentication middleware as Litestar applies it: a subclass of `AbstractAuthenticationMiddleware` in a
layer's `middleware=[...]` (bare, or `DefineMiddleware(Auth, exclude=[...])`) runs its
`authenticate_request` before the guards of every route under the layer, except a route whose handler opts
out (`exclude_from_auth=True`) or whose path an `exclude` pattern matches. What it raises is then the route's
error, as a guard's is. Other middleware is not read.
"""

from __future__ import annotations

import ast

import griffe

from docgen.extract.program import Code, Program
from docgen.frameworks.litestar.names import keyword, litestar_name
from docgen.frameworks.litestar.records import Auth

_SYNTAX = set(".*+?[](){}|\\^$")
"""Characters that make a pattern more than a plain path."""


def authentication(program: Program, items: list[tuple[ast.expr, str, griffe.Module]]) -> list[Auth]:
    """The authentication each entry of a `middleware` list runs, with the path patterns it skips."""
    found = []
    for item, _, module in items:
        call = item if isinstance(item, ast.Call) else None
        named = item
        if call is not None and litestar_name(program.qualify(call.func, module), "DefineMiddleware"):
            named = call.args[0] if call.args else item
        path = program.qualify(named, module)
        code = _authenticate(program, path) if path is not None else None
        excluded = keyword(call, "exclude") if call is not None else None
        patterns = (
            excluded.elts if isinstance(excluded, ast.List | ast.Tuple) else [excluded] if excluded else []
        )
        texts = tuple(p.value for p in patterns if isinstance(p, ast.Constant) and isinstance(p.value, str))
        if code is not None:
            found.append(Auth(code, texts))
    return found


def _authenticate(program: Program, path: str) -> Code | None:
    """`authenticate_request` of a loaded subclass of Litestar's authentication middleware, its own or
    inherited from a loaded base."""
    ancestry = program.ancestry(path)
    if program.klass(path) is None or not any(
        litestar_name(base, "AbstractAuthenticationMiddleware") for base in ancestry
    ):
        return None
    for base in ancestry:
        method = program.function(f"{base}.authenticate_request")
        if method is not None:
            return program.code(method)
    return None


def applies(auth: Auth, path: str, opted_out: bool) -> bool:
    """Whether the middleware authenticates a request to `path` (the route's path as declared). A pattern
    is matched without running it as a regular expression (the source may be untrusted): `^/login` is a
    prefix, `/schema` a part of the path; one with other regular expression syntax excludes nothing here."""
    return not opted_out and not any(_matches(pattern, path) for pattern in auth.exclude)


def _matches(pattern: str, path: str) -> bool:
    anchored = pattern.startswith("^")
    text = pattern.removeprefix("^").removesuffix("$")
    if any(character in text for character in _SYNTAX):
        return False
    return path.startswith(text) if anchored else text in path


def opts_out(decorator: ast.Call) -> bool:
    """`exclude_from_auth=True`, or `opt={"exclude_from_auth": True}`, on a route handler decorator."""
    direct = keyword(decorator, "exclude_from_auth")
    if isinstance(direct, ast.Constant) and direct.value is True:
        return True
    opt = keyword(decorator, "opt")
    return isinstance(opt, ast.Dict) and any(
        isinstance(k, ast.Constant)
        and k.value == "exclude_from_auth"
        and isinstance(v, ast.Constant)
        and v.value is True
        for k, v in zip(opt.keys, opt.values, strict=True)
    )
