"""Django's URL patterns written as OpenAPI paths: `<int:pk>` and `(?P<pk>[^/.]+)` are both `{pk}`.

Django joins an `include()`'s prefix and the included pattern as text, without a leading slash; the
client's path is that text after `/`. A `path()` route names its parameters `<converter:name>`; a
`re_path()` regular expression names them as groups, anchored with `^` and `$`. Neither syntax is what
OpenAPI, the catalog and the page write, so both are converted here, once, where the patterns are joined.
"""

from __future__ import annotations

import re

_CONVERTED = re.compile(r"<(?:[^<>:]+:)?([^<>:]+)>")
_GROUP = re.compile(r"\(\?P<([^>]+)>(?:[^()\\]|\\.|\([^()]*\))*\)")
_UNESCAPED = re.compile(r"\\(.)")


def route_text(route: str, *, regex: bool) -> str:
    """One pattern's text with its parameters as `{name}` (a regular expression's anchors and escapes
    dropped, an optional slash `/?` written as `/`); other regular-expression syntax is kept as written."""
    if not regex:
        return _CONVERTED.sub(r"{\1}", route)
    text = route.removeprefix("^").removesuffix("$").removesuffix("\\Z")
    text = _GROUP.sub(r"{\1}", text).replace("/?", "/")  # an optional slash: written with it
    return _UNESCAPED.sub(r"\1", text)


def openapi_path(joined: str) -> str:
    """The joined pattern text as the path a client requests: with a leading `/`."""
    return "/" + joined.lstrip("/")
