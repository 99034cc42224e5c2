"""Values the server sets only at run time, as editors state them in notes (`run_time_values`).

Each case takes the dynamic fixture (tests/fixtures/servers/dynamic: `error-4`'s status is
`STATUS_BY_REASON[reason]`, stated in its notes as 503 or 429) the whole way: extract, render, check's JSON
report with the exact set of finding kinds, and the page (built with the real `mkdocs build --strict` where
the page shows something new).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from docgen.shell.cli import main

REPO = Path(__file__).resolve().parents[2]
FIXTURE = REPO / "tests" / "fixtures" / "servers" / "dynamic"
SERVER = "jobs/runner.py"
NOTES = "data/errors.notes.yaml"
PAGE = "docs/index.md"
EXPRESSION = "STATUS_BY_REASON[reason]"
STATEMENT = f"""\
    run_time_values:
      status:
        expression: {EXPRESSION}
        value: [503, 429]
        because: STATUS_BY_REASON maps the queue's two reasons, busy and quota, to these
"""
STATED_CELL = (
    '`503` or `429` <abbr class="docgen-stated" title="Set at run time by STATUS_BY_REASON[reason]; stated '
    "by an editor: STATUS_BY_REASON maps the queue&#x27;s two reasons, busy and quota, to these"
    '">stated</abbr>'
)


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """The fixture with the packaged templates, extracted and rendered, as a user's project."""
    project = tmp_path / "dynamic"
    shutil.copytree(FIXTURE, project)
    assert docgen(project, "extract") == 0 and docgen(project, "render") == 0
    return project


def docgen(root: Path, *argv: str) -> int:
    return main(["-f", str(root / "mkdocs.yml"), *argv])


def check(root: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, list[dict[str, Any]]]:
    capsys.readouterr()
    code = docgen(root, "check", "--format", "json")
    return code, json.loads(capsys.readouterr().out)["findings"]


def replace(root: Path, relative: str, old: str, new: str) -> None:
    path = root / relative
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new), encoding="utf-8")


def line_of(root: Path, relative: str, text: str) -> int:
    lines = (root / relative).read_text(encoding="utf-8").splitlines()
    return next(number for number, line in enumerate(lines, 1) if text in line)


def row(root: Path, entry_id: str) -> str:
    page = (root / PAGE).read_text(encoding="utf-8")
    return next(line for line in page.splitlines() if f'<a id="err-{entry_id}"></a>' in line)


