"""An errors catalog over Flask's `abort`: a call that leaves the message out (`abort(404)`, valid Flask)
takes the description Werkzeug gives it when the catalog names `framework: flask`, and without it every such
call is reported at once, each at its line, not only the first."""

from __future__ import annotations

from pathlib import Path

import pytest

from docgen.core.errors import SourceErrors
from docgen.core.models import ErrorsCatalog
from docgen.extract.pipeline import extract
from tests.helpers import load, make_files

VIEWS = """\
from flask import Flask, abort

app = Flask(__name__)


@app.get("/books/<int:book_id>")
def read_book(book_id):
    if book_id < 0:
        abort(400, "The id must not be negative")
    if book_id > 100:
        abort(404)
    if book_id == 13:
        abort(403)
    return {"id": book_id}
"""

MKDOCS = """\
site_name: t
plugins:
  - docgen:
      catalogs:
        errors:
          kind: errors
          source: app/views.py
          constructors: [abort]
          functions: [read_book]
          arguments: {status: 0, message: 1}
"""


def project(root: Path) -> Path:
    return make_files(root, {"app/__init__.py": "", "app/views.py": VIEWS, "mkdocs.yml": MKDOCS})


def test_every_abort_without_a_message_is_reported_at_once(tmp_path: Path) -> None:
    root = project(tmp_path)
    with pytest.raises(SourceErrors) as caught:
        extract(load(root, site=False))
    assert [(e.file, e.line, e.message, e.hint) for e in caught.value.errors] == [
        ("app/views.py", line, "the message of this abort() call is missing", "pass a message string")
        for line in (11, 13)
    ]


def test_the_framework_fills_in_the_message_werkzeug_gives(tmp_path: Path) -> None:
    from werkzeug.exceptions import Forbidden, NotFound

    root = project(tmp_path)
    (root / "mkdocs.yml").write_text(MKDOCS + "          framework: flask\n", encoding="utf-8")
    catalog = extract(load(root, site=False)).catalogs["errors"]
    assert isinstance(catalog, ErrorsCatalog)
    assert [(entry.status, entry.message) for entry in catalog.entries] == [
        (400, "The id must not be negative"),
        (404, NotFound.description),
        (403, Forbidden.description),
    ]
