"""The supported site engines: MkDocs with Material, ProperDocs (the maintained fork of MkDocs 1.6, which runs
the docgen plugin unchanged) and Zensical (which runs no MkDocs plugin: the committed pages plus `docgen
publish` give it the same site, and `docgen check` is the contract in CI).

Each engine builds a copy of this repository's site, strictly, as README's "Site engines" section says to;
the tables of every generated page and the published catalog JSON must come out the same under the three,
and a hand edit inside a generated region must fail the documented CI sequence under each.
"""

from __future__ import annotations

import os
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest

from tests.helpers import copy_project

REPO = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent

ENGINES = {
    "mkdocs": [["mkdocs", "build", "--strict"]],
    "properdocs": [["properdocs", "build", "--strict", "-f", "mkdocs.yml"]],
    "zensical": [["zensical", "build", "--strict"], ["docgen", "publish"]],
}
"""Each engine's documented sequence to build the site; `docgen check` follows in CI under every one. Not
`--quiet`: it drops the warnings that `--strict` counts, so a stale page would build green."""

PAGES = ("developers/mcp-errors", "developers/mcp-public-tools", "developers/errors-and-retries")


def run(root: Path, command: list[str]) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    return subprocess.run(
        [str(BIN / command[0]), *command[1:]], cwd=root, env=env, capture_output=True, text=True, check=False
    )


def build(root: Path, engine: str) -> Path:
    """The site built by `engine` in a copy of `root`'s project, every step of its sequence passing."""
    for command in ENGINES[engine]:
        done = run(root, command)
        assert done.returncode == 0, f"{command}: {done.stdout}{done.stderr}"
    return root / "site"


class _Cells(HTMLParser):
    """The text of every table cell of a page, in order."""

    def __init__(self) -> None:
        super().__init__()
        self.cells: list[str] = []
        self._open: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("td", "th"):
            self._open = []

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._open is not None:
            self.cells.append(" ".join("".join(self._open).split()))
            self._open = None

    def handle_data(self, data: str) -> None:
        if self._open is not None:
            self._open.append(data)


def table_cells(page: Path) -> list[str]:
    parser = _Cells()
    parser.feed(page.read_text(encoding="utf-8"))
    return parser.cells


def published(site: Path) -> dict[str, bytes]:
    """Every catalog JSON and schema the site publishes (a search index is the engine's own)."""
    return {
        path.relative_to(site).as_posix(): path.read_bytes()
        for path in sorted(site.rglob("*.json"))
        if not path.relative_to(site).as_posix().startswith("search")
    }


@pytest.fixture(scope="module")
def sites(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return {engine: build(copy_project(REPO, tmp_path_factory.mktemp(engine)), engine) for engine in ENGINES}


def test_every_engine_builds_the_same_tables(sites: dict[str, Path]) -> None:
    reference = {page: table_cells(sites["mkdocs"] / page / "index.html") for page in PAGES}
    assert all(len(cells) > 20 for cells in reference.values())  # the error table, the tools, the retries
    for engine in ("properdocs", "zensical"):
        assert {page: table_cells(sites[engine] / page / "index.html") for page in PAGES} == reference, engine


def test_every_engine_shows_the_same_changelog_region(sites: dict[str, Path]) -> None:
    """Outside git, the region says the history is not available (under Zensical, once `docgen publish` has
    filled it in); tests/shell/test_changelog.py compares the changelog itself, built from a history."""

    def region(site: Path) -> str:
        text = (site / "developers" / "mcp-errors" / "index.html").read_text(encoding="utf-8")
        return text.split("docgen:begin error-changelog", 1)[1].split("-->", 1)[1].split("<!-- docgen:end")[0]

    reference = region(sites["mkdocs"])
    assert "The history of these errors is not available in this build" in reference
    assert region(sites["properdocs"]) == reference
    assert region(sites["zensical"]) == reference


def test_every_engine_publishes_the_same_catalog_json(sites: dict[str, Path]) -> None:
    reference = published(sites["mkdocs"])
    assert sorted(reference) == [
        "catalog-1.schema.json",
        "developers/errors-and-retries/mcp-errors.json",
        "developers/mcp-client-generic/mcp-errors.json",
        "developers/mcp-errors/mcp-errors.json",
        "developers/mcp-public-tools/mcp-tools.json",
        "developers/mcp-server/mcp-errors.json",
    ]
    assert published(sites["properdocs"]) == reference
    assert published(sites["zensical"]) == reference


@pytest.mark.parametrize("engine", sorted(ENGINES))
def test_a_hand_edit_in_a_region_fails_the_ci_sequence_of_every_engine(tmp_path: Path, engine: str) -> None:
    root = copy_project(REPO, tmp_path)
    page = root / "docs" / "developers" / "mcp-errors.md"
    text = page.read_text(encoding="utf-8")
    row = '<a id="err-origin-not-allowed"></a>`-32600` | `403` |'
    assert text.count(row) == 1
    page.write_text(text.replace(row, row.replace("403", "401")), encoding="utf-8")
    results = [run(root, command).returncode for command in [*ENGINES[engine], ["docgen", "check"]]]
    # MkDocs and ProperDocs already stop at the strict build; Zensical builds the edit as it is (it runs no
    # plugin and has no hook to fail on it), and the check after it is what fails.
    assert results[-1] == 1 if engine == "zensical" else results[0] == 1, results
    assert any(code != 0 for code in results)


def test_publish_refuses_an_unbuilt_site_and_a_folder_outside_the_project(tmp_path: Path) -> None:
    root = copy_project(REPO, tmp_path / "project")
    unbuilt = run(root, ["docgen", "publish"])
    assert unbuilt.returncode == 2
    assert unbuilt.stderr.startswith("docgen publish: error: site: no such folder, so the site is not built")
    (root / "site").mkdir()
    half = run(root, ["docgen", "publish"])
    assert half.returncode == 2
    assert "docgen publish: error: site/developers/errors-and-retries/index.html: no such file" in half.stderr
    outside = run(root, ["docgen", "publish", "--site-dir", str(tmp_path)])
    assert outside.returncode == 2
    assert "is not a folder inside the project; docgen writes only inside it" in outside.stderr
    assert not any((root / "site").iterdir()) and sorted(p.name for p in tmp_path.iterdir()) == ["project"]
