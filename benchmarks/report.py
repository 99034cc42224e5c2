"""The machine a run was taken on, and RESULTS.md rendered from a run's results (never typed by hand)."""

from __future__ import annotations

import datetime
import math
import os
import platform
import subprocess
from pathlib import Path
from typing import Any

NOTES = Path(__file__).resolve().parent / "notes.md"
TARGETS = {
    "check / floor": 1.5,
    "check / mkdocs build": 0.25,
    "build with docgen / without": 1.10,
}
SCALE_SECONDS = 5.0
SCALE_MB = 300.0
LINEAR_EXPONENT = 1.15
"""Growth counts as close to linear when time above the smallest run grows as sites**k with k at most this."""


def _first_line(path: str, prefix: str) -> str | None:
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except OSError:
        return None
    return next((line.split(":", 1)[1].strip() for line in lines if line.startswith(prefix)), None)


def _git(root: Path, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=root, capture_output=True, text=True, check=False)
    return done.stdout.strip() if done.returncode == 0 else "unknown"


def machine(root: Path) -> dict[str, Any]:
    """What the figures depend on: cores, memory, CPU, Python, and the code measured."""
    memory = _first_line("/proc/meminfo", "MemTotal:")
    # The results of an earlier run are this run's outputs, not a change to the code measured.
    outputs = (":!benchmarks/RESULTS.md", ":!benchmarks/results.json")
    dirty = _git(root, "status", "--porcelain", "--untracked-files=no", "--", ".", *outputs)
    return {
        "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "cores": os.cpu_count(),
        "memory_gib": round(int(memory.split()[0]) / 1024 / 1024, 1) if memory else None,
        "cpu": _first_line("/proc/cpuinfo", "model name") or platform.processor() or "unknown",
        "python": platform.python_version(),
        "platform": platform.platform(),
        "commit": _git(root, "rev-parse", "--short", "HEAD") + (" plus uncommitted changes" if dirty else ""),
    }


def _verdict(ok: bool) -> str:
    return "meets" if ok else "**misses**"


def growth_exponent(rows: list[dict[str, Any]], stage: str) -> float | None:
    """k in `time above the smallest size ~ sites**k`, between the two largest sizes."""
    if len(rows) < 3:
        return None
    base, low, high = (row[stage]["median_s"] for row in (rows[0], rows[-2], rows[-1]))
    if low - base <= 0 or high - base <= 0:
        return None
    return math.log((high - base) / (low - base)) / math.log(rows[-1]["sites"] / rows[-2]["sites"])


def _repo_section(repo: dict[str, Any]) -> list[str]:
    lines = ["## This repository", "", "| comparison | ratio of medians | target | |", "|---|---|---|---|"]
    for name, ratio in repo["ratios"].items():
        target = TARGETS[name.split(",")[0]]  # the runs without a template cache have the same targets
        bound = f"≤ {target:.2f}x" if target < 1 else f"≤ {target:.2f}x (+{(target - 1) * 100:.0f}%)"
        lines.append(f"| {name} | {ratio:.2f}x | {bound} | {_verdict(ratio <= target)} |")
    lines += ["", "| command | median | min | max | peak RSS | runs |", "|---|---|---|---|---|---|"]
    for name, summary in repo["commands"].items():
        lines.append(
            f"| {name} | {summary['median_s']:.3f} s | {summary['min_s']:.3f} s | {summary['max_s']:.3f} s "
            f"| {summary['median_rss_mb']:.0f} MB | {summary['runs']} |"
        )
    return [*lines, ""]


def _scale_table(rows: list[dict[str, Any]]) -> list[str]:
    lines = [
        "| error sites | griffe floor | extract | extract peak | check | check peak | check / floor |",
        "|---|---|---|---|---|---|---|",
    ]
    for row in rows:
        floor, extract, check = row["floor"], row["extract"], row["check"]
        lines.append(
            f"| {row['sites']:,} | {floor['median_s']:.2f} s "
            f"| {extract['median_s']:.2f} s | {extract['median_rss_mb']:.0f} MB "
            f"| {check['median_s']:.2f} s | {check['median_rss_mb']:.0f} MB "
            f"| {check['median_s'] / floor['median_s']:.2f}x |"
        )
    return lines


