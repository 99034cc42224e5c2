"""The errors' changelog, end to end: a copy of this project committed in steps (an error added, its status
changed, another's message reworded, a fourth removed), built with `mkdocs build --strict`. The built page and
the published JSON list exactly those changes, newest first, with their classes; the committed page keeps
only the placeholder, so `docgen check` stays clean, and `check --base` classifies the same changes alike.
Built outside git, the page says the history is not available and the strict build still passes."""

from __future__ import annotations

import html
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from docgen.core.project import load_project
from docgen.core.settings import load_settings
from docgen.shell.changelog import histories
from docgen.shell.cli import main
from tests.check.test_run import check
from tests.test_published_schema import assert_conforms
from tests.test_site import copy_site, mkdocs_build

CATALOG = "data/mcp-errors.yaml"
PAGE = "docs/developers/mcp-errors.md"
BUILT_PAGE = Path("developers") / "mcp-errors" / "index.html"
BUILT_JSON = Path("developers") / "mcp-errors" / "mcp-errors.json"
REWORDED = "Request body over {MAX_BODY_BYTES} bytes"
FIRST_WORDING = "Request body larger than {MAX_BODY_BYTES} bytes"


def _blocks(text: str) -> tuple[str, list[str]]:
    """The catalog's text before its first entry, and each entry's block (starting at its id)."""
    head, *blocks = text.split("\n- id: ")
    return head, blocks


def _edit_entry(text: str, entry: str, old: str, new: str) -> str:
    head, blocks = _blocks(text)
    found = [index for index, block in enumerate(blocks) if block.startswith(f"{entry}\n")]
    assert len(found) == 1 and old in blocks[found[0]], f"{entry}: the test needs updating"
    blocks[found[0]] = blocks[found[0]].replace(old, new, 1)
    return "\n- id: ".join([head, *blocks])


def _drop_entry(text: str, entry: str) -> str:
    head, blocks = _blocks(text)
    kept = [block for block in blocks if not block.startswith(f"{entry}\n")]
    assert len(kept) == len(blocks) - 1
    return "\n- id: ".join([head, *kept])


def _with_legacy(text: str) -> str:
    """The catalog with one more error, `legacy-error`, a copy of `internal-error` under a new id."""
    head, blocks = _blocks(text)
    legacy = next(block for block in blocks if block.startswith("internal-error\n"))
    return "\n- id: ".join([head, *blocks, legacy.replace("internal-error", "legacy-error", 1)])


