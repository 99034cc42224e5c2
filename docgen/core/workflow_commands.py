"""Text for a GitHub Actions log: docgen's own workflow commands, escaped, and everything docgen echoes kept
from being read as one.

GitHub's runner reads every line a step prints, on standard output or standard error, and runs it as a
workflow command when, after leading whitespace, it starts with `::` (`::warning::`, `::add-mask::`,
`::stop-commands::`), or when it holds `##[` anywhere (the legacy form, `##[error]`). The runner ends a line
at `\\n`, `\\r` or both. docgen echoes text a pull request wrote (diff lines of pages, file names, notes keys,
values), so a pull request could otherwise add annotations of its own, mask text in the log, or stop
docgen's. Three defences, used together:

- `inert` changes every line the runner would read as a command, and no other: a backslash goes after the
  first `:` of a leading `::`, and between the two `#` of every `##[`. Text without such a line is returned
  as it is, so ordinary reports are unchanged.
- `escape_data` and `escape_property` escape what docgen puts inside its own commands, by GitHub's rules,
  so that a name or message cannot end the command or start a line.
- `stop_commands` wraps a block of echoed text between `::stop-commands::TOKEN` and `::TOKEN::`, with a
  token nobody can guess, so that the runner runs nothing inside it whatever it holds.
"""

from __future__ import annotations

import re
import secrets

_LINE_BREAK = re.compile(r"(\r\n|\r|\n)")
_INVISIBLE = frozenset("\u180e\u200b\u2060\ufeff")
"""Characters that are not whitespace to Python but print as nothing: skipped like whitespace, to be safe."""


def inert(text: str) -> str:
    """`text` with every line that GitHub's runner would read as a workflow command made plain text."""
    if "::" not in text and "##[" not in text:
        return text
    parts = _LINE_BREAK.split(text)
    # split() with a group keeps the breaks: lines at even places, the breaks between them at odd ones.
    return "".join(part if index % 2 else _inert_line(part) for index, part in enumerate(parts))


def _inert_line(line: str) -> str:
    line = line.replace("##[", "#\\#[")
    start = _start_of_text(line)
    if line.startswith("::", start):
        line = f"{line[: start + 1]}\\{line[start + 1 :]}"
    return line


def _start_of_text(line: str) -> int:
    """Where `line` starts once leading whitespace is skipped (all of what the runner trims, and more)."""
    index = 0
    while index < len(line) and (line[index].isspace() or line[index] in _INVISIBLE):
        index += 1
    return index


def escape_data(text: str) -> str:
    """`text` as the message of a workflow command: one line, read back by the runner as written."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """`text` as a property value of a workflow command (`file=`, `title=`): no `:` or `,` to end it."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def stop_commands(text: str, token: str | None = None) -> str:
    """`text` between `::stop-commands::TOKEN` and `::TOKEN::`: the runner runs no command in it. The token
    is random unless given (tests give one), so nothing inside can resume commands early."""
    token = token or secrets.token_hex(16)
    ending = "" if text.endswith("\n") else "\n"
    return f"::stop-commands::{token}\n{text}{ending}::{token}::\n"
