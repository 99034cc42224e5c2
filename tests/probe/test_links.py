"""docgen probe checks each replayed error's link: a server that leaves it out, or that links an error to
another entry, fails probe on that row, told at the line of the call, and the evidence keeps what it sent.

The server is the repository's own: backend/app/mcp_server.py names each error's entry in its `_rpc_error`
call (`doc="parse-error"`) and sends the link under `error.data.docs_url`, where mkdocs.yml's
`links: {in: data, key: docs_url}` says it is. The two wrong links are made in a copy of the repository by
editing that server's source, as a backend engineer might break it; no separate fixture server is needed,
since the real one misbehaves as soon as one `doc=` is wrong or the link is left out of `error.data`.
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from docgen.core.links import LinkPlace
from docgen.core.settings import load_settings
from docgen.probe.links import link_problem
from docgen.probe.replay import Observation
from tests.helpers import copy_project
from tests.probe.test_replay import APP, EVIDENCE, SERVER, evidence

PAGE = "https://connectbyjbrh.com/developers/mcp-errors/"
OMIT = """    detail = {**(data or {}), DOCS_URL_FIELD: f"{ERRORS_PAGE_URL}#err-{doc}"}
"""


def probe(project: Path) -> subprocess.CompletedProcess[str]:
    """probe run in a process of its own, from the copy: the copy's backend is the one imported."""
    return subprocess.run(
        [sys.executable, "-m", "docgen", "probe", "--app", APP, "--date", "2026-12-01", "--no-clients"],
        cwd=project,
        env={**os.environ, "PYTHONPATH": str(project)},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_the_connect_catalog_says_where_its_server_sends_the_link(repo_root: Path) -> None:
    settings = load_settings(repo_root / "mkdocs.yml")
    assert settings.catalogs["mcp-errors"].links == LinkPlace("data", "docs_url")


def test_the_server_linking_each_error_to_its_own_entry_passes_probe(repo_root: Path, tmp_path: Path) -> None:
    done = probe(copy_project(repo_root, tmp_path / "project"))
    assert done.returncode == 0, done.stderr
    assert "wrong link" not in done.stderr
    assert "  parse-error: reproduced (-32700 / HTTP 400)" in done.stderr.splitlines()


def test_the_committed_evidence_shows_every_replayed_error_with_its_own_link(repo_root: Path) -> None:
    """What the page shows as the server's answers: each replayed error links to its own row on the site."""
    settings = load_settings(repo_root / "mkdocs.yml")
    place = settings.catalogs["mcp-errors"].links
    assert place is not None
    records = yaml.safe_load((repo_root / EVIDENCE).read_text(encoding="utf-8"))["entries"]
    observed = [record for record in records if "observed" in record]
    assert len(observed) == 10  # all but internal-error, which no request from outside triggers
    for record in observed:
        seen = record["observed"]
        answer = Observation(seen["status"], seen["code"], seen["headers"], seen["body"], record["requests"])
        assert link_problem(place, record["id"], answer, settings.site_url) is None, record["id"]
        link = json.loads(seen["body"])["error"]["data"]["docs_url"]
        assert link == f"{PAGE}#err-{record['id']}"


def test_every_call_of_the_server_names_its_own_entry(repo_root: Path) -> None:
    """The `doc=` of each `_rpc_error` call is the id the committed catalog gives that call's entry."""
    catalog = yaml.safe_load((repo_root / "data" / "mcp-errors.yaml").read_text(encoding="utf-8"))
    by_message = {entry["message"]: entry["id"] for entry in catalog["entries"]}
    pairs = []
    for node in ast.walk(ast.parse((repo_root / SERVER).read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "_rpc_error":
            doc = next(keyword.value for keyword in node.keywords if keyword.arg == "doc")
            message = node.args[2]
            text = ast.unparse(message)[2:-1] if isinstance(message, ast.JoinedStr) else message.value
            assert isinstance(doc, ast.Constant)
            pairs.append((doc.value, by_message[text]))
    assert len(pairs) == len(by_message) == 11
    assert [doc for doc, _ in pairs] == [entry for _, entry in pairs]


def broken_links(server: Path) -> str:
    """The server's source with the parse error's link left out and the batch error linked to the parse
    error's entry; the other nine errors keep their own links."""
    text = server.read_text(encoding="utf-8")
    assert text.count(OMIT) == 1 and text.count('doc="batch-not-supported"') == 1
    assert text.count('doc="parse-error"') == 1
    text = text.replace(OMIT, OMIT + "    if not doc:\n        del detail[DOCS_URL_FIELD]\n")
    text = text.replace('doc="parse-error"', 'doc=""')
    text = text.replace('doc="batch-not-supported"', 'doc="parse-error"')
    server.write_text(text, encoding="utf-8")
    return text


def call_line(text: str, message: str) -> int:
    """The line of the `_rpc_error(` call whose message is `message` (written on the line after it)."""
    return next(n for n, line in enumerate(text.splitlines(), 1) if f'"{message}"' in line) - 1


def test_a_missing_link_and_a_link_to_another_entry_both_fail_probe(repo_root: Path, tmp_path: Path) -> None:
    project = copy_project(repo_root, tmp_path / "project")
    text = broken_links(project / SERVER)
    done = probe(project)
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr
    parse, batch = (
        call_line(text, "Parse error: invalid JSON"),
        call_line(text, "Batch requests are not supported"),
    )
    assert text.splitlines()[parse - 1].endswith("return _rpc_error(")
    assert text.splitlines()[batch - 1].endswith("return _rpc_error(")
    lines = done.stderr.splitlines()
    assert (
        f"  parse-error: wrong link: {SERVER}:{parse}: the answer carries no link in error.data.docs_url; "
        "expected one to #err-parse-error"
    ) in lines
    assert (
        f"  batch-not-supported: wrong link: {SERVER}:{batch}: the link in error.data.docs_url names entry "
        f"'parse-error', not this one ('batch-not-supported'): {PAGE}#err-parse-error"
    ) in lines
    assert "docgen probe: 2 row(s) did not reproduce: parse-error, batch-not-supported" in lines
    # The nine others link to their own rows; the two wrong ones still answer with the table's code.
    assert sum("wrong link" in line for line in lines) == 2
    assert "  parse-error: reproduced (-32700 / HTTP 400)" not in lines
    # The evidence records what the server sent: no link for one, the other entry's for the other.
    records = {r["id"]: r for r in evidence(project)["entries"]}
    assert json.loads(records["parse-error"]["observed"]["body"])["error"]["data"] == {}
    batch_data = json.loads(records["batch-not-supported"]["observed"]["body"])["error"]["data"]
    assert batch_data == {"docs_url": f"{PAGE}#err-parse-error"}
    assert records["parse-error"]["reproduced"] is True


def seen(body: dict[str, object], headers: dict[str, str] | None = None) -> Observation:
    return Observation(400, -32600, headers or {}, json.dumps(body), 1)


@pytest.mark.parametrize(
    ("place", "answer", "problem"),
    [
        (
            LinkPlace("body", "type"),
            seen({"type": "about:blank"}),
            "the link in the body's type names no entry (no #err-<id> anchor): about:blank",
        ),
        (
            LinkPlace("body", "documentation_url"),
            seen({"documentation_url": "https://elsewhere.example/errors/#err-parse-error"}),
            "the link in the body's documentation_url is not on the site https://connectbyjbrh.com/: "
            "https://elsewhere.example/errors/#err-parse-error",
        ),
        (
            LinkPlace("header", "Link"),
            seen({}),
            "the answer carries no link in header Link; expected one to #err-parse-error",
        ),
        (LinkPlace("header", "Link"), seen({}, {"link": f'<{PAGE}#err-parse-error>; rel="help"'}), None),
    ],
)
def test_each_kind_of_wrong_link_is_told_exactly(
    place: LinkPlace, answer: Observation, problem: str | None
) -> None:
    assert link_problem(place, "parse-error", answer, "https://connectbyjbrh.com/") == problem
