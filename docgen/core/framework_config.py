"""A catalog's `framework:` checked against the registry of web frameworks (`settings.FRAMEWORKS`), for
the kinds that take one: routes catalogs, and errors catalogs whose constructors a framework gives."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from docgen.core.settings import FRAMEWORKS
from docgen.core.settings_checks import Validator


def framework_name(
    raw: Mapping[str, Any], path: tuple[str | int, ...], check: Validator, *, required: bool
) -> str:
    """A catalog's `framework:`, one the registry knows; "" when it is left out and need not be given (a
    routes catalog then finds it from the imports)."""
    framework = raw.get("framework")
    if framework is None and not required:
        return ""
    if not (isinstance(framework, str) and FRAMEWORKS.known(framework)):
        hint = f"known frameworks: {', '.join(FRAMEWORKS.names())}"
        message = f"expected the application's web framework, got {framework!r}"
        check.fail((*path, "framework"), message, hint)
        return ""
    return framework
