"""The real site: `mkdocs build --strict` passes, the error page is complete, stale pages fail the build."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest
import yaml

from tests.helpers import SEED_ROWS as SEED_CODES
from tests.helpers import copy_project

SEED_ROWS = [(str(code), str(status)) for code, status in SEED_CODES]
"""The seed table's rows as the page prints them."""


copy_site = copy_project


def mkdocs_build(project: Path, site_dir: Path) -> subprocess.CompletedProcess[str]:
    """`mkdocs build --strict` of `project` into `site_dir`, as a user runs it."""
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site_dir)],
        cwd=project,
        capture_output=True,
        text=True,
        env={"NO_MKDOCS_2_WARNING": "1", "PATH": "/usr/bin:/bin"},
        timeout=120,
        check=False,
    )


class TableReader(HTMLParser):
    """Rows of the tables inside `<div class="docgen-error-table">`, as cell texts, plus every element id."""

    def __init__(self) -> None:
        super().__init__()
        self.depth = 0
        self.rows: list[list[str]] = []
        self.ids: set[str] = set()
        self._cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if values.get("id"):
            self.ids.add(str(values["id"]))
        if tag == "div" and "docgen-error-table" in (values.get("class") or ""):
            self.depth = 1
        elif tag == "div" and self.depth:
            self.depth += 1
        elif self.depth and tag == "tr":
            self.rows.append([])
        elif self.depth and tag in {"td", "th"}:
            self._cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag == "div" and self.depth:
            self.depth -= 1
        elif tag in {"td", "th"} and self._cell is not None:
            self.rows[-1].append("".join(self._cell).strip())
            self._cell = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