def _scale_verdicts(rows: list[dict[str, Any]]) -> list[str]:
    largest, lines = rows[-1], []
    for stage in ("extract", "check"):
        seconds, mb = largest[stage]["median_s"], largest[stage]["median_rss_mb"]
        exponent = growth_exponent(rows, stage)
        if exponent is None:
            growth = "growth: not measurable (the smaller runs are all startup)"
        else:
            linear = _verdict(exponent <= LINEAR_EXPONENT)
            growth = (
                f"time above the smallest run grows as sites^{exponent:.2f} ({linear} k ≤ {LINEAR_EXPONENT})"
            )
        lines.append(
            f"- {stage} at {largest['sites']:,} sites: {seconds:.2f} s (target < {SCALE_SECONDS:.0f} s: "
            f"{_verdict(seconds < SCALE_SECONDS)}), {mb:.0f} MB (target < {SCALE_MB:.0f} MB: "
            f"{_verdict(mb < SCALE_MB)}); {growth}"
        )
    return lines


def _header(results: dict[str, Any]) -> list[str]:
    box = results["machine"]
    return [
        "# Benchmark results",
        "",
        f"Measured by `{results['command']}` on {box['date']} at commit {box['commit']}.",
        "This file and `benchmarks/results.json` are written by that command. Each comparison runs its",
        "commands side by side: interleaved rounds, one process per run, medians of",
        f"{results['rounds']} rounds on this repository and of {results['scale_rounds']} at each scale,",
        "after a warm-up round. Ratios vary less between machines than absolute times.",
        "Peak memory is the child's `ru_maxrss` in MB (10^6 bytes); it cannot read below the",
        f"{results['bench_process_rss_mb']} MB of the measuring process the child was forked from.",
        "",
        f"Machine: {box['cores']} cores, {box['memory_gib']} GiB, {box['cpu']}; Python {box['python']} "
        f"on {box['platform']}.",
        "",
    ]


def render(results: dict[str, Any]) -> str:
    """RESULTS.md for one run."""
    lines = _header(results)
    if "repo" in results:
        lines += _repo_section(results["repo"])
    if "scale" in results:
        rows = results["scale"]["sizes"]
        lines += ["## Scale: synthetic backends", "", *_scale_table(rows), "", *_scale_verdicts(rows), ""]
    return "\n".join(lines) + "\n" + notes(results)


def notes(results: dict[str, Any]) -> str:
    """Where the time goes: benchmarks/notes.md, its numbers filled in from `results`."""
    repo_text, scale_text, *measured_by_hand = NOTES.read_text(encoding="utf-8").split("---\n")
    text = "## Where the time goes\n\n"
    if "repo" in results:
        text += repo_text.format(**_repo_figures(results["repo"]))
    if "scale" in results:
        largest = results["scale"]["sizes"][-1]
        figures = {stage: largest[stage]["median_s"] for stage in ("floor", "extract", "check")}
        text += scale_text.format(sites=largest["sites"], **figures)
    return text + "".join(measured_by_hand)  # figures from other runs, kept as written


def _repo_figures(repo: dict[str, Any]) -> dict[str, float]:
    median = {name: summary["median_s"] for name, summary in repo["commands"].items()}
    floor, check, build = median["griffe floor"], median["docgen check"], median["mkdocs build"]
    libraries = median["floor + importing jinja2, yaml"]
    plain = median["mkdocs build without docgen"]
    check_cold = median["docgen check, no template cache"]
    build_cold = median["mkdocs build, no template cache"]
    return {
        "griffe_import": median.get("starting Python and importing griffe", float("nan")),
        "headroom": max(TARGETS["check / floor"] * floor - libraries, 0.0),
        "cold_extra": check_cold - check,
        "plugin_cold": build_cold - plain,
        "plugin_cold_share": (build_cold - plain) / plain,
        "floor": floor,
        "libraries": libraries,
        "libraries_ratio": libraries / floor,
        "own": check - libraries,
        "check_libraries_ratio": check / libraries,
        "libraries_build_ratio": libraries / build,
        "build": build,
        "plugin": build - plain,
        "plugin_share": (build - plain) / plain,
    }
