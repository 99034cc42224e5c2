"""The benchmarked comparisons: this repository against its floors, and synthetic backends of growing size."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from benchmarks import peer
from benchmarks.timing import BenchmarkError, Command, Summary, interleave

REPO = Path(__file__).resolve().parent.parent
WORK = REPO / "benchmarks" / "work"
BIN = Path(sys.executable).parent
CACHE = WORK / "template-cache"
# Compiled templates are kept in a folder of the benchmark's own (warm after the warm-up round); the COLD runs
# compile every template afresh, as a CI runner that keeps no cache between jobs does.
ENV = {"NO_MKDOCS_2_WARNING": "1", "DOCGEN_CACHE_DIR": str(CACHE)}
COLD = {**ENV, "DOCGEN_NO_CACHE": "1"}
VERDICTS = WORK / "verdicts"
# The verdict cache (docgen/shell/verdicts.py): the warm-up run misses and, marked trusted, records the
# verdict; every measured run after it is a hit.
WARM = {**ENV, "DOCGEN_VERDICTS": str(VERDICTS), "DOCGEN_VERDICTS_RECORD": "1"}
FLOOR = 'import griffe; griffe.load("backend", search_paths=["."], allow_inspection=False)'
# The floor plus importing the libraries check cannot do without (templates, YAML): what is left between this
# and check is docgen's own work.
FLOOR_AND_LIBRARIES = f"import jinja2, yaml; {FLOOR}"
SIZES = (10, 100, 1_000, 10_000)
LAYOUT = ("--nested",)
"""The synthetic layout measured (issue 18): sites in the listed functions, in module helpers and in methods
called on new and local instances, every one of them extracted."""
LARGE = 100_000
"""`--large`: measured once (floor and check), to show the growth stays linear. Not in `make bench`:
generating a backend this large (extract, notes, render) takes over ten minutes on a busy 2-core machine."""


def without_docgen(config: str, docs_dir: Path) -> str:
    """mkdocs.yml without the docgen plugin entry, docs_dir made absolute (the copy lives in work/)."""
    lines, skip_deeper_than = [], None
    for line in config.splitlines(keepends=True):
        indent = len(line) - len(line.lstrip())
        if skip_deeper_than is not None and (not line.strip() or indent > skip_deeper_than):
            continue
        skip_deeper_than = None
        if re.match(r"\s*- docgen:?\s*$", line):
            skip_deeper_than = indent
            continue
        lines.append(line)
    text = "".join(lines)
    if re.search(r"^docs_dir:", text, flags=re.MULTILINE):
        return re.sub(r"^docs_dir:.*$", f"docs_dir: {docs_dir}", text, count=1, flags=re.MULTILINE)
    return f"docs_dir: {docs_dir}\n{text}"


IMPORT_NAME = "starting Python and importing griffe"
FLOOR_NAME = "griffe floor"
LIBRARIES_NAME = "floor + importing jinja2, yaml"
CHECK_NAME = "docgen check"
BUILD_NAME = "mkdocs build"
PLAIN_NAME = "mkdocs build without docgen"
CHECK_COLD_NAME = "docgen check, no template cache"
CHECK_WARM_NAME = "docgen check, verdict cached"
BUILD_COLD_NAME = "mkdocs build, no template cache"
PEER_NAME = "cog --check of the same table (peer)"


def repo_commands() -> list[Command]:
    """On this repository: the floor, `docgen check`, `mkdocs build` with and without the docgen plugin."""
    WORK.mkdir(parents=True, exist_ok=True)
    plain = WORK / "mkdocs-without-docgen.yml"
    config = (REPO / "mkdocs.yml").read_text(encoding="utf-8")
    plain.write_text(without_docgen(config, REPO / "docs"), encoding="utf-8")
    if "docgen" in plain.read_text(encoding="utf-8").split("plugins:", 1)[-1]:
        raise RuntimeError(f"{plain}: the docgen plugin entry was not removed")
    build = ["build", "--quiet", "-d", str(WORK / "site")]
    plain_build = ["build", "--quiet", "-f", str(plain), "-d", str(WORK / "site-without-docgen")]
    python = sys.executable
    cog_page = peer.prepare(REPO, WORK, BIN / "cog")
    return [
        Command(IMPORT_NAME, (python, "-c", "import griffe"), REPO, ENV),
        Command(FLOOR_NAME, (python, "-c", FLOOR), REPO, ENV),
        Command(LIBRARIES_NAME, (python, "-c", FLOOR_AND_LIBRARIES), REPO, ENV),
        # check exits 1 when it finds drift; that is a complete run too (the working tree may be mid-change).
        Command(CHECK_NAME, (str(BIN / "docgen"), "check"), REPO, ENV, frozenset({0, 1})),
        Command(CHECK_COLD_NAME, (str(BIN / "docgen"), "check"), REPO, COLD, frozenset({0, 1})),
        Command(CHECK_WARM_NAME, (str(BIN / "docgen"), "check"), REPO, WARM, frozenset({0, 1})),
        Command(BUILD_NAME, (str(BIN / "mkdocs"), *build), REPO, ENV),
        Command(BUILD_COLD_NAME, (str(BIN / "mkdocs"), *build), REPO, COLD),
        Command(PLAIN_NAME, (str(BIN / "mkdocs"), *plain_build), REPO, ENV),
        Command(PEER_NAME, (str(BIN / "cog"), "--check", str(cog_page)), REPO, ENV),
    ]


def repo_benchmark(rounds: int) -> dict[str, Any]:
    """The three comparisons on this repository, all measured in the same interleaved rounds."""
    results = interleave(repo_commands(), rounds)
    return {
        "commands": {name: summary.as_dict() for name, summary in results.items()},
        "ratios": repo_ratios({name: summary.median_s for name, summary in results.items()}),
    }


def repo_ratios(cost: Mapping[str, float]) -> dict[str, float]:
    """The comparisons on this repository, from one figure per command (CPU time, or instructions); the
    verdict cache's row where its command was measured."""
    warm = (
        {"check / floor, verdict cached": cost[CHECK_WARM_NAME] / cost[FLOOR_NAME]}
        if CHECK_WARM_NAME in cost
        else {}
    )
    return {
        "check / floor": cost[CHECK_NAME] / cost[FLOOR_NAME],
        "check / floor, no template cache": cost[CHECK_COLD_NAME] / cost[FLOOR_NAME],
        **warm,
        "check / mkdocs build": cost[CHECK_NAME] / cost[BUILD_NAME],
        "check / mkdocs build, no template cache": cost[CHECK_COLD_NAME] / cost[BUILD_COLD_NAME],
        "build with docgen / without": cost[BUILD_NAME] / cost[PLAIN_NAME],
        "build with docgen / without, no template cache": cost[BUILD_COLD_NAME] / cost[PLAIN_NAME],
        "check / cog --check (peer)": cost[CHECK_NAME] / cost[PEER_NAME],
    }


