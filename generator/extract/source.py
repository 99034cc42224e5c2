"""Load the configured backend source with griffe, statically: nothing is imported or run.

griffe skips a submodule it cannot parse; docgen must not, so every Python file of the package that did not
load is parsed here once more to report exactly where and why.
"""

from __future__ import annotations

import ast
import stat
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import griffe

from generator.core.errors import ConfigError, SourceError
from generator.core.limits import MAX_FILE_BYTES
from generator.core.settings import relative_path
from generator.core.yamlio import read_text


@dataclass(frozen=True)
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


def load_top_package(
    location: SourceLocation, *, root: Path, extensions: Sequence[griffe.Extension] = ()
) -> griffe.Module:
    """Load the whole top-level package of `location` statically, every module of it."""
    package_path = location.search_path / location.package
    check_source_files(package_path if package_path.is_dir() else package_path.with_suffix(".py"), root)
    loader = griffe.GriffeLoader(
        extensions=griffe.load_extensions(*extensions),
        search_paths=[location.search_path],
        allow_inspection=False,
        docstring_parser=griffe.Parser.google,
    )
    try:
        package = loader.load(location.package, try_relative_path=False)
    except griffe.LoadingError as err:
        _report_unparsable(location.search_path / location.package, root)
        raise SourceError(f"cannot load {location.package}: {err}", hint="check the 'source:' path") from err
    except ModuleNotFoundError as err:
        raise SourceError(f"cannot find the package {location.package}") from err
    if not isinstance(package, griffe.Module):
        raise SourceError(f"{location.package} is not a module")
    _report_unparsable(_package_dir(package), root, loaded=set(_module_files(package)))
    return package


def configured_module(package: griffe.Module, location: SourceLocation) -> griffe.Module:
    """The module of `location` inside its loaded top-level package."""
    module = package
    for name in location.module.split(".")[1:]:
        member = module.members.get(name)
        if not isinstance(member, griffe.Module):
            raise SourceError(f"the module {location.module} did not load", hint="check the 'source:' path")
        module = member
    return module


def _package_dir(package: griffe.Module) -> Path:
    filepath = package.filepath
    path = filepath[0] if isinstance(filepath, list) else filepath
    return path.parent if path.name == "__init__.py" else path


def _module_files(module: griffe.Module) -> Iterator[Path]:
    filepath = module.filepath
    if isinstance(filepath, Path):
        yield filepath.resolve()
    for member in module.members.values():
        if isinstance(member, griffe.Module) and not member.is_alias:
            yield from _module_files(member)


def _report_unparsable(folder: Path, root: Path, loaded: set[Path] | None = None) -> None:
    """Raise a located SourceError for the first Python file under `folder` that does not parse."""
    files = sorted(folder.rglob("*.py")) if folder.is_dir() else [folder.with_suffix(".py")]
    for file in files:
        if loaded is not None and file.resolve() in loaded:
            continue
        shown = relative_path(file, root)
        text = read_text(file, shown, error=SourceError)
        try:
            ast.parse(text, filename=shown)
        except (SyntaxError, ValueError, RecursionError, MemoryError) as err:
            line = err.lineno if isinstance(err, SyntaxError) else None
            reason = err.msg if isinstance(err, SyntaxError) else "too deeply nested or too large to parse"
            raise SourceError(
                f"syntax error: {reason}", file=shown, line=line, hint="fix the Python syntax"
            ) from err


def check_source_files(folder: Path, root: Path) -> None:
    """Refuse, before griffe reads anything, a Python file of the package that docgen would not read itself:
    not a regular file, over the size limit, or a link to a file outside the project (whose docstrings
    would end up in the catalog)."""
    files = sorted(folder.rglob("*.py*")) if folder.is_dir() else [folder]
    for file in files:
        if file.suffix not in (".py", ".pyi"):
            continue
        shown = relative_path(file, root, follow_links=False)
        if not file.resolve().is_relative_to(root.resolve()):
            raise SourceError(
                "a link to a file outside the project",
                file=shown,
                hint="docgen reads source inside the project",
            )
        try:
            info = file.stat()
        except OSError as err:
            raise SourceError(f"cannot read the file: {err.strerror}", file=shown) from err
        if not stat.S_ISREG(info.st_mode):
            raise SourceError("not a regular file (a folder, a device or a pipe)", file=shown)
        if info.st_size > MAX_FILE_BYTES:
            limit = f"over docgen's limit of {MAX_FILE_BYTES:,} bytes for one file"
            raise SourceError(f"the file is {info.st_size:,} bytes, {limit}", file=shown)
