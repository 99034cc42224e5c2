"""Never pass in silence: a configuration that leads to no error site is an error, located in the
configuration, not an empty (or thinner) catalog that check would then call clean."""

from __future__ import annotations

from collections.abc import Collection, Mapping

import griffe

from docgen.core.errors import ConfigError, ConfigErrors, DocgenError
from docgen.core.limits import MAX_CALL_DEPTH
from docgen.core.settings import CatalogConfig
from docgen.extract.binding import Constructor
from docgen.extract.names import lookup
from docgen.extract.resolve import Resolver
from docgen.extract.targets import MAX_CLASS_BASES, base_classes, final_target, too_many_bases


def satisfied_names(
    config: CatalogConfig, module: griffe.Module, resolver: Resolver, constructors: Mapping[str, Constructor]
) -> dict[str, set[str]]:
    """For each constructor calls can use (a subclass of a configured class among them), the configured
    names a call of it counts for: its own, and those of the configured classes it derives from."""
    classes = {}
    for name in config.constructors:
        try:
            obj = lookup(module, name, resolver, config, what="constructor")
        except DocgenError:
            continue
        if isinstance(obj, griffe.Class):
            classes[obj.path] = name
    satisfied: dict[str, set[str]] = {}
    for constructor in constructors.values():
        names = satisfied.setdefault(constructor.configured, {constructor.configured})
        if isinstance(constructor.obj, griffe.Class):
            bases = [constructor.obj]
            seen: set[str] = set()
            while bases:
                if len(seen) >= MAX_CLASS_BASES:
                    raise too_many_bases(constructor.obj, resolver.shown(constructor.obj.module))
                cls = bases.pop()
                seen.add(cls.path)
                names.update({classes[cls.path]} if cls.path in classes else set())
                bases.extend(b for b in base_classes(cls, final_target) if b.path not in seen)
    return satisfied


class Silence:
    """Collects which configured functions reached a constructor call, and which constructors were called."""

    def __init__(self, config: CatalogConfig, satisfied: Mapping[str, set[str]] | None = None) -> None:
        self.config = config
        self.satisfied = satisfied or {}
        self.functions: set[str] = set()
        self.constructors: set[str] = set()
        self.handoffs: dict[str, set[str]] = {}

    def hands_off(self, function: str, others: set[str]) -> None:
        """The configured `function` calls the configured `others`, whose calls are listed under them."""
        self.handoffs.setdefault(function, set()).update(others)

    def heard(self, function: str, constructor: str) -> None:
        """A call of `constructor` was reached from the configured `function`."""
        self.functions.add(function)
        self.constructors.update(self.satisfied.get(constructor, {constructor}))

    def raise_unheard(self, module: str, gone: Collection[str] = ()) -> None:
        """A located ConfigError for each configured function without a call, and each constructor never
        called; all of them at once.

        `gone` names the configured functions whose entries in the committed catalog no call matches any
        more: that is drift, which check reports entry by entry (`entry-removed`), so a function among them,
        and a constructor while any entry is gone, is not reported here. Once the catalog is refreshed, it is.
        """
        config = self.config
        errors: list[ConfigError] = []
        heard = self._through_handoffs()
        for name in config.functions:
            if name not in heard and name not in gone:
                errors.append(
                    self._error(
                        f"functions.{name}",
                        f"the function '{name}' reaches no call of {_names(config.constructors)}",
                        "list the functions whose bodies (or helpers, up to "
                        f"{MAX_CALL_DEPTH} calls deep) build the error responses, or remove '{name}'",
                    )
                )
        for name in config.constructors:
            if name not in self.constructors and self.functions and not gone:
                errors.append(
                    self._error(
                        f"constructors.{name}",
                        f"the constructor '{name}' is never called from {_names(config.functions)}",
                        f"check the name (as the calls spell it in {module}), or remove it",
                    )
                )
        if not self.functions and not errors:
            hint = "check 'functions' and 'constructors'"
            errors.append(self._error("catalog", "no error site found", hint))
        if errors:
            raise errors[0] if len(errors) == 1 else ConfigErrors(errors)

    def _through_handoffs(self) -> set[str]:
        """The functions that reach a call themselves, or through configured functions that do."""
        heard = set(self.functions)
        changed = True
        while changed:
            changed = False
            for function, others in self.handoffs.items():
                if function not in heard and others & heard:
                    heard.add(function)
                    changed = True
        return heard

    def _error(self, key: str, message: str, hint: str) -> ConfigError:
        config = self.config
        line = config.lines.get(key) or next(iter(config.lines.values()), None)
        subject = f"'catalogs.{config.name}.{key.partition('.')[0]}'" if key != "catalog" else ""
        return ConfigError(
            f"{subject}: {message}" if subject else f"'catalogs.{config.name}': {message}",
            file=config.config_file,
            line=line,
            hint=hint,
        )


def _names(names: tuple[str, ...]) -> str:
    """The names as a message lists them; none (a catalog whose framework gives its constructors): that."""
    return ", ".join(f"'{name}'" for name in names) or "the framework's errors"
