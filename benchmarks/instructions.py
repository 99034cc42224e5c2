"""`make bench-instructions`: `make bench`'s comparisons counted in instructions, not CPU time.

CPU time on a small shared machine moves by a fifth between two runs of the same code: more than the few
per cent by which a change moves the plugin's ratios, so two `make bench` runs cannot say which of two
commits is faster there. Valgrind's callgrind counts the instructions a process runs; with Python's hash
seed fixed, the count of the same command on the same files repeats (to the instruction, in the same
environment; another environment or working directory moves it by a few in a hundred thousand). This
counts each of `make bench`'s commands on this repository once (after one plain run of each, so the
template cache is as warm as in `make bench`) and writes the same ratios from the counts; then check
against its floor at 10,000 synthetic error sites and on the generated FastAPI application, as `make bench`
measures them (serving and memory are timed by `make bench` alone).

It is slow: a command runs some fifty times slower under callgrind (about ten minutes in all on two cores,
half of it the 10,000-site check), which is why `make bench` does not do it. Only the process itself is
counted, not the children it starts. Valgrind is not a Python package: install it with the system's package
manager (Debian: `valgrind`).

.venv/bin/python benchmarks/instructions.py                  # writes INSTRUCTIONS.md and instructions.json
.venv/bin/python benchmarks/instructions.py --output DIR     # somewhere else
.venv/bin/python benchmarks/instructions.py --only repo      # this repository's commands alone
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks import report, scenarios
from benchmarks.run import uncompiled_modules
from benchmarks.timing import BenchmarkError, Command, run_once

HERE = Path(__file__).resolve().parent
HASH_SEED = "0"
"""Fixed, so that set and dict orders, and the work that depends on them, are the same in every run."""
_REFS = re.compile(r"^==\d+== I\s+refs:\s+([\d,]+)\s*$", re.MULTILINE)


def instructions_in(valgrind_output: str) -> int:
    """The instruction count callgrind reports on its standard error ("I refs")."""
    found = _REFS.search(valgrind_output)
    if found is None:
        raise BenchmarkError("callgrind printed no instruction count (no `I refs:` line)")
    return int(found.group(1).replace(",", ""))


def count(command: Command, valgrind: str) -> int:
    """The instructions of one run of `command` under callgrind; its exit code checked as in `make bench`."""
    argv = [valgrind, "--tool=callgrind", "--callgrind-out-file=/dev/null", *command.argv]
    env = {**os.environ, **command.env, "PYTHONHASHSEED": HASH_SEED}
    with tempfile.TemporaryFile() as errors:
        done = subprocess.run(
            argv, cwd=command.cwd, env=env, stdout=subprocess.DEVNULL, stderr=errors, check=False
        )
        errors.seek(0)
        output = errors.read().decode("utf-8", "replace")
    if done.returncode not in command.exit_codes:
        tail = "\n".join(output.splitlines()[-15:])
        raise BenchmarkError(f"{command.name} exited {done.returncode} under valgrind:\n{tail}")
    return instructions_in(output)


def count_all(commands: Sequence[Command], valgrind: str, workers: int) -> dict[str, int]:
    """Each command counted once, `workers` at a time (a count does not depend on what else runs)."""
    for command in commands:  # fills the template cache the warm commands read, as make bench's warm-up does
        run_once(command)
    with ThreadPoolExecutor(max_workers=workers) as pool:
        counts = pool.map(lambda command: count(command, valgrind), commands)
        return {command.name: counted for command, counted in zip(commands, counts, strict=True)}


def render(results: Mapping[str, Any]) -> str:
    """INSTRUCTIONS.md: the ratios from the counts, then each command's count."""
    where = results["machine"]
    lines = [
        "# Instruction counts",
        "",
        f"Measured by `make bench-instructions` on {where['date']} at commit {where['commit']}, with",
        f"{results['valgrind']} (callgrind), Python {where['python']}, `PYTHONHASHSEED={HASH_SEED}`: one run",
        "of each command after a plain run of each. The counts repeat from run to run, so two commits can be",
        "compared ratio by ratio; the CPU-time figures and the targets are in RESULTS.md.",
        "",
    ]
    if results["uncompiled_modules"]:
        lines += ["docgen's modules were **not all byte-compiled**: their counts include compiling them.", ""]
    lines += ["| comparison | ratio of instructions | target | |", "|---|---|---|---|"]
    for name, ratio in results["ratios"].items():
        target = report.target_of(name)
        verdict = (
            ("none (context)", "") if target is None else (f"≤ {target:.2f}x", report.miss_by(ratio, target))
        )
        lines.append(f"| {name} | {ratio:.3f}x | {verdict[0]} | {verdict[1]} |")
    lines += ["", "| command | instructions |", "|---|---|"]
    lines += [f"| {name} | {counted:,} |" for name, counted in results["instructions"].items()]
    return "\n".join(lines) + "\n"


def parse(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="benchmarks/instructions.py", description=(__doc__ or "").split("\n\n")[0]
    )
    parser.add_argument("--output", type=Path, default=HERE, help="where to write (default: benchmarks/)")
    parser.add_argument(
        "--workers", type=int, default=os.cpu_count() or 1, help="commands counted at once (default: cores)"
    )
    parser.add_argument(
        "--only", choices=("repo",), help="count this repository's commands alone (about half the time)"
    )
    return parser.parse_args(argv)


def other_commands() -> list[Command]:
    """Beyond this repository: the floor and check at `report.SCALE_SITES` synthetic sites, and the FastAPI
    application's floor, that floor with the libraries, and its check."""
    scale = scenarios.scale_commands([report.SCALE_SITES], ("floor", "check"))
    return [*scale, *scenarios.foreign_commands()]


def other_ratios(counts: Mapping[str, int]) -> dict[str, float]:
    """check against its floor at scale and on the FastAPI application, from `other_commands`' counts."""
    sites = report.SCALE_SITES
    return {
        report.SCALE_COMPARISON: counts[f"check {sites}"] / counts[f"floor {sites}"],
        report.FOREIGN_COMPARISON: counts[scenarios.FOREIGN_CHECK_NAME]
        / counts[scenarios.FOREIGN_FLOOR_NAME],
    }


def main(argv: Sequence[str] | None = None) -> int:
    args = parse(argv)
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        print(
            "bench: valgrind is not installed; install it with the system's package manager "
            "(Debian: apt install valgrind), or use `make bench` for CPU time",
            file=sys.stderr,
        )
        return 2
    version = subprocess.run([valgrind, "--version"], capture_output=True, text=True, check=False)
    results: dict[str, Any] = {
        "machine": report.machine(scenarios.REPO),
        "valgrind": version.stdout.strip() or "valgrind",
        "uncompiled_modules": uncompiled_modules(scenarios.REPO / "docgen"),
    }
    print(f"bench: counting instructions, {args.workers} command(s) at a time", file=sys.stderr)
    workers = max(1, args.workers)
    try:
        counts = count_all(scenarios.repo_commands(), valgrind, workers)
        ratios = scenarios.repo_ratios(counts)
        if args.only is None:
            others = count_all(other_commands(), valgrind, workers)
            counts, ratios = {**counts, **others}, {**ratios, **other_ratios(others)}
    except BenchmarkError as error:
        print(f"bench: {error}", file=sys.stderr)
        return 1
    results["instructions"], results["ratios"] = counts, ratios
    report.write(args.output, results, render(results), markdown="INSTRUCTIONS.md", data="instructions.json")
    return 0


if __name__ == "__main__":
    sys.exit(main())
