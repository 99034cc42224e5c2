"""Text kept from being read as a GitHub workflow command, checked against the runner's rules as
tests/test_untrusted_log.py states them."""

from __future__ import annotations

import random
import re

from docgen.core.reports import as_github_log, as_text
from docgen.core.workflow_commands import escape_property, inert, stop_commands
from tests.core.test_findings import FINDINGS
from tests.test_untrusted_log import commands_run

PIECES = ["::", ":", "#", "##[", "[", "]", "error", " ", "\t", "\u2028", "\u00a0", "\ufeff", "\n", "\r", "x"]


def test_no_line_of_inert_text_is_a_command() -> None:
    chance = random.Random(26)
    for _ in range(5000):
        text = "".join(chance.choice(PIECES) for _ in range(chance.randrange(1, 12)))
        made = inert(text)
        assert commands_run(made) == [], repr(text)
        assert inert(made) == made
        lines = re.split(r"\r\n|\r|\n", text)
        # inert also skips a leading byte-order mark, which the runner does not: safe either way.
        if "##[" not in text and not any(re.match(r"[\s\ufeff]*::", line) for line in lines):
            assert made == text, repr(text)  # a line that could not start a command is left as it is


def test_only_the_lines_that_are_commands_change() -> None:
    text = "a: b\n  - x::y\n   ::warning::pwned\r##[add-mask]secret and more\r\n\u2028::debug::z\n"
    assert (
        inert(text)
        == "a: b\n  - x::y\n   :\\:warning::pwned\r#\\#[add-mask]secret and more\r\n\u2028:\\:debug::z\n"
    )
    report = as_text(FINDINGS)
    assert inert(report) == report  # an ordinary report prints as it always did


def test_stop_commands_uses_a_fresh_token_each_time() -> None:
    first, second = stop_commands("a\n"), stop_commands("a")
    assert first.splitlines()[0] != second.splitlines()[0]
    token = first.splitlines()[0].removeprefix("::stop-commands::")
    assert first == f"::stop-commands::{token}\na\n::{token}::\n"
    assert stop_commands("a", "t") == "::stop-commands::t\na\n::t::\n"


def test_the_github_log_wraps_the_report_after_the_annotations() -> None:
    log = as_github_log(FINDINGS, token="t0k3n")
    annotations, report = log.split("::stop-commands::t0k3n\n")
    assert all(line.startswith("::error ") for line in annotations.splitlines())
    assert report == as_text(FINDINGS) + "::t0k3n::\n"
    assert as_github_log([]) == ""


def test_a_property_cannot_end_its_command() -> None:
    assert escape_property("docs/a\n::warning::b,c%") == "docs/a%0A%3A%3Awarning%3A%3Ab%2Cc%25"