def generate_synthetic(size: int) -> Path:
    """Write the synthetic project with `size` error sites under work/ (in a child process: this one must stay
    small, as each child's ru_maxrss starts from the size of the process it was forked from)."""
    root = WORK / f"scale-{size}"
    print(f"bench: generating a backend with {size} error sites in {root}", file=sys.stderr)
    generate = [sys.executable, "-m", "benchmarks.synthetic", *LAYOUT, str(size), str(root)]
    if subprocess.run(generate, cwd=REPO, check=False).returncode != 0:
        raise BenchmarkError(f"cannot generate the backend with {size} sites: {' '.join(generate)}")
    (WORK / f"scale-{size}.ready").touch()
    return root


def ensure_synthetic(size: int) -> Path:
    """The synthetic project of `size` sites, generated unless an earlier run left it complete."""
    root = WORK / f"scale-{size}"
    ready = WORK / f"scale-{size}.ready"
    if ready.exists() and root.is_dir():
        return root
    return generate_synthetic(size)


COUNT_ENTRIES = """\
import pathlib, sys, yaml
paths = sorted(pathlib.Path(sys.argv[1], "data").glob(sys.argv[2]))
catalogs = [yaml.load(p.read_text("utf-8"), yaml.CSafeLoader) for p in paths if ".notes." not in p.name]
print(sum(len(catalog["entries"]) for catalog in catalogs))
"""


def catalog_entries(root: Path, pattern: str = "h*.yaml") -> int:
    """How many entries the catalogs (`data/<pattern>`) of the generated project at `root` hold: what each
    timed `docgen check` (all exit 0) found the source to match. Counted in a child, to keep this process
    small."""
    argv = [sys.executable, "-c", COUNT_ENTRIES, str(root), pattern]
    counted = subprocess.run(argv, capture_output=True, text=True, check=False)
    if counted.returncode != 0 or not counted.stdout.strip().isdigit():
        raise BenchmarkError(f"cannot count the catalog entries of {root}: {counted.stderr[-2000:]}")
    return int(counted.stdout)


