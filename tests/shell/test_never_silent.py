"""Never silent: a configuration that finds nothing is a located error, and a fault inside docgen is one line
and exit code 4, with the traceback in a file."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from docgen.extract import reach
from docgen.shell.cli import main
from tests.helpers import make_project

SERVER = """\
def endpoint(request):
    if not request:
        return _rpc_error(1, -32600, "Empty request", status=400)
    return None

def create_app():
    return object()

def unused_error(code, message):
    return (code, message)
"""


def said(capsys: pytest.CaptureFixture[str]) -> str:
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err + captured.out
    return captured.err


def line_of(path: Path, needle: str) -> int:
    lines = path.read_text(encoding="utf-8").splitlines()
    return next(number for number, line in enumerate(lines, 1) if needle in line)


@pytest.mark.parametrize("command", ["extract", "check"])
def test_a_function_without_a_constructor_call_is_an_error_at_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    make_project(tmp_path, SERVER, functions="create_app", extra={"docs/index.md": "# Home\n"})
    config = tmp_path / "mkdocs.yml"
    assert main(["-f", str(config), command]) == 2
    text = said(capsys)
    line = line_of(config, "functions:")
    assert text.startswith(f"docgen {command}: error: mkdocs.yml:{line}: 'catalogs.errors.functions': ")
    assert "the function 'create_app' reaches no call of '_rpc_error'" in text
    assert "hint: list the functions whose bodies" in text
    assert not (tmp_path / "data").exists()


def test_a_constructor_never_called_is_an_error_in_the_file_given_by_config(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    make_project(tmp_path, SERVER, constructors="_rpc_error, unused_error")
    config = tmp_path / "site-config.yml"
    (tmp_path / "mkdocs.yml").rename(config)
    assert main(["--config", str(config), "extract"]) == 2
    text = said(capsys)
    line = line_of(config, "constructors:")
    assert f"site-config.yml:{line}: 'catalogs.errors.constructors': the constructor 'unused_error'" in text
    assert "is never called from 'endpoint'" in text


def test_a_constructor_that_matches_no_call_leaves_no_empty_catalog(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    make_project(tmp_path, SERVER, constructors="unused_error")
    assert main(["-f", str(tmp_path / "mkdocs.yml"), "extract"]) == 2
    text = said(capsys)
    assert "reaches no call of 'unused_error'" in text
    assert not (tmp_path / "data" / "errors.yaml").exists()


def test_an_internal_fault_is_one_line_and_exit_4_with_the_traceback_in_a_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    make_project(tmp_path, SERVER)

    def broken(self: reach.Reach, where: reach.Where) -> None:
        raise RuntimeError("injected fault\nover two lines")

    monkeypatch.setattr(reach.Reach, "constructor_calls", broken)
    assert main(["-f", str(tmp_path / "mkdocs.yml"), "extract"]) == 4
    text = said(capsys)
    assert text.count("\n") == 1
    assert text.startswith("docgen extract: internal error (RuntimeError: injected fault over two lines)")
    found = re.search(r"details in (\S+);", text)
    assert found is not None
    details = Path(found.group(1))
    try:
        written = details.read_text(encoding="utf-8")
        assert written.startswith("Traceback (most recent call last):")
        assert "RuntimeError: injected fault" in written
        assert "in broken" in written
    finally:
        details.unlink()
    assert not (tmp_path / "data").exists()
