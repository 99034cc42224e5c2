"""What a soak run saw, the conditions it must meet, and benchmarks/soak.md rendered from it."""

from __future__ import annotations

import socket
import statistics
import subprocess
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from backend.app.mcp_server import RATE_LIMIT_REQUESTS
from benchmarks import report as machine_report
from benchmarks.soak_clients import EXPECTED, RESET, Outcome

PING_BOUND_SECONDS = 0.1
# While it works the server holds the bodies in flight (each at most 256 KiB, and a few dozen
# clients send at once), worker threads and allocator arenas, so its peak may rise by some MiB;
# one oversize request buffered whole would add 10 MiB by itself. Flat means no steady growth:
# from the middle of the run to its end, resident memory may not rise by more than a little.
MAX_HWM_GROWTH_KIB = 16 * 1024
MAX_LATE_RSS_GROWTH_KIB = 4 * 1024
SLOW_CLIENT_SLACK_SECONDS = 5.0


def load_average() -> float:
    """The 1-minute load average of the machine."""
    return float(Path("/proc/loadavg").read_text(encoding="utf-8").split()[0])


def memory_kib(pid: int) -> dict[str, int]:
    """The current (VmRSS) and peak (VmHWM) resident memory of process `pid`."""
    lines = Path(f"/proc/{pid}/status").read_text(encoding="utf-8").splitlines()
    fields = dict(line.split(":", 1) for line in lines if ":" in line)
    return {key: int(fields[key].split()[0]) for key in ("VmRSS", "VmHWM")}


