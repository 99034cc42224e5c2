"""`docgen probe`: send each documented example to the server and record what it answered, as evidence.

This is the one part of docgen that runs the server, and only because it is asked to: in process through
its ASGI app (`--app MODULE:ATTR`, imported afresh from the project root, so its rate limiter starts
empty), or over HTTP (`--url`). The requests come from `docgen.examples.requests`; the evidence is dumped
as YAML and written by `docgen.core.writer`: the same bytes for the same answers, apart from the date.
"""

from __future__ import annotations

import asyncio
import importlib
import sys
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import httpx

from docgen.core.errors import ConfigError, SourceError
from docgen.core.evidence import Evidence, Observed, Record
from docgen.core.models import ErrorsCatalog
from docgen.core.records import record
from docgen.core.yamlio import dump_yaml
from docgen.examples.requests import Example
from docgen.probe.clients import ClientRun

KEPT_HEADERS = ("content-type", "retry-after", "connection")
"""Response headers recorded: the ones a client acts on. Others (date, server) vary or say nothing."""
VARYING_HEADERS = {"retry-after": "<seconds>"}
"""Headers whose value depends on timing: recorded with a placeholder, so the evidence stays stable."""


@record
class Observation:
    """What the server answered to an example (to the last request, when it was repeated)."""

    status: int
    code: int | None
    headers: dict[str, str]
    body: str
    requests: int


@record
class Target:
    """Where probe sends: `label` is what the evidence records."""

    label: str
    url: str
    transport: httpx.AsyncBaseTransport | None = None


def app_target(spec: str, root: Path, endpoint: str) -> Target:
    """The ASGI app `MODULE:ATTR`, imported fresh from `root`; requests never leave the process."""
    app = load_app(spec, root)
    transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
    return Target(f"app {spec}", endpoint, transport)


def url_target(url: str) -> Target:
    """A server already running at `url` (the MCP endpoint itself, e.g. http://127.0.0.1:8000/mcp)."""
    if not url.startswith(("http://", "https://")):
        raise ConfigError(f"--url {url!r} is not an http(s) URL", hint="e.g. --url http://127.0.0.1:8000/mcp")
    return Target(f"url {url}", url)


def load_app(spec: str, root: Path, *, keep: bool = False) -> Any:
    """Import `MODULE:ATTR` from `root` as a fresh module, leaving `sys.modules` as it was found (with `keep`,
    leaving the imported modules loaded, for a process that goes on to run the application)."""
    module_name, _, attribute = spec.partition(":")
    if not module_name or not attribute:
        raise ConfigError(f"--app {spec!r} is not MODULE:ATTR", hint="e.g. --app myapp.main:app")
    package = module_name.split(".")[0]
    saved = {name: module for name, module in sys.modules.items() if _within(name, package)}
    for name in saved:
        del sys.modules[name]
    sys.path.insert(0, str(root))
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as err:
        if err.name and _within(module_name, err.name):
            raise ConfigError(
                f"--app: there is no module {module_name!r} under {root}",
                hint="run docgen from the project root, and name the module as uvicorn would",
            ) from err
        raise SourceError(
            f"importing {module_name} failed: {err}", hint="install what the server needs"
        ) from err
    except Exception as err:  # the server's own code failed while loading; say so instead of a traceback
        raise SourceError(
            f"importing {module_name} failed: {type(err).__name__}: {err}",
            hint=f"run `python -c 'import {module_name}'` from the project root to see the traceback",
        ) from err
    finally:
        if not keep:
            sys.path.remove(str(root))
            for name in [name for name in sys.modules if _within(name, package)]:
                del sys.modules[name]
            sys.modules.update(saved)
    if not hasattr(module, attribute):
        raise ConfigError(
            f"--app: module {module_name} has no {attribute!r}", hint="name the ASGI app object"
        )
    return getattr(module, attribute)


def _within(name: str, package: str) -> bool:
    return name == package or name.startswith(f"{package}.")


