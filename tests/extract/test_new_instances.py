"""Methods called on instances made in the function itself: `Checks().more(...)` and `checks = Checks()`
followed by `checks.more(...)`; and the locals that are not followed because their value is not certain."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from docgen.core.errors import ConfigError
from docgen.kinds.errors.catalog import ErrorsExtraction
from docgen.shell.cli import main
from tests.helpers import make_project, run_extract_in_memory

SERVER = """\
from app import rules


class Base:
    def size(self, body):
        if len(body) > 9:
            return _rpc_error(None, -32600, "Too large", status=413)
        return None


class Checks(Base):
    def more(self, params):
        if "id" not in params:
            return _rpc_error(None, -32602, "Missing id", status=400)
        return None


def endpoint(request):
    found = Checks().more(request.params)
    if found is not None:
        return found
    checks = Checks()
    refusal = checks.size(request.body)
    return refusal or rules.Quota().deny(request.client)
"""

RULES = """\
from app.server import _rpc_error


class Quota:
    def deny(self, client):
        return _rpc_error(None, -32603, "Rate limited", status=429)
"""


def project(root: Path, server: str = SERVER) -> Path:
    extra = {"app/rules.py": RULES, "docs/index.md": PAGE}  # rendered with the packaged error table
    return make_project(root, server, extra=extra)


PAGE = """\
---
catalog: errors
---

# Errors

<!-- docgen:begin error-table -->
<!-- docgen:end error-table -->
"""


def located(root: Path) -> list[tuple[str, str, list[str], int, Any]]:
    """(function, file, path, line, status) of every entry, in catalog order."""
    result = run_extract_in_memory(root)
    entries = result.catalogs["errors"].as_data()["entries"]
    lines = [site.line for site in result.of("errors", ErrorsExtraction).sites]
    return [
        (e["function"], e["file"], e["path"], line, e["status"])
        for e, line in zip(entries, lines, strict=True)
    ]


def test_methods_of_new_and_local_instances_are_followed_inherited_ones_too(tmp_path: Path) -> None:
    assert located(project(tmp_path)) == [
        ("Checks.more", "app/server.py", ["endpoint", "Checks.more"], 19, 400),
        ("Base.size", "app/server.py", ["endpoint", "Base.size"], 12, 413),
        ("Quota.deny", "app/rules.py", ["endpoint", "Quota.deny"], 6, 429),
    ]


IDS = ("missing-id", "too-large", "rate-limited")


def docgen(root: Path, *argv: str) -> int:
    return main(["-f", str(root / "mkdocs.yml"), *argv])


@pytest.fixture
def checked(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """The project extracted and rendered: check on it is clean."""
    root = project(tmp_path)
    assert docgen(root, "extract") == 0
    notes = "".join(f"  {key}:\n    cause: Rule {key}.\n    action: Fix it.\n" for key in IDS)
    (root / "data" / "errors.notes.yaml").write_text(f"entries:\n{notes}", encoding="utf-8")
    assert docgen(root, "render") == 0
    assert docgen(root, "check") == 0, capsys.readouterr().out
    capsys.readouterr()
    return root


def rewrite(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new), encoding="utf-8")


def test_check_reports_a_changed_status_in_a_method_of_a_local_instance(
    checked: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rewrite(checked / "app/server.py", '"Too large", status=413', '"Too large", status=400')
    assert docgen(checked, "check") == 1
    assert "status-changed" in capsys.readouterr().out


def test_check_accepts_a_reflowed_call_in_a_method_of_a_new_instance(
    checked: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rewrite(
        checked / "app/server.py",
        '_rpc_error(None, -32602, "Missing id", status=400)',
        '_rpc_error(\n                None,\n                -32602,\n                "Missing id",\n'
        "                status=400,\n            )",
    )
    assert docgen(checked, "check") == 0, capsys.readouterr().out


AMBIGUOUS = {
    "bound twice": "checks = Checks()\n    if request.strict:\n        checks = request.checks\n",
    "bound to a call of a function": "checks = make_checks()\n",
    "bound in a loop": "for checks in request.all_checks:\n        pass\n",
    "unpacked": "checks, other = Checks(), None\n",
    "a parameter": "",
    "shadowing a module-level instance": "checks = request.checks\n",
}


def local_server(binding: str, parameters: str = "request") -> str:
    """A server whose `endpoint` calls `checks.more(...)` after `binding` (statements, indented)."""
    return f"""\
