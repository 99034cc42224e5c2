"""The public API: every exported name resolves, the version is the one installed, and importing the
package loads no stage."""

from __future__ import annotations

import importlib.metadata
import subprocess
import sys

import pytest

import docgen
from docgen.shell.cli import main


def test_every_exported_name_resolves() -> None:
    names = [name for name in docgen.__all__ if name != "__version__"]
    assert sorted(names) == sorted(docgen._EXPORTS)
    for name in names:
        value = getattr(docgen, name)
        assert value.__name__ == name, name
    with pytest.raises(AttributeError, match="no attribute 'missing'"):
        docgen.missing  # noqa: B018


def test_the_version_is_the_installed_one_and_the_cli_prints_it(capsys: pytest.CaptureFixture[str]) -> None:
    assert docgen.__version__ == importlib.metadata.version("docgen")
    assert main(["--version"]) == 0
    assert capsys.readouterr().out == f"docgen {docgen.__version__}\n"


def test_importing_the_package_loads_no_stage() -> None:
    code = "import sys, docgen; print(sorted(m for m in sys.modules if m.startswith('docgen')))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "['docgen']"
