"""benchmarks/instructions.py: counts read from callgrind, exit codes checked, the ratios, the report.

The counts of real commands are taken under valgrind where it is installed; no test times anything.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from benchmarks import instructions, report, scenarios
from benchmarks.timing import BenchmarkError, Command

VALGRIND = shutil.which("valgrind")
needs_valgrind = pytest.mark.skipif(VALGRIND is None, reason="valgrind is not installed on this machine")

CALLGRIND_STDERR = """\
==7238== Callgrind, a call-graph generating cache profiler
==7238== Command: .venv/bin/docgen --version
==7238==
==7238== Events    : Ir
==7238== Collected : 283704511
==7238==
==7238== I   refs:      283,704,511
"""


def test_the_count_is_read_from_callgrinds_summary_line() -> None:
    assert instructions.instructions_in(CALLGRIND_STDERR) == 283_704_511


def test_output_without_a_count_is_an_error_not_zero() -> None:
    with pytest.raises(BenchmarkError, match="no instruction count"):
        instructions.instructions_in("==1== Callgrind\n==1== error: cannot run the program\n")


def test_the_ratios_are_the_same_comparisons_make_bench_reports() -> None:
    cost = {scenarios.FLOOR_NAME: 100, scenarios.CHECK_NAME: 150, scenarios.CHECK_COLD_NAME: 200}
    cost |= {scenarios.BUILD_NAME: 1000, scenarios.BUILD_COLD_NAME: 1100, scenarios.PLAIN_NAME: 800}
    ratios = scenarios.repo_ratios({**cost, scenarios.PEER_NAME: 50, scenarios.CHECK_WARM_NAME: 30})
    assert ratios == {
        "check / floor": 1.5,
        "check / floor, no template cache": 2.0,
        "check / floor, verdict cached": 0.3,
        "check / mkdocs build": 0.15,
        "check / mkdocs build, no template cache": 200 / 1100,
        "build with docgen / without": 1.25,
        "build with docgen / without, no template cache": 1.375,
        "check / cog --check (peer)": 3.0,
    }


def test_scale_and_the_fastapi_application_are_held_to_their_own_lines() -> None:
    """Their names begin like the repository's `check / floor`, whose 1.6x they must not inherit."""
    sites = report.SCALE_SITES
    counts = {f"floor {sites}": 5_000, f"check {sites}": 20_000}
    counts |= {scenarios.FOREIGN_FLOOR_NAME: 400, scenarios.FOREIGN_CHECK_NAME: 800}
    ratios = instructions.other_ratios(counts)
    assert ratios == {"check / floor, 10,000 sites": 4.0, "check / floor, the FastAPI application": 2.0}
    assert report.target_of("check / floor, 10,000 sites") == report.SCALE_FLOOR_RATIO == 2.5
    assert report.target_of("check / floor, the FastAPI application") == report.FOREIGN_FLOOR_RATIO == 1.6
    text = instructions.render(
        {
            "machine": {"date": "2026-12-06 03:00 UTC", "commit": "abc1234", "python": "3.11.7"},
            "valgrind": "valgrind-3.19.0",
            "uncompiled_modules": [],
            "ratios": ratios,
            "instructions": counts,
        }
    )
    assert "| check / floor, 10,000 sites | 4.000x | ≤ 2.50x | **misses** by 60% |" in text
    assert "| check / floor, the FastAPI application | 2.000x | ≤ 1.60x | **misses** by 25% |" in text


def test_the_report_gives_each_ratio_and_count() -> None:
    results = {
        "machine": {"date": "2026-12-01 23:40 UTC", "commit": "abc1234", "python": "3.11.7"},
        "valgrind": "valgrind-3.19.0",
        "uncompiled_modules": ["docgen/core/models.py"],
        "ratios": {"build with docgen / without": 1.0689, "check / floor, verdict cached": 0.25},
        "instructions": {"mkdocs build": 5_971_831_528},
    }
    text = instructions.render(results)
    assert "at commit abc1234, with\nvalgrind-3.19.0 (callgrind)" in text
    assert "`PYTHONHASHSEED=0`" in text
    assert "| build with docgen / without | 1.069x | ≤ 1.03x | **misses** by 4% |" in text
    assert "| check / floor, verdict cached | 0.250x | ≤ 0.30x | meets |" in text
    assert "| mkdocs build | 5,971,831,528 |" in text
    assert "**not all byte-compiled**" in text


def test_without_valgrind_it_says_how_to_install_it_and_writes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(instructions.shutil, "which", lambda name: None)
    assert instructions.main(["--output", str(tmp_path)]) == 2
    assert "apt install valgrind" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


@needs_valgrind
def test_a_real_count_grows_with_the_work_and_repeats(tmp_path: Path) -> None:
    assert VALGRIND is not None
    idle = Command("idle", (sys.executable, "-c", "pass"), tmp_path)
    busy = Command("busy", (sys.executable, "-c", "sum(range(2_000_000))"), tmp_path)
    first, again = instructions.count(idle, VALGRIND), instructions.count(idle, VALGRIND)
    assert abs(first - again) <= first / 1000  # the hash seed is fixed: the same work, nearly the same count
    assert instructions.count(busy, VALGRIND) > first + 20_000_000


@needs_valgrind
def test_a_command_that_fails_under_valgrind_stops_the_count_with_its_output(tmp_path: Path) -> None:
    assert VALGRIND is not None
    failing = Command("failing", (sys.executable, "-c", "import sys; sys.exit('no such page')"), tmp_path)
    with pytest.raises(BenchmarkError, match=r"failing exited 1 under valgrind:(.|\n)*no such page"):
        instructions.count(failing, VALGRIND)
