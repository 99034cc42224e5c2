"""`make bench`: measure docgen against its floors and at scale; write results.json and RESULTS.md.

.venv/bin/python benchmarks/run.py                      # everything (a few minutes)
.venv/bin/python benchmarks/run.py --quick              # a smoke run, written under benchmarks/work/
.venv/bin/python benchmarks/run.py --only scale --sizes 10 1000
.venv/bin/python benchmarks/run.py --only foreign --rounds 3    # the FastAPI application only
"""

from __future__ import annotations

import argparse
import importlib.util
import resource
import sys
from collections.abc import Sequence
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks import report, scenarios, serve
from benchmarks.timing import BenchmarkError

HERE = Path(__file__).resolve().parent


def parse(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="benchmarks/run.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=8, help="rounds on this repository (default 8)")
    parser.add_argument("--scale-rounds", type=int, default=3, help="rounds at each size (default 3)")
    parser.add_argument("--sizes", type=int, nargs="+", default=list(scenarios.SIZES), help="error sites")
    parser.add_argument(
        "--large",
        type=int,
        default=0,
        help=f"also measure this many sites once (e.g. {scenarios.LARGE}; over ten minutes to generate)",
    )
    parser.add_argument(
        "--serve-rounds", type=int, default=10, help="edits of each kind under mkdocs serve (default 10)"
    )
    parser.add_argument(
        "--only", choices=("repo", "scale", "serve", "foreign"), help="run one group of comparisons"
    )
    parser.add_argument("--quick", action="store_true", help="3 rounds, sizes up to 1,000, no large size")
    parser.add_argument("--output", type=Path, help="where to write (default: benchmarks/ for a full run)")
    args = parser.parse_args(argv)
    if args.quick:
        args.rounds, args.scale_rounds, args.large, args.serve_rounds = 3, 3, 0, 1
        args.sizes = [size for size in args.sizes if size <= 1_000]
    if args.output is None:  # only a full run replaces the committed results
        full = (
            not args.quick
            and not args.only
            and sorted(args.sizes) == list(scenarios.SIZES)
            and not args.large
        )
        args.output = HERE if full else scenarios.WORK
    return args


def uncompiled_modules(package: Path) -> list[str]:
    """docgen's modules whose compiled file is missing or older than the source (each run compiles those)."""
    stale = []
    for source in sorted(package.rglob("*.py")):
        compiled = Path(importlib.util.cache_from_source(str(source)))
        if not compiled.exists() or compiled.stat().st_mtime < source.stat().st_mtime:
            stale.append(source.relative_to(package.parent).as_posix())
    return stale


def main(argv: Sequence[str] | None = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    args = parse(arguments)
    results: dict[str, object] = {
        "command": " ".join([".venv/bin/python benchmarks/run.py", *arguments])
        if arguments
        else "make bench",
        "rounds": args.rounds,
        "scale_rounds": args.scale_rounds,
        "machine": report.machine(scenarios.REPO),
    }
    # docgen is measured as installed (make's install step compiles its modules once); nothing is compiled
    # here that a user's install would not have compiled. The report says when modules were not compiled.
    results["uncompiled_modules"] = uncompiled_modules(scenarios.REPO / "docgen")
    try:
        if args.only in (None, "repo"):
            print(f"bench: this repository, {args.rounds} interleaved rounds", file=sys.stderr)
            results["repo"] = scenarios.repo_benchmark(args.rounds)
        if args.only in (None, "scale"):
            large = args.large or None
            results["scale"] = scenarios.scale_benchmark(sorted(args.sizes), args.scale_rounds, large=large)
        if args.only in (None, "foreign"):
            print(f"bench: a FastAPI application, {args.rounds} interleaved rounds", file=sys.stderr)
            results["foreign"] = scenarios.foreign_benchmark(args.rounds)
        if args.only in (None, "serve"):
            print(f"bench: mkdocs serve, {args.serve_rounds} edit(s) of each kind", file=sys.stderr)
            results["serve"] = serve.serve_benchmark(args.serve_rounds)
    except BenchmarkError as error:
        print(f"bench: {error}", file=sys.stderr)
        return 1
    # A child's ru_maxrss counts this process's size when it was forked: record it, to show it is small.
    own_peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    results["bench_process_rss_mb"] = round(own_peak * 1024 / 1e6, 1)
    report.write(args.output, results, report.render(results), markdown="RESULTS.md", data="results.json")
    return 0


if __name__ == "__main__":
    sys.exit(main())
