"""A committed OpenAPI document, as the project loader reads it for a routes catalog's `openapi:`.

Only the reading lives in core, because the loader reads every input once; building a routes catalog's
fragment and comparing a document with the code are the routes kind's (`docgen/kinds/routes/openapi.py`).
The document is JSON that anyone may commit, so an integer longer than `MAX_JSON_INT_DIGITS` is refused,
with its line, before Python converts it.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from docgen.core.errors import CatalogError
from docgen.core.limits import MAX_JSON_INT_DIGITS
from docgen.core.reader import read_text


def read_openapi(path: Path, shown: str) -> dict[str, Any]:
    """A committed OpenAPI document (JSON): a mapping with `paths`, or a located CatalogError."""
    text = read_text(path, shown)
    try:
        document = json.loads(text, parse_int=_bounded_int)
    except _LongNumber as err:
        raise CatalogError(
            f"a number of {err.digits:,} digits; docgen reads integers of at most {MAX_JSON_INT_DIGITS:,} "
            "digits here",
            file=shown,
            line=_line_of_digits(text, err.digits),
            hint=_OPENAPI_HINT,
        ) from None
    except json.JSONDecodeError as err:
        raise CatalogError(f"not JSON: {err.msg}", file=shown, line=err.lineno, hint=_OPENAPI_HINT) from err
    except RecursionError as err:
        raise CatalogError("nested too deeply to read", file=shown, hint=_OPENAPI_HINT) from err
    if not isinstance(document, dict) or not isinstance(document.get("paths"), dict):
        message = "not an OpenAPI document: no 'paths' mapping"
        raise CatalogError(message, file=shown, line=1, hint=_OPENAPI_HINT)
    return document


class _LongNumber(Exception):
    def __init__(self, digits: int) -> None:
        super().__init__(digits)
        self.digits = digits


def _bounded_int(text: str) -> int:
    """An integer of the document, refused before it is converted when it is longer than the limit."""
    digits = len(text.lstrip("-"))
    if digits > MAX_JSON_INT_DIGITS:
        raise _LongNumber(digits)
    return int(text)


def _line_of_digits(text: str, digits: int) -> int | None:
    """The line of the first run of exactly `digits` digits in `text` (one pass over the text)."""
    for match in re.finditer("[0-9]+", text):
        if match.end() - match.start() == digits:
            return text.count("\n", 0, match.start()) + 1
    return None


_OPENAPI_HINT = "commit the application's /openapi.json as it serves it, or fix 'openapi:' in mkdocs.yml"
