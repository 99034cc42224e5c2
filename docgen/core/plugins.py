"""Plugins looked up by name: the built-in ones by dotted path, and those other installed packages declare
in an entry-point group.

A group's built-ins are a mapping of name -> `module:attribute`, itself named by `module:attribute`, so that
core names no plugin and imports none: each is imported only when a configuration names it, and the module
holding the mapping imports nothing. Entry points are read only for a name that is not built in (reading
them scans every installed distribution's metadata), and to list the names a configuration can use.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import TYPE_CHECKING, cast

from docgen.core.errors import ConfigError
from docgen.core.records import record

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint


@record
class PluginGroup:
    """The plugins of one kind: an entry-point group and where its built-ins are listed."""

    group: str
    """The entry-point group installed packages declare theirs in (`docgen.frameworks`)."""
    builtins: str
    """`module:attribute` of the mapping name -> `module:attribute` of each built-in plugin."""

    def builtin(self) -> Mapping[str, str]:
        """The built-ins, name -> `module:attribute`, in the order they are listed."""
        return cast("Mapping[str, str]", _attribute(self.builtins))

    def names(self) -> tuple[str, ...]:
        """Every name a configuration can use: the built-ins, then the installed ones, each once."""
        builtin = list(self.builtin())
        installed = sorted({point.name for point in self._installed()} - set(builtin))
        return (*builtin, *installed)

    def known(self, name: str) -> bool:
        """Whether a plugin has the name `name`: built in, or declared by an installed package."""
        return name in self.builtin() or any(point.name == name for point in self._installed())

    def where(self, name: str) -> str:
        """`module:attribute` of the plugin `name`, for messages; empty when no plugin has that name."""
        path = self.builtin().get(name)
        if path is None:
            path = next((point.value for point in self._installed() if point.name == name), "")
        return path

    def load(self, name: str) -> object:
        """The plugin `name`, imported now; a ConfigError when no plugin has that name or it cannot load."""
        path = self.builtin().get(name)
        if path is not None:
            try:
                return _attribute(path)
            except (ImportError, AttributeError) as err:
                raise ConfigError(
                    f"the built-in plugin '{name}' of {self.group} ({path}) cannot be loaded: {err}"
                ) from err
        point = next((point for point in self._installed() if point.name == name), None)
        if point is None:
            raise ConfigError(f"no plugin '{name}' in {self.group}", hint=f"known: {', '.join(self.names())}")
        try:
            return point.load()
        except Exception as err:  # a broken plugin is the user's installation, not a docgen crash
            raise ConfigError(
                f"the plugin '{name}' of {self.group} ({point.value}) cannot be loaded: {err}",
                hint=f"check that the package declaring {point.value} is installed and imports",
            ) from err

    def _installed(self) -> tuple[EntryPoint, ...]:
        return tuple(entry_points(group=self.group))


def entry_points(*, group: str) -> tuple[EntryPoint, ...]:
    """The entry points installed distributions declare in `group`."""
    # Imported here: importlib.metadata costs a few milliseconds that a run of built-ins never needs.
    from importlib import metadata  # noqa: PLC0415

    return tuple(metadata.entry_points(group=group))


def _attribute(path: str) -> object:
    """The object `module:attribute` names, its module imported."""
    module, _, attribute = path.partition(":")
    return getattr(importlib.import_module(module), attribute)
