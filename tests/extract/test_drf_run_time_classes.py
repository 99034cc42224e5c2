"""Permission classes a REST framework view chooses at run time (from a settings object, or in its own
`get_permissions`) cannot be read statically: each is a located finding naming the operations whose errors
it decides, until `run_time_values:` states the classes, which are then read like declared ones."""

from __future__ import annotations

from pathlib import Path

import pytest

from docgen.kinds.routes.catalog import RoutesExtraction
from docgen.shell.cli import main
from tests.helpers import make_files, run_extract_in_memory

MKDOCS = """\
site_name: run-time classes
plugins:
  - docgen:
      catalogs:
        routes:
          kind: routes
          source: proj/settings.py
          framework: drf
"""
URLS = (
    "from django.urls import path\n\nfrom proj.views import Notes, Pins\n\n"
    'urlpatterns = [path("notes/", Notes.as_view()), path("pins/", Pins.as_view())]\n'
)
VIEWS = """\
from rest_framework.response import Response
from rest_framework.views import APIView

from proj.conf import settings


class Notes(APIView):
    permission_classes = settings.PERMISSIONS.notes

    def get(self, request):
        return Response([])


class Pins(APIView):
    def get_permissions(self):
        return [cls() for cls in settings.PERMISSIONS.pins]

    def get(self, request):
        return Response([])
"""
FILES = {
    "docs/index.md": "# Notes\n",
    "proj/__init__.py": "",
    "proj/settings.py": 'ROOT_URLCONF = "proj.urls"\n',
    "proj/urls.py": URLS,
    "proj/views.py": VIEWS,
    "proj/conf.py": "class _Settings:\n    PERMISSIONS = None\n\n\nsettings = _Settings()\n",
}
STATED = """\
          run_time_values:
            - expression: settings.PERMISSIONS.notes
              value: [rest_framework.permissions.IsAuthenticated]
            - expression: Pins.get_permissions()
              value: [rest_framework.permissions.IsAuthenticated]
"""
REFUSED = (403, "Authentication credentials were not provided.")
"""What REST framework answers an anonymous request under IsAuthenticated and its default authentication
(SessionAuthentication first: no WWW-Authenticate scheme, so 403)."""


def _extraction(root: Path) -> RoutesExtraction:
    found = run_extract_in_memory(root).results["routes"]
    assert isinstance(found, RoutesExtraction)
    return found


def _statuses(found: RoutesExtraction) -> dict[str, list[tuple[int | None, str]]]:
    errors = {error.id: error for error in found.catalog.errors}
    return {
        o.path: [(errors[e].status, errors[e].detail) for e, _ in o.errors] for o in found.catalog.operations
    }


def test_classes_chosen_at_run_time_are_located_not_guessed(tmp_path: Path) -> None:
    make_files(tmp_path, {**FILES, "mkdocs.yml": MKDOCS})
    found = _extraction(tmp_path)
    assert _statuses(found) == {"/notes/": [], "/pins/": []}
    assert [
        (path, expression, file, line) for _m, path, expression, _r, file, line in found.undetermined
    ] == [
        ("/notes/", "settings.PERMISSIONS.notes", "proj/views.py", 8),
        ("/pins/", "Pins.get_permissions()", "proj/views.py", 15),
    ]


def test_check_reports_each_until_the_configuration_states_the_classes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    make_files(tmp_path, {**FILES, "mkdocs.yml": MKDOCS})
    config = str(tmp_path / "mkdocs.yml")
    assert main(["--config", config, "extract"]) == 0
    assert main(["--config", config, "render"]) == 0
    capsys.readouterr()
    assert main(["--config", config, "check"]) == 1
    unstated = sorted(
        line for line in capsys.readouterr().out.splitlines() if "run-time-value-unstated" in line
    )
    assert [line.split(": run-time-value-unstated: ")[0] for line in unstated] == [
        "proj/views.py:15",
        "proj/views.py:8",
    ]
    assert "decides which errors the framework answers for GET /pins/" in unstated[0]

    (tmp_path / "mkdocs.yml").write_text(MKDOCS + STATED, encoding="utf-8")
    assert _statuses(_extraction(tmp_path)) == {"/notes/": [REFUSED], "/pins/": [REFUSED]}
    assert main(["--config", config, "extract"]) == 0
    assert main(["--config", config, "render"]) == 0
    capsys.readouterr()
    main(["--config", config, "check"])
    kinds = {line.split(": ")[1] for line in capsys.readouterr().out.splitlines() if line and line[0] != " "}
    assert not {"run-time-value-unstated", "run-time-value-stale"} & kinds


def test_a_statement_no_view_takes_any_more_is_stale(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    make_files(tmp_path, {**FILES, "mkdocs.yml": MKDOCS + STATED})
    (tmp_path / "proj/views.py").write_text(
        VIEWS.replace("settings.PERMISSIONS.notes", "[]"), encoding="utf-8"
    )
    config = str(tmp_path / "mkdocs.yml")
    assert main(["--config", config, "extract"]) == 0
    capsys.readouterr()
    assert main(["--config", config, "check"]) == 1
    stale = [line for line in capsys.readouterr().out.splitlines() if "run-time-value-stale" in line]
    assert len(stale) == 1 and "settings.PERMISSIONS.notes" in stale[0]