class Repository:
    """A git repository at `root`, committing with fixed dates so the changelog's order is known."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.git("init", "-q", "-b", "main")

    def git(self, *args: str, date: str = "2026-03-01T12:00:00+00:00") -> str:
        env = {**os.environ, "GIT_AUTHOR_DATE": date, "GIT_COMMITTER_DATE": date}
        identity = [
            "-c",
            "user.name=docgen",
            "-c",
            "user.email=docgen@localhost",
            "-c",
            "commit.gpgsign=false",
        ]
        done = subprocess.run(
            ["git", *identity, *args], cwd=self.root, env=env, capture_output=True, text=True, check=True
        )
        return done.stdout.strip()

    def commit(self, catalog: str, day: int) -> str:
        (self.root / CATALOG).write_text(catalog, encoding="utf-8")
        self.git("add", "-A")
        self.git("commit", "-qm", f"day {day}", date=f"2026-03-0{day}T12:00:00+00:00")
        return self.git("rev-parse", "HEAD")


@pytest.fixture(scope="module")
def history(repo_root: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    """The copy, committed in five steps whose last leaves the catalog as this repository has it."""
    root = copy_site(repo_root, tmp_path_factory.mktemp("history") / "project")
    now = (root / CATALOG).read_text(encoding="utf-8")
    first = _with_legacy(_drop_entry(now, "header-mismatch"))
    first = _edit_entry(first, "method-not-found", "status: 404", "status: 400")
    first = _edit_entry(first, "body-too-large", f"message: {REWORDED}", f"message: {FIRST_WORDING}")
    repository = Repository(root)
    commits = {"base": repository.commit(first, 1)}
    added = _edit_entry(_with_legacy(now), "method-not-found", "status: 404", "status: 400")
    added = _edit_entry(added, "body-too-large", f"message: {REWORDED}", f"message: {FIRST_WORDING}")
    commits["added"] = repository.commit(added, 2)
    status = _edit_entry(added, "method-not-found", "status: 400", "status: 404")
    commits["status"] = repository.commit(status, 3)
    commits["message"] = repository.commit(_with_legacy(now), 4)
    commits["removed"] = repository.commit(now, 5)
    assert repository.git("status", "--porcelain") == ""
    return root, commits


def changelog_rows(page: Path) -> list[tuple[str, str, str, str, str]]:
    """The built changelog table: (error, date, change, effect, commit) per row, the error repeated."""
    text = page.read_text(encoding="utf-8")
    region = text.split("docgen:begin error-changelog", 1)[1].split("docgen:end error-changelog", 1)[0]
    rows: list[tuple[str, str, str, str, str]] = []
    for row in re.findall(r"<tr>(.*?)</tr>", region, re.DOTALL)[1:]:
        cells = [html.unescape(re.sub(r"<[^>]+>", "", cell)) for cell in re.findall(r"<td>(.*?)</td>", row)]
        error = cells[0].removesuffix(" (removed)") or rows[-1][0]
        rows.append((error, cells[1], cells[2], cells[3], cells[4]))
    return rows


def test_the_built_changelog_lists_each_change_newest_first(
    history: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    root, commits = history
    done = mkdocs_build(root, tmp_path / "site")
    assert done.returncode == 0, done.stderr
    assert "not available" not in done.stderr
    rows = changelog_rows(tmp_path / "site" / BUILT_PAGE)
    short = {name: commit[:7] for name, commit in commits.items()}
    by_error: dict[str, list[tuple[str, str, str, str]]] = {}
    for error, *event in rows:
        by_error.setdefault(error, []).append((event[0], event[1], event[2], event[3]))
    added_first = ("2026-03-01", "Added", "additive", short["base"])
    assert by_error.pop("method-not-found") == [
        ("2026-03-03", "HTTP status 400 → 404", "breaking", short["status"]),
        added_first,
    ]
    assert by_error.pop("body-too-large") == [
        ("2026-03-04", f"Message {FIRST_WORDING} → {REWORDED}", "editorial", short["message"]),
        added_first,
    ]
    assert by_error.pop("legacy-error") == [
        ("2026-03-05", "Removed", "breaking", short["removed"]),
        added_first,
    ]
    assert by_error.pop("header-mismatch") == [("2026-03-02", "Added", "additive", short["added"])]
    assert by_error and all(events == [added_first] for events in by_error.values())
    assert list(dict.fromkeys(error for error, *_ in rows))[-1] == "legacy-error"  # removed ones last


def test_the_published_json_carries_the_same_history(
    history: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    root, commits = history
    assert mkdocs_build(root, tmp_path / "site").returncode == 0
    assert_conforms(tmp_path / "site", tmp_path / "site" / BUILT_JSON)
    data = json.loads((tmp_path / "site" / BUILT_JSON).read_text(encoding="utf-8"))
    entries = {entry["id"]: entry["history"] for entry in data["entries"]}

    def event(name: str, change: str, before: object, after: object, effect: str) -> dict[str, object]:
        date = f"2026-03-0{list(commits).index(name) + 1}"
        fields = {"change": change, "before": before, "after": after, "effect": effect}
        return {"date": date, "commit": commits[name], **fields}

    added = event("base", "added", None, None, "additive")
    assert entries["method-not-found"] == [event("status", "status", 400, 404, "breaking"), added]
    assert entries["body-too-large"] == [
        event("message", "message", FIRST_WORDING, REWORDED, "editorial"),
        added,
    ]
    assert entries["header-mismatch"] == [event("added", "added", None, None, "additive")]
    assert data["removed"] == [
        {"id": "legacy-error", "history": [event("removed", "removed", None, None, "breaking"), added]}
    ]


def test_the_committed_page_holds_the_placeholder_and_check_stays_clean(
    history: tuple[Path, dict[str, str]], capsys: pytest.CaptureFixture[str]
) -> None:
    root, _ = history
    page = (root / PAGE).read_text(encoding="utf-8")
    region = page.split("docgen:begin error-changelog", 1)[1].split("<!-- docgen:end", 1)[0]
    assert "written when the site is built" in region and "|" not in region
    assert check(root, capsys) == (0, [])
    assert main(["-f", str(root / "mkdocs.yml"), "render"]) == 0
    assert (root / PAGE).read_text(encoding="utf-8") == page


def test_check_base_classifies_the_same_changes(
    history: tuple[Path, dict[str, str]], capsys: pytest.CaptureFixture[str]
) -> None:
    root, commits = history
    code, findings = check(root, capsys, "--base", commits["base"])
    assert code == 1
    contract = {(f["kind"], f["subject"]) for f in findings if str(f["kind"]).startswith("contract-")}
    # The status change and the removal are breaking; the added error and the reworded message are not.
    assert contract == {("contract-status", "method-not-found"), ("contract-removed", "legacy-error")}
    assert {f["subject"] for f in findings if f["breaking"]} == {"method-not-found", "legacy-error"}


def test_a_build_outside_git_says_the_history_is_unavailable_and_passes_strict(
    repo_root: Path, tmp_path: Path
) -> None:
    root = copy_site(repo_root, tmp_path / "project")
    assert subprocess.run(["git", "rev-parse"], cwd=root, capture_output=True, check=False).returncode != 0
    done = mkdocs_build(root, tmp_path / "site")
    assert done.returncode == 0, done.stderr
    assert "data/mcp-errors.yaml: the errors' changelog is not available in this build" in done.stderr
    built = (tmp_path / "site" / BUILT_PAGE).read_text(encoding="utf-8")
    region = built.split("docgen:begin error-changelog", 1)[1].split("docgen:end error-changelog", 1)[0]
    assert "The history of these errors is not available in this build" in region
    assert "<table>" not in region
    data = json.loads((tmp_path / "site" / BUILT_JSON).read_text(encoding="utf-8"))
    assert "removed" not in data and all("history" not in entry for entry in data["entries"])


def test_a_committed_version_that_does_not_parse_is_named_in_a_warning(
    repo_root: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = copy_site(repo_root, tmp_path / "project")
    now = (root / CATALOG).read_text(encoding="utf-8")
    repository = Repository(root)
    broken = repository.commit("entries: [unclosed\n", 1)
    fixed = repository.commit(now, 2)
    settings = load_settings(root / "mkdocs.yml")
    catalogs = load_project(settings, site=False).catalogs()
    found = histories(settings, catalogs)["mcp-errors"]
    assert found is not None and [commit for commit, _ in found.unreadable] == [broken]
    # The unreadable version's changes show at the next one that reads: every error added there.
    assert {events[0].commit for events in found.events.values()} == {fixed}
    warning = capsys.readouterr().err
    assert f"WARNING -  docgen: {CATALOG}: its version at commit {broken[:12]} could not be read" in warning


def test_a_shallow_clone_says_the_history_is_unavailable_and_passes_strict(
    history: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    root, _ = history
    clone = tmp_path / "clone"
    subprocess.run(
        ["git", "clone", "-q", "--depth", "1", root.as_uri(), str(clone)], check=True, capture_output=True
    )
    done = mkdocs_build(clone, tmp_path / "site")
    assert done.returncode == 0, done.stderr
    assert "changelog is not available in this build (a shallow clone)" in done.stderr
    built = (tmp_path / "site" / BUILT_PAGE).read_text(encoding="utf-8")
    assert "The history of these errors is not available in this build" in built


ZENSICAL = [["zensical", "build", "--strict"], ["docgen", "publish"]]
"""README's sequence for a site built by Zensical, which runs no MkDocs plugin."""


