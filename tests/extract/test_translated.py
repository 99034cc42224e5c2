"""Translated messages read as their message id, the same in errors catalogs (a constructor's message) and in
routes catalogs (an HTTP error's detail): `_("No such item")` is `No such item`."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.extract.test_pipeline import single
from tests.helpers import make_project

IMPORTS = (
    "from django.utils.translation import gettext_lazy as _, pgettext\n"
    "from django.utils import translation\n"
    "from flask_babel import lazy_gettext\n"
    "import gettext\n"
)

MARKED = {
    "django's _": ('_("No such item")', "No such item"),
    "pgettext after its context": ('pgettext("items", "No such item")', "No such item"),
    "a module's attribute": ('translation.gettext("No such item")', "No such item"),
    "flask-babel": ('lazy_gettext("No such item")', "No such item"),
    "the standard library": ('gettext.gettext("No such item")', "No such item"),
    "a keyword message id": ('_(message="No such item")', "No such item"),
    "a constant holding one": ("MISSING", "No such item"),
    "a local bound once to one": ("reason", "No such item"),
    "errors by field": ('{"item": [_("No such item"), "Other"]}', "No such item"),
}


@pytest.mark.parametrize(("message", "expected"), MARKED.values(), ids=MARKED)
def test_an_errors_catalog_records_a_translated_message_as_its_id(
    tmp_path: Path, message: str, expected: str
) -> None:
    server = (
        f"{IMPORTS}MISSING = _('No such item')\n\n"
        "def endpoint(request):\n"
        "    reason = _('No such item')\n"
        f"    return _rpc_error(1, -32602, {message})\n"
    )
    make_project(tmp_path, server)
    assert single(tmp_path)["message"] == expected


def test_a_call_of_another_function_is_still_a_template(tmp_path: Path) -> None:
    server = f"{IMPORTS}\ndef endpoint(request):\n    return _rpc_error(1, -32602, str.upper('x'))\n"
    make_project(tmp_path, server)
    assert single(tmp_path)["message"] == "{str.upper('x')}"


def test_a_local_bound_twice_is_not_guessed(tmp_path: Path) -> None:
    server = (
        f"{IMPORTS}\ndef endpoint(request):\n"
        "    reason = _('One')\n"
        "    if request:\n"
        "        reason = _('Two')\n"
        "    return _rpc_error(1, -32602, reason)\n"
    )
    make_project(tmp_path, server)
    assert single(tmp_path)["message"] == "{reason}"
