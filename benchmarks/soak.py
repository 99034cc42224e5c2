"""Soak the MCP server under uvicorn on 127.0.0.1 and check that it holds; write benchmarks/soak.md.

    .venv/bin/python benchmarks/soak.py                       # the recorded run (45 s)
    .venv/bin/python benchmarks/soak.py --seconds 15 --clients 6 --per-client 150 --output -

Many loopback addresses at once send a mix of valid calls, protocol errors, oversize bodies and
searches at the query bounds; slow clients trickle headers or bodies; a separate process pings
every 100 ms. The run passes when no answer is a 5xx (or missing), the log has no traceback,
every client got exactly RATE_LIMIT_REQUESTS requests through, every slow client was cut off at
the deadline, every ping came back within 100 ms, and the server's memory stayed flat.
tests/backend/test_soak.py runs `run_soak` at a small size inside `make test`.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import random
import subprocess
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from multiprocessing import get_context
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks import soak_clients as clients
from benchmarks.soak_report import SoakReport, load_average, memory_kib, render, wait_for_port

REPO = Path(__file__).resolve().parent.parent
MAX_SECONDS, MAX_REQUESTS = 60.0, 20_000


@dataclass(frozen=True)
class SoakSize:
    """How big a run is. Every request of a client falls within one rate-limit window."""

    seconds: float = 45.0
    load_clients: int = 24
    per_client: int = 300
    slow_clients: int = 8
    ping_interval: float = 0.1
    kinds: dict[str, int] = field(default_factory=lambda: dict(clients.WEIGHTS))

    def ping_addresses(self) -> list[str]:
        """Enough addresses that none of them pings more than 100 times in the run."""
        count = math.ceil(self.seconds / self.ping_interval / 100)
        return [f"127.0.3.{n + 1}" for n in range(count)]

    def total_requests(self) -> int:
        """Every request the run sends, warm-up included."""
        warm_up = len(self.kinds)
        return (
            self.load_clients * self.per_client
            + self.slow_clients
            + int(self.seconds / self.ping_interval)
            + warm_up
        )

    def check(self) -> None:
        """Refuse a size past the bounds: at most 60 s and 20,000 requests."""
        if not 0 < self.seconds <= MAX_SECONDS or self.total_requests() > MAX_REQUESTS:
            raise ValueError(f"a soak run is at most {MAX_SECONDS:.0f} s and {MAX_REQUESTS:,} requests")


def schedule(size: SoakSize, client: int) -> list[str]:
    """The kinds of request one load client sends, in order (the same for the same client)."""
    kinds, weights = zip(*size.kinds.items(), strict=True)
    return random.Random(client).choices(kinds, weights, k=size.per_client)


async def _load_client(port: int, size: SoakSize, client: int, start: float) -> list[clients.Outcome]:
    address = f"127.0.1.{client + 1}"
    gap = (size.seconds * 0.8) / size.per_client
    tasks = []
    for n, kind in enumerate(schedule(size, client)):
        await asyncio.sleep(max(0.0, start + n * gap - time.monotonic()))
        tasks.append(asyncio.create_task(clients.send(port, address, kind)))
    return list(await asyncio.gather(*tasks))


async def _sample_memory(pid: int, until: float, samples: list[dict[str, int]]) -> None:
    while time.monotonic() < until:
        samples.append(memory_kib(pid))
        await asyncio.sleep(0.25)


async def _drive(port: int, pid: int, size: SoakSize, header_deadline: float, report: SoakReport) -> None:
    for kind in size.kinds:  # warm up every path once, then take the memory baseline
        await clients.send(port, "127.0.4.1", kind)
    report.memory.append(memory_kib(pid))
    start = time.monotonic()
    slow = [
        clients.slow_client(port, f"127.0.2.{n + 1}", ("headers", "body")[n % 2], 0.25, header_deadline + 5)
        for n in range(size.slow_clients)
    ]
    load = [_load_client(port, size, n, start) for n in range(size.load_clients)]
    sampler = asyncio.create_task(_sample_memory(pid, start + size.seconds, report.memory))
    slow_done = asyncio.gather(*slow)
    for outcomes in await asyncio.gather(*load):
        report.outcomes.extend(outcomes)
    report.slow.extend(await slow_done)
    await sampler
    report.memory.append(memory_kib(pid))


def run_soak(
    port: int, pid: int, log_path: Path, size: SoakSize, header_deadline: float = 10.0
) -> SoakReport:
    """Soak the server listening on 127.0.0.1:`port` (process `pid`, logging to `log_path`).

    Args:
        port: Where the server listens.
        pid: The server's process id, for its memory figures.
        log_path: The server's log, searched for tracebacks afterwards.
        size: How long and how many.
        header_deadline: The server's deadline for slow clients, in seconds.
    """
    size.check()
    report = SoakReport(size_seconds=size.seconds, deadline=header_deadline, load=[load_average()])
    started = time.monotonic()
    with ProcessPoolExecutor(max_workers=1, mp_context=get_context("spawn")) as pool:
        pings = pool.submit(clients.ping_loop, port, size.ping_addresses(), size.seconds, size.ping_interval)
        asyncio.run(_drive(port, pid, size, header_deadline, report))
        report.pings.extend(pings.result())
    report.wall_seconds = time.monotonic() - started
    report.load.append(load_average())
    report.log = log_path.read_text(encoding="utf-8", errors="replace")
    return report


def _serve(port: int, log_path: Path) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "backend.app", "--port", str(port), "--log-level", "warning"]
    with log_path.open("wb") as log:
        proc = subprocess.Popen(command, cwd=REPO, stdout=log, stderr=subprocess.STDOUT)
    wait_for_port(port, proc)
    return proc


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="benchmarks/soak.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=SoakSize.seconds)
    parser.add_argument("--clients", type=int, default=SoakSize.load_clients)
    parser.add_argument("--per-client", type=int, default=SoakSize.per_client)
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--output", default=str(REPO / "benchmarks" / "soak.md"), help="'-' for stdout")
    args = parser.parse_args(argv)
    size = SoakSize(seconds=args.seconds, load_clients=args.clients, per_client=args.per_client)
    log_path = REPO / "benchmarks" / "work" / "soak-server.log"
    log_path.parent.mkdir(parents=True, exist_ok=True)
    proc = _serve(args.port, log_path)
    try:
        report = run_soak(args.port, proc.pid, log_path, size)
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    command = " ".join([".venv/bin/python benchmarks/soak.py", *(argv if argv is not None else sys.argv[1:])])
    text = render(report, size.total_requests(), command, REPO)
    if args.output == "-":
        print(text)
    else:
        Path(args.output).write_text(text, encoding="utf-8")
    problems = report.problems()
    for problem in problems:
        print(f"soak: {problem}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
