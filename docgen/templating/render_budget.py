"""What one render may cost: its work, the size of every value it makes, and its time.

The sandbox (docgen/templating/sandbox.py) stops templates from reaching anything outside the data they are
given; this module stops them from asking for more work or memory than a page can need. Every step the
sandbox intercepts (a loop iteration, a call, a filter, an operator, joining output) is charged to the budget
of the render it belongs to, and a step whose result would be too large is refused before it is computed:
`'x' * 10**10` is refused from the sizes of its operands, not after ten gigabytes have been allocated. The
limits themselves live in docgen/core/limits.py.
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from jinja2.exceptions import SecurityError

from docgen.core.limits import (
    MAX_INT_BITS,
    TEMPLATE_MAX_RANGE,
    TEMPLATE_MAX_SECONDS,
    TEMPLATE_MAX_TEXT,
    TEMPLATE_MAX_WORK,
)

_SIZED = (str, bytes, list, tuple, dict, set, frozenset, range)


class RenderLimitError(SecurityError):
    """A template asked for more work, memory or time than a render is allowed."""


@dataclass
class Budget:
    """The work a render has done so far, and when it must stop."""

    work: int = 0
    deadline: float = field(default_factory=lambda: time.monotonic() + TEMPLATE_MAX_SECONDS)

    def charge(self, units: int) -> None:
        self.work += units
        if self.work > TEMPLATE_MAX_WORK:
            raise RenderLimitError(
                f"the template does more than {TEMPLATE_MAX_WORK:,} units of work (loop iterations, calls, "
                "filters, and the characters they handle); a loop or a repetition is far too large"
            )
        if time.monotonic() > self.deadline:
            raise RenderLimitError(f"the template ran for more than {TEMPLATE_MAX_SECONDS:g} seconds")


_CURRENT: ContextVar[Budget | None] = ContextVar("docgen_render_budget", default=None)


@contextmanager
def render_budget() -> Iterator[Budget]:
    """The budget of the render that starts here, or of the one already running (an `{% include %}`)."""
    running = _CURRENT.get()
    if running is not None:
        yield running
        return
    budget = Budget()
    token = _CURRENT.set(budget)
    try:
        yield budget
    finally:
        _CURRENT.reset(token)


def current() -> Budget:
    """The running render's budget; outside a render each step is held to a budget of its own."""
    return _CURRENT.get() or Budget()


def size(value: Any) -> int:
    """The characters or items of a string or collection (0 for anything else): what a step reads through."""
    return len(value) if isinstance(value, _SIZED) else 0


