"""Secrets in the server's source never reach the public site, in the attacker's terms: each test edits a copy
of the repository as a pull request could (the server's constants, its guarding conditions, a note), runs the
real CLI and `mkdocs build --strict` in processes of their own, and checks the exit codes, the located
messages, and every byte under docs/ and site/."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO_ROOT
from tests.helpers import copy_project

SERVER = "backend/app/mcp_server.py"
NOTES = "data/mcp-errors.notes.yaml"

UNUSED = "hunter2-canary-unused-5e1f"
"""The value of a constant nothing uses."""
IN_CONDITION = "canary-constant-in-guard-8b2d"
"""The value of a constant used only in a guarding condition of a catalogued error."""
LITERAL = "s3cret-canary-literal-7d41"
"""A string literal in that condition."""


def run(root: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    """A command of the project's environment (docgen, or mkdocs), run in `root` as CI runs it."""
    command = {"docgen": [sys.executable, "-m", "docgen.shell.cli", "-f", str(root / "mkdocs.yml")]}
    program = command.get(argv[0], [sys.executable, "-m", argv[0]])
    environment = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    return subprocess.run(
        [*program, *argv[1:]],
        cwd=root,
        env=environment,
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )


def edit(root: Path, relative: str, old: str, new: str) -> None:
    path = root / relative
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {relative}: the test needs updating"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def configure(root: Path, option: str) -> None:
    """Add `option` to the errors catalog's configuration in mkdocs.yml."""
    functions = "          functions: [mcp_endpoint, _handle]\n"
    edit(root, "mkdocs.yml", functions, f"{functions}          {option}\n")


def files_holding(root: Path, needles: list[str]) -> list[str]:
    """Every file under `root` whose bytes hold one of `needles`, with the needle."""
    found = []
    for path in sorted(root.rglob("*")):
        if path.is_file():
            data = path.read_bytes()
            found += [f"{path.relative_to(root)}: {n}" for n in needles if n.encode() in data]
    return found


def line_defining(root: Path, name: str) -> int:
    lines = (root / SERVER).read_text(encoding="utf-8").splitlines()
    return next(number for number, line in enumerate(lines, 1) if line.startswith(f"{name} = "))


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return copy_project(REPO_ROOT, tmp_path / "project")


def test_canaries_in_the_source_never_reach_docs_or_site(project: Path) -> None:
    anchor = "MAX_QUERY_WORDS = 12\n"
    constants = f'DB_PASSWORD = "{UNUSED}"\nADMIN_API_KEY = "{IN_CONDITION}"\n'
    edit(project, SERVER, anchor, anchor + constants)
    guard = "if origin is not None and not origin_allowed(origin, ALLOWED_ORIGINS, LOOPBACK_ORIGIN_HOSTS):"
    changed = (
        "if (origin is not None and not origin_allowed(origin, ALLOWED_ORIGINS, LOOPBACK_ORIGIN_HOSTS)) or "
        f'request.headers.get("x-api-key") in (ADMIN_API_KEY, "{LITERAL}"):'
    )
    edit(project, SERVER, guard, changed)

    for argv in (("docgen", "extract"), ("docgen", "render"), ("mkdocs", "build", "--strict")):
        done = run(project, *argv)
        assert done.returncode == 0, f"{argv}: {done.stdout}{done.stderr}"

    catalog = (project / "data/mcp-errors.yaml").read_text(encoding="utf-8")
    assert LITERAL in catalog and "ADMIN_API_KEY" in catalog  # extract saw the canaries: the test bites
    assert UNUSED in catalog
    canaries = [UNUSED, IN_CONDITION, LITERAL, "DB_PASSWORD", "ADMIN_API_KEY"]
    assert files_holding(project / "docs", canaries) == []
    assert (project / "site/developers/mcp-errors/mcp-errors.json").is_file()
    assert files_holding(project / "site", canaries) == []


