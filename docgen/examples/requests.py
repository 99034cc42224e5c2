"""Example requests from an errors catalog's notes: resolved, fingerprinted, and written out as HTTP and curl.

An entry's example lives under `example:` in `data/<catalog>.notes.yaml`. `docgen probe` sends it to the
server; the `error-examples` region shows it. The two counts, `size` and `repeat`, may be Jinja expressions
over the catalog's constants (`{{ RATE_LIMIT_REQUESTS + 1 }}`), so a limit changed in code changes the
request with it. Nothing here touches the network or any file.
"""

from __future__ import annotations

import hashlib
import json
import shlex
from collections.abc import Mapping
from functools import cache
from urllib.parse import urlsplit

import jinja2

from docgen.core.errors import CatalogError
from docgen.core.limits import EXAMPLE_MAX_BYTES, EXAMPLE_MAX_REPEAT
from docgen.core.models import ErrorsCatalog, Json
from docgen.core.notes import Notes, WrittenExample
from docgen.core.pages import holds_marker
from docgen.core.records import record
from docgen.core.yamlio import LoadedYaml
from docgen.templating import template_cache
from docgen.templating.render_budget import short
from docgen.templating.sandbox import BoundedSandbox

DEFAULT_HEADERS = (("Content-Type", "application/json"), ("Accept", "application/json, text/event-stream"))
DEFAULT_ENDPOINT = "http://127.0.0.1:8000/mcp"
"""The URL examples show when the notes name no `endpoint`."""


@record
class Example:
    """One entry's example request, with every count resolved."""

    entry_id: str
    method: str = "POST"
    headers: tuple[tuple[str, str], ...] = ()
    body: bytes = b""
    """The exact bytes sent, padding included."""
    text: str = ""
    """The body as readers see it: without the padding."""
    size: int | None = None
    repeat: int = 1
    untriggerable: str | None = None

    @property
    def triggerable(self) -> bool:
        return self.untriggerable is None

    @property
    def fingerprint(self) -> str:
        """Changes whenever what probe would send changes."""
        digest = hashlib.sha256()
        head = [self.method, [list(pair) for pair in self.headers], self.repeat, self.untriggerable]
        digest.update(json.dumps(head, sort_keys=True).encode("utf-8"))
        digest.update(self.body)
        return f"sha256:{digest.hexdigest()[:16]}"


def endpoint_of(notes: Notes) -> str:
    """The server URL the examples show."""
    return notes.endpoint or DEFAULT_ENDPOINT


def examples_of(catalog: ErrorsCatalog, notes: Notes) -> dict[str, Example]:
    """Entry id -> resolved example, in catalog order, for the catalog's entries whose notes have one."""
    written = notes.examples()
    examples = {}
    for entry in catalog.entries:
        if entry.id in written:
            where = Where(notes.file, None, f"entries/{entry.id}/example", notes.document)
            examples[entry.id] = resolve(entry.id, written[entry.id], catalog.constants, where)
    return examples


@record
class Where:
    """Where an example is written, for located errors."""

    file: str
    line: int | None
    """The example's line, when the caller knows it."""
    path: str
    lines: LoadedYaml | None = None
    """The notes file, to find the line of the field at fault."""

    def line_at(self, *field: str) -> int | None:
        """The line of `field` in the example (of the example itself when no field is given)."""
        if self.lines is None:
            return self.line
        return self.lines.line_of(tuple(self.path.split("/")) + field)


REQUEST_FIELDS = ("method", "headers", "body", "raw", "size", "repeat")
BODY_FIELDS = ("body", "raw", "untriggerable")
ROUTE_FIELDS = ("path", "query")
"""The fields only a routes catalog's example takes (`docgen.examples.routes`)."""


def _check_fields(raw: WrittenExample, where: Where) -> None:
    """Exactly one of body, raw and untriggerable; an untriggerable example describes no request."""
    given = [field for field in BODY_FIELDS if field in raw.given]
    problem = None
    if routed := [f for f in ROUTE_FIELDS if f in raw.given]:
        raise CatalogError(
            f"{where.path}/{routed[0]}: `{routed[0]}` is for the examples of a routes catalog; an errors "
            "catalog's example is sent to the notes' `endpoint`",
            file=where.file,
            line=where.line_at(routed[0]),
            hint="delete it, and put the whole request in `body` (or `raw`)",
        )
    if len(given) != 1:
        problem = f"has {' and '.join(given)}" if given else "has none of body, raw and untriggerable"
    elif given == ["untriggerable"] and (extra := [f for f in REQUEST_FIELDS if f in raw.given]):
        problem = f"is untriggerable, yet describes a request ({', '.join(extra)})"
    if problem:
        raise CatalogError(
            f"{where.path}: the example {problem}",
            file=where.file,
            line=where.line_at(),
            hint="give exactly one of `body` (JSON), `raw` (text) or `untriggerable` (why no request can)",
        )