def wait_for_port(port: int, proc: subprocess.Popen[bytes], seconds: float = 15.0) -> None:
    """Return once something listens on 127.0.0.1:`port`; raise if `proc` exits or time runs out."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"the server did not start listening on port {port}")


@dataclass
class SoakReport:
    """Everything measured in one run."""

    size_seconds: float
    deadline: float
    outcomes: list[Outcome] = field(default_factory=list)
    slow: list[Outcome] = field(default_factory=list)
    pings: list[tuple[float, int]] = field(default_factory=list)
    memory: list[dict[str, int]] = field(default_factory=list)
    wall_seconds: float = 0.0
    log: str = ""
    # The machine's 1-minute load average before and after: other work on it shows in the latencies.
    load: list[float] = field(default_factory=list)

    def accepted_per_client(self) -> dict[str, tuple[int, int]]:
        """address -> (requests the rate limit counted, how many it let through)."""
        counted: dict[str, list[int]] = defaultdict(list)
        for outcome in self.outcomes:
            if outcome.kind != "bad-origin":  # refused before the limiter sees it
                counted[outcome.address].append(outcome.status)
        # A request without an answer (status 0) is reported on its own and counted neither way.
        return {
            address: (len(s), sum(status not in (429, 0) for status in s))
            for address, s in sorted(counted.items())
        }

    def problems(self, *, latency: bool = True) -> list[str]:
        """Each condition the run failed, in words; empty when the server held. `latency=False` leaves out the
        bound on how fast pings are answered: a speed target, which the recorded soak run (benchmarks/soak.md)
        measures and the test suite, on a machine it shares, does not."""
        found = [
            f"{o.address} {o.kind}: status {o.status or 'none'}"
            for o in self.outcomes
            if not 0 < o.status < 500
        ]
        found += [
            f"{o.address} {o.kind}: {o.status}, expected {EXPECTED[o.kind]}"
            for o in self.outcomes
            if o.status not in (429, EXPECTED[o.kind], 0) and not o.status >= 500
        ]
        for address, (counted, accepted) in self.accepted_per_client().items():
            if counted <= RATE_LIMIT_REQUESTS:
                found.append(f"{address} sent only {counted} requests: too few to reach the limit")
            elif accepted != RATE_LIMIT_REQUESTS:
                found.append(
                    f"{address}: {accepted} requests let through, the limit is {RATE_LIMIT_REQUESTS}"
                )
        for o in self.slow:
            if (
                o.status not in (408, RESET)
                or not self.deadline <= o.seconds < self.deadline + SLOW_CLIENT_SLACK_SECONDS
            ):
                found.append(f"{o.address} {o.kind}: status {o.status} after {o.seconds:.1f} s")
        found += self._ping_and_memory_problems(latency=latency)
        found += [
            f"the server log has a traceback ({m})"
            for m in ("Traceback", "Exception in ASGI")
            if m in self.log
        ]
        return found

    def _ping_and_memory_problems(self, *, latency: bool) -> list[str]:
        found = []
        if not self.pings or any(status != 200 for _, status in self.pings):
            found.append(f"pings answered: {Counter(status for _, status in self.pings)}")
        if latency and self.pings and (slowest := max(took for took, _ in self.pings)) >= PING_BOUND_SECONDS:
            found.append(f"slowest ping {slowest * 1000:.1f} ms (bound {PING_BOUND_SECONDS * 1000:.0f} ms)")
        growth = self.memory_growth_kib()
        if growth["VmHWM"] >= MAX_HWM_GROWTH_KIB or growth["late VmRSS"] >= MAX_LATE_RSS_GROWTH_KIB:
            found.append(f"server memory grew: {growth} KiB")
        return found

    def memory_growth_kib(self) -> dict[str, int]:
        """Final VmRSS and VmHWM minus those after the warm-up, and VmRSS since mid-run ("late")."""
        if len(self.memory) < 3:
            return {"VmRSS": 0, "VmHWM": 0, "late VmRSS": 0}
        base, middle, last = self.memory[0], self.memory[len(self.memory) // 2], self.memory[-1]
        growth = {key: last[key] - base[key] for key in ("VmRSS", "VmHWM")}
        return {**growth, "late VmRSS": last["VmRSS"] - middle["VmRSS"]}

    def figures(self) -> dict[str, Any]:
        """The numbers soak.md records."""
        latencies = sorted(latency * 1000 for latency, _ in self.pings) or [0.0]
        statuses = Counter(o.status for o in self.outcomes)
        return {
            "requests": len(self.outcomes) + len(self.slow) + len(self.pings),
            "load_requests": len(self.outcomes),
            "statuses": dict(sorted(statuses.items())),
            "kinds": dict(sorted(Counter(o.kind for o in self.outcomes).items())),
            "clients": len(self.accepted_per_client()),
            "accepted": sorted({accepted for _, accepted in self.accepted_per_client().values()}),
            "pings": len(self.pings),
            "ping_ms": {
                "median": statistics.median(latencies),
                "p99": latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))],
                "max": latencies[-1],
            },
            "slow_cut_s": [round(o.seconds, 2) for o in self.slow],
            "slow_408": sum(o.status == 408 for o in self.slow),
            "memory_kib": {
                "baseline": self.memory[0] if self.memory else {},
                "growth": self.memory_growth_kib(),
            },
            "peak_rss_kib": max((m["VmRSS"] for m in self.memory), default=0),
            "wall_seconds": round(self.wall_seconds, 1),
        }


def render(report: SoakReport, planned: int, command: str, root: Path) -> str:
    """benchmarks/soak.md: the machine, the run and its figures, and what it had to meet."""
    machine, fig = machine_report.machine(root), report.figures()
    statuses, ping, cut = fig["statuses"], fig["ping_ms"], fig["slow_cut_s"]
    growth = fig["memory_kib"]["growth"]
    problems = report.problems()
    lines = [
        "# Soak test of the MCP server",
        "",
        f"Generated by `{command}` ({'passed' if not problems else 'FAILED'}). Do not edit by hand.",
        "",
        f"- Machine: {machine['cores']} cores, {machine['memory_gib']} GiB, {machine['cpu']}; "
        f"Python {machine['python']}",
        f"- Date: {machine['date']}; commit: {machine['commit']}",
        f"- Run: {report.size_seconds:.0f} s planned, {fig['wall_seconds']} s wall; "
        f"{fig['requests']:,} requests ({planned:,} planned) from {fig['clients']} load clients, "
        f"{len(report.slow)} slow clients and a pinger",
        f"- Load average (1 min, {machine['cores']} cores) before and after the run: "
        f"{' / '.join(f'{value:.2f}' for value in report.load)}",
        "",
        "Latencies depend on what else the machine runs: the soak's own client and ping processes share",
        "its cores with the server, and so does any other work (the load average above says how much).",
        "",
        "| Figure | Value |",
        "|---|---|",
        f"| Answers by status (load clients) | {', '.join(f'{k}: {v}' for k, v in statuses.items())} |",
        f"| Requests let through per client | {fig['accepted']} (limit {RATE_LIMIT_REQUESTS}) |",
        f"| Ping latency, median / p99 / max | {ping['median']:.1f} / {ping['p99']:.1f} / "
        f"{ping['max']:.1f} ms "
        f"over {fig['pings']} pings (bound {PING_BOUND_SECONDS * 1000:.0f} ms) |",
        f"| Slow clients cut off after | {min(cut, default=0)}-{max(cut, default=0)} s "
        f"(deadline {report.deadline:.0f} s); {fig['slow_408']} read the 408, "
        f"{len(report.slow) - fig['slow_408']} saw a reset |",
        f"| Server memory after warm-up | VmRSS {fig['memory_kib']['baseline'].get('VmRSS', 0):,} KiB, "
        f"VmHWM {fig['memory_kib']['baseline'].get('VmHWM', 0):,} KiB |",
        f"| Growth by the end | VmRSS {growth['VmRSS']:+,} KiB, VmHWM {growth['VmHWM']:+,} KiB "
        f"(bound {MAX_HWM_GROWTH_KIB:,} KiB); VmRSS since mid-run {growth['late VmRSS']:+,} KiB "
        f"(bound {MAX_LATE_RSS_GROWTH_KIB:,} KiB) |",
        f"| Requests by kind | {', '.join(f'{k} {v}' for k, v in fig['kinds'].items())} |",
        "",
    ]
    if problems:
        lines += ["Conditions not met:", "", *[f"- {problem}" for problem in problems], ""]
    return "\n".join(lines)
