"""The body key a raised HTTP error's detail travels under, when the raise or its place decides it rather
than the framework's own key (`body_key`) or a handler.

Two ways, each declared by a framework that has it (`routes.PlacingFramework`): REST framework sends a dict
given as the detail as the body itself (`ValidationError({"email": "taken"})` answers `{"email": ...}`:
`detail_is_body`), and answers a serializer validator's `ValidationError` under `non_field_errors` or the
field's name (`body_key_in`). A framework without the members has neither way. Any other framework that
wraps the detail in a JSON body of its own sends a dict detail inside it (FastAPI's
`HTTPException(400, detail={"code": "bad", "message": "Bad thing"})` answers `{"detail": {...}}`): the key
is then the nested one, `detail.message`, and the detail the dict's message.
"""

from __future__ import annotations

import ast

from docgen.core.route_models import BODY_MEDIA
from docgen.extract.program import Code
from docgen.extract.responses import CallReader, argument
from docgen.extract.routes import Framework


def raised_body_key(
    framework: Framework,
    calls: CallReader,
    call: ast.Call,
    code: Code,
    ancestry: list[str],
    base: str | None,
    via: tuple[str, ...] = (),
) -> str | None:
    """The key `call`, raised in `code` (reached through the functions `via`), puts its detail under; None:
    the handler's or the framework's."""
    detail = argument(call, framework.http_exceptions[base].detail) if base is not None else None
    if isinstance(detail, ast.Dict):
        key = calls.body(detail, code.module, "")[0]
        if getattr(framework, "detail_is_body", False):
            return key
        if key is not None and framework.body_key not in BODY_MEDIA:  # sent inside the framework's body
            return f"{framework.body_key}.{key}"
    placed = getattr(framework, "body_key_in", None)
    found = placed(code.path, ancestry, via) if placed is not None else None
    return found if isinstance(found, str) else None
