"""The official clients' evidence against the project: a client that has not run an example, and SDK pins
changed since probe ran them.

check reads the evidence and the pin files (requirements/*.txt for the Python SDK, clients/package-lock.json
for the TypeScript ones) as text: nothing is installed, imported or run. Evidence older than the server code
or the example is the replay's own finding (the client cells sit in the same record, so they go stale with
it), and a page that shows other outcomes than the evidence is a stale region.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from docgen.core.errors import InputError
from docgen.core.evidence import PROBE, Evidence
from docgen.core.findings import Finding, Kind
from docgen.core.records import record
from docgen.examples.client_calls import CLIENT_NAMES, client_call
from docgen.examples.requests import Example

PYTHON_SDK = "mcp"
TYPESCRIPT_SDKS = ("@modelcontextprotocol/client", "@modelcontextprotocol/sdk")
"""The Node packages of the TypeScript clients: 2.x for 2026-07-28, 1.x for legacy sessions."""
LOCK_FILE = "clients/package-lock.json"
REQUIREMENTS_GLOB = "requirements/*.txt"
MAX_PIN_FILE_BYTES = 8 * 1024 * 1024
"""A lock or requirements file larger than this is an error (exit 3), not read."""


@record
class Pin:
    """The version a project file pins an SDK at, and where."""

    version: str
    file: str
    line: int | None


def pinned_sdks(root: Path) -> dict[str, Pin]:
    """SDK name -> its pin, for the SDKs the clients use, where the project pins them."""
    pins: dict[str, Pin] = {}
    for path in sorted(root.glob(REQUIREMENTS_GLOB)):
        text = _bounded_text(root, path)
        match = re.search(rf"^{re.escape(PYTHON_SDK)}==([^\s;#]+)", text or "", re.MULTILINE)
        if match and PYTHON_SDK not in pins:
            line = (text or "").count("\n", 0, match.start()) + 1
            pins[PYTHON_SDK] = Pin(match.group(1), path.relative_to(root).as_posix(), line)
    packages = _locked_packages(_bounded_text(root, root / LOCK_FILE))
    for sdk in TYPESCRIPT_SDKS:
        try:
            version = packages[f"node_modules/{sdk}"]["version"]
        except (KeyError, TypeError):
            version = None
        if isinstance(version, str):
            pins[sdk] = Pin(version, LOCK_FILE, None)
    return pins


def _locked_packages(lock: str | None) -> Any:
    """The `packages` of the lock file's text; an empty mapping where there is none to read."""
    try:
        return json.loads(lock)["packages"] if lock is not None else {}
    except RecursionError:
        raise InputError("nested too deeply to read", file=LOCK_FILE, hint=_LOCK_HINT) from None
    except ValueError as err:
        if "digits" in str(err):  # an integer longer than Python reads: a bound, not a missing pin
            raise InputError(f"a number too long to read ({err})", file=LOCK_FILE, hint=_LOCK_HINT) from None
        return {}
    except (KeyError, TypeError):
        return {}


_LOCK_HINT = "regenerate it with `npm install` in clients/"


def _bounded_text(root: Path, path: Path) -> str | None:
    """The text of a pin file; None when there is none or it cannot be read as text, and an error (exit 3)
    when it is larger than MAX_PIN_FILE_BYTES."""
    try:
        if not path.is_file():
            return None
        size = path.stat().st_size
        if size > MAX_PIN_FILE_BYTES:
            raise InputError(
                f"the file is {size:,} bytes, over docgen's limit of {MAX_PIN_FILE_BYTES:,} bytes for pins",
                file=path.relative_to(root).as_posix(),
                hint="pin the SDKs in a smaller file",
            )
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def client_findings(
    evidence: Evidence, examples: Mapping[str, Example], pins: Mapping[str, Pin], probe: str = PROBE
) -> Iterator[Finding]:
    """A client missing from a record of the current example, and a client run with another SDK version."""
    if not any(record.clients for record in evidence.entries):
        yield Finding(
            Kind.EVIDENCE_MISSING,
            evidence.file,
            None,
            "official clients",
            "the evidence holds nothing from the official clients (probe ran without them)",
            f"run `{probe}` with the clients installed (`make node-packages` for the TypeScript one)",
        )
        return
    yield from _pin_findings(evidence, pins, probe)
    records = evidence.records()
    for entry_id, example in examples.items():
        call, record = client_call(example), records.get(entry_id)
        if call is None or record is None or record.example != example.fingerprint:
            continue  # untriggerable, or the replay's own finding already says the record is missing or stale
        absent = [name for name in CLIENT_NAMES if name not in record.clients]
        if absent:
            yield Finding(
                Kind.EVIDENCE_MISSING,
                evidence.file,
                evidence.record_line(entry_id),
                entry_id,
                f"no outcome recorded from {', '.join(absent)}: the page cannot say how it reports this row",
                f"run `{probe}` where every client can run (Node 20+ and `make node-packages`)",
            )


def _pin_findings(evidence: Evidence, pins: Mapping[str, Pin], probe: str) -> Iterator[Finding]:
    reported: set[str] = set()
    for name, client in evidence.clients.items():
        sdk, used = client.get("sdk", ""), client.get("version", "")
        if sdk in reported:
            continue
        pin = pins.get(sdk)
        if pin is None:
            reported.add(sdk)
            yield Finding(
                Kind.EVIDENCE_STALE,
                evidence.file,
                evidence.line("clients", name),
                sdk,
                f"{name} ran with {sdk} {used}, and no pin of {sdk} is found "
                f"({REQUIREMENTS_GLOB} or {LOCK_FILE}) to tell whether that is still the version used",
                f"pin {sdk} exactly, then run `{probe}` again",
            )
        elif pin.version != used:
            reported.add(sdk)
            yield Finding(
                Kind.EVIDENCE_STALE,
                pin.file,
                pin.line,
                sdk,
                f"{sdk} is pinned at {pin.version}, but the client evidence was taken with {used} "
                f"({evidence.file}); what that client surfaces may have changed",
                f"install the pinned version, run `{probe}` again and commit the evidence",
            )
