"""`run_time_values:` of a routes catalog: the values a configuration states for expressions the source's
paths use and docgen cannot read, checked as every other key is, each problem at its line."""

from __future__ import annotations

from pathlib import Path

from tests.core.test_settings import ROUTES, line_of, load, problems, write_config

STATED = """\
    run_time_values:
      - {expression: settings.PREFIX, value: /api, because: every deployment sets it}
      - {expression: settings.PORT_PREFIX, value: 8080}
"""


def test_stated_values_are_read_with_their_lines(tmp_path: Path) -> None:
    text = write_config(tmp_path, ROUTES + STATED)
    config = load(tmp_path).catalogs["routes"]
    assert config.run_time_values == (("settings.PREFIX", "/api"), ("settings.PORT_PREFIX", 8080))
    assert config.lines["run_time_values.settings.PREFIX"] == line_of(text, "expression: settings.PREFIX")


def test_malformed_statements_are_refused_at_their_lines(tmp_path: Path) -> None:
    wrong = """\
    run_time_values:
      - {expression: settings.PREFIX, value: [/api]}
      - {value: /x}
      - {expression: settings.X, value: /x, valeu: 1}
      - settings.Y
"""
    text = write_config(tmp_path, ROUTES + wrong)
    hint = "write a list of {expression: settings.API_V1_STR, value: /api/v1, because: ...}"
    found = {(error.message, error.line) for error in problems(tmp_path)}
    assert found == {
        (
            "'catalogs.routes.run_time_values.0.value': expected a text, an integer or a list of class paths "
            "(package.module.Class), got ['/api']",
            line_of(text, "[/api]"),
        ),
        (
            "'catalogs.routes.run_time_values.1.expression': expected the expression as the source writes it",
            line_of(text, "{value: /x}"),
        ),
        ("'catalogs.routes.run_time_values.2.valeu': unknown key", line_of(text, "valeu")),
        (
            "'catalogs.routes.run_time_values.3': expected a mapping, got 'settings.Y'",
            line_of(text, "- settings.Y"),
        ),
    }
    assert {error.hint for error in problems(tmp_path) if "valeu" not in error.message} == {hint}
