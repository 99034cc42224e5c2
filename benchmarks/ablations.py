"""What each cache and special path of docgen buys: the command it serves, run with it and without it.

    .venv/bin/python -m benchmarks.ablations                 # this repository and 10,000 sites, 10 pairs each
    .venv/bin/python -m benchmarks.ablations --rounds 5 --only gc-pause schema-check

Each special path is turned off in the benchmarked process itself, by replacing the one function that holds
it (or by the environment variable docgen already reads), so the code measured is the code shipped. Both
sides of a pair run through `python -m benchmarks.ablations run`, so the wrapper costs them alike. The pairs
are interleaved, and the figure is the median of the per-pair ratios of CPU time (user + system).
The figures go to benchmarks/work/ablations.json; the verdicts are recorded by hand in benchmarks/notes.md.
This is not part of `make bench`.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.scenarios import ENV, REPO, WORK, ensure_synthetic
from benchmarks.timing import Command, run_once

KEEP_AT = 0.05
"""A special path stays when turning it off costs at least this share of the command it serves."""

# Code run before docgen's CLI to turn one special path off.
_PATCHES = {
    "schema-check": "import docgen.core.schemas as m; m._conforms = lambda name: (lambda data: False)",
    "yaml-plain-loader": (
        "import docgen.core.yamlio as m\n"
        "def _plain(node, loader, depth): raise m._NotPlain\n"
        "m._plain = _plain"
    ),
    "yaml-node-builder": (
        "import docgen.core.yamlio as m\n"
        "m.yamlnodes.represent = lambda dumper, data: dumper.represent_data(data)"
    ),
    "gc-pause": "import contextlib, docgen.shell.cli as m\nm._collector_paused = contextlib.nullcontext",
    "citation-tree-reuse": (
        "import docgen.core.symbols as m\nm.SourceFiles.adopt = lambda self, trees: None"
    ),
    "yaml-parse-cache": (
        "import docgen.core.yaml_cache as m\n"
        "m.get = lambda text, variant: None\n"
        "m.put = lambda text, variant, data, loader: None"
    ),
    "identity-fast-path": (
        "import docgen.extract.identity as m; m._unchanged = lambda sites, previous: False"
    ),
}
# extract of a backend whose catalogs all change: every catalog is dumped (the node builder's command).
_DUMP_EVERY_CATALOG = (
    "import docgen.extract.pipeline as p\np._catalog_text = lambda data, committed: p.dump_catalog(data)"
)


@dataclass(frozen=True)
class Ablation:
    """One special path turned off, and the command it serves."""

    name: str
    command: str
    patch: str = ""
    env: dict[str, str] = field(default_factory=dict)
    base_patch: str = ""
    """Applied on both sides: puts the command in the state the special path is for."""


ABLATIONS = (
    Ablation("template-cache", "check", env={"DOCGEN_NO_CACHE": "1"}),
    Ablation("schema-check", "check", _PATCHES["schema-check"]),
    Ablation("yaml-plain-loader", "check", _PATCHES["yaml-plain-loader"]),
    Ablation("yaml-node-builder", "extract", _PATCHES["yaml-node-builder"], base_patch=_DUMP_EVERY_CATALOG),
    Ablation("gc-pause", "check", _PATCHES["gc-pause"]),
    Ablation("citation-tree-reuse", "check", _PATCHES["citation-tree-reuse"]),
    Ablation("identity-fast-path", "check", _PATCHES["identity-fast-path"]),
    Ablation("yaml-parse-cache", "check", _PATCHES["yaml-parse-cache"]),
)


def _runner(root: Path, ablation: Ablation, patch: str) -> tuple[str, ...]:
    code = "\n".join(part for part in (ablation.base_patch, patch) if part)
    return (sys.executable, "-m", "benchmarks.ablations", "run", "--patch", code, "--", ablation.command)


def measure(ablation: Ablation, root: Path, rounds: int) -> dict[str, float]:
    """Median CPU seconds with and without the special path, and the median of the per-pair ratios."""
    env = {**ENV, "PYTHONPATH": str(REPO)}
    on = Command(f"{ablation.name} on", _runner(root, ablation, ""), root, env, frozenset({0, 1}))
    off_env = {**env, **ablation.env}
    off_argv = _runner(root, ablation, ablation.patch)
    off = Command(f"{ablation.name} off", off_argv, root, off_env, frozenset({0, 1}))
    run_once(on), run_once(off)  # warm-up: the template cache and the page cache
    with_path, without_path = [], []
    for number in range(rounds):
        first, second = (on, off) if number % 2 == 0 else (off, on)
        times = {first.name: run_once(first).cpu_s, second.name: run_once(second).cpu_s}
        with_path.append(times[on.name])
        without_path.append(times[off.name])
    ratios = [without / with_ for without, with_ in zip(without_path, with_path, strict=True)]
    return {
        "with_s": round(statistics.median(with_path), 4),
        "without_s": round(statistics.median(without_path), 4),
        "ratio": round(statistics.median(ratios), 4),
    }


def _run(argv: Sequence[str]) -> int:
    """`run --patch CODE -- ARGS`: apply CODE, then docgen ARGS in this process (cwd = the project)."""
    parser = argparse.ArgumentParser(prog="benchmarks.ablations run")
    parser.add_argument("--patch", default="")
    parser.add_argument("args", nargs=argparse.REMAINDER)
    args = parser.parse_args(argv)
    exec(args.patch, {})  # the benchmark's own code, written above
    from docgen.shell.cli import main  # noqa: PLC0415 - after the patch, as the CLI would import it

    return main([arg for arg in args.args if arg != "--"])


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] == ["run"]:
        return _run(args[1:])
    parser = argparse.ArgumentParser(prog="benchmarks.ablations", description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--sites", type=int, default=10_000)
    parser.add_argument("--only", nargs="+", choices=[ablation.name for ablation in ABLATIONS])
    parser.add_argument("--where", nargs="+", choices=("repo", "scale"), default=["repo", "scale"])
    options = parser.parse_args(args)
    roots = {"repo": REPO, "scale": ensure_synthetic(options.sites)}
    results: dict[str, dict[str, object]] = {}
    for ablation in ABLATIONS:
        if options.only and ablation.name not in options.only:
            continue
        for where in options.where:
            figures = measure(ablation, roots[where], options.rounds)
            verdict = "keep" if figures["ratio"] - 1 >= KEEP_AT else "remove"
            results.setdefault(ablation.name, {})[where] = {**figures, "verdict": verdict}
            print(
                f"{ablation.name:22} {where:5} docgen {ablation.command}: with {figures['with_s']:.3f} s, "
                f"without {figures['without_s']:.3f} s, without/with {figures['ratio']:.3f} ({verdict})",
                flush=True,
            )
    WORK.mkdir(parents=True, exist_ok=True)
    out = WORK / "ablations.json"
    previous = json.loads(out.read_text(encoding="utf-8")) if out.exists() else {}
    for name, places in results.items():
        previous.setdefault(name, {}).update(places)
    out.write_text(json.dumps(previous, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")
    sys.exit(main())