def zensical_site(history_root: Path, target: Path, *, directory_urls: bool = True) -> Path:
    """A full clone of the history built by Zensical, then completed by `docgen publish`, as README says."""
    full_clone(history_root, target)
    if not directory_urls:
        with (target / "mkdocs.yml").open("a", encoding="utf-8") as config:
            config.write("use_directory_urls: false\n")
    for command in ZENSICAL:
        done = run_tool(target, command)
        assert done.returncode == 0, f"{command}: {done.stdout}{done.stderr}"
    return target / "site"


def full_clone(root: Path, target: Path) -> None:
    subprocess.run(["git", "clone", "-q", root.as_uri(), str(target)], check=True, capture_output=True)


def run_tool(root: Path, command: list[str]) -> subprocess.CompletedProcess[str]:
    """One of the environment's commands (zensical, docgen), run in `root` as a user runs it."""
    tool = str(Path(sys.executable).parent / command[0])
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    return subprocess.run(
        [tool, *command[1:]], cwd=root, env=env, capture_output=True, text=True, check=False
    )


def changelog_region(page: Path) -> str:
    text = page.read_text(encoding="utf-8")
    return text.split("docgen:begin error-changelog", 1)[1].split("-->", 1)[1].split("<!-- docgen:end", 1)[0]


