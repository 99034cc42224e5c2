"""The MkDocs plugin, in process: warnings for stale and hand-edited pages, source links, watch list, JSON."""

from __future__ import annotations

import logging
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
from mkdocs.commands.build import build
from mkdocs.config import load_config
from mkdocs.exceptions import Abort

from docgen.core.settings import load_settings
from docgen.core.symbols import SourceFiles
from docgen.shell.plugin import DocgenPlugin, watched_paths
from docgen.shell.site_pages import _commit
from tests.test_site import copy_site


@pytest.fixture
def project(repo_root: Path, tmp_path: Path) -> Path:
    return copy_site(repo_root, tmp_path / "project")


def build_project(project: Path, *, strict: bool = False, **overrides: Any) -> Path:
    site = project / "site"
    config = load_config(str(project / "mkdocs.yml"), site_dir=str(site), strict=strict, **overrides)
    build(config)
    return site


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")


def test_site_shows_current_data_and_warns_when_the_page_is_stale(
    project: Path, caplog: pytest.LogCaptureFixture
) -> None:
    edit(project / "data" / "mcp-errors.notes.yaml", "could not be parsed as JSON.", "is not JSON at all.")
    with caplog.at_level(logging.WARNING, logger="mkdocs.plugins.docgen"):
        site = build_project(project)
    html = (site / "developers" / "mcp-errors" / "index.html").read_text(encoding="utf-8")
    assert "is not JSON at all." in html
    [warning] = [r.getMessage() for r in caplog.records if r.name == "mkdocs.plugins.docgen"]
    assert warning.startswith("docs/developers/mcp-errors.md:")
    assert "'error-table' is out of date" in warning and "docgen render" in warning


def test_hand_edited_region_warns_and_the_site_shows_the_rendered_text(
    project: Path, caplog: pytest.LogCaptureFixture
) -> None:
    page = project / "docs" / "developers" / "mcp-errors.md"
    edit(page, "Send an object, never an array", "Send an object (edited by hand), never an array")
    with caplog.at_level(logging.WARNING, logger="mkdocs.plugins.docgen"):
        site = build_project(project)
    messages = [r.getMessage() for r in caplog.records if r.name == "mkdocs.plugins.docgen"]
    assert len(messages) == 1 and "edited by hand" in messages[0] and "--force" in messages[0]
    html = (site / "developers" / "mcp-errors" / "index.html").read_text(encoding="utf-8")
    assert "edited by hand" not in html and "Send an object, never an array" in html
    assert "edited by hand" in page.read_text(encoding="utf-8"), "the build must never write a page"


def test_strict_build_aborts_on_a_stale_page(project: Path) -> None:
    edit(project / "data" / "mcp-errors.notes.yaml", "Send an object", "Always send an object")
    with pytest.raises(Abort, match="1 warnings in strict mode"):
        build_project(project, strict=True)


def test_source_links_point_at_the_built_commit_with_line_ranges(project: Path, repo_root: Path) -> None:
    edit(
        project / "mkdocs.yml",
        "docs_dir: docs\n",
        "docs_dir: docs\nrepo_url: https://github.com/example/connect\n",
    )
    site = build_project(project)
    html = (site / "developers" / "mcp-errors" / "index.html").read_text(encoding="utf-8")
    first, last = SourceFiles(project).lines("backend/app/mcp_server.py", "_handle") or (0, 0)
    assert first > 0
    # The copy is not a git checkout, so the ref is HEAD; in a checkout it is the commit (next test).
    link = f"https://github.com/example/connect/blob/HEAD/backend/app/mcp_server.py#L{first}-L{last}"
    assert f'<a href="{link}"><code>_handle</code></a>' in html


def test_the_built_commit_is_the_checkout_head(repo_root: Path) -> None:
    head = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=repo_root, capture_output=True, text=True, check=True
    )
    assert _commit(repo_root) == head.stdout.strip()
    assert _commit(Path("/")) == "HEAD"


def test_serve_watches_backend_data_and_templates(repo_root: Path) -> None:
    settings = load_settings(repo_root / "mkdocs.yml")
    # This repository keeps no templates/ of its own (it renders with the packaged ones): not watched.
    assert watched_paths(settings) == sorted([repo_root / "backend", repo_root / "data"])

    class Server:
        def __init__(self) -> None:
            self.watched: list[str] = []

        def watch(self, path: str) -> None:
            self.watched.append(path)

    plugin = DocgenPlugin()
    plugin.settings = settings
    server = Server()
    plugin.on_serve(server, config=None, builder=None)  # type: ignore[arg-type]
    assert server.watched == [str(path) for path in watched_paths(settings)]


def build_error(project: Path, caplog: pytest.LogCaptureFixture) -> str:
    with caplog.at_level(logging.ERROR), pytest.raises(Abort, match="BuildError"):
        build_project(project)
    return "\n".join(r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR)


def test_a_configuration_error_stops_the_build_with_its_location(
    project: Path, caplog: pytest.LogCaptureFixture
) -> None:
    edit(project / "mkdocs.yml", "constructors: [_rpc_error]", "constructor: [_rpc_error]")
    message = build_error(project, caplog)
    assert re.search(r"docgen: mkdocs.yml:\d+: 'catalogs.mcp-errors.constructor': unknown key", message)
    assert "did you mean 'constructors'?" in message


def test_a_template_error_stops_the_build_with_its_location(
    project: Path, caplog: pytest.LogCaptureFixture
) -> None:
    edit(project / "docs" / "index.md", "<!-- docgen:end page-header -->", "<!-- docgen:end page-headr -->")
    message = build_error(project, caplog)
    assert re.search(r"docgen: docs/index.md:\d+: .*closes region 'page-header'", message)


def test_a_page_that_is_not_utf8_stops_the_build_with_its_location(
    project: Path, caplog: pytest.LogCaptureFixture
) -> None:
    (project / "docs" / "latin1.md").write_bytes(b"# Caf\xe9\n")
    message = build_error(project, caplog)
    located = "docgen: docs/latin1.md:1: not valid UTF-8: byte 0xe9 at line 1, column 6 (byte 5 of the file)"
    assert located in message


def test_while_serving_a_backend_edit_shows_without_extract(project: Path) -> None:
    server = project / "backend" / "app" / "mcp_server.py"
    edit(server, "RATE_LIMIT_REQUESTS = 120", "RATE_LIMIT_REQUESTS = 90")
    config = load_config(str(project / "mkdocs.yml"), site_dir=str(project / "site"))
    config.plugins["docgen"].on_startup(command="serve", dirty=False)
    build(config)
    html = (project / "site" / "developers" / "mcp-errors" / "index.html").read_text(encoding="utf-8")
    assert "more than 90 requests within 60 seconds" in html
    assert "RATE_LIMIT_REQUESTS: 120" in (project / "data" / "mcp-errors.yaml").read_text(encoding="utf-8")


def test_a_build_leaves_the_collector_as_it_found_it(project: Path) -> None:
    import gc

    build_project(project)
    assert gc.get_freeze_count() == 0  # frozen while the pages convert, unfrozen when the build ends
    edit(project / "data" / "mcp-errors.notes.yaml", "Send an object", "Always send an object")
    with pytest.raises(Abort):
        build_project(project, strict=True)
    assert gc.get_freeze_count() == 0
