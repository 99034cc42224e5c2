"""The framework's own packages, found where docgen reads modules before a catalog is read with them.

An adapter reads what a framework means from the installed framework (Werkzeug's exception classes, REST
framework's `default_detail`, aiohttp's and Litestar's statuses). Where the package is missing, those reads
would come back empty and the catalog would lose statuses and messages without a word, so a framework that
names its packages (`installed_modules`: top-level package -> what `pip install` names) is refused with a
located configuration error naming the package and the command that installs it.
"""

from __future__ import annotations

from collections.abc import Mapping

from docgen.core.catalog_config import CatalogConfig
from docgen.core.errors import ConfigError
from docgen.extract.detect import imported_roots
from docgen.extract.program import Program
from docgen.extract.resolve import Resolver
from docgen.extract.routes import Framework


def require_installed(
    framework: Framework, program: Program, resolver: Resolver, config: CatalogConfig
) -> None:
    """A ConfigError at the catalog's `framework:` (or `source:`) line when a package of `framework` that
    the source imports (or, when it imports none, the framework's first) cannot be found."""
    packages: Mapping[str, str] = getattr(framework, "installed_modules", {})
    if not packages or resolver.modules is None:
        return
    imported = imported_roots(program)
    needed = [name for name in packages if name in imported] or [next(iter(packages))]
    missing = [name for name in needed if not resolver.modules.installed(name)]
    if not missing:
        return
    named = ", ".join(
        f"{name} (imported at {imported[name]})" if name in imported else name for name in missing
    )
    install = " ".join(dict.fromkeys(packages[name] for name in missing))
    raise ConfigError(
        f"'catalogs.{config.name}': {framework.name} is read from the installed framework, which is missing "
        f"where docgen runs: {named}; its HTTP exceptions, statuses and default messages would be missed",
        file=config.config_file,
        line=config.lines.get("framework") or config.lines.get("source"),
        hint=f"pip install {install} (the versions the server runs with) where docgen runs, or name the "
        "server's site-packages in the plugin's 'python_path:'",
    )
