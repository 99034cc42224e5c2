"""A catalog whose `source:` is a whole package (tests/fixtures/servers/package_app/): constructors and
functions named by dotted path from anywhere in it, the coverage line extract ends with, and a site built with
every option of the plugin block (`python_path:` among them) by the real `mkdocs build --strict`."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from docgen.core import kinds
from docgen.core.errors import ConfigError
from docgen.kinds.errors.catalog import ErrorsExtraction
from docgen.shell.cli import main
from docgen.shell.plugin import DocgenConfig
from tests.helpers import run_extract_in_memory

REPO = Path(__file__).resolve().parents[2]
FIXTURE = REPO / "tests" / "fixtures" / "servers" / "package_app"

VIEWS, CARTS = "market/api/views.py", "market/api/carts.py"
ENTRIES = [
    ("no-has-this-id", 404, "NOT_FOUND", "No {what} has this id", VIEWS, 14),
    ("conflict", 409, "CONFLICT", "A shipped order cannot be cancelled", VIEWS, 20),
    ("no-has-this-id-2", 404, "NOT_FOUND", "No {what} has this id", CARTS, 13),
    ("cart-full", 422, "CART_FULL", "A cart holds at most 20 items", CARTS, 16),
]


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "package_app"
    shutil.copytree(FIXTURE, root, ignore=shutil.ignore_patterns("__pycache__"))
    return root


def docgen(root: Path, *argv: str) -> int:
    return main(["-f", str(root / "mkdocs.yml"), *argv])


def test_names_from_anywhere_in_the_package_make_one_catalog(project: Path) -> None:
    """The base class lives in market/errors.py, which neither handler module imports; its subclasses in
    market/api/problems.py take their statuses from vendor/statuses.py, found through `python_path:`."""
    result = run_extract_in_memory(project)
    found = result.of("market-errors", ErrorsExtraction)
    entries = [(e.id, e.status, e.code, e.message, e.file) for e in found.catalog.entries]
    assert entries == [entry[:5] for entry in ENTRIES]
    assert [site.line for site in found.sites] == [entry[5] for entry in ENTRIES]
    assert [source.path for source in found.catalog.sources] == [
        "market/errors.py",
        "market/api/views.py",
        "market/api/carts.py",
    ]


def test_a_dotted_package_names_the_same_package_as_its_folder(project: Path) -> None:
    config = project / "mkdocs.yml"
    config.write_text(config.read_text().replace("source: market ", "source: market.api "), encoding="utf-8")
    text = config.read_text()
    config.write_text(text.replace("api.carts.add_item", "carts.add_item"), encoding="utf-8")
    found = run_extract_in_memory(project).of("market-errors", ErrorsExtraction)
    assert [entry.id for entry in found.catalog.entries] == [entry[0] for entry in ENTRIES]


def test_a_dotted_name_that_is_not_there_is_a_located_error(project: Path) -> None:
    config = project / "mkdocs.yml"
    config.write_text(config.read_text().replace("market.errors.ApiError", "market.errors.ApiErorr"))
    with pytest.raises(ConfigError) as caught:
        run_extract_in_memory(project)
    assert caught.value.message == (
        "'catalogs.market-errors.constructors': constructor 'market.errors.ApiErorr' is not defined in "
        "market.errors"
    )
    assert caught.value.line == 17
    assert caught.value.hint is not None and "ApiError" in caught.value.hint


def test_extract_render_build_and_check_with_every_plugin_option(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert docgen(project, "extract") == 0
    said = capsys.readouterr().err
    assert [line for line in said.splitlines() if "coverage:" in line] == [
        "data/market-errors.yaml: coverage: 4 sites, 2 fully resolved; unresolved: 2 message template",
        "data/market-web-errors.yaml: coverage: 3 sites, 3 fully resolved; unresolved: none",
        "data/market-routes.yaml: coverage: 2 operations, 3 sites, 3 fully resolved; unresolved: none",
    ]
    assert docgen(project, "render") == 0
    build = subprocess.run(
        [str(Path(sys.executable).parent / "mkdocs"), "build", "--strict", "-q"],
        cwd=project,
        capture_output=True,
        text=True,
        check=False,
    )
    assert build.returncode == 0, build.stderr
    assert "Unrecognised configuration name" not in build.stderr
    capsys.readouterr()
    assert docgen(project, "check") == 0, capsys.readouterr().out
    edit(project / CARTS, "\ndef add_item", "\n\n# Carts are kept in memory.\ndef add_item")
    assert docgen(project, "check") == 0, capsys.readouterr().out
    edit(project / "vendor" / "statuses.py", "CONFLICT = 409", "CONFLICT = 410")
    assert docgen(project, "check") == 1
    assert "status-changed" in capsys.readouterr().out
    edit(
        project / "market" / "web.py",
        "    read_cart(cart_id).clear()",
        "    read_cart(cart_id).clear()\n    if cart_id == 0:\n        raise HTTPException(403)",
    )
    assert docgen(project, "check") == 1
    said = capsys.readouterr().out
    assert "entry-added" in said and "route-error-added" in said


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new), encoding="utf-8")


def _readme_options() -> tuple[set[str], set[str]]:
    """The keys README's configuration examples give the plugin block, and those they give a catalog."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    plugin, catalog = set(), set()
    for block in re.findall(r"```yaml\n(.*?)```", readme, flags=re.DOTALL):
        for line in block.splitlines():
            match = re.match(r"^(\s*)([a-z_]+):", line)
            if match is None:
                continue
            indent = len(match.group(1))
            if indent == 6 and "docgen:" in block:
                plugin.add(match.group(2))
            elif indent == 10 and "catalogs:" in block:
                catalog.add(match.group(2))
    return plugin, catalog


def test_every_option_readme_names_is_accepted_and_the_fixture_builds_with_it() -> None:
    """The fixture's site (built above with `mkdocs build --strict`) sets every option README names but a
    tools catalog's `decorators`, which the repository's own site sets (tests/test_site.py)."""
    plugin, catalog = _readme_options()
    section = yaml.safe_load((FIXTURE / "mkdocs.yml").read_text(encoding="utf-8"))["plugins"][0]["docgen"]
    assert plugin <= set(section)
    assert catalog - {"decorators"} <= {key for config in section["catalogs"].values() for key in config}
    assert {"catalogs", "python_path"} <= plugin
    accepted_by_plugin = {key for key, _option in DocgenConfig._schema}  # MkDocs' own record of the options
    assert plugin <= accepted_by_plugin
    assert {"kind", "source", "framework", "constructors", "functions"} <= catalog
    accepted = {"kind", "source", "examples"}.union(*(kinds.kind_of(name).keys for name in kinds.known()))
    assert catalog <= accepted
