"""OpenAPI as every framework merges it: a routes catalog's error responses added to the document an
application builds. Each framework's own call that hooks this into its application lives in its subpackage
(`fastapi/openapi.py`); this module needs only the standard library, because the application imports it
and should load no other part of docgen.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any


def merge_responses(document: Mapping[str, Any], fragment: Mapping[str, Any]) -> dict[str, Any]:
    """`document` (an application's OpenAPI) with the fragment's error responses added to each operation
    it has; a status the document already lists is replaced by the fragment's. `document` is not changed.
    """
    merged = copy.deepcopy(dict(document))
    paths = merged.setdefault("paths", {})
    for path, item in fragment.get("paths", {}).items():
        for method, operation in item.items():
            target = paths.get(path, {}).get(method)
            if isinstance(target, dict):
                target.setdefault("responses", {}).update(copy.deepcopy(operation["responses"]))
    return merged
