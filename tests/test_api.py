"""The public API: every exported name resolves, the version is the one installed, and importing the
package loads no stage."""

from __future__ import annotations

import importlib.metadata
import subprocess
import sys

import pytest

import generator
from generator.shell.cli import main


def test_every_exported_name_resolves() -> None:
    names = [name for name in generator.__all__ if name != "__version__"]
    assert sorted(names) == sorted(generator._EXPORTS)
    for name in names:
        value = getattr(generator, name)
        assert value.__name__ == name, name
    with pytest.raises(AttributeError, match="no attribute 'missing'"):
        generator.missing  # noqa: B018


def test_the_version_is_the_installed_one_and_the_cli_prints_it(capsys: pytest.CaptureFixture[str]) -> None:
    assert generator.__version__ == importlib.metadata.version("docgen")
    assert main(["--version"]) == 0
    assert capsys.readouterr().out == f"docgen {generator.__version__}\n"


def test_importing_the_package_loads_no_stage() -> None:
    code = "import sys, generator; print(sorted(m for m in sys.modules if m.startswith('generator')))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "['generator']"
