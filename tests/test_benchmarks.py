"""The synthetic backends of the scale benchmark: deterministic, and as many error sites as asked for.

No timings here: speed targets live in benchmarks/ only.
"""

from __future__ import annotations

from pathlib import Path

from benchmarks import foreign, report, scenarios, synthetic
from benchmarks.scenarios import without_docgen
from docgen.check.run import run_check
from docgen.core.project import load_project
from docgen.core.settings import load_settings
from docgen.core.yamlio import read_yaml


def test_a_generated_backend_extracts_to_the_asked_number_of_sites_and_checks_clean(tmp_path: Path) -> None:
    sites = synthetic.SITES_PER_MODULE + 37  # two handler modules, the second one partly filled
    entries = synthetic.prepare(tmp_path, sites)
    assert entries == sites
    settings = load_settings(tmp_path / "mkdocs.yml")
    assert sorted(settings.catalogs) == ["h000", "h001"]
    assert run_check(load_project(settings)) == []


def test_the_nested_layout_the_bench_measures_extracts_every_site_and_checks_clean(tmp_path: Path) -> None:
    assert scenarios.LAYOUT == ("--nested",)
    sites = synthetic.SITES_PER_MODULE + 37
    assert synthetic.prepare(tmp_path, sites, nested=True) == sites
    assert scenarios.catalog_entries(tmp_path) == sites
    catalog = read_yaml(tmp_path / "data" / "h000.yaml", "h000.yaml").data
    paths = {tuple(entry.get("path", [entry["function"]])) for entry in catalog["entries"]}
    assert {("op_000_0", "_op_000_0_more"), ("op_000_1", "Op0001Checks.more")} <= paths
    assert ("op_000_2", "Op0002Checks.more") in paths
    assert run_check(load_project(load_settings(tmp_path / "mkdocs.yml"))) == []


def test_the_fastapi_app_reads_its_constructor_and_statuses_from_the_installed_packages(
    tmp_path: Path,
) -> None:
    entries = foreign.prepare(tmp_path)
    assert entries == scenarios.catalog_entries(tmp_path, "r*.yaml") == 110
    assert foreign.PACKAGE in scenarios.FOREIGN_FLOOR
    catalog = read_yaml(tmp_path / "data" / "r00.yaml", "r00.yaml").data
    assert {entry["status"] for entry in catalog["entries"]} == {400, 401, 403, 404, 409, 410, 413, 422, 429}
    used = {name for entry in catalog["entries"] for name in entry["constants_used"]}
    assert {"HTTP_401_UNAUTHORIZED", "HTTP_404_NOT_FOUND", "HTTP_410_GONE"} <= used  # fastapi's, starlette's
    assert run_check(load_project(load_settings(tmp_path / "mkdocs.yml"))) == []
    second = foreign.write_app(tmp_path / "again")
    for path in sorted((tmp_path / foreign.PACKAGE).rglob("*.py")):
        relative = path.relative_to(tmp_path)
        assert (second / relative).read_bytes() == path.read_bytes(), relative


def test_generation_is_deterministic(tmp_path: Path) -> None:
    first = synthetic.write_project(tmp_path / "a", 30)
    second = synthetic.write_project(tmp_path / "b", 30)
    files = sorted(path.relative_to(first) for path in first.rglob("*") if path.is_file())
    assert files == sorted(path.relative_to(second) for path in second.rglob("*") if path.is_file())
    for relative in files:
        assert (first / relative).read_bytes() == (second / relative).read_bytes(), relative


def test_the_sites_use_cross_module_constants_intenum_members_and_arithmetic(tmp_path: Path) -> None:
    synthetic.prepare(tmp_path, 100)
    catalog = read_yaml(tmp_path / "data" / "h000.yaml", "h000.yaml").data
    used = {name for entry in catalog["entries"] for name in entry["constants_used"]}
    assert {"BASE", "AREA_BASE", "RATE_STATUS", "Code.INVALID_PARAMS"} <= used
    assert any(name.startswith("C00_") for name in used)  # from backend/constants/c00.py
    assert catalog["constants"]["BASE"] == -32000  # SERVER_ERROR_MIN + 99, across two modules


def test_the_nested_layout_moves_sites_into_unlisted_helper_functions_and_methods(tmp_path: Path) -> None:
    root = synthetic.write_project(tmp_path, 40, nested=True)
    text = (root / "backend" / "handlers" / "h000.py").read_text(encoding="utf-8")
    assert text.count("return rpc_error(") == 40  # every site is still written, once
    assert "def _op_000_0_more(request_id, params):" in text
    assert "class Op0001Checks:\n    def more(self, request_id, params):" in text
    assert "    found = Op0001Checks().more(request_id, params)" in text  # a new instance
    assert "    checks = Op0002Checks()\n    found = checks.more(request_id, params)" in text  # a local
    listed = synthetic._catalog(0, [f"op_000_{op}" for op in range(4)])["functions"]
    assert listed == ["op_000_0", "op_000_1", "op_000_2", "op_000_3"]  # the helpers are not listed
    flat = synthetic.write_project(tmp_path / "flat", 40)
    flat_text = (flat / "backend" / "handlers" / "h000.py").read_text(encoding="utf-8")
    assert "_more" not in flat_text and "class " not in flat_text


