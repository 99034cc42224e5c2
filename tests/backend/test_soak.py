"""The soak test at the size `make test` can afford: 15 s, about 1,100 requests (benchmarks/soak.py).

The conditions are the run's own (`SoakReport.problems`): no 5xx and no request left without an
answer, no traceback in the server's log, exactly RATE_LIMIT_REQUESTS let through per client,
every slow client cut off at the deadline, every ping answered, memory flat. How fast the pings are
answered is a speed target, not a condition here: the bigger recorded run measures it (benchmarks/soak.md).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from backend.app.mcp_server import HEADER_READ_TIMEOUT_SECONDS, RATE_LIMIT_REQUESTS
from benchmarks.soak import SoakSize, run_soak
from tests.backend.conftest import run_server

pytestmark = pytest.mark.server

TEST_SIZE = SoakSize(seconds=15, load_clients=6, per_client=150, slow_clients=6)


def test_the_server_holds_under_a_mixed_load_from_many_addresses(repo_root: Path, tmp_path: Path) -> None:
    log = tmp_path / "uvicorn.log"
    with run_server(repo_root, repo_root / "docs", log) as server:
        report = run_soak(server.port, server.pid, log, TEST_SIZE, HEADER_READ_TIMEOUT_SECONDS)
    assert report.problems(latency=False) == []
    figures = report.figures()
    # The run did what it says: every kind was sent, every client reached the limit.
    assert set(figures["kinds"]) == set(TEST_SIZE.kinds)
    assert figures["accepted"] == [RATE_LIMIT_REQUESTS]
    assert figures["clients"] == TEST_SIZE.load_clients
    assert len(report.slow) == TEST_SIZE.slow_clients
    assert figures["pings"] >= 0.9 * TEST_SIZE.seconds / TEST_SIZE.ping_interval


def test_a_run_past_the_bounds_is_refused() -> None:
    with pytest.raises(ValueError, match="at most 60 s and 20,000 requests"):
        SoakSize(seconds=61).check()
    with pytest.raises(ValueError, match="at most 60 s"):
        SoakSize(seconds=30, load_clients=100, per_client=300).check()