def test_published_json_carries_exactly_the_constants_the_site_shows(project: Path) -> None:
    done = run(project, "mkdocs", "build", "--strict")
    assert done.returncode == 0, done.stderr
    data = json.loads((project / "site/developers/mcp-errors/mcp-errors.json").read_text(encoding="utf-8"))
    by_template = {  # read by server-limits, client-checklist and retry-budget, or by a note
        *(
            "MAX_BODY_BYTES",
            "RATE_LIMIT_REQUESTS",
            "RATE_LIMIT_WINDOW_SECONDS",
            "SUPPORTED_PROTOCOL_VERSIONS",
        ),
        *("HEADER_READ_TIMEOUT_SECONDS", "BODY_READ_TIMEOUT_SECONDS", "MAX_HEADER_BYTES"),
        *("KEEP_ALIVE_TIMEOUT_SECONDS", "MAX_QUERY_CHARS", "MAX_QUERY_WORDS", "MAX_TRACKED_CLIENTS"),
        *("LOOPBACK_ORIGIN_HOSTS", "ALLOWED_ORIGINS"),
    }
    by_entries = {name for entry in data["entries"] for name in entry["constants_used"]}
    assert set(data["constants"]) == by_template | by_entries
    assert not {"INSTRUCTIONS", "DOCS_WORKERS", "MAX_SEARCH_LIMIT"} & set(data["constants"])
    assert all("conditions" not in entry for entry in data["entries"])


def test_conditions_are_published_when_the_catalog_asks(project: Path) -> None:
    configure(project, "publish_conditions: true")
    done = run(project, "mkdocs", "build", "--strict")
    assert done.returncode == 0, done.stderr
    data = json.loads((project / "site/developers/mcp-errors/mcp-errors.json").read_text(encoding="utf-8"))
    assert data["entries"][0]["conditions"] == [
        "origin is not None and (not origin_allowed(origin, ALLOWED_ORIGINS, LOOPBACK_ORIGIN_HOSTS))"
    ]


def test_a_note_showing_a_credential_is_refused_until_listed_as_public(project: Path) -> None:
    anchor = "MAX_QUERY_WORDS = 12\n"
    edit(project, SERVER, anchor, anchor + 'API_TOKEN = "tok-canary-1b9e"\n')
    assert run(project, "docgen", "extract").returncode == 0
    edit(
        project,
        NOTES,
        "seconds.\n    action: Slow down",
        "seconds (token {{ API_TOKEN }}).\n    action: Slow down",
    )
    docs = {path: path.read_bytes() for path in (project / "docs").rglob("*") if path.is_file()}
    where = f"{SERVER}:{line_defining(project, 'API_TOKEN')}"

    check = run(project, "docgen", "check")
    assert check.returncode == 1
    assert f"{where}: credential-published: API_TOKEN" in check.stdout
    assert "looks like a credential (its name says it holds a token)" in check.stdout
    assert "page-stale" in check.stdout and "[withheld: looks like a credential]" in check.stdout
    assert "tok-canary-1b9e" not in check.stdout + check.stderr  # not even in the stale page's diff
    github = run(project, "docgen", "check", "--format", "github")
    assert github.returncode == 1 and "tok-canary-1b9e" not in github.stdout + github.stderr

    render = run(project, "docgen", "render")
    assert render.returncode == 3, render.stderr
    assert f"{where}: constant API_TOKEN of catalog 'mcp-errors' looks like a credential" in render.stderr
    assert "public_constants" in render.stderr
    assert {path: path.read_bytes() for path in docs} == docs  # nothing written

    build = run(project, "mkdocs", "build", "--strict")
    assert build.returncode != 0
    assert f"{where}: constant API_TOKEN" in build.stderr + build.stdout
    assert not (project / "site/developers/mcp-errors/mcp-errors.json").exists()

    configure(project, "public_constants: [API_TOKEN]")
    assert run(project, "docgen", "render").returncode == 0
    check = run(project, "docgen", "check")
    assert check.returncode == 0, check.stdout
    assert "tok-canary-1b9e" in (project / "docs/developers/mcp-errors.md").read_text(encoding="utf-8")


def test_a_template_sees_the_conditions_only_when_the_catalog_publishes_them(project: Path) -> None:
    template = "{% for entry in catalog.entries %}\n- {{ entry.conditions | join('; ') }}\n{% endfor %}\n"
    (project / "templates/guards.md.j2").write_text(template, encoding="utf-8")
    region = "<!-- docgen:begin guards catalog=mcp-errors -->\n<!-- docgen:end guards -->\n"
    (project / "docs/guards.md").write_text(f"# Guards\n\n{region}", encoding="utf-8")

    render = run(project, "docgen", "render")
    assert render.returncode == 3
    assert "templates/guards.md.j2:2: 'dict object' has no attribute 'conditions'" in render.stderr
    assert "`publish_conditions: true`" in render.stderr
    assert (project / "docs/guards.md").read_text(encoding="utf-8") == f"# Guards\n\n{region}"

    configure(project, "publish_conditions: true")
    assert run(project, "docgen", "render").returncode == 0
    assert "origin is not None and" in (project / "docs/guards.md").read_text(encoding="utf-8")
