"""The padding of an example's body, as the page's client programs write it (the programs themselves run in
tests/clients/test_programs.py)."""

from __future__ import annotations

import pytest

from docgen.render.client_programs import _unpadded


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ('{"a": 1}', ('{"a": 1}', None)),
        ('{"a": 1}' + " " * 300_000, ('{"a": 1}', 300_008)),
        ("line\n" + " " * 4, ("line\n", 9)),  # a newline before the padding stays in the body
        ("tab\t", ("tab\t", None)),  # trailing whitespace that is no padding is kept
        ("tab\t  ", ("tab\t", 6)),
        ("é  ", ("é", 4)),  # sizes in bytes, not characters
        ("   ", ("", 3)),
    ],
)
def test_the_padding_is_what_rstrip_of_spaces_removes(raw: str, expected: tuple[str, int | None]) -> None:
    assert _unpadded(raw) == expected
    assert expected[0] == raw.rstrip(" ")
