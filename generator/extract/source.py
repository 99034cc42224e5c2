"""Load the configured backend source with griffe, statically: nothing is imported or run.

griffe skips a submodule it cannot parse; docgen must not, so every Python file of the package that did not
load is parsed here once more to report exactly where and why.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import griffe

from generator.core.errors import ConfigError, SourceError
from generator.core.settings import relative_path


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
        try:
            ast.parse(file.read_bytes().decode("utf-8"), filename=shown)
        except UnicodeDecodeError as err:
            line = file.read_bytes()[: err.start].count(b"\n") + 1
            raise SourceError(
                f"not valid UTF-8 (byte 0x{file.read_bytes()[err.start]:02x})",
                file=shown,
                line=line,
                hint="save the file as UTF-8",
            ) from err
        except SyntaxError as err:
            raise SourceError(
                f"syntax error: {err.msg}", file=shown, line=err.lineno, hint="fix the Python syntax"
            ) from err
        except OSError as err:
            raise SourceError(f"cannot read the file: {err.strerror}", file=shown) from err
