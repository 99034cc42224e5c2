"""The console script turns the cyclic collector off before it imports anything; a program importing the
command line keeps its own collector."""

from __future__ import annotations

import subprocess
import sys

PROBE = "import gc, {module}; print(gc.isenabled())"


def _collector_enabled_after(module: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", PROBE.format(module=module)], capture_output=True, text=True, check=True
    )
    return done.stdout.strip()


def test_the_console_script_imports_with_the_collector_off() -> None:
    assert _collector_enabled_after("docgen.shell.console") == "False"


def test_importing_the_command_line_leaves_the_collector_alone() -> None:
    assert _collector_enabled_after("docgen.shell.cli") == "True"


def test_python_dash_m_docgen_runs_the_command() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "docgen", "--version"], capture_output=True, text=True, check=False
    )
    assert (done.returncode, done.stdout.split()[:1]) == (0, ["docgen"])
