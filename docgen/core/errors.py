"""The one exception tree of docgen.

Every error a user can cause carries where it happened (file and line, when known), what is wrong, and a hint
saying what to do next. The CLI turns these into a located message and an exit code; nothing here prints.
"""

from __future__ import annotations

from collections.abc import Iterable
from difflib import get_close_matches
from pathlib import Path


class DocgenError(Exception):
    """Root of every error docgen reports to a user.

    Attributes:
        message: What is wrong, as one sentence.
        file: The file at fault, relative to the project root when possible.
        line: The 1-based line in that file, when known.
        hint: What to do about it.
    """

    exit_code = 1

    def __init__(
        self,
        message: str,
        *,
        file: str | Path | None = None,
        line: int | None = None,
        hint: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.file = str(file) if file is not None else None
        self.line = line
        self.hint = hint

    @property
    def location(self) -> str:
        """`file:line`, `file`, or an empty string."""
        if self.file is None:
            return ""
        return f"{self.file}:{self.line}" if self.line else self.file

    def __str__(self) -> str:
        text = f"{self.location}: {self.message}" if self.location else self.message
        if self.hint:
            text += f"\n  hint: {self.hint}"
        return text


class ConfigError(DocgenError):
    """The configuration (the docgen section of mkdocs.yml) or the command line is wrong. Exit code 2."""

    exit_code = 2


class InputError(DocgenError):
    """An input file cannot be read or understood. Exit code 3."""

    exit_code = 3


class SourceError(InputError):
    """The backend source cannot be parsed, or a value in it cannot be resolved statically."""


class CatalogError(InputError):
    """A catalog, notes or spec YAML file is malformed or does not match its schema."""


class TemplateError(InputError):
    """A Jinja template, or a page's generated-region markers, cannot be used."""


class CredentialError(InputError):
    """A constant a page or its published JSON would show looks like a credential and is not listed as
    public."""


class OutputError(DocgenError):
    """A file docgen must write cannot be written (no permission, a full disk, a file-size limit). Exit 3,
    as for a file that cannot be read; nothing is changed."""

    exit_code = 3


class ConfigErrors(ConfigError):
    """Several configuration problems, reported together."""

    def __init__(self, errors: Iterable[ConfigError]) -> None:
        self.errors = list(errors)
        super().__init__(f"{len(self.errors)} configuration problem(s)")

    def __str__(self) -> str:
        return "\n".join(str(error) for error in self.errors)


class SourceErrors(SourceError):
    """Several problems in the server's source, each located, reported together. Exit code 3."""

    def __init__(self, errors: Iterable[SourceError]) -> None:
        self.errors = list(errors)
        super().__init__(f"{len(self.errors)} problem(s)", file=self.errors[0].file if self.errors else None)

    def __str__(self) -> str:
        return "\n".join(str(error) for error in self.errors)


class CatalogErrors(CatalogError):
    """Several problems in one catalog, notes or spec file, reported together. Exit code 3."""

    def __init__(self, errors: Iterable[CatalogError]) -> None:
        self.errors = list(errors)
        super().__init__(f"{len(self.errors)} problem(s)", file=self.errors[0].file if self.errors else None)

    def __str__(self) -> str:
        return "\n".join(str(error) for error in self.errors)


def suggest(name: str, choices: Iterable[str]) -> str | None:
    """A "did you mean" hint for a mistyped name, or None when nothing is close."""
    matches = get_close_matches(name, sorted(choices), n=1)
    return f"did you mean {matches[0]!r}?" if matches else None
