"""Never pass in silence: a configuration that leads to no error site is an error, located in the
configuration, not an empty (or thinner) catalog that check would then call clean."""

from __future__ import annotations

from generator.core.errors import ConfigError, ConfigErrors
from generator.core.settings import CatalogConfig
from generator.extract.reach import MAX_HELPER_DEPTH


class Silence:
    """Collects which configured functions reached a constructor call, and which constructors were called."""

    def __init__(self, config: CatalogConfig) -> None:
        self.config = config
        self.functions: set[str] = set()
        self.constructors: set[str] = set()
        self.handoffs: dict[str, set[str]] = {}

    def hands_off(self, function: str, others: set[str]) -> None:
        """The configured `function` calls the configured `others`, whose calls are listed under them."""
        self.handoffs.setdefault(function, set()).update(others)

    def heard(self, function: str, constructor: str) -> None:
        """A call of `constructor` was reached from the configured `function`."""
        self.functions.add(function)
        self.constructors.add(constructor)

    def raise_unheard(self, module: str) -> None:
        """A located ConfigError for each configured function without a call, and each constructor never
        called; all of them at once."""
        config = self.config
        errors: list[ConfigError] = []
        heard = self._through_handoffs()
        for index, name in enumerate(config.functions):
            if name not in heard:
                errors.append(
                    self._error(
                        f"functions.{index}",
                        f"the function '{name}' reaches no call of {_names(config.constructors)}",
                        "list the functions whose bodies (or helpers, up to "
                        f"{MAX_HELPER_DEPTH} calls deep) build the error responses, or remove '{name}'",
                    )
                )
        for index, name in enumerate(config.constructors):
            if name not in self.constructors and self.functions:
                errors.append(
                    self._error(
                        f"constructors.{index}",
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
        return ConfigError(
            f"'catalogs.{config.name}.{key}': {message}" if key != "catalog" else message,
            file=config.config_file,
            line=config.line(key),
            hint=hint,
        )


def _names(names: tuple[str, ...]) -> str:
    return ", ".join(f"'{name}'" for name in names)