@pytest.fixture(scope="module")
def built_site(repo_root: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    site = tmp_path_factory.mktemp("site")
    done = mkdocs_build(repo_root, site)
    assert done.returncode == 0, done.stderr
    return site


def read_table(page: Path) -> TableReader:
    reader = TableReader()
    reader.feed(page.read_text(encoding="utf-8"))
    return reader


def test_error_page_table_has_exactly_the_seed_rows(built_site: Path) -> None:
    reader = read_table(built_site / "developers" / "mcp-errors" / "index.html")
    header, *rows = reader.rows
    assert header == ["Code", "HTTP", "Cause", "What to do"]
    assert [(code, status) for code, status, *_ in rows] == SEED_ROWS
    assert all(cause and action and "Not yet documented" not in cause + action for *_, cause, action in rows)
    assert {"err-origin-not-allowed", "err-header-mismatch", "err-rate-limited"} <= reader.ids


def test_error_page_has_header_and_based_on_blocks(built_site: Path) -> None:
    html = (built_site / "developers" / "mcp-errors" / "index.html").read_text(encoding="utf-8")
    for label in ("Status:</strong> Available", "Audience:</strong> developer", "Last verified:</strong>"):
        assert label in html
    assert 'href="https://connectbyjbrh.com/developers/mcp-errors/"' in html
    based_on = html[html.index('id="what-this-page-is-based-on"') :]
    for cited in ("backend/app/mcp_server.py", "_rpc_error", "mcp_endpoint", "_handle"):
        assert f"<code>{cited}</code>" in based_on
    assert "https://www.jsonrpc.org/specification" in based_on


def test_catalog_json_is_published_beside_the_page(built_site: Path) -> None:
    page = built_site / "developers" / "mcp-errors"
    data = json.loads((page / "mcp-errors.json").read_text(encoding="utf-8"))
    assert sorted((str(e["code"]), str(e["status"])) for e in data["entries"]) == sorted(SEED_ROWS)
    assert all(entry["cause"] and entry["action"] for entry in data["entries"])
    assert 'href="mcp-errors.json"' in (page / "index.html").read_text(encoding="utf-8")
    beside_another = built_site / "developers" / "errors-and-retries" / "mcp-errors.json"
    assert beside_another.read_bytes() == (page / "mcp-errors.json").read_bytes()
    tools = json.loads((built_site / "developers" / "mcp-public-tools" / "mcp-tools.json").read_text("utf-8"))
    assert {tool["name"] for tool in tools["tools"]} >= {"search_public_docs", "get_public_page"}


def test_error_page_shows_the_evidence_and_the_spec_differences(built_site: Path) -> None:
    html = (built_site / "developers" / "mcp-errors" / "index.html").read_text(encoding="utf-8")
    assert (
        "Reproduced against the server on 2026-12-01:</strong> all ten rows a client can trigger answered as "
        "the table says"
    ) in html
    for internal in ("docgen probe", "docgen render", "data/specs/", "tests/backend"):
        assert internal not in html, internal  # no tool name or repository path for readers
    assert "request(s)" not in html and "to all 121 calls, 1 request sent" in html
    examples = html[
        html.index('id="examples"') : html.index('id="how-this-server-compares-with-the-mcp-specification"')
    ]
    assert examples.count('class="tabbed-set tabbed-alternate"') == 10  # internal-error has none
    for label in ("HTTP", "curl", "Python (mcp 2.3.0)", "TypeScript (@modelcontextprotocol/client 2.4.0)"):
        assert examples.count(f">{label}</label>") == 10
    assert examples.count("The server's answer, recorded on 2026-12-01:") == 10
    # Each example says how each official client reports it, outside the fold; each client tab its output.
    assert examples.count("How the official clients report it:") == 10
    for client in ("Python (2026-07-28)", "TypeScript (2026-07-28)", "TypeScript (legacy)"):
        assert examples.count(f"<li>{client}: ") == 10, client
    for client in ("Python (legacy)", "TypeScript (legacy)"):
        assert examples.count(f'<span class="filename">{client}</span>') == 10, client
    # Recorded bodies are indented JSON, one member a line, not one long line.
    page = (Path(__file__).resolve().parents[1] / "docs" / "developers" / "mcp-errors.md").read_text("utf-8")
    assert page.count('  "error": {\n') == 10
    assert [line for line in page.splitlines() if line.strip().startswith('{"jsonrpc":"2.0"')] == []
    start = html.index('id="what-the-official-clients-make-of-these-errors"')
    clients = html[start : html.index('id="examples"')]
    # The list names the clients that part from the table; what each reports is said once, in the example.
    assert (
        '<a href="#ex-invalid-params">Invalid params</a> (<code>-32602</code> at HTTP <code>200</code>): '
        "Python (2026-07-28), Python (legacy)</li>" in clients
    )
    assert "before sending anything" not in clients and "the HTTP status, not the JSON-RPC" not in clients
    assert examples.count("before sending anything") == 2 and "the HTTP status, not the JSON-RPC" in examples
    assert (
        'id="ex-internal-error"' in examples and "No request from outside can cause this error." in examples
    )
    differs = html[html.index('id="spec-differs"') : html.index('id="spec-agrees"')]
    for anchor in ("err-unknown-name", "err-unsupported-protocol-version"):
        assert f'href="#{anchor}"' in differs
    assert differs.count("<tr>") == 7  # a header row and six differences
    assert "https://modelcontextprotocol.io/specification/2026-07-28/server/tools#error-handling" in differs


def test_every_page_of_the_nav_is_built(built_site: Path) -> None:
    for path in ("index.html", "developers/mcp-server/index.html", "developers/mcp-public-tools/index.html",
                 "developers/mcp-client-generic/index.html", "developers/errors-and-retries/index.html",
                 "docs/protocols/json-rpc/index.html"):  # fmt: skip
        assert (built_site / path).is_file(), path


def test_a_stale_committed_page_fails_the_strict_build(repo_root: Path, tmp_path: Path) -> None:
    project = copy_site(repo_root, tmp_path / "project")
    notes = project / "data" / "mcp-errors.notes.yaml"
    text = notes.read_text(encoding="utf-8")
    notes.write_text(text.replace("could not be parsed as JSON.", "is not JSON at all."), encoding="utf-8")
    done = mkdocs_build(project, tmp_path / "site")
    assert done.returncode != 0
    assert "docs/developers/mcp-errors.md:" in done.stderr
    assert "generated region 'error-table' is out of date" in done.stderr
    assert "docgen render" in done.stderr
    assert "Aborted with 1 warnings in strict mode" in done.stdout + done.stderr


def test_a_row_without_evidence_fails_the_strict_build_and_the_header_says_so(
    repo_root: Path, tmp_path: Path
) -> None:
    """After a partial probe (one record missing) and a render, the page says which row was not replayed,
    never that it answered differently or that all rows answered; the strict build fails naming the row."""
    project = copy_site(repo_root, tmp_path / "project")
    evidence = project / "data" / "mcp-errors.evidence.yaml"
    data = yaml.safe_load(evidence.read_text(encoding="utf-8"))
    data["entries"] = [record for record in data["entries"] if record["id"] != "header-mismatch"]
    evidence.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    render = [sys.executable, "-m", "docgen", "render"]
    done = subprocess.run(render, cwd=project, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    page = (project / "docs" / "developers" / "mcp-errors.md").read_text(encoding="utf-8")
    header = next(line for line in page.splitlines() if line.startswith("**Reproduced"))
    assert header.startswith(
        "**Reproduced against the server on 2026-12-01:** nine of the ten rows a client can trigger answered "
        "as the table says;"
    )
    assert "; one not replayed yet (header-mismatch);" in header
    assert "answered differently" not in header and "all ten" not in header
    built = mkdocs_build(project, tmp_path / "site")
    assert built.returncode != 0
    assert "row 'header-mismatch' has no recorded answer to its current example" in built.stderr


def test_a_row_changed_since_probe_fails_the_strict_build(repo_root: Path, tmp_path: Path) -> None:
    """The status changed in the source, then extract and render, no probe: the page says the row was not
    replayed since the change, and the strict build fails naming the row until probe runs again."""
    project = copy_site(repo_root, tmp_path / "project")
    server = project / "backend" / "app" / "mcp_server.py"
    text = server.read_text(encoding="utf-8")
    old = 'f"Method not found: {method}", status=404, doc="method-not-found"'
    assert old in text, "the test needs updating"
    server.write_text(text.replace(old, old.replace("404", "400")), encoding="utf-8")
    for command in ("extract", "render"):
        done = subprocess.run(
            [sys.executable, "-m", "docgen", command],
            cwd=project,
            capture_output=True,
            text=True,
            check=False,
        )
        assert done.returncode == 0, done.stderr
    built = mkdocs_build(project, tmp_path / "site")
    assert built.returncode != 0
    assert (
        "row 'method-not-found' has a new code or status since its answer was recorded, so its page says it "
        "was not replayed since the change"
    ) in built.stderr
    assert "has no recorded answer" not in built.stderr


def test_the_mcp_servers_error_page_links_only_to_what_the_site_holds(
    repo_root: Path, built_site: Path
) -> None:
    """get_public_page's text of the error page: every link absolute, and each one on the canonical site
    names a page, anchor or file of the built site (the catalog JSON included)."""
    from backend.app.content import SITE_URL, DocsIndex  # the documented server, read here as a client would

    site_url = yaml.load((repo_root / "mkdocs.yml").read_text(encoding="utf-8"), Loader=yaml.BaseLoader)[
        "site_url"
    ]
    assert site_url == SITE_URL
    page = DocsIndex(repo_root / "docs").get("/developers/mcp-errors/")
    assert page is not None
    targets = set(re.findall(r"\]\(([^()\s]+)\)", page.text))
    assert f"{SITE_URL}developers/mcp-errors/mcp-errors.json" in targets
    ids: dict[Path, set[str]] = {}
    for target in sorted(targets):
        assert target.startswith("https://"), target
        if not target.startswith(SITE_URL):
            continue
        address, _, anchor = target.removeprefix(SITE_URL).partition("#")
        file = (
            built_site / address / "index.html"
            if not address or address.endswith("/")
            else built_site / address
        )
        assert file.is_file(), target
        if anchor:
            if file not in ids:
                ids[file] = read_table(file).ids
            assert anchor in ids[file], target
