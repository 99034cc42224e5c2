"""`docgen extract` ends each routes catalog of every framework's fixture with one coverage line, whose
counts are those of the catalog it wrote: operations, raise sites, sites read in full, and the rest by
reason (a message completed at run time, a status docgen cannot read)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
import yaml

from docgen.shell.cli import main

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "servers"

# fixture -> its catalog, and the coverage line counted by hand from its source
LINES: dict[str, tuple[str, str]] = {
    "fastapi_app": (
        "shop-routes",
        "6 operations, 10 sites, 8 fully resolved; unresolved: 2 message template",
    ),
    "starlette_app": (
        "store-routes",
        "5 operations, 7 sites, 5 fully resolved; unresolved: 2 message template",
    ),
    "flask_app": (
        "lending-routes",
        "7 operations, 9 sites, 8 fully resolved; unresolved: 1 message template",
    ),
    "drf_app": ("library-routes", "8 operations, 12 sites, 12 fully resolved; unresolved: none"),
    "aiohttp_app": (
        "library-routes",
        "8 operations, 11 sites, 9 fully resolved; unresolved: 2 message template",
    ),
    "litestar_app": (
        "bookshelf-routes",
        "7 operations, 9 sites, 8 fully resolved; unresolved: 1 message template",
    ),
}


def _counted(catalog: dict[str, object]) -> str:
    """The coverage line's counts from the catalog's own data."""
    errors = catalog["errors"]
    assert isinstance(errors, list)
    operations = catalog["operations"]
    assert isinstance(operations, list)
    templates = sum(1 for e in errors if re.search(r"\{[^}]*\}", str(e["detail"])))
    statuses = sum(1 for e in errors if e["status"] is None)
    resolved = sum(
        1 for e in errors if e["status"] is not None and not re.search(r"\{[^}]*\}", str(e["detail"]))
    )
    reasons = [
        f"{n} {reason}" for n, reason in ((statuses, "no status"), (templates, "message template")) if n
    ]
    shown = ", ".join(sorted(reasons, key=lambda r: r.split(" ", 1)[1] != "no status")) or "none"
    return (
        f"{len(operations)} operations, {len(errors)} sites, {resolved} fully resolved; unresolved: {shown}"
    )


@pytest.mark.parametrize("fixture", sorted(LINES))
def test_extract_ends_each_catalog_with_its_coverage_line(
    tmp_path: Path, fixture: str, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / fixture
    shutil.copytree(FIXTURES / fixture, root, ignore=shutil.ignore_patterns("__pycache__", "site"))
    name, by_hand = LINES[fixture]
    capsys.readouterr()
    assert main(["--config", str(root / "mkdocs.yml"), "extract"]) == 0
    said = [line for line in capsys.readouterr().err.splitlines() if "coverage:" in line]
    catalog = yaml.safe_load((root / "data" / f"{name}.yaml").read_text(encoding="utf-8"))
    assert said == [f"data/{name}.yaml: coverage: {_counted(catalog)}"]
    assert said == [f"data/{name}.yaml: coverage: {by_hand}"]