from typing import Annotated, Optional


class Checks:
    def more(self, params):
        return _rpc_error(None, -32602, "Missing id", status=400)


class Other:
    def more(self, params):
        return None


def make_checks():
    return Checks()


checks = Checks()


def endpoint({parameters}):
    {binding}    return checks.more(request.params)
"""


def test_the_same_local_bound_once_to_a_class_is_followed(tmp_path: Path) -> None:
    make_project(tmp_path, local_server("checks = Checks()\n"))
    assert [e["path"] for e in run_extract_in_memory(tmp_path).catalogs["errors"].as_data()["entries"]] == [
        ["endpoint", "Checks.more"]
    ]


@pytest.mark.parametrize("how", AMBIGUOUS)
def test_a_local_whose_class_is_not_certain_is_not_followed(tmp_path: Path, how: str) -> None:
    parameters = "request, checks=None" if how == "a parameter" else "request"
    make_project(tmp_path, local_server(AMBIGUOUS[how], parameters))
    with pytest.raises(ConfigError) as caught:
        run_extract_in_memory(tmp_path)
    assert caught.value.exit_code == 2
    assert (caught.value.file, caught.value.line) == ("mkdocs.yml", 9)
    assert "the function 'endpoint' reaches no call of '_rpc_error'" in caught.value.message


ANNOTATED = {
    "a class": "checks: Checks",
    "optional, as a union": "checks: Checks | None = None",
    "optional, from typing": "checks: Optional[Checks] = None",
    "injected, FastAPI's way": "checks: Annotated[Checks, Depends(make_checks)]",
}


@pytest.mark.parametrize("how", ANNOTATED)
def test_a_parameter_annotated_with_a_class_is_followed_into_its_method(tmp_path: Path, how: str) -> None:
    make_project(tmp_path, local_server("", f"request, {ANNOTATED[how]}"))
    entries = run_extract_in_memory(tmp_path).catalogs["errors"].as_data()["entries"]
    assert [(e["function"], e["path"]) for e in entries] == [("Checks.more", ["endpoint", "Checks.more"])]


NOT_ANNOTATED_WITH_A_CLASS = {
    "re-bound in the body": ("checks = request.checks\n", "request, checks: Checks"),
    "a union of two classes": ("", "request, checks: Checks | Other"),
    "a function, not a class": ("", "request, checks: make_checks"),
}


@pytest.mark.parametrize("how", NOT_ANNOTATED_WITH_A_CLASS)
def test_a_parameter_whose_class_is_not_certain_is_not_followed(tmp_path: Path, how: str) -> None:
    binding, parameters = NOT_ANNOTATED_WITH_A_CLASS[how]
    make_project(tmp_path, local_server(binding, parameters))
    with pytest.raises(ConfigError) as caught:
        run_extract_in_memory(tmp_path)
    assert "the function 'endpoint' reaches no call of '_rpc_error'" in caught.value.message


def test_a_call_of_something_that_is_not_a_class_is_not_followed(tmp_path: Path) -> None:
    make_project(
        tmp_path,
        """\
        class Checks:
            def more(self, params):
                return _rpc_error(None, -32602, "Missing id", status=400)

        def factory():
            return Checks()

        def endpoint(request):
            return factory().more(request.params)
        """,
    )
    with pytest.raises(ConfigError) as caught:
        run_extract_in_memory(tmp_path)
    assert "'endpoint' reaches no call of '_rpc_error'" in caught.value.message
