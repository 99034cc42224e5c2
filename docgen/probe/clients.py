"""The official clients' half of `docgen probe`: every example through the Python and TypeScript SDKs.

Each example becomes a client action (`docgen.examples.client_calls`); the runners in `clients/` (the
Python SDK in each connect mode, the TypeScript SDK with Node) take all their actions in one process each and
print one outcome per line: the exception (class, code, message), the result (`isError` and text), or that the
client would not send the request. A runner that cannot run here (no Node, no Node packages, no Python SDK)
stops probe before anything runs, naming what is missing, unless the user skips its clients by name
(`--skip-client`); their previous outcomes are then kept (`docgen.probe.kept`).
"""

from __future__ import annotations

import importlib.util
import json
import re
import shutil
import socket
import subprocess
import sys
import tempfile
from collections.abc import Callable, Collection, Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractContextManager, ExitStack, nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from docgen.core.errors import ConfigError
from docgen.core.evidence import RECORDED, Evidence
from docgen.core.records import record
from docgen.examples.client_calls import (
    CLIENT_NAMES,
    PYTHON_MODES,
    RUNNERS_ROOT,
    TYPESCRIPT,
    TYPESCRIPT_MODES,
    ClientCall,
    client_call,
)
from docgen.examples.requests import Example
from docgen.probe.servers import uvicorn_server

MIN_NODE_MAJOR = 20
RUNNER_SECONDS_PER_ACTION = 60
CLIENT_FIELDS = ("client", "mode")
"""Fields of an outcome that say which client ran: they go to the evidence's `clients`, not to each cell."""

PYTHON = "python"
RUNNER_MODES = {PYTHON: PYTHON_MODES, TYPESCRIPT: TYPESCRIPT_MODES}
RUNNER_CLIENTS = {name: tuple(f"{name}-{mode}" for mode in modes) for name, modes in RUNNER_MODES.items()}
"""The runners by the name `--skip-client` takes, and the clients each plays: the Python SDK in both connect
modes, the TypeScript runner with the 2.x client (2026-07-28) and the 1.x SDK (legacy sessions)."""
NODE_PACKAGES = ("@modelcontextprotocol/client", "@modelcontextprotocol/sdk")
"""The Node packages of the TypeScript clients, one per mode."""
INSTALL = {
    PYTHON: "install the Python SDK with `make .venv/.installed` (pip install -r requirements/dev.txt, which "
    "pins mcp)",
    TYPESCRIPT: "install Node.js 20+ with npm, then run `make node-packages`, which installs the pinned Node "
    "packages (npm ci in clients/, exactly as clients/package-lock.json records them, no install scripts)",
}
"""How to install what each runner needs, as the error that stops probe says it."""

Servers = Callable[[str], AbstractContextManager[str]]
"""Given a name for its log, a server for one client's batch; entering it yields the MCP endpoint URL."""


@record
class Runner:
    """One runner process: an official SDK's language, and the clients it plays (a name and its mode)."""

    name: str
    command: tuple[str, ...]
    clients: tuple[tuple[str, str], ...]


@dataclass
class ClientRun:
    """What every client surfaced: `outcomes[entry][client]`, and which clients ran, with their versions."""

    clients: dict[str, dict[str, str]] = field(default_factory=dict)
    outcomes: dict[str, dict[str, dict[str, Any]]] = field(default_factory=dict)
    skipped: list[str] = field(default_factory=list)
    """One sentence per client or example left out, saying why."""


def node_problem(root: Path = RUNNERS_ROOT) -> str | None:
    """What the TypeScript client lacks here, or None when it can run."""
    node = shutil.which("node")
    if node is None:
        return "node is not on the PATH"
    done = subprocess.run([node, "--version"], capture_output=True, text=True, timeout=30, check=False)
    match = re.match(r"v(\d+)\.", done.stdout)
    if not match or int(match.group(1)) < MIN_NODE_MAJOR:
        return f"node {done.stdout.strip() or '?'} is older than {MIN_NODE_MAJOR}"
    for package in NODE_PACKAGES:
        if not (root / "clients" / "node_modules" / package).is_dir():
            return f"the Node packages are not installed (clients/node_modules/{package} is absent)"
    return None


def python_problem() -> str | None:
    """What the Python client lacks here, or None when it can run."""
    if importlib.util.find_spec("mcp") is None:
        return f"the Python package mcp (the official Python SDK) is not installed for {sys.executable}"
    return None


