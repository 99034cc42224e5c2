"""The filters templates and notes use: exact units, small counts in words, code lists, safe table cells."""

from __future__ import annotations

import pytest

from docgen.render.filters import attribute, cell, join_code, kib, number_word


@pytest.mark.parametrize(
    ("value", "shown"),
    [(262144, "256 KiB"), (10 * 1024 * 1024, "10 MiB"), (1024, "1 KiB"), (1000, "1000 bytes"), (0, "0 MiB")],
)
def test_kib_uses_the_largest_exact_unit(value: int, shown: str) -> None:
    assert kib(value) == shown


@pytest.mark.parametrize(
    ("value", "shown"), [(0, "zero"), (4, "four"), (12, "twelve"), (13, "13"), (-1, "-1")]
)
def test_number_word_spells_small_counts(value: int, shown: str) -> None:
    assert number_word(value) == shown


def test_join_code_reads_as_a_sentence() -> None:
    assert join_code(["a"]) == "`a`"
    assert join_code(["a", "b"]) == "`a` and `b`"
    assert join_code([1, 2, 3], "or") == "`1`, `2` or `3`"


def test_cell_keeps_a_table_row_on_one_line() -> None:
    assert cell("a | b\n  c") == "a \\| b c"


def test_attribute_keeps_a_tooltip_inside_its_attribute_and_its_table_cell() -> None:
    assert attribute('flags | MASK\n  if a < b & c else "d"') == (
        "flags &#124; MASK if a &lt; b &amp; c else &quot;d&quot;"
    )