def resolve(entry_id: str, raw: WrittenExample, constants: Mapping[str, Json], where: Where) -> Example:
    """Turn one `example:` as written into the request it describes."""
    _check_fields(raw, where)
    if raw.untriggerable is not None:
        reason = str(raw.untriggerable).strip()
        if holds_marker(reason):
            raise CatalogError(
                f"{where.path}/untriggerable: a line of it starts like a docgen marker (`<!-- docgen:`), "
                "which would end the examples' region early and leave a page no command can read",
                file=where.file,
                line=where.line_at("untriggerable"),
                hint="reword it, or put the marker inside backticks",
            )
        return Example(entry_id, untriggerable=reason)
    text = str(raw.raw) if raw.raw is not None else json.dumps(raw.body, ensure_ascii=False)
    body = text.encode("utf-8")
    size = _count(raw.size, constants, where, "size") if raw.size is not None else None
    if size is not None:
        if size < len(body):
            raise CatalogError(
                f"{where.path}/size: {size} bytes is less than the body itself ({len(body)} bytes)",
                file=where.file,
                line=where.line_at("size"),
                hint="give a size at least as large as the body, or drop `size`",
            )
        body += b" " * (size - len(body))
    repeat = _count(raw.repeat, constants, where, "repeat") if raw.repeat is not None else 1
    return Example(entry_id, raw.method, _merged_headers(raw.headers), body, text, size, repeat)


def _merged_headers(extra: Mapping[str, str]) -> tuple[tuple[str, str], ...]:
    """The default headers, overridden (case-insensitively) or extended by the example's own."""
    merged = {name.lower(): (name, value) for name, value in DEFAULT_HEADERS}
    for name, value in extra.items():
        merged[name.lower()] = (name, value)
    return tuple(merged.values())


@cache
def _environment() -> jinja2.Environment:
    """The environment counts are worked out in: docgen's bounded sandbox, cached between runs."""
    return template_cache.attach(BoundedSandbox())


_COUNT_LIMITS = {"size": EXAMPLE_MAX_BYTES, "repeat": EXAMPLE_MAX_REPEAT}


def _count(value: int | str, constants: Mapping[str, Json], where: Where, field: str) -> int:
    """A `size` or `repeat`, worked out and held to its limit (docgen/core/limits.py)."""
    count = (
        value
        if isinstance(value, int) and not isinstance(value, bool)
        else _worked_out(value, constants, where, field)
    )
    if count > _COUNT_LIMITS[field]:
        unit = "bytes" if field == "size" else "times"
        raise CatalogError(
            f"{where.path}/{field}: {count:,} {unit} is more than an example may ask for "
            f"({_COUNT_LIMITS[field]:,} {unit})",
            file=where.file,
            line=where.line_at(field),
            hint="no documented error needs a request this large; lower it",
        )
    return count


def _worked_out(value: int | str, constants: Mapping[str, Json], where: Where, field: str) -> int:
    try:
        template = template_cache.from_string(_environment(), str(value), name="example-count")
        rendered = template.render(constants).strip()
    except jinja2.TemplateError as err:
        raise CatalogError(
            f"{where.path}/{field}: {short(value)} cannot be worked out: {err.message or type(err).__name__}",
            file=where.file,
            line=where.line_at(field),
            hint=f"use the catalog's constants: {', '.join(sorted(constants)) or 'none'}",
        ) from err
    if not (rendered.isdigit() and len(rendered) <= 20) or int(rendered) < 1:
        raise CatalogError(
            f"{where.path}/{field}: {short(value)} gives {short(rendered)}, not a whole number of at least 1",
            file=where.file,
            line=where.line_at(field),
            hint="write a number, or an expression such as '{{ RATE_LIMIT_REQUESTS + 1 }}'",
        )
    return int(rendered)


def http_request(example: Example, endpoint: str) -> str:
    """The request as it goes over the wire, for the page's HTTP tab."""
    url = urlsplit(endpoint)
    lines = [f"{example.method} {url.path or '/'} HTTP/1.1", f"Host: {url.netloc}"]
    lines += [f"{name}: {value}" for name, value in example.headers]
    lines += [f"Content-Length: {len(example.body)}", "", example.text]
    if example.size is not None:
        padding = example.size - len(example.text.encode("utf-8"))
        lines.append(f"<{padding} spaces follow: {example.size} bytes in all>")
    return "\n".join(lines)


def curl_command(example: Example, endpoint: str) -> str:
    """The same request as a curl command line (a loop when it is repeated)."""
    method = f" -X {example.method}" if example.method != "POST" else ""
    parts = [f"curl -i{method} {shlex.quote(endpoint)}"]
    parts += [f"-H {shlex.quote(f'{name}: {value}')}" for name, value in example.headers]
    if example.size is not None:
        parts.append("--data-binary @-")
        padded = f"printf '%-{example.size}s' {shlex.quote(example.text)} |"
        command = padded + " \\\n  " + " \\\n  ".join(parts)
    else:
        parts.append(f"--data-binary {shlex.quote(example.text)}")
        command = " \\\n  ".join(parts)
    if example.repeat > 1:
        inner = "\n".join("  " + line for line in command.splitlines())
        command = f"for n in $(seq {example.repeat}); do\n{inner}\ndone"
    return command
