"""The bounds on folding constants (docgen/core/limits.py): an operation whose result would pass
MAX_INT_BITS or MAX_FOLDED_ITEMS (`9**9**9`, `'x' * 10**10`, `1 << 10**12`) is refused from the size of its
operands, before it is computed, with an error that names the expression.
"""

from __future__ import annotations

import ast
from typing import Any, TypeGuard

from docgen.core.errors import InputError
from docgen.core.limits import MAX_FOLDED_ITEMS, MAX_INT_BITS
from docgen.extract.calls import unparse


class TooLarge(InputError):
    """An expression whose value would be larger than docgen folds (docgen/core/limits.py): a bound was
    reached, so it is an error (exit 3) wherever it is met, never a value left dynamic or a constant left out.
    The resolver locates it at the constant or expression it was folding, when it knows where that is."""

    def __init__(self, expression: str, reason: str, unit: str) -> None:
        limit = f"{MAX_INT_BITS:,} bits" if unit == "bits" else f"{MAX_FOLDED_ITEMS:,} items"
        shown = _shortened(expression)
        super().__init__(
            f"`{shown}` is too large to fold: {reason}; docgen folds constants up to {limit}",
            hint="write a value within docgen's limits (`docgen --help` lists them)",
        )

    def located(self, file: str, line: int | None, what: str = "") -> TooLarge:
        """This error at `file:line` (unless it already names a place), its message prefixed with `what`."""
        if self.file is None:
            self.file, self.line = file, line
            self.message = f"{what}{self.message}"
        return self


def _shortened(expression: str) -> str:
    return expression if len(expression) <= 60 else expression[:57] + "..."


def refuse_large_result(node: ast.BinOp, left: Any, right: Any) -> None:
    """Raise TooLarge when `left <op> right` would pass docgen's folding limits, before computing it.

    Exact for repetition and shifts; for powers, the lower bound on the result's size is what is compared,
    so a result that fits is never refused.
    """
    op = node.op
    integers = _is_int(left) and _is_int(right)
    bits = items = 0
    if integers and isinstance(op, ast.Pow) and right > 0 and abs(left) > 1:
        bits = (abs(left).bit_length() - 1) * right + 1
    elif integers and isinstance(op, ast.LShift) and right > 0:
        bits = left.bit_length() + right
    elif integers and isinstance(op, ast.Mult):
        bits = left.bit_length() + right.bit_length() - 1
    elif isinstance(op, ast.Mult) and (_is_int(left) or _is_int(right)):
        count, sequence = (left, right) if _is_int(left) else (right, left)
        items = count * len(sequence) if isinstance(sequence, str | tuple) else 0
    elif isinstance(op, ast.Add) and isinstance(left, str | tuple) and isinstance(right, str | tuple):
        items = len(left) + len(right)
    if bits > MAX_INT_BITS:
        raise TooLarge(unparse(node), f"the result would have at least {bits:,} bits", "bits")
    if items > MAX_FOLDED_ITEMS:
        raise TooLarge(unparse(node), f"it would make {items:,} items", "items")


def refuse_large_value(node: ast.expr, value: Any) -> None:
    """Raise TooLarge when the value `node` gave passes docgen's folding limits: a literal such as
    0xfff...f, or a string or tuple that came whole from the source."""
    if _is_int(value) and value.bit_length() > MAX_INT_BITS:
        raise TooLarge(unparse(node), f"it has {value.bit_length():,} bits", "bits")
    if isinstance(value, str | tuple) and len(value) > MAX_FOLDED_ITEMS:
        raise TooLarge(unparse(node), f"it has {len(value):,} items", "items")


def _is_int(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)