def scale_commands(
    sizes: Sequence[int], stages: Sequence[str] = ("floor", "extract", "check")
) -> list[Command]:
    """Per size: the floor (griffe loads the synthetic package), `docgen extract` and `docgen check`."""
    commands = []
    for size in sizes:
        root = generate_synthetic(size)
        argv = {
            "floor": (sys.executable, "-c", FLOOR),
            "extract": (str(BIN / "docgen"), "extract"),
            "check": (str(BIN / "docgen"), "check"),
        }
        commands += [Command(f"{stage} {size}", argv[stage], root, ENV) for stage in stages]
    return commands


def scale_benchmark(sizes: Sequence[int], rounds: int, *, large: int | None = None) -> dict[str, Any]:
    """Time and peak memory of extract and check at each size, all sizes interleaved; then `large` sites
    once each (no warm-up round: the generation that precedes it has just run the same code)."""
    results = interleave(scale_commands(sizes), rounds)
    if large is not None:
        # extract has just run on it while generating it; floor and check are what the targets are about.
        results.update(interleave(scale_commands([large], ("floor", "check")), 1, warmup=0))
    rows = []
    for size in [*sizes, *([large] if large is not None else [])]:
        row: dict[str, Any] = {"sites": size, "entries": catalog_entries(WORK / f"scale-{size}")}
        for stage in ("floor", "extract", "check"):
            summary: Summary | None = results.get(f"{stage} {size}")
            if summary is not None:
                row[stage] = summary.as_dict()
        rows.append(row)
    return {"sizes": rows}


FOREIGN_ROOT = WORK / "foreign"
"""Where `benchmarks/foreign.py` writes the FastAPI application."""
FOREIGN_PACKAGE = "storefront"
FOREIGN_FLOOR = f'import griffe; griffe.load("{FOREIGN_PACKAGE}", search_paths=["."], allow_inspection=False)'
"""griffe loading only the scanned package of the FastAPI application, none of its dependencies."""
FOREIGN_FLOOR_NAME = "griffe floor of the FastAPI app"
FOREIGN_LIBRARIES_NAME = "that floor + importing jinja2, yaml"
FOREIGN_CHECK_NAME = "docgen check of the FastAPI app"


def foreign_commands() -> list[Command]:
    """The generated FastAPI application (benchmarks/foreign.py, written afresh): griffe loading its package
    alone, that with Jinja and PyYAML imported, and `docgen check`."""
    root = FOREIGN_ROOT
    print(f"bench: generating the FastAPI application in {root}", file=sys.stderr)
    generate = [sys.executable, "-m", "benchmarks.foreign", str(root)]
    if subprocess.run(generate, cwd=REPO, check=False).returncode != 0:
        raise BenchmarkError(f"cannot generate the FastAPI application: {' '.join(generate)}")
    return [
        Command(FOREIGN_FLOOR_NAME, (sys.executable, "-c", FOREIGN_FLOOR), root, ENV),
        Command(
            FOREIGN_LIBRARIES_NAME, (sys.executable, "-c", f"import jinja2, yaml; {FOREIGN_FLOOR}"), root, ENV
        ),
        Command(FOREIGN_CHECK_NAME, (str(BIN / "docgen"), "check"), root, ENV),
    ]


def foreign_benchmark(rounds: int) -> dict[str, Any]:
    """`docgen check` of the generated FastAPI application against griffe loading its package alone,
    interleaved."""
    root = FOREIGN_ROOT
    results = interleave(foreign_commands(), rounds)
    check, floor = results[FOREIGN_CHECK_NAME], results[FOREIGN_FLOOR_NAME]
    modules = sorted(path.stem for path in (root / FOREIGN_PACKAGE / "routes").glob("r*.py"))
    return {
        "commands": {name: summary.as_dict() for name, summary in results.items()},
        "ratio": check.median_s / floor.median_s,
        "libraries_ratio": results[FOREIGN_LIBRARIES_NAME].median_s / floor.median_s,
        "router_modules": len(modules),
        "routes": sum(
            (root / FOREIGN_PACKAGE / "routes" / f"{m}.py").read_text(encoding="utf-8").count("@router.")
            for m in modules
        ),
        "entries": catalog_entries(root, "r*.yaml"),
    }