def _problem(runner: str, root: Path) -> str | None:
    return python_problem() if runner == PYTHON else node_problem(root)


def runners(skip: Collection[str] = (), root: Path = RUNNERS_ROOT) -> list[Runner]:
    """The runners of every client not skipped by name; a configuration error, naming what is missing and
    the two ways out, when one of them cannot run here."""
    wanted = [name for name in RUNNER_CLIENTS if name not in skip]
    if wanted and not (root / "clients" / "python_client.py").is_file():
        raise ConfigError(
            "clients/python_client.py is missing: the official clients' runners live in clients/",
            hint="install docgen from its checkout (pip install -e .), which carries clients/",
        )
    problems = {name: problem for name in wanted if (problem := _problem(name, root))}
    if problems:
        one = len(problems) == 1
        raise ConfigError(
            "; ".join(f"the official {name} client cannot run here: {why}" for name, why in problems.items())
            + "; nothing was run or written",
            hint=f"either {'; and '.join(INSTALL[name] for name in problems)}; or leave "
            f"{'it' if one else 'them'} out with {' '.join(f'`--skip-client {name}`' for name in problems)}, "
            f"and the evidence keeps {'its' if one else 'their'} earlier outcomes, each with its date",
        )
    commands = {
        PYTHON: (sys.executable, "-m", "clients.python_client"),
        TYPESCRIPT: (shutil.which("node") or "node", str(root / "clients" / "ts_client.mjs")),
    }
    return [
        Runner(name, commands[name], tuple((f"{name}-{mode}", mode) for mode in RUNNER_MODES[name]))
        for name in wanted
    ]


def observe_clients(
    calls: Mapping[str, ClientCall], servers: Servers, *, own_servers: bool, found: list[Runner]
) -> ClientRun:
    """Run every call with the clients of the runners `found` (see `runners`).

    With `own_servers`, each client gets a server for its ordinary calls and one more per call that repeats
    (so each starts with the whole rate-limit budget); otherwise every client shares the one server `servers`
    gives, and the repeating calls are left out, since their count would depend on what ran before.
    """
    run = ClientRun()
    runnable = {entry: call for entry, call in calls.items() if call.runs}
    if not own_servers:
        repeating = sorted(entry for entry, call in runnable.items() if "repeat" in call.action)
        if repeating:
            run.skipped.append(
                f"{', '.join(repeating)}: not run by the clients against --url (each needs a fresh "
                "rate-limit budget); probe with --app to record them"
            )
        runnable = {entry: call for entry, call in runnable.items() if entry not in repeating}
    results = []
    if found:
        with ThreadPoolExecutor(max_workers=len(found)) as pool:
            batches = [pool.submit(_run_batch, r, runnable, servers, own_servers) for r in found]
            results = [outcome for future in batches for outcome in future.result()]
    for (entry, name), outcome in sorted(results, key=lambda item: CLIENT_NAMES.index(item[0][1])):
        run.clients.setdefault(name, _client_of(outcome))
        run.outcomes.setdefault(entry, {})[name] = {
            key: value for key, value in outcome.items() if key not in CLIENT_FIELDS
        }
    for entry, call in calls.items():
        if call.cannot is not None and found:
            cell = {"outcome": "cannot-produce", "why": call.cannot}
            run.outcomes[entry] = {name: dict(cell) for r in found for name, _mode in r.clients}
    return run


def _client_of(outcome: Mapping[str, Any]) -> dict[str, str]:
    client = {str(key): str(value) for key, value in outcome["client"].items()}
    return {**client, "mode": str(outcome["mode"])} if "mode" in outcome else client


def _groups(calls: Mapping[str, ClientCall], own_servers: bool) -> Iterator[list[str]]:
    """Entry ids by the server they run on: the ordinary calls together, each repeating call alone."""
    ordinary = [entry for entry, call in calls.items() if not own_servers or "repeat" not in call.action]
    if ordinary:
        yield ordinary
    yield from ([entry] for entry in calls if entry not in ordinary)