def is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def cost(*values: Any) -> int:
    """The work of a step over `values`: one, plus their sizes, plus a unit per 64 bits of a large integer."""
    return 1 + sum(size(v) + (v.bit_length() // 64 if is_int(v) else 0) for v in values)


def refuse_large(value: Any, what: str) -> None:
    """Raise when `value` is a string, collection or integer past the limits."""
    if size(value) > TEMPLATE_MAX_TEXT:
        raise RenderLimitError(f"{what} would hold {size(value):,} items; at most {TEMPLATE_MAX_TEXT:,}")
    if is_int(value) and value.bit_length() > MAX_INT_BITS:
        raise RenderLimitError(f"{what} would have {value.bit_length():,} bits; at most {MAX_INT_BITS:,}")


def refuse_length(length: float, what: str) -> None:
    if length > TEMPLATE_MAX_TEXT:
        shown = f"{length:,.0f}" if math.isfinite(length) else "unbounded"
        raise RenderLimitError(
            f"{what} would be {shown} characters or items long; at most {TEMPLATE_MAX_TEXT:,}"
        )


def refuse_large_arguments(what: str, args: tuple[Any, ...], kwargs: Mapping[str, Any]) -> None:
    """An integer argument beyond the text limit can only be a width or a count that asks for too much."""
    for value in (*args, *kwargs.values()):
        if is_int(value) and abs(value) > TEMPLATE_MAX_TEXT:
            raise RenderLimitError(
                f"{what} is given {value:,}; numbers passed to calls are at most {TEMPLATE_MAX_TEXT:,}"
            )


def check_binop(operator: str, left: Any, right: Any) -> None:
    """Refuse `left <operator> right` when its result would be too large, before it is computed."""
    what = f"`{short(left)} {operator} {short(right)}`"
    if is_int(left) and is_int(right):
        if operator == "**" and right > 0 and abs(left) > 1:
            bits = (abs(left).bit_length() - 1) * right + 1
            if bits > MAX_INT_BITS:
                raise RenderLimitError(f"{what} would have at least {bits:,} bits; at most {MAX_INT_BITS:,}")
        elif operator == "*" and left.bit_length() + right.bit_length() > MAX_INT_BITS + 1:
            raise RenderLimitError(f"{what} would have more than {MAX_INT_BITS:,} bits")
        return
    if operator == "*":
        count, sequence = (right, left) if is_int(right) else (left, right)
        if is_int(count) and isinstance(sequence, _SIZED):
            refuse_length(max(count, 0) * size(sequence), what)
    elif operator == "+" and isinstance(left, _SIZED) and isinstance(right, _SIZED):
        refuse_length(size(left) + size(right), what)
    elif operator == "%" and isinstance(left, str):
        refuse_length(percent_length(left, right), what)


_PERCENT_FIELD = re.compile(r"%(?:\([^)]*\))?[-#0 +]*(\*|\d+)?(?:\.(\*|\d+))?")


def percent_length(pattern: str, values: Any) -> float:
    """An upper bound on the widths and precisions `pattern % values` pads to (`%999999999d`, `%*s`)."""
    total: float = len(pattern)
    for match in _PERCENT_FIELD.finditer(pattern):
        for number in match.groups():
            if number and number != "*":
                total += int(number) if len(number) < 12 else math.inf
    if "*" in pattern:
        given = values if isinstance(values, tuple) else (values,)
        total += sum(abs(value) for value in given if is_int(value))
    return total


def predicted_length(name: str, value: Any, args: tuple[Any, ...], kwargs: Mapping[str, Any]) -> float:
    """An upper bound on what the string operation `name` (a filter or a `str` method) makes of `value`;
    0 for operations whose result cannot outgrow their input and arguments."""
    if not isinstance(value, str):
        return 0
    given = list(args) + list(kwargs.values())
    if name == "replace" and len(given) >= 2 and isinstance(given[0], str) and isinstance(given[1], str):
        return len(value) + value.count(given[0]) * len(given[1])
    if name == "indent":
        width = given[0] if given else 4
        return len(value) + (value.count("\n") + 1) * (width if is_int(width) else len(str(width)))
    if name == "expandtabs":
        return len(value) + value.count("\t") * (given[0] if given and is_int(given[0]) else 8)
    if name == "format":
        return percent_length(value, tuple(args) or dict(kwargs))
    return 0


def joined_length(items: list[Any], separator: str) -> int:
    """How long joining `items` with `separator` makes the text (non-text items count as short)."""
    return sum(len(item) if isinstance(item, str) else 32 for item in items) + len(separator) * len(items)


def bounded_range(*args: int) -> range:
    """`range()` for templates: at most TEMPLATE_MAX_RANGE numbers."""
    numbers = range(*args)
    try:
        count = len(numbers)
    except OverflowError:
        count = TEMPLATE_MAX_RANGE + 1
    if count > TEMPLATE_MAX_RANGE:
        shown = ", ".join(str(arg) for arg in args)
        raise RenderLimitError(f"range({shown}) gives {count:,} numbers; at most {TEMPLATE_MAX_RANGE:,}")
    current().charge(1)
    return numbers


bounded_range.__name__ = "range"  # as messages about its arguments name it


def short(value: Any) -> str:
    """A value as a message may show it: never long, and never a number too long to print."""
    if isinstance(value, _SIZED) and size(value) > 40:
        return f"<{type(value).__name__} of {size(value):,}>"
    if is_int(value) and value.bit_length() > 64:
        return f"<int of {value.bit_length():,} bits>"
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
