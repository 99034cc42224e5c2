"""What `docgen init` finds in a project folder before it writes anything: the web framework the server's
code uses, and the module that builds its application.

The framework is told by what the project's Python files name, read with `ast`, never run: an import of one
of the framework's `import_roots`, or the root's name as a string (a Django settings module lists
`"rest_framework"` in `INSTALLED_APPS`). The application's module is the first file naming the framework from
which the framework's own route finder reads at least one route: the same extraction `docgen extract` will
run, on the configuration init is about to write, so what init writes is known to extract. A framework may
name the files its applications are usually declared in (`app_files`: Django's settings and URL
configurations); in a project that names the framework, those are tried first, even where they import
nothing of it (a reusable REST framework app's `urls.py` imports only Django and its own views).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterator
from pathlib import Path

from docgen.core.errors import ConfigError, DocgenError
from docgen.core.settings import FRAMEWORKS, Settings

MAX_FILES = 2000
"""Python files read for imports at most: a project folder holding a whole virtual environment is not one
init should guess in."""
_SKIPPED = frozenset({"docs", "site", "data", "templates", "tests", "test", "build", "dist", "node_modules"})
_APP_NAMES = ("main.py", "app.py", "asgi.py", "wsgi.py", "server.py", "api.py", "application.py")
"""File names an application is usually built in, tried first."""
_MODULE = re.compile(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*")
"""A string that reads as a dotted module path."""

Tryer = Callable[[str, str], Settings | None]
"""(framework, source) -> the settings with which extract reads routes there, or None."""


def python_files(root: Path) -> list[Path]:
    """The project's own Python files: hidden folders, virtual environments and the site's folders left
    out."""
    found: list[Path] = []
    for path in _walk(root):
        found.append(path)
        if len(found) > MAX_FILES:
            raise ConfigError(
                f"more than {MAX_FILES} Python files under {root}",
                hint="run `docgen init --framework NAME --source FILE` to say where the application is",
            )
    return sorted(found, key=lambda path: (path.name not in _APP_NAMES, len(path.parts), path))


def _walk(folder: Path) -> Iterator[Path]:
    for path in sorted(folder.iterdir()):
        if path.name.startswith((".", "_")) and path.name != "__init__.py":
            continue
        if path.is_dir() and not path.is_symlink():
            if path.name not in _SKIPPED and not (path / "pyvenv.cfg").exists():
                yield from _walk(path)
        elif path.suffix == ".py" and path.is_file():
            yield path


def imported_roots(path: Path) -> frozenset[str]:
    """The top-level packages a file names: its absolute imports, and strings that are a dotted module path
    (an installed app, a middleware named in settings); none for a file that does not parse."""
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"))
    except (SyntaxError, UnicodeDecodeError, ValueError, OSError):
        return frozenset()
    roots: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and _MODULE.fullmatch(node.value):
            roots.add(node.value.split(".")[0])
    return frozenset(roots)


def framework_roots() -> dict[str, tuple[frozenset[str], tuple[str, ...]]]:
    """Each known framework (built in or installed) -> the packages whose import means it, and the names
    of the files its applications are usually declared in."""
    found = {}
    for name in FRAMEWORKS.names():
        framework = FRAMEWORKS.load(name)
        roots = frozenset(getattr(framework, "import_roots", frozenset()))
        found[name] = (roots, tuple(getattr(framework, "app_files", ())))
    return found


def find_application(
    root: Path, files: list[Path], tryer: Tryer, *, framework: str | None, source: str | None
) -> tuple[str, str, Settings]:
    """(framework, source file relative to `root`, the settings that read it) for the application.

    `framework` and `source` narrow the search to what the user said.
    """
    known = framework_roots()
    if framework is not None and framework not in known:
        raise ConfigError(f"no framework named {framework!r}", hint=f"known: {', '.join(known)}")
    wanted = [framework] if framework else list(known)
    candidates = [root / source] if source else files
    imports = {path: imported_roots(path) for path in candidates}
    for name in wanted:
        roots, app_files = known[name]
        for path in candidates if source else _tried(candidates, imports, roots, app_files):
            relative = path.relative_to(root).as_posix()
            settings = tryer(name, relative)
            if settings is not None:
                return name, relative, settings
    raise _nothing_found(root, wanted, {name: roots for name, (roots, _) in known.items()}, source)


def _tried(
    files: list[Path], imports: dict[Path, frozenset[str]], roots: frozenset[str], app_files: tuple[str, ...]
) -> list[Path]:
    """The files to try for a framework, in order: its usual application files first (when the project
    names the framework anywhere), then every file that names it."""
    naming = [path for path in files if imports[path] & roots]
    usual = [path for path in files if path.name in app_files] if naming else []
    usual.sort(key=lambda path: app_files.index(path.name))  # stable: shallower first within a name
    return usual + [path for path in naming if path not in usual]


def _nothing_found(
    root: Path, wanted: list[str], roots: dict[str, frozenset[str]], source: str | None
) -> DocgenError:
    where = source or f"the Python files under {root}"
    packages = ", ".join(sorted({package for name in wanted for package in roots[name]}))
    return ConfigError(
        f"no application of {' or '.join(wanted)} with routes found in {where} (looked for imports of "
        f"{packages})",
        hint="run docgen init in the server's project folder, or name the module that builds the application"
        " with --source FILE (and --framework NAME); for another kind of server (JSON-RPC, an error helper"
        ' of your own), write an errors catalog as README.md\'s "Configuration" shows',
    )


def comment_above_raise(path: Path, function: str, exception: str, detail: str) -> str | None:
    """The comment lines directly above the `raise` of `exception` in `function` of the file at `path`,
    joined: the one raise of it there, else the one whose source holds the detail's text before its first
    `{placeholder}`. None when there is no such comment, or no single raise to take it from."""
    try:
        source = path.read_text(encoding="utf-8")
        tree = ast.parse(source)
    except (SyntaxError, UnicodeDecodeError, ValueError, OSError):
        return None
    functions = [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name == function
    ]
    raises = [
        node
        for found in functions
        for node in ast.walk(found)
        if isinstance(node, ast.Raise) and node.exc is not None and exception in ast.unparse(node.exc)
    ]
    text = detail.split("{", 1)[0].strip()
    if len(raises) > 1 and text:
        raises = [node for node in raises if text in (ast.get_source_segment(source, node) or "")]
    if len(raises) != 1:
        return None
    lines = source.splitlines()
    index, found_lines = raises[0].lineno - 2, list[str]()
    while index >= 0 and lines[index].strip().startswith("#"):
        found_lines.insert(0, lines[index].strip().lstrip("#").strip())
        index -= 1
    return " ".join(part for part in found_lines if part) or None
