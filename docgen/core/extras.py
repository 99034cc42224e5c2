"""The optional parts of docgen, each installed by an extra of the package, and the modules each one needs.

extract, render and check need only the package's own dependencies. `docgen probe` needs an HTTP client and a
server (`docgen[probe]`); the Material theme that `docgen init` writes into a new mkdocs.yml is
`docgen[material]`. A command that needs a part that is not installed says which extra installs it, instead
of failing on an import.
"""

from __future__ import annotations

import importlib.util
from typing import TYPE_CHECKING

from docgen.core.errors import ConfigError

if TYPE_CHECKING:
    from docgen.core.settings import Settings

EXTRAS: dict[str, tuple[str, ...]] = {
    "probe": ("httpx", "uvicorn"),
    "material": ("material",),
}
"""Extra -> the top-level modules it installs that docgen (or the site build) imports."""


def missing_modules(extra: str) -> list[str]:
    """The modules of `extra` that cannot be imported here."""
    return [name for name in EXTRAS[extra] if importlib.util.find_spec(name) is None]


def install_command(extra: str) -> str:
    """The command that installs `extra` beside docgen."""
    return f"pip install 'docgen[{extra}]'"


def require_extra(extra: str, needed_by: str) -> None:
    """Refuse, with the install command, when a module of `extra` is missing."""
    missing = missing_modules(extra)
    if missing:
        raise ConfigError(
            f"{needed_by} needs the {extra} extra: {install_command(extra)} "
            f"({', '.join(missing)} not installed here)",
            hint="install it into the environment docgen runs in (the server's own, when a catalog reads an "
            "installed framework), then run the command again",
        )


def material_note(settings: Settings) -> str | None:
    """A note for a mkdocs.yml whose theme is Material where Material is not installed: `mkdocs build`
    then stops on the theme's name before any plugin runs, so docgen says how to install it."""
    loaded = settings.config
    if loaded is None or not isinstance(loaded.data, dict) or not missing_modules("material"):
        return None
    theme = loaded.data.get("theme")
    name = theme.get("name") if isinstance(theme, dict) else theme
    if name != "material":
        return None
    line = loaded.line(("theme", "name") if isinstance(theme, dict) else ("theme",))
    where = f"{loaded.file}:{line}" if line else loaded.file
    return (
        f"{where}: note: the theme is Material, which is not installed here, so mkdocs build will refuse "
        f"it; install it with {install_command('material')}"
    )
