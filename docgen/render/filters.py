"""The filters region templates and notes may use, besides Jinja's own."""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import Any

_NUMBER_WORDS = ["zero", "one", "two", "three", "four", "five", "six"]
_NUMBER_WORDS += ["seven", "eight", "nine", "ten", "eleven", "twelve"]


def kib(value: int) -> str:
    """Bytes as KiB or MiB when exact (`262144` -> `256 KiB`), else as bytes."""
    for unit, size in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if value % size == 0:
            return f"{value // size} {unit}"
    return f"{value} bytes"


def number_word(value: int) -> str:
    """Small counts as words (`4` -> `four`), larger ones as digits."""
    return _NUMBER_WORDS[value] if 0 <= value < len(_NUMBER_WORDS) else str(value)


def join_code(values: list[Any], conjunction: str = "and") -> str:
    """`a`, `b` and `c`: each value as inline code, joined for a sentence."""
    codes = [f"`{value}`" for value in values]
    return codes[0] if len(codes) == 1 else f"{', '.join(codes[:-1])} {conjunction} {codes[-1]}"


def cell(value: Any) -> str:
    """A value made safe for one Markdown table cell: one line, pipes escaped."""
    return " ".join(str(value).split()).replace("|", "\\|")


def attribute(value: Any) -> str:
    """Text made safe for an HTML attribute inside a Markdown table cell (a tooltip): one line, with `&`,
    `<`, `>`, quotes and pipes as entities (a table would split at a pipe, and keep a backslash before it)."""
    return html.escape(" ".join(str(value).split()), quote=True).replace("|", "&#124;")


FILTERS: dict[str, Callable[..., Any]] = {
    "kib": kib,
    "number_word": number_word,
    "join_code": join_code,
    "cell": cell,
    "attribute": attribute,
}