def changelog_search_text(site: Path, location: str) -> str:
    items = json.loads((site / "search.json").read_text(encoding="utf-8"))["items"]
    (text,) = [item["text"] for item in items if item["location"] == location]
    return str(text)


def test_zensical_with_docgen_publish_shows_the_changelog_the_plugin_does(
    history: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    root, commits = history
    clone = tmp_path / "clone"
    site = zensical_site(root, clone)
    assert mkdocs_build(clone, clone / "mkdocs").returncode == 0
    rows = changelog_rows(site / BUILT_PAGE)
    assert rows == changelog_rows(clone / "mkdocs" / BUILT_PAGE)
    assert {commit[:7] for commit in commits.values()} == {row[4] for row in rows}
    # The same HTML, not only the same cells: the site's Markdown extensions convert the region.
    assert changelog_region(site / BUILT_PAGE) == changelog_region(clone / "mkdocs" / BUILT_PAGE)
    # A site the plugin built holds the changelog already: publishing into it changes no page.
    done = run_tool(clone, ["docgen", "publish", "--site-dir", "mkdocs"])
    assert done.returncode == 0 and "mkdocs/developers/mcp-errors/index.html: unchanged" in done.stderr
    searched = changelog_search_text(site, "developers/mcp-errors/#changelog")
    assert "written when the site is built" not in searched
    assert all(commit[:7] in searched for commit in commits.values())
    assert f"<code>{FIRST_WORDING}</code> → <code>{REWORDED}</code> editorial" in searched
    again = run_tool(clone, ["docgen", "publish"])
    assert again.returncode == 0 and "site/developers/mcp-errors/index.html: unchanged" in again.stderr


def test_docgen_publish_fills_the_changelog_without_directory_urls(
    history: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    root, commits = history
    site = zensical_site(root, tmp_path / "clone", directory_urls=False)
    rows = changelog_rows(site / "developers" / "mcp-errors.html")
    assert {commit[:7] for commit in commits.values()} == {row[4] for row in rows}
    assert "written when the site is built" not in changelog_search_text(
        site, "developers/mcp-errors.html#changelog"
    )


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (
            lambda region: region.replace("<!-- docgen:begin error-changelog", "<!-- gone"),
            "the region 'error-changelog' is not found in the built page",
        ),
        (
            lambda region: region.replace("This list is written", "This list was written"),
            "the region 'error-changelog' holds neither the committed placeholder nor the changelog",
        ),
    ],
)
def test_docgen_publish_refuses_a_built_page_whose_placeholder_it_cannot_find(
    history: tuple[Path, dict[str, str]], tmp_path: Path, edit: Any, message: str
) -> None:
    root, _ = history
    clone = tmp_path / "clone"
    full_clone(root, clone)
    assert run_tool(clone, ZENSICAL[0]).returncode == 0
    page = clone / "site" / BUILT_PAGE
    page.write_text(edit(page.read_text(encoding="utf-8")), encoding="utf-8")
    built = page.read_bytes()
    done = run_tool(clone, ["docgen", "publish"])
    assert done.returncode == 2
    assert done.stderr.startswith(f"docgen publish: error: site/{BUILT_PAGE.as_posix()}: {message}")
    assert page.read_bytes() == built  # nothing half-written
    assert not (clone / "site" / BUILT_JSON).exists()