def build(root: Path) -> None:
    mkdocs = Path(sys.executable).parent / "mkdocs"
    done = subprocess.run(
        [str(mkdocs), "build", "--strict", "-q"], cwd=root, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr


def test_the_stated_value_is_on_the_page_and_check_is_clean(
    root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert check(root, capsys) == (0, [])
    assert f'| <a id="err-error-4"></a>`-4` | {STATED_CELL} |' in row(root, "error-4")
    assert "_Set at run time._" not in (root / PAGE).read_text(encoding="utf-8")
    build(root)
    published = json.loads((root / "site" / "errors.json").read_text(encoding="utf-8"))
    stated = {entry["id"]: entry.get("stated") for entry in published["entries"]}
    assert stated == {
        "error-2-503": None,
        "not-allowed-to-start": None,
        "error-4": {
            "status": {
                "value": [503, 429],
                "expression": EXPRESSION,
                "because": "STATUS_BY_REASON maps the queue's two reasons, busy and quota, to these",
            }
        },
    }


def test_an_unstated_value_is_reported_at_its_call_until_an_editor_states_it(
    root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    replace(root, NOTES, STATEMENT, "")
    capsys.readouterr()
    assert docgen(root, "extract") == 0 and docgen(root, "render") == 0
    said = capsys.readouterr().err
    assert (
        f"{NOTES}: entry 'error-4' has its status set at run time by `{EXPRESSION}`; state what a client "
        "gets under 'run_time_values: status:'"
    ) in said
    assert "| `-4` | _Set at run time._ |" in row(root, "error-4").replace('<a id="err-error-4"></a>', "")

    code, findings = check(root, capsys)
    assert code == 1
    assert {finding["kind"] for finding in findings} == {"run-time-value-unstated"}
    [finding] = findings
    assert (finding["file"], finding["line"], finding["subject"]) == (SERVER, 21, "error-4.status")
    assert f"`{EXPRESSION}`" in finding["message"]
    assert finding["hint"] == (
        f"in {NOTES}, under 'entries: error-4: run_time_values: status:' write "
        f'`expression: "{EXPRESSION}"` and `value:` with an HTTP status (an integer from 100 to 599) or a '
        "list of them, and optionally `because:`"
    )

    # Stating it as the hint says clears the finding, once render has put the value on the page.
    replace(
        root,
        NOTES,
        "    action: Wait before the next job.\n",
        "    action: Wait before the next job.\n" + STATEMENT,
    )
    code, findings = check(root, capsys)
    assert (code, {finding["kind"] for finding in findings}) == (1, {"page-stale"})
    assert docgen(root, "render") == 0
    assert check(root, capsys) == (0, [])
    assert STATED_CELL in row(root, "error-4")


def test_a_changed_expression_makes_the_statement_stale_at_its_line_in_the_notes(
    root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    replace(root, SERVER, EXPRESSION, "STATUS_BY_REASON.get(reason, 500)")
    code, findings = check(root, capsys)
    assert code == 1
    kinds = {finding["kind"] for finding in findings}
    # The catalog records the new expression; the page would lose the stated value, which no longer holds.
    assert kinds == {"run-time-value-changed", "run-time-value-stale", "page-stale"}
    [stale] = [finding for finding in findings if finding["kind"] == "run-time-value-stale"]
    expression_line = line_of(root, NOTES, f"expression: {EXPRESSION}")
    assert (stale["file"], stale["line"], stale["subject"]) == (NOTES, expression_line, "error-4.status")
    assert (stale["old"], stale["new"]) == (EXPRESSION, "STATUS_BY_REASON.get(reason, 500)")
    assert 'write `expression: "STATUS_BY_REASON.get(reason, 500)"`' in stale["hint"]

    # Refreshing the catalog and the page leaves the statement to the editor: it stays stale, the page says
    # only that the status is set at run time.
    assert docgen(root, "extract") == 0 and docgen(root, "render") == 0
    code, findings = check(root, capsys)
    assert (code, {finding["kind"] for finding in findings}) == (1, {"run-time-value-stale"})
    assert "_Set at run time._" in row(root, "error-4")


def test_a_statement_for_a_value_the_code_now_gives_statically_is_stale(
    root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    replace(root, SERVER, "STATUS_BY_REASON[reason], reason", "503, reason")
    code, findings = check(root, capsys)
    assert code == 1
    kinds = {finding["kind"] for finding in findings}
    assert kinds == {"status-changed", "run-time-value-changed", "run-time-value-stale", "page-stale"}
    [stale] = [finding for finding in findings if finding["kind"] == "run-time-value-stale"]
    assert (stale["file"], stale["line"]) == (NOTES, line_of(root, NOTES, f"expression: {EXPRESSION}"))
    assert "no longer set at run time: the code gives 503" in stale["message"]
    assert stale["hint"] == "delete 'run_time_values: status:' under 'entries: error-4:'"


def test_a_statement_for_a_field_that_is_not_dynamic_or_an_entry_that_is_gone_is_reported(
    root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    replace(
        root,
        NOTES,
        "    action: Ask for the permission.\n",
        "    action: Ask for the permission.\n"
        "    run_time_values:\n      status: {expression: exc.status, value: 403}\n"
        "  retired:\n    run_time_values:\n      code: {expression: next_code(), value: -9}\n",
    )
    code, findings = check(root, capsys)
    assert code == 1
    assert {finding["kind"] for finding in findings} == {"run-time-value-stale", "notes-orphan"}
    by_kind = {finding["kind"]: finding for finding in findings}
    stale, orphan = by_kind["run-time-value-stale"], by_kind["notes-orphan"]
    line = line_of(root, NOTES, "status: {expression: exc.status")
    assert (stale["file"], stale["line"], stale["subject"]) == (NOTES, line, "not-allowed-to-start.status")
    assert "no longer set at run time: the code gives 403" in stale["message"]
    assert (orphan["file"], orphan["line"], orphan["subject"]) == (
        NOTES,
        line_of(root, NOTES, "retired:"),
        "retired",
    )


def test_a_wrong_statement_is_a_located_error_each_at_its_line(
    root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    replace(root, NOTES, "value: [503, 429]", 'value: "503"')
    replace(
        root,
        NOTES,
        "    action: Retry later.\n",
        "    action: Retry later.\n"
        "    run_time_values:\n      message: {expression: str(exc), value: full}\n",
    )
    value_line = line_of(root, NOTES, 'value: "503"')
    message_line = line_of(root, NOTES, "message: {expression")
    for command in ("extract", "render", "check"):
        capsys.readouterr()
        assert docgen(root, command) == 3
        said = capsys.readouterr().err
        assert "Traceback" not in said
        assert (
            f"{NOTES}:{message_line}: entries/error-2-503/run_time_values/message: Additional properties are "
            "not allowed ('message' was unexpected)\n"
            "  hint: the catalog sets no code or status of entry 'error-2-503' at run time: delete its "
            "`run_time_values`"
        ) in said
        assert (
            f"{NOTES}:{value_line}: entries/error-4/run_time_values/status/value: '503' is not of type "
            "'integer', 'array'\n"
            f"  hint: entry 'error-4' sets at run time: status = `{EXPRESSION}` (status's `value` is an HTTP "
            "status (an integer from 100 to 599) or a list of them)"
        ) in said