def test_the_plugin_free_config_drops_only_the_docgen_entry(repo_root: Path) -> None:
    lines = (repo_root / "mkdocs.yml").read_text(encoding="utf-8").splitlines()
    start = lines.index("  - docgen:")
    end = next((i for i in range(start + 1, len(lines)) if not lines[i].startswith("    ")), len(lines))
    docs_dir = repo_root / "docs"
    expected = [f"docs_dir: {docs_dir}" if line.startswith("docs_dir:") else line for line in lines[:start]]
    expected += lines[end:]
    assert without_docgen("\n".join(lines) + "\n", docs_dir).splitlines() == expected


def _summary(cpu: float, rss: float = 30.0, runs: int = 3) -> dict[str, object]:
    return {
        "runs": runs,
        "median_s": cpu,
        "min_s": cpu,
        "max_s": cpu,
        "median_wall_s": cpu * 2,
        "median_rss_mb": rss,
        "exit_codes": [0],
    }


def test_the_report_states_every_target_and_by_how_much_it_misses() -> None:

    names = [
        scenarios.IMPORT_NAME,
        scenarios.FLOOR_NAME,
        scenarios.LIBRARIES_NAME,
        scenarios.CHECK_NAME,
        scenarios.CHECK_COLD_NAME,
        scenarios.BUILD_NAME,
        scenarios.BUILD_COLD_NAME,
        scenarios.PLAIN_NAME,
        scenarios.PEER_NAME,
    ]
    seconds = [0.10, 0.20, 0.25, 0.28, 0.30, 1.0, 1.1, 0.98, 0.07]
    commands = {name: _summary(cpu) for name, cpu in zip(names, seconds, strict=True)}
    ratios = {
        "check / floor": 1.4,
        "check / mkdocs build": 0.28,
        "build with docgen / without": 1.02,
        "check / cog --check (peer)": 4.0,
    }
    rows = [
        {
            "sites": n,
            "entries": n if n < 10_000 else n - 1,
            "floor": _summary(0.1 * n / 10),
            "extract": _summary(0.2 * n / 10),
            "check": _summary(0.3 * n / 10 + 0.2, rss=n / 50),
        }
        for n in (10, 1_000, 10_000)
    ]
    rows.append({"sites": 100_000, "floor": _summary(10.0, runs=1), "check": _summary(3000.2, 900, runs=1)})
    results = {
        "command": "make bench",
        "rounds": 3,
        "scale_rounds": 3,
        "bench_process_rss_mb": 17.0,
        "machine": {
            "date": "d",
            "cores": 2,
            "memory_gib": 1.0,
            "cpu": "c",
            "python": "3",
            "platform": "p",
            "commit": "abc",
            "load_average": [5.0, 4.0, 3.0],
        },
        "uncompiled_modules": [],
        "repo": {"commands": commands, "ratios": ratios},
        "scale": {"sizes": rows},
        "foreign": {
            "commands": {
                scenarios.FOREIGN_FLOOR_NAME: _summary(0.2),
                scenarios.FOREIGN_CHECK_NAME: _summary(0.42, rss=34),
            },
            "ratio": 2.1,
            "libraries_ratio": 1.4,
            "routes": 40,
            "router_modules": 5,
            "entries": 110,
        },
        "serve": {
            "runs": {"backend edit": [1.3], "page edit": [1.0], "page edit without docgen": [1.0]},
            "median_s": {"backend edit": 1.3, "page edit": 1.0, "page edit without docgen": 1.0},
            "ratio": 1.3,
        },
    }
    text = report.render(results)
    assert "| check / floor | 1.40x | ≤ 1.60x | meets |" in text
    assert "| check / mkdocs build | 0.28x | ≤ 0.15x | **misses** by 87% |" in text
    assert "| build with docgen / without | 1.02x | ≤ 1.03x | meets |" in text
    assert "| check / cog --check (peer) | 4.00x | none (context) | |" in text
    assert "check at 10,000 sites: 300.20 s CPU (target ≤ 2.5 s: **misses** by 11908%)" in text
    assert (
        "3.00x the floor of the same tree (target ≤ 2.5x: **misses** by 20%), 200 MB (target ≤ 300 MB: meets)"
        in text
    )
    assert "between the two largest sizes (10,000 and 100,000; meets linear" in text
    assert "backend edit / page edit without docgen: 1.30x (target ≤ 1.2x: **misses** by 8%)" in text
    assert "The machine was busy" in text and "byte-compiled, as make's install step" in text
    assert "| 1,000 (3 run(s)) | 1,000 | 10.00 s |" in text
    assert "| 10,000 (3 run(s)) | 9,999 (**fewer than the sites**) | 100.00 s |" in text
    assert "| 100,000 (1 run(s)) | not counted |" in text
    assert "40 routes in\n5 router modules" in text and "hold 110 entries" in text
    assert "| docgen check of the FastAPI app | 0.420 s | 0.420 s | 0.420 s | 34 MB | 3 |" in text
    assert (
        "check / floor: 2.10x (target ≤ 1.6x: **misses** by 31%)\n"
        "(the floor with Jinja and PyYAML imported: 1.40x)" in text
    )
