"""Run commands side by side: interleaved rounds, one child process per run, wall time and peak memory.

Each round runs every command once, starting with a different one each round, so that a slow phase of the
machine (another job, a frequency change) falls on all commands alike. CPU time (user + system) and peak
memory are the child's own `rusage`, read with `os.wait4`, so they are that process alone; peak memory is in
MB (10^6 bytes). Ratios are taken on CPU time: on a machine shared with other jobs, wall time mostly measures
how long a process waited for a core.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class Command:
    """One benchmarked command: its name in the report, its argv and working directory."""

    name: str
    argv: tuple[str, ...]
    cwd: Path
    env: Mapping[str, str] = field(default_factory=dict)
    """Added to the environment of the run."""
    exit_codes: frozenset[int] = frozenset({0})
    """Exit codes that count as a complete run; any other stops the benchmark with the command's stderr."""


@dataclass(frozen=True)
class Sample:
    seconds: float
    """Wall time."""
    cpu_s: float
    """User plus system time of the child."""
    max_rss_mb: float
    exit_code: int


@dataclass(frozen=True)
class Summary:
    """Medians (and spread) of a command's samples."""

    name: str
    runs: int
    median_s: float
    """Median CPU time (user + system)."""
    min_s: float
    max_s: float
    median_wall_s: float
    median_rss_mb: float
    exit_codes: tuple[int, ...]

    def as_dict(self) -> dict[str, object]:
        return {
            "runs": self.runs,
            "median_s": round(self.median_s, 4),
            "min_s": round(self.min_s, 4),
            "max_s": round(self.max_s, 4),
            "median_wall_s": round(self.median_wall_s, 4),
            "median_rss_mb": round(self.median_rss_mb, 1),
            "exit_codes": list(self.exit_codes),
        }


class BenchmarkError(RuntimeError):
    """A benchmarked command failed: the numbers would mean nothing."""


def run_once(command: Command) -> Sample:
    """Run `command` once in a child process; its output is discarded unless it fails."""
    env = {**os.environ, **command.env}
    with tempfile.TemporaryFile() as errors:
        start = time.perf_counter()
        child = subprocess.Popen(
            command.argv, cwd=command.cwd, env=env, stdout=subprocess.DEVNULL, stderr=errors
        )
        _pid, status, usage = os.wait4(child.pid, 0)
        seconds = time.perf_counter() - start
        child.returncode = code = os.waitstatus_to_exitcode(status)
        if code not in command.exit_codes:
            errors.seek(0)
            tail = errors.read().decode("utf-8", "replace")[-3000:]
            raise BenchmarkError(f"{command.name}: exit code {code}\n{' '.join(command.argv)}\n{tail}")
    cpu = usage.ru_utime + usage.ru_stime
    return Sample(seconds, cpu, usage.ru_maxrss * 1024 / 1e6, code)  # ru_maxrss is in KiB on Linux


def interleave(commands: Sequence[Command], rounds: int, *, warmup: int = 1) -> dict[str, Summary]:
    """`rounds` interleaved runs of every command (after `warmup` unrecorded rounds), summarised by name."""
    samples: dict[str, list[Sample]] = {command.name: [] for command in commands}
    for number in range(warmup + rounds):
        shift = number % len(commands)
        for command in [*commands[shift:], *commands[:shift]]:
            sample = run_once(command)
            if number >= warmup:
                samples[command.name].append(sample)
    return {name: summarise(name, runs) for name, runs in samples.items()}


def summarise(name: str, samples: Sequence[Sample]) -> Summary:
    seconds = [sample.cpu_s for sample in samples]
    return Summary(
        name=name,
        runs=len(samples),
        median_s=statistics.median(seconds),
        min_s=min(seconds),
        max_s=max(seconds),
        median_wall_s=statistics.median(sample.seconds for sample in samples),
        median_rss_mb=statistics.median(sample.max_rss_mb for sample in samples),
        exit_codes=tuple(sorted({sample.exit_code for sample in samples})),
    )
