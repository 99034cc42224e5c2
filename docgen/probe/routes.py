"""`docgen probe` for an HTTP API: send each routes-catalog error's example and record what came back.

The application is served on 127.0.0.1 (`docgen.probe.apps`) or already runs at `--url`; each example goes
out with httpx, one request, and the answer is the evidence: its status, the detail read from the body where
the catalog says the error keeps it (`body_key`), the headers a client acts on, and the body. The answer
reproduces the row when its status is the catalog's and its detail is the catalog's detail, with each
`{placeholder}` standing for any text. There are no official clients here: the answer stands alone.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any
from urllib.parse import quote_plus

import httpx

from docgen.core.credentials import credential_reason
from docgen.core.errors import ConfigError
from docgen.core.route_evidence import Reply, RouteEvidence, RouteRecord
from docgen.core.route_models import HTML_BODY, TEXT_BODY, RouteError, RoutesCatalog
from docgen.examples.routes import RouteExample

KEPT_HEADERS = ("content-type", "retry-after", "www-authenticate", "allow", "location")
"""Response headers recorded: those a client acts on. Others (date, server, cookies) vary or are private."""
BODY_CHARS = 4000
"""A body longer than this is recorded up to here, with a line saying how much was left out."""
WITHHELD = "<withheld>"


def observe_routes(
    base: str, examples: Sequence[RouteExample], *, timeout: float
) -> dict[str, httpx.Response]:
    """Send every triggerable example to the application at `base`; the response to each, by error id."""
    seen: dict[str, httpx.Response] = {}
    with httpx.Client(base_url=base, timeout=timeout, follow_redirects=False) as client:
        for example in examples:
            if not example.triggerable:
                continue
            try:
                seen[example.entry_id] = client.request(
                    example.method,
                    example.path,
                    params=list(example.query),
                    headers=list(example.headers),
                    content=example.body or None,
                )
            except httpx.HTTPError as err:
                raise ConfigError(
                    f"cannot reach {base}: {type(err).__name__} {err}".rstrip(),
                    hint="start the server first, or let probe serve it with --app MODULE:ATTR",
                ) from err
    return seen


def reply_of(response: httpx.Response, error: RouteError) -> Reply:
    """What to record of `response`, with the detail read where `error` keeps it."""
    text = response.text
    shown = (
        text
        if len(text) <= BODY_CHARS
        else f"{text[:BODY_CHARS]}\n... ({len(text) - BODY_CHARS} more characters)"
    )
    headers = {name: response.headers[name] for name in KEPT_HEADERS if name in response.headers}
    return Reply(int(response.status_code), headers, shown, detail_in(text, error))


def detail_in(text: str, error: RouteError) -> str | None:
    """The detail the body holds where `error` keeps it: under its JSON key (dotted when nested), the whole
    plain-text body, or, in an HTML page, the part that matches the catalog's detail; None when none."""
    if error.body_key == TEXT_BODY:
        return text
    if error.body_key == HTML_BODY:
        found = detail_pattern(error.detail).search(html.unescape(text))
        return found.group(0) if found else None
    try:
        value: Any = json.loads(text)
    except ValueError:
        return None
    for key in error.body_key.split("."):
        value = value.get(key) if isinstance(value, dict) else None
    return value if isinstance(value, str) else None


def detail_pattern(template: str) -> re.Pattern[str]:
    """The catalog's detail as a pattern: each `{placeholder}` stands for any text."""
    parts = re.split(r"(\{[^{}]*\})", template)
    return re.compile("".join(".+?" if part.startswith("{") else re.escape(part) for part in parts))


def reproduces(reply: Reply, error: RouteError) -> bool:
    """Whether the reply has the catalog's status (when the catalog knows it) and its detail."""
    status = error.status is None or reply.status == error.status
    return (
        status
        and reply.detail is not None
        and detail_pattern(error.detail).fullmatch(reply.detail) is not None
    )


def build_route_evidence(
    catalog: RoutesCatalog,
    examples: Mapping[str, RouteExample],
    seen: Mapping[str, httpx.Response],
    *,
    date: str,
    target: str,
    source: Mapping[str, str],
) -> RouteEvidence:
    """The evidence of one probe run over a routes catalog, records in catalog order."""
    return RouteEvidence(
        catalog=catalog.name,
        probed=date,
        target=target,
        source=dict(sorted(source.items())),
        entries=tuple(_records(catalog, examples, seen)),
    )


def _records(
    catalog: RoutesCatalog, examples: Mapping[str, RouteExample], seen: Mapping[str, httpx.Response]
) -> Iterator[RouteRecord]:
    for error in catalog.errors:
        example = examples.get(error.id)
        if example is None:
            continue
        if example.untriggerable is not None:
            yield RouteRecord(error.id, example.fingerprint, untriggerable=example.untriggerable)
            continue
        reply = reply_of(seen[error.id], error)
        yield RouteRecord(
            error.id,
            example.fingerprint,
            request=(example.method, recorded_target(example)),
            expected=(error.status, error.detail),
            reply=reply,
            reproduced=reproduces(reply, error),
        )


def recorded_target(example: RouteExample) -> str:
    """The path and query as the evidence shows them: a query value that looks like a credential withheld."""
    if not example.query:
        return example.path
    pairs = [
        f"{quote_plus(name)}={WITHHELD if credential_reason(name, value) else quote_plus(value)}"
        for name, value in example.query
    ]
    return f"{example.path}?{'&'.join(pairs)}"


def route_report(path: str, evidence: RouteEvidence) -> tuple[list[str], list[str]]:
    """What to say of each row once the evidence is written; the ids of the rows that did not reproduce."""
    lines, failed = [], []
    for row in evidence.entries:
        if row.untriggerable is not None:
            lines.append(f"  {row.id}: not probed (cannot be triggered from outside)")
            continue
        assert row.reply is not None and row.expected is not None and row.request is not None
        answer = f"HTTP {row.reply.status} {row.reply.detail!r}"
        if row.reproduced:
            lines.append(f"  {row.id}: reproduced ({answer})")
            continue
        failed.append(row.id)
        status = f"HTTP {row.expected[0]}" if row.expected[0] is not None else "a status set at run time"
        lines.append(
            f"  {row.id}: NOT reproduced: the table says {status} {row.expected[1]!r}, "
            f"{row.request[0]} {row.request[1]} answered {answer}"
        )
    lines.append(f"{path}: written ({evidence.target}, {evidence.probed})")
    return lines, failed
