"""The machine a run was taken on, and RESULTS.md rendered from a run's results (never typed by hand)."""

from __future__ import annotations

import datetime
import json
import math
import os
import platform
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

NOTES = Path(__file__).resolve().parent / "notes.md"
SCALE_SITES = 10_000
SCALE_SECONDS = 2.5
"""check at SCALE_SITES: CPU seconds at most."""
SCALE_FLOOR_RATIO = 2.5
"""check at SCALE_SITES: at most this times the griffe floor of the same tree."""
SCALE_MB = 300.0
EXTRACT_SECONDS = 5.0
"""extract at SCALE_SITES (the earlier line; issue 18 sets none for extract)."""
SERVE_RATIO = 1.2
"""mkdocs serve: a backend edit shows within this times a plain page edit (without the plugin)."""
FOREIGN_FLOOR_RATIO = 1.6
"""check of the FastAPI application: at most this times griffe loading its package alone."""
SCALE_COMPARISON = f"check / floor, {SCALE_SITES:,} sites"
FOREIGN_COMPARISON = "check / floor, the FastAPI application"
TARGETS = {  # issue 33
    "check / floor": 1.6,
    "check / mkdocs build": 0.15,
    "build with docgen / without": 1.03,
    "check / floor, verdict cached": 0.3,
    SCALE_COMPARISON: SCALE_FLOOR_RATIO,
    FOREIGN_COMPARISON: FOREIGN_FLOOR_RATIO,
}
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
    outputs = tuple(
        f":!benchmarks/{name}"
        for name in ("RESULTS.md", "results.json", "INSTRUCTIONS.md", "instructions.json")
    )
    dirty = _git(root, "status", "--porcelain", "--untracked-files=no", "--", ".", *outputs)
    return {
        "load_average": [round(load, 2) for load in os.getloadavg()],
        "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "cores": os.cpu_count(),
        "memory_gib": round(int(memory.split()[0]) / 1024 / 1024, 1) if memory else None,
        "cpu": _first_line("/proc/cpuinfo", "model name") or platform.processor() or "unknown",
        "python": platform.python_version(),
        "platform": platform.platform(),
        "commit": _git(root, "rev-parse", "--short", "HEAD") + (" plus uncommitted changes" if dirty else ""),
    }


def write(directory: Path, results: Mapping[str, Any], text: str, *, markdown: str, data: str) -> None:
    """Write a run's results as `data` (JSON) and its report as `markdown` into `directory`, and show the
    report."""
    directory.mkdir(parents=True, exist_ok=True)
    (directory / data).write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    (directory / markdown).write_text(text, encoding="utf-8")
    print(text)
    print(f"bench: wrote {directory / markdown} and {data}", file=sys.stderr)


def _verdict(ok: bool) -> str:
    return "meets" if ok else "**misses**"


def miss_by(value: float, bound: float) -> str:
    """`meets`, or by how much `value` is over `bound`."""
    return "meets" if value <= bound else f"**misses** by {(value / bound - 1) * 100:.0f}%"


def growth_exponent(rows: list[dict[str, Any]], stage: str) -> float | None:
    """k in `time above the smallest size ~ sites**k`, between the two largest sizes."""
    if len(rows) < 3:
        return None
    base, low, high = (row[stage]["median_s"] for row in (rows[0], rows[-2], rows[-1]))
    if low - base <= 0 or high - base <= 0:
        return None
    return math.log((high - base) / (low - base)) / math.log(rows[-1]["sites"] / rows[-2]["sites"])


def target_of(comparison: str) -> float | None:
    """A comparison's target: its own, else that of the same comparison with the caches warm (the runs
    without a template cache have the same targets); None for the peer, which is context."""
    return TARGETS.get(comparison, TARGETS.get(comparison.split(",", maxsplit=1)[0]))


def _repo_section(repo: dict[str, Any]) -> list[str]:
    lines = ["## This repository", "", "| comparison | ratio of medians | target | |", "|---|---|---|---|"]
    for name, ratio in repo["ratios"].items():
        target = target_of(name)
        if target is None:  # the peer row: context, no target
            lines.append(f"| {name} | {ratio:.2f}x | none (context) | |")
            continue
        lines.append(f"| {name} | {ratio:.2f}x | ≤ {target:.2f}x | {miss_by(ratio, target)} |")
    lines += [
        "",
        "| command | CPU median | min | max | wall median | peak RSS | runs |",
        "|---|---|---|---|---|---|---|",
    ]
    for name, summary in repo["commands"].items():
        lines.append(
            f"| {name} | {summary['median_s']:.3f} s | {summary['min_s']:.3f} s | {summary['max_s']:.3f} s "
            f"| {summary.get('median_wall_s', float('nan')):.3f} s "
            f"| {summary['median_rss_mb']:.0f} MB | {summary['runs']} |"
        )
    return [*lines, ""]


