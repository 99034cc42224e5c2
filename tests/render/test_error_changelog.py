"""The `error-changelog` region as each renderer writes it: the placeholder for committed pages, a notice
where the site build found no history, and each error's events, newest first, where it found one."""

from __future__ import annotations

from pathlib import Path

from docgen.core.changes import Change, Event, History
from docgen.kinds.errors.changelog import with_history
from docgen.render.published import catalog_as_json
from docgen.render.renderer import renderer_for
from tests.render.test_renderer import GOLDEN, golden_project

PAGE = "<!-- docgen:begin error-changelog catalog=demo -->\n<!-- docgen:end error-changelog -->\n"
OLD, NEW = "1" * 40, "2" * 40


def events() -> History:
    """Two errors of the golden `demo` catalog and one it no longer holds, as a history from git."""
    added = Event(Change("documented", "added"), OLD, "2026-01-01")
    return History(
        {
            "documented": (Event(Change("documented", "status", 404, 400), NEW, "2026-02-01"), added),
            "cause-only": (
                Event(Change("cause-only", "message", "No | method", "No method {name}"), NEW, "2026-02-01"),
            ),
            "gone": (Event(Change("gone", "removed"), NEW, "2026-02-01"),),
        }
    )


def render(repo_root: Path, histories: dict[str, History | None] | None) -> str:
    project = golden_project(GOLDEN / "notes-gap", repo_root / "templates")
    renderer = renderer_for(project, histories=histories)
    text = renderer.render_page(PAGE, page="errors.md").text
    return text.split(" -->\n", 1)[1].split("<!-- docgen:end", 1)[0]


def test_committed_pages_hold_the_placeholder(repo_root: Path) -> None:
    body = render(repo_root, None)
    assert (
        body
        == "\n_This list is written when the site is built, from the commits that changed the catalog._\n\n"
    )


def test_a_build_without_history_says_so(repo_root: Path) -> None:
    body = render(repo_root, {"demo": None})
    assert "The history of these errors is not available in this build" in body
    assert "|" not in body


def test_each_error_lists_its_events_newest_first_removed_ones_last(repo_root: Path) -> None:
    rows = render(repo_root, {"demo": events()}).strip().splitlines()
    assert rows == [
        '<div class="docgen-changelog-table" markdown>',  # cards on a phone (docs/stylesheets/docgen.css)
        "",
        "| Error | Date | Change | Effect | Commit |",
        "|---|---|---|---|---|",
        "| [`documented`](#err-documented) | 2026-02-01 | HTTP status `404` → `400` | breaking | `2222222` |",
        "|  | 2026-01-01 | Added | additive | `1111111` |",
        "| [`cause-only`](#err-cause-only) | 2026-02-01 | Message `No \\| method` → `No method {name}` "
        "| editorial | `2222222` |",
        "| `gone` (removed) | 2026-02-01 | Removed | breaking | `2222222` |",
        "",
        "</div>",
    ]


def test_the_published_entries_carry_their_history(repo_root: Path) -> None:
    project = golden_project(GOLDEN / "notes-gap", repo_root / "templates")
    data = with_history(catalog_as_json(renderer_for(project).inputs, "demo"), events())
    history = {entry["id"]: entry["history"] for entry in data["entries"]}
    assert history["undocumented"] == []
    change = {"change": "status", "before": 404, "after": 400, "effect": "breaking"}
    assert history["documented"][0] == {"date": "2026-02-01", "commit": NEW, **change}
    assert [event["change"] for event in history["documented"]] == ["status", "added"]
    assert data["removed"] == [
        {
            "id": "gone",
            "history": [
                {
                    "date": "2026-02-01",
                    "commit": NEW,
                    "change": "removed",
                    "before": None,
                    "after": None,
                    "effect": "breaking",
                }
            ],
        }
    ]
    assert with_history(data, None) == data