def _run_batch(
    runner: Runner, calls: Mapping[str, ClientCall], servers: Servers, own_servers: bool
) -> list[tuple[tuple[str, str], dict[str, Any]]]:
    """All actions of the clients one runner plays, in one process: ((entry id, client), outcome) pairs."""
    order: list[tuple[str, str]] = []
    actions: list[dict[str, Any]] = []
    with ExitStack() as stack:
        shared = None if own_servers else stack.enter_context(servers(runner.name))
        for client, mode in runner.clients:
            for number, group in enumerate(_groups(calls, own_servers)):
                url = shared or stack.enter_context(servers(f"{client}-{number}"))
                for entry in group:
                    actions.append({"url": url, **calls[entry].action, "mode": mode})
                    order.append((entry, client))
        if not actions:
            return []
        lines = _execute(runner, actions)
    return list(zip(order, lines, strict=True))


def _execute(runner: Runner, actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    try:
        done = subprocess.run(
            runner.command,
            input=json.dumps(actions),
            capture_output=True,
            text=True,
            cwd=RUNNERS_ROOT,
            timeout=RUNNER_SECONDS_PER_ACTION * len(actions),
            check=False,
        )
    except subprocess.TimeoutExpired as err:
        raise ConfigError(
            f"the {runner.name} client did not finish within {err.timeout:.0f} s",
            hint="check that the server answers; run the runner by hand to see where it waits",
        ) from err
    lines = [line for line in done.stdout.splitlines() if line.strip()]
    if done.returncode != 0 or len(lines) != len(actions):
        said = done.stderr.strip().splitlines()[-1:] or ["(nothing on stderr)"]
        raise ConfigError(
            f"the {runner.name} client exited {done.returncode} after {len(lines)} of {len(actions)} "
            f"actions: {said[0]}",
            hint="exit 3 means the server could not be reached; exit 4 is a fault in the runner (clients/)",
        )
    return [json.loads(line) for line in lines]


def probe_clients(
    examples: Mapping[str, Example],
    root: Path,
    *,
    app: str | None,
    url: str | None,
    endpoint: str,
    found: list[Runner],
) -> ClientRun:
    """Every example through the clients of the runners `found`: against servers of their own under uvicorn
    (`app`), or against the running server at `url`, which the caller has found reachable
    (`require_reachable`)."""
    calls = {entry: call for entry, example in examples.items() if (call := client_call(example))}
    with tempfile.TemporaryDirectory(prefix="docgen-probe-") as logs:
        if app is not None:
            path = urlsplit(endpoint).path or "/"

            def servers(name: str) -> AbstractContextManager[str]:
                return uvicorn_server(app, root, Path(logs) / f"{name}.log", path)

            return observe_clients(calls, servers, own_servers=True, found=found)
        assert url is not None
        return observe_clients(calls, lambda _name: nullcontext(url), own_servers=False, found=found)


def require_reachable(url: str) -> None:
    """Fail early, and as the replay would, when nothing listens at `url`."""
    parts = urlsplit(url)
    port = parts.port or (443 if parts.scheme == "https" else 80)
    try:
        socket.create_connection((parts.hostname or "", port), timeout=10).close()
    except OSError as err:
        raise ConfigError(
            f"cannot reach {url}: {err.strerror or err}",
            hint="start the server first, or probe with --app MODULE:ATTR (or the configuration's "
            "probe_app), which starts it",
        ) from err


def changed_cells(previous: Evidence | None, run: ClientRun, examples: Mapping[str, Example]) -> list[str]:
    """One line per example and client whose outcome differs from what `previous` recorded for the same
    example: the row and the client named, then what it surfaced now and before."""
    records = previous.records() if previous is not None else {}
    lines = []
    for entry, cells in run.outcomes.items():
        record = records.get(entry)
        if record is None or entry not in examples or record.example != examples[entry].fingerprint:
            continue
        for client, cell in cells.items():
            before = record.clients.get(client)
            if before is not None and without_date(before) != cell:
                now, then = _brief(cell), _brief(before)
                lines.append(f"row {entry}, client {client}: {now}; the evidence said {then}")
    return lines


def without_date(cell: Mapping[str, Any]) -> dict[str, Any]:
    """An outcome as the runner printed it: without the date it was recorded, which the evidence adds."""
    return {key: value for key, value in cell.items() if key != RECORDED}


def _brief(cell: Mapping[str, Any]) -> str:
    said = cell.get("message") or cell.get("why") or cell.get("text") or ""
    parts = [str(cell.get("outcome")), str(cell.get("class") or ""), str(cell.get("code") or ""), str(said)]
    return " ".join(part for part in parts if part)[:200]
