"""Which constants a rendering shows: names read by templates and notes are recorded, and nothing else."""

from __future__ import annotations

from docgen.render.environment import make_environment
from docgen.render.shown import ShownConstants, recording
from docgen.templating import template_cache

CONSTANTS = {"LIMIT": 10, "WINDOW": 60, "DB_PASSWORD": "hunter2", "HOSTS": ["a", "b"]}


def render(source: str, variables: object) -> tuple[str, set[str]]:
    environment = make_environment({})
    with recording() as shown:
        text = template_cache.render_text(environment, source, variables, name="note")  # type: ignore[arg-type]
    return text, shown.get("demo", set())


def test_a_template_records_the_constants_it_reads_through_a_set_variable() -> None:
    catalog = {"constants": ShownConstants("demo", CONSTANTS)}
    source = "{% set c = catalog.constants %}{{ c.LIMIT }} in {{ c['WINDOW'] }}"
    source += "{% if false %}{{ c.HOSTS }}{% endif %}"
    assert render(source, {"catalog": catalog}) == ("10 in 60", {"LIMIT", "WINDOW"})


def test_a_note_records_only_the_names_it_uses() -> None:
    text, shown = render(
        "over {{ LIMIT }} requests{% for n in range(2) %}.{% endfor %}", ShownConstants("demo", CONSTANTS)
    )
    assert (text, shown) == ("over 10 requests..", {"LIMIT"})


def test_reading_every_value_at_once_records_every_name() -> None:
    catalog = {"constants": ShownConstants("demo", CONSTANTS)}
    for source in (
        "{{ catalog.constants }}",
        "{{ catalog.constants | tojson }}",
        "{{ catalog.constants.items() | list }}",
    ):
        assert render(source, {"catalog": catalog})[1] == set(CONSTANTS), source


def test_names_alone_record_nothing_and_nothing_is_recorded_outside_a_recording() -> None:
    catalog = {"constants": ShownConstants("demo", CONSTANTS)}
    assert render("{{ catalog.constants | list | length }}", {"catalog": catalog}) == ("4", set())
    assert ShownConstants("demo", CONSTANTS)["LIMIT"] == 10  # no recording under way: no error either