def observe(
    target: Target, examples: Sequence[Example], *, timeout: float, keep: Sequence[str] = ()
) -> dict[str, Observation]:
    """Send every triggerable example and return what came back, by entry id; of the response headers,
    `KEPT_HEADERS` and those named in `keep` (lower case: the header a catalog's links travel in).

    Repeated examples go last: they spend the client's rate-limit budget, which would spoil the others.
    """
    return asyncio.run(_observe_all(target, examples, timeout, (*KEPT_HEADERS, *keep)))


async def _observe_all(
    target: Target, examples: Sequence[Example], timeout: float, kept: Sequence[str]
) -> dict[str, Observation]:
    ordered = sorted((e for e in examples if e.triggerable), key=lambda example: example.repeat > 1)
    seen: dict[str, Observation] = {}
    async with httpx.AsyncClient(transport=target.transport, timeout=timeout) as client:
        for example in ordered:
            try:
                seen[example.entry_id] = await _send(client, target.url, example, kept)
            except httpx.HTTPError as err:
                raise ConfigError(
                    f"cannot reach {target.url}: {type(err).__name__} {err}".rstrip(),
                    hint="start the server first, or probe in process with --app MODULE:ATTR (or the "
                    "configuration's probe_app)",
                ) from err
    return seen


async def _send(client: httpx.AsyncClient, url: str, example: Example, kept: Sequence[str]) -> Observation:
    headers = list(example.headers)
    response = await client.request(example.method, url, content=example.body, headers=headers)
    for _ in range(example.repeat - 1):
        response = await client.request(example.method, url, content=example.body, headers=headers)
    return _observation(response, example.repeat, kept)


def _observation(response: httpx.Response, requests: int, kept: Sequence[str]) -> Observation:
    code = None
    try:
        message = response.json()
    except ValueError:
        message = None
    error = message.get("error") if isinstance(message, dict) else None
    if isinstance(error, dict) and isinstance(error.get("code"), int):
        code = error["code"]
    headers = {
        name: VARYING_HEADERS.get(name, response.headers[name])
        for name in dict.fromkeys(kept)
        if name in response.headers
    }
    return Observation(int(response.status_code), code, headers, response.text, requests)


def build_evidence(
    catalog: ErrorsCatalog,
    examples: Mapping[str, Example],
    seen: Mapping[str, Observation],
    *,
    date: str,
    target: str,
    source: Mapping[str, str],
    clients: ClientRun | None = None,
) -> Evidence:
    """The evidence of one probe run, entries in catalog order, with what each official client surfaced."""
    run = clients or ClientRun()
    return Evidence(
        catalog=catalog.name,
        probed=date,
        target=target,
        source=dict(sorted(source.items())),
        entries=tuple(_records(catalog, examples, seen, run.outcomes)),
        clients=run.clients,
    )


def _records(
    catalog: ErrorsCatalog,
    examples: Mapping[str, Example],
    seen: Mapping[str, Observation],
    clients: Mapping[str, Mapping[str, Mapping[str, Any]]],
) -> Iterator[Record]:
    for entry in catalog.entries:
        example = examples.get(entry.id)
        if example is None:
            continue
        if example.untriggerable is not None:
            yield Record(entry.id, example.fingerprint, untriggerable=example.untriggerable)
            continue
        answer = seen[entry.id]
        yield Record(
            entry.id,
            example.fingerprint,
            requests=answer.requests,
            expected=(entry.code, entry.status)
            if isinstance(entry.code, int) and isinstance(entry.status, int)
            else None,
            observed=Observed(answer.status, answer.code, answer.headers, answer.body),
            reproduced=(answer.code, answer.status) == (entry.code, entry.status),
            clients=dict(clients.get(entry.id, {})),
        )


def dump_evidence(evidence: Evidence, notes_file: str) -> str:
    """The evidence as YAML, with a header saying where it comes from."""
    header = (
        f"# Written by `docgen probe` from the examples in {notes_file}: do not edit by hand.\n"
        "# Run `docgen probe` again after changing the server or an example; `docgen check` reports\n"
        "# evidence older than the source it was taken from.\n"
    )
    return dump_yaml(evidence.as_data(), header=header)


def not_reproduced(evidence: Evidence) -> list[Record]:
    """The records whose answer differs from the catalog's code and status."""
    return [record for record in evidence.entries if record.reproduced is False]