def _scale_table(rows: list[dict[str, Any]]) -> list[str]:
    lines = [
        "| error sites | entries check found | griffe floor | extract | extract peak | check | check peak "
        "| check / floor |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for row in rows:
        entries = row.get("entries")
        found = "not counted" if entries is None else f"{entries:,}"
        found += " (**fewer than the sites**)" if entries is not None and entries < row["sites"] else ""
        floor, check = row["floor"], row["check"]
        extract = row.get("extract")
        extracted = (
            f"{extract['median_s']:.2f} s | {extract['median_rss_mb']:.0f} MB" if extract else "not timed | "
        )
        lines.append(
            f"| {row['sites']:,} ({check['runs']} run(s)) | {found} "
            f"| {floor['median_s']:.2f} s | {extracted} "
            f"| {check['median_s']:.2f} s | {check['median_rss_mb']:.0f} MB "
            f"| {check['median_s'] / floor['median_s']:.2f}x |"
        )
    return lines


def _scale_verdicts(rows: list[dict[str, Any]]) -> list[str]:
    lines = []
    at = next((row for row in rows if row["sites"] == SCALE_SITES), None)
    if at is not None:
        check, floor, extract = at["check"], at["floor"], at.get("extract")
        seconds, mb, ratio = check["median_s"], check["median_rss_mb"], check["median_s"] / floor["median_s"]
        lines += [
            f"- check at {SCALE_SITES:,} sites: {seconds:.2f} s CPU (target ≤ {SCALE_SECONDS} s: "
            f"{miss_by(seconds, SCALE_SECONDS)}), {ratio:.2f}x the floor of the same tree (target ≤ "
            f"{SCALE_FLOOR_RATIO:g}x: {miss_by(ratio, SCALE_FLOOR_RATIO)}), {mb:.0f} MB (target ≤ "
            f"{SCALE_MB:.0f} MB: {miss_by(mb, SCALE_MB)})",
        ]
        if extract:
            lines.append(
                f"- extract at {SCALE_SITES:,} sites: {extract['median_s']:.2f} s CPU (the earlier line ≤ "
                f"{EXTRACT_SECONDS:.0f} s: {miss_by(extract['median_s'], EXTRACT_SECONDS)}), "
                f"{extract['median_rss_mb']:.0f} MB"
            )
    exponent = growth_exponent(rows, "check")
    if exponent is None:
        lines.append("- check's growth: not measurable (the smaller runs are all startup)")
    else:
        lines.append(
            f"- check's time above the smallest run grows as sites^{exponent:.2f} between the two largest "
            "sizes "
            f"({rows[-2]['sites']:,} and {rows[-1]['sites']:,}; {_verdict(exponent <= LINEAR_EXPONENT)} "
            f"linear, k ≤ {LINEAR_EXPONENT})"
        )
    return lines


def _serve_section(serve: dict[str, Any]) -> list[str]:
    medians, ratio = serve["median_s"], serve["ratio"]
    lines = [
        "## mkdocs serve",
        "",
        "Wall time from saving a file to the served page showing the change (median of the edits;",
        "each edit's time in brackets):",
        "",
    ]
    lines += [f"- {name}: {value:.2f} s {serve['runs'][name]}" for name, value in medians.items()]
    lines += [
        "",
        f"backend edit / page edit without docgen: {ratio:.2f}x (target ≤ {SERVE_RATIO}x: "
        f"{miss_by(ratio, SERVE_RATIO)})",
        "",
    ]
    return lines


def _foreign_section(foreign: dict[str, Any]) -> list[str]:
    commands, ratio = foreign["commands"], foreign["ratio"]
    lines = [
        "## A server whose constructors come from installed dependencies",
        "",
        f"A FastAPI application written by `benchmarks/foreign.py`: {foreign['routes']} routes in",
        f"{foreign['router_modules']} router modules, a catalog each, `fastapi.HTTPException` as the",
        "constructor and statuses from `fastapi.status`, `starlette.status` and `http.HTTPStatus`, read from",
        f"the installed packages; the catalogs hold {foreign['entries']:,} entries. The floor is griffe",
        "loading the application's package alone (none of its dependencies).",
        "",
        "| command | CPU median | min | max | peak RSS | runs |",
        "|---|---|---|---|---|---|",
    ]
    for name, summary in commands.items():
        lines.append(
            f"| {name} | {summary['median_s']:.3f} s | {summary['min_s']:.3f} s | {summary['max_s']:.3f} s "
            f"| {summary['median_rss_mb']:.0f} MB | {summary['runs']} |"
        )
    verdict = miss_by(ratio, FOREIGN_FLOOR_RATIO)
    lines += ["", f"check / floor: {ratio:.2f}x (target ≤ {FOREIGN_FLOOR_RATIO:g}x: {verdict})"]
    if "libraries_ratio" in foreign:
        lines.append(f"(the floor with Jinja and PyYAML imported: {foreign['libraries_ratio']:.2f}x)")
    return [*lines, ""]


def _header(results: dict[str, Any]) -> list[str]:
    box = results["machine"]
    load = ", ".join(f"{value:.2f}" for value in box.get("load_average", [])) or "unknown"
    busy = []
    if box.get("load_average") and box["load_average"][0] > (box["cores"] or 1):
        busy = [
            "The machine was busy (a load above its core count: it is shared with other jobs), so wall",
            "times are long and noisy; CPU times and the ratios of interleaved runs are the figures to use.",
        ]
    uncompiled = results.get("uncompiled_modules", [])
    compiled = (
        "docgen's modules were byte-compiled, as make's install step leaves them."
        if not uncompiled
        else f"{len(uncompiled)} of docgen's modules were not byte-compiled (edited since install): each run "
        "compiled them, which the figures include."
    )
    return [
        "# Benchmark results",
        "",
        f"Measured by `{results['command']}` on {box['date']} at commit {box['commit']}.",
        "This file and `benchmarks/results.json` are written by that command. Each comparison runs its",
        "commands side by side: interleaved rounds, one process per run, medians of",
        f"{results['rounds']} rounds on this repository and of {results['scale_rounds']} at each scale",
        "(the largest size: one run), after a warm-up round. Times are CPU time (user + system) of each",
        "child unless they say wall; ratios vary less between machines than absolute times.",
        "Peak memory is the child's `ru_maxrss` in MB (10^6 bytes); it cannot read below the",
        f"{results['bench_process_rss_mb']} MB of the measuring process the child was forked from.",
        "",
        f"Machine: {box['cores']} cores, {box['memory_gib']} GiB, {box['cpu']}; Python {box['python']} "
        f"on {box['platform']}. Load average (1, 5, 15 min) when the run started: {load}.",
        *busy,
        compiled,
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
    if "serve" in results:
        lines += _serve_section(results["serve"])
    if "foreign" in results:
        lines += _foreign_section(results["foreign"])
    return "\n".join(lines) + "\n" + notes(results)


def notes(results: dict[str, Any]) -> str:
    """Where the time goes: benchmarks/notes.md, its numbers filled in from `results`."""
    repo_text, scale_text, *measured_by_hand = NOTES.read_text(encoding="utf-8").split("---\n")
    text = "## Where the time goes\n\n"
    if "repo" in results:
        text += repo_text.format(**_repo_figures(results["repo"]))
    rows = results.get("scale", {}).get("sizes", [])
    at = next((row for row in rows if row["sites"] == SCALE_SITES and "extract" in row), None)
    if at is not None:
        figures = {stage: at[stage]["median_s"] for stage in ("floor", "extract", "check")}
        largest = rows[-1]
        figures |= {"large_floor": largest["floor"]["median_s"], "large_check": largest["check"]["median_s"]}
        figures |= {"large_rss": largest["check"]["median_rss_mb"]}
        text += scale_text.format(sites=SCALE_SITES, large_sites=largest["sites"], **figures)
    return text + "".join(measured_by_hand)  # figures from other runs, kept as written


def _repo_figures(repo: dict[str, Any]) -> dict[str, float]:
    median = {name: summary["median_s"] for name, summary in repo["commands"].items()}
    floor, check, build = median["griffe floor"], median["docgen check"], median["mkdocs build"]
    libraries = median["floor + importing jinja2, yaml"]
    plain = median["mkdocs build without docgen"]
    check_cold = median["docgen check, no template cache"]
    build_cold = median["mkdocs build, no template cache"]
    peer = median.get("cog --check of the same table (peer)", float("nan"))
    return {
        "peer": peer,
        "peer_ratio": check / peer,
        "griffe_import": median.get("starting Python and importing griffe", float("nan")),
        "headroom": max(TARGETS["check / floor"] * floor - libraries, 0.0),
        "allowed": TARGETS["check / floor"] * floor,
        "target": TARGETS["check / floor"],
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
