"""Locate the configured backend source and load it with griffe, statically: nothing is imported or run.

Which files are read, and what happens to one that cannot be, is `modules`' business.
"""

from __future__ import annotations

from pathlib import Path

import griffe

from generator.core.errors import ConfigError
from generator.core.records import record
from generator.extract.modules import SourceModules


@record
class SourceLocation:
    """Where a configured source lives: its package root on disk and its dotted module path."""

    search_path: Path
    package: str
    module: str


def locate(root: Path, source: str, *, display: str = "mkdocs.yml") -> SourceLocation:
    """Turn a path such as `backend/app/mcp_server.py` into (search path, top package, module)."""
    path = (root / source).resolve()
    if not path.exists():
        raise ConfigError(f"the source {source} does not exist", file=display, hint="check 'source:'")
    if path.is_file() and path.suffix != ".py":
        raise ConfigError(f"the source {source} is not a Python file", file=display)
    parts = [path.stem] if path.is_file() and path.name != "__init__.py" else []
    folder = path.parent if path.is_file() else path
    if path.is_dir() and not (path / "__init__.py").exists():
        raise ConfigError(f"the source {source} is a folder without __init__.py", file=display)
    while (folder / "__init__.py").exists():
        parts.insert(0, folder.name)
        folder = folder.parent
    if not parts:
        raise ConfigError(f"cannot tell the module of {source}", file=display)
    return SourceLocation(search_path=folder, package=parts[0], module=".".join(parts))


def load_source(modules: SourceModules, location: SourceLocation, *, root: Path) -> griffe.Module:
    """The configured module of `location` and the modules of its package it imports, read statically."""
    modules.add_search_path(location.search_path)
    return modules.load_package_closure(location.module)
