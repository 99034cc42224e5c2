"""The loaded project: one read of every file the stages use, checked, with lines; nothing read after it."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from docgen.check.run import run_check
from docgen.core.errors import CatalogError, TemplateError
from docgen.core.models import ErrorsCatalog, ToolsCatalog
from docgen.core.project import load_project
from docgen.core.settings import load_settings
from docgen.render.renderer import render_all, renderer_for
from tests.helpers import copy_project, load


@pytest.fixture
def project(repo_root: Path, tmp_path: Path) -> Path:
    return copy_project(repo_root, tmp_path / "project")


def line_of(root: Path, relative: str, needle: str) -> int:
    lines = (root / relative).read_text(encoding="utf-8").splitlines()
    return next(number for number, line in enumerate(lines, 1) if needle in line)


def test_everything_the_stages_use_is_loaded(repo_root: Path) -> None:
    project = load(repo_root)
    catalogs = project.catalogs()
    assert isinstance(catalogs["mcp-errors"], ErrorsCatalog) and len(catalogs["mcp-errors"].entries) == 11
    assert isinstance(catalogs["mcp-tools"], ToolsCatalog)
    assert set(project.notes) == {"mcp-errors", "mcp-tools"}
    assert project.notes["mcp-tools"].entries == {}  # a catalog without a notes file has empty notes
    assert set(project.evidence) == {"mcp-errors"}
    assert set(project.specs) == {"mcp-2026-07-28"} and project.spec_of("mcp-errors") is not None
    assert {"developers/mcp-errors.md", "index.md"} <= set(project.pages)
    assert project.templates == {}  # this repository renders with the packaged templates alone


def test_the_stages_read_nothing_after_loading(project: Path) -> None:
    loaded = load(project)
    expected = run_check(loaded)
    pages = {r.page: r.text for r in render_all(renderer_for(loaded), loaded.pages)}
    for folder in ("data", "docs", "templates"):
        shutil.rmtree(project / folder)
    (project / "mkdocs.yml").unlink()
    # The server's source (extract's input) and the files pages cite stay; everything else is gone.
    assert run_check(loaded) == expected == []
    assert {r.page: r.text for r in render_all(renderer_for(loaded), loaded.pages)} == pages


def test_extract_and_probe_load_no_pages_or_templates(project: Path) -> None:
    (project / "docs" / "broken.md").write_bytes(b"# Caf\xe9\n")
    loaded = load(project, site=False)
    assert (loaded.pages, loaded.templates) == ({}, {})
    with pytest.raises(TemplateError, match="not valid UTF-8"):
        load(project)


def test_a_catalog_not_extracted_yet_is_none_until_a_stage_needs_it(project: Path) -> None:
    (project / "data" / "mcp-tools.yaml").unlink()
    loaded = load(project)
    assert loaded.committed["mcp-tools"] is None
    with pytest.raises(CatalogError) as caught:
        loaded.catalogs()
    assert (caught.value.location, caught.value.hint) == ("data/mcp-tools.yaml", "run `docgen extract` first")


def test_a_broken_catalog_stops_loading_with_the_remedy(project: Path) -> None:
    path = project / "data" / "mcp-errors.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("status: 403", "status: 1"), encoding="utf-8")
    with pytest.raises(CatalogError) as caught:
        load(project, site=False)
    line = line_of(project, "data/mcp-errors.yaml", "status: 1")
    assert caught.value.location == f"data/mcp-errors.yaml:{line}"
    assert caught.value.hint is not None and caught.value.hint.startswith("restore it (`git checkout --")


def test_notes_naming_a_specification_that_is_not_there(project: Path) -> None:
    notes = project / "data" / "mcp-errors.notes.yaml"
    text = notes.read_text(encoding="utf-8")
    notes.write_text(text.replace("spec: mcp-2026-07-28\n", "spec: nope\n"), encoding="utf-8")
    with pytest.raises(CatalogError) as caught:
        load(project, site=False)
    assert caught.value.file == "data/mcp-errors.notes.yaml"
    assert "data/specs/nope.yaml does not exist" in caught.value.message


def test_the_catalogs_at_a_base_ref_are_loaded_with_it(project: Path) -> None:
    def git(*args: str) -> None:
        subprocess.run(["git", *args], cwd=project, check=True, capture_output=True)

    git("init", "-q", "-b", "main")
    git("add", "mkdocs.yml", "data/mcp-errors.yaml")
    git("-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "base")
    loaded = load_project(load_settings(project / "mkdocs.yml"), site=False, base="main")
    assert loaded.base_ref == "main"
    assert loaded.base["mcp-errors"] == loaded.catalogs()["mcp-errors"]
    assert set(loaded.base) == {"mcp-errors"}  # tools catalogs have no contract


def test_every_document_knows_the_line_of_each_item(repo_root: Path) -> None:
    project = load(repo_root)
    committed = project.committed["mcp-errors"]
    tools = project.committed["mcp-tools"]
    assert committed is not None and tools is not None
    catalog, notes = "data/mcp-errors.yaml", "data/mcp-errors.notes.yaml"
    assert committed.entry_line("rate-limited") == line_of(repo_root, catalog, "- id: rate-limited")
    assert committed.entry_line("no-such-entry") is None
    prompt = line_of(repo_root, "data/mcp-tools.yaml", "- name: answer_from")
    assert tools.item_line("prompts", "answer_from_docs") == prompt
    noted = line_of(repo_root, notes, "  rate-limited:")
    assert project.notes["mcp-errors"].line("entries", "rate-limited") == noted
    evidence = project.evidence["mcp-errors"]
    evidence_file = "data/mcp-errors.evidence.yaml"
    assert evidence.record_line("rate-limited") == line_of(repo_root, evidence_file, "- id: rate-limited")
    spec = project.specs["mcp-2026-07-28"]
    assert spec.condition_line("batch") == line_of(repo_root, "data/specs/mcp-2026-07-28.yaml", "- id: batch")
    baseline = "data/specs/mcp-2026-07-28.baseline.yaml"
    assert spec.accepted_line("unknown-tool") == line_of(repo_root, baseline, "  unknown-tool:")
