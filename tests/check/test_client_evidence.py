"""check against the official clients' evidence: a changed SDK pin, a client missing, a stale page.

The pins are read from a copy of docgen's own pin files (requirements/*.txt, clients/package-lock.json), so a
test can change one without touching the checkout; the evidence and examples are the committed ones.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml

from docgen.check.client_evidence import client_findings, pinned_sdks
from docgen.core.errors import InputError
from docgen.core.evidence import Evidence, Record
from docgen.core.findings import Finding
from docgen.core.models import ErrorsCatalog
from docgen.examples.requests import Example, examples_of
from docgen.shell.cli import main
from tests.conftest import REPO_ROOT
from tests.helpers import copy_project, load

EVIDENCE = "data/mcp-errors.evidence.yaml"


@pytest.fixture
def pins_root(tmp_path: Path) -> Path:
    """A copy of the files docgen's SDK pins live in."""
    (tmp_path / "clients").mkdir()
    shutil.copytree(REPO_ROOT / "requirements", tmp_path / "requirements")
    shutil.copy2(REPO_ROOT / "clients" / "package-lock.json", tmp_path / "clients" / "package-lock.json")
    return tmp_path


def committed() -> tuple[Evidence, dict[str, Example]]:
    project = load(REPO_ROOT, site=False)
    catalog = project.catalogs()["mcp-errors"]
    assert isinstance(catalog, ErrorsCatalog)
    return project.evidence["mcp-errors"], examples_of(catalog, project.notes["mcp-errors"])


def findings_with(pins: Path, evidence: Evidence | None = None) -> list[Finding]:
    loaded, examples = committed()
    return list(client_findings(evidence or loaded, examples, pinned_sdks(pins)))


def test_the_committed_pins_match_the_evidence(pins_root: Path) -> None:
    assert findings_with(pins_root) == []


def test_a_new_python_sdk_pin_without_a_new_probe_is_stale(pins_root: Path) -> None:
    requirements = pins_root / "requirements" / "dev.txt"
    requirements.write_text(requirements.read_text().replace("mcp==2.3.0", "mcp==2.4.0"), encoding="utf-8")
    [finding] = findings_with(pins_root)
    assert (finding.kind.value, finding.file) == ("evidence-stale", "requirements/dev.txt")
    assert finding.subject == "mcp"
    assert finding.line == requirements.read_text().splitlines().index("mcp==2.4.0") + 1
    assert "pinned at 2.4.0, but the client evidence was taken with 2.3.0" in finding.message


@pytest.mark.parametrize(
    ("sdk", "version"), [("@modelcontextprotocol/sdk", "1.33.0"), ("@modelcontextprotocol/client", "2.5.0")]
)
def test_a_new_typescript_sdk_in_the_lock_without_a_new_probe_is_stale(
    pins_root: Path, sdk: str, version: str
) -> None:
    lock_path = pins_root / "clients" / "package-lock.json"
    lock = json.loads(lock_path.read_text(encoding="utf-8"))
    lock["packages"][f"node_modules/{sdk}"]["version"] = version
    lock_path.write_text(json.dumps(lock), encoding="utf-8")
    [finding] = findings_with(pins_root)
    assert (finding.file, finding.subject) == ("clients/package-lock.json", sdk)
    assert f"pinned at {version}" in finding.message


def test_a_pin_that_cannot_be_found_is_not_passed_as_clean(pins_root: Path) -> None:
    (pins_root / "clients" / "package-lock.json").unlink()
    found = findings_with(pins_root)
    subjects = [finding.subject for finding in found]
    assert subjects == ["@modelcontextprotocol/client", "@modelcontextprotocol/sdk"]
    for finding in found:
        assert f"no pin of {finding.subject} is found" in finding.message


def test_a_client_missing_from_a_record_is_named(pins_root: Path) -> None:
    loaded, _ = committed()

    def without_typescript(record: Record) -> Record:
        kept = {name: cell for name, cell in record.clients.items() if not name.startswith("typescript")}
        return Record(**{**record.__dict__, "clients": kept})

    records = tuple(
        without_typescript(record) if record.id == "unknown-name" else record for record in loaded.entries
    )
    evidence = Evidence(loaded.catalog, loaded.probed, loaded.target, loaded.source, records, loaded.clients)
    [finding] = findings_with(pins_root, evidence)
    assert (finding.kind.value, finding.subject) == ("evidence-missing", "unknown-name")
    assert "no outcome recorded from typescript-2026-07-28, typescript-legacy" in finding.message


def test_evidence_without_any_client_says_so(pins_root: Path) -> None:
    loaded, _ = committed()
    records = tuple(Record(**{**record.__dict__, "clients": {}}) for record in loaded.entries)
    evidence = Evidence(loaded.catalog, loaded.probed, loaded.target, loaded.source, records)
    [finding] = findings_with(pins_root, evidence)
    assert finding.subject == "official clients"


def test_a_changed_client_outcome_makes_the_page_stale(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """What the page says of a client follows the evidence: a new outcome, not rendered, fails check."""
    project = copy_project(REPO_ROOT, tmp_path / "project")
    path = project / EVIDENCE
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    record = next(record for record in data["entries"] if record["id"] == "unknown-name")
    record["clients"]["typescript-legacy"]["code"] = -32602
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    assert main(["-f", str(project / "mkdocs.yml"), "check", "--format", "json"]) == 1
    found = {(f["kind"], f["subject"]) for f in json.loads(capsys.readouterr().out)["findings"]}
    assert found == {("page-stale", "error-examples"), ("page-stale", "client-differences")}


PIN_BOMBS = {
    "a 9 MiB lock file": (
        lambda text: text + " " * (9 * 1024 * 1024),
        "over docgen's limit of 8,388,608 bytes",
    ),
    "a lock nested 100,000 deep": (lambda text: "[" * 100_000 + "]" * 100_000, "nested too deeply to read"),
    "a 100,000-digit number": (lambda text: "9" * 100_000, "a number too long to read"),
}


@pytest.mark.parametrize("case", PIN_BOMBS.values(), ids=PIN_BOMBS)
def test_a_lock_file_past_a_bound_is_a_located_error(pins_root: Path, case: tuple[Any, str]) -> None:
    grow, message = case
    lock = pins_root / "clients" / "package-lock.json"
    lock.write_text(grow(lock.read_text(encoding="utf-8")), encoding="utf-8")
    with pytest.raises(InputError) as caught:
        pinned_sdks(pins_root)
    assert caught.value.file == "clients/package-lock.json"
    assert message in caught.value.message


def test_a_project_s_own_pin_is_the_one_its_evidence_is_held_to(
    repo_root: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # An installed docgen has no requirements/ of its own: the project's pin of the Python SDK decides.
    from docgen.shell.cli import main
    from tests.helpers import copy_project

    root = copy_project(repo_root, tmp_path / "project")
    (root / "requirements").mkdir()
    (root / "requirements" / "server.txt").write_text("fastapi==0.165.0\nmcp==2.4.0\n", encoding="utf-8")
    capsys.readouterr()
    assert main(["--config", str(root / "mkdocs.yml"), "check"]) == 1
    stale = [line for line in capsys.readouterr().out.splitlines() if ": evidence-stale: mcp" in line]
    assert stale == [
        "requirements/server.txt:2: evidence-stale: mcp: mcp is pinned at 2.4.0, but the client evidence was "
        "taken with 2.3.0 (data/mcp-errors.evidence.yaml); what that client surfaces may have changed"
    ]
