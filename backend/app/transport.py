"""What the HTTP layer of the server decides before a JSON-RPC message is dispatched.

Reading the body within a size and a time limit, decoding it strictly, telling which
`Origin` headers are accepted, and choosing the key a request is rate-limited under.
None of these build an error response: `backend.app.mcp_server` does that.
"""

from __future__ import annotations

import functools
import ipaddress
import json
import logging
import re
from collections.abc import Iterable, Sequence
from http import HTTPStatus
from typing import Any

import anyio
from starlette.requests import ClientDisconnect, Request
from starlette.responses import Response

logger = logging.getLogger(__name__)

IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network

# A request carrying either header from a peer that is not a trusted proxy is rate-limited
# under this one key: its client address may have been rewritten from the header already
# (uvicorn does that by default), so no per-client key can be trusted.
UNTRUSTED_FORWARDED_KEY = "forwarded-by-an-untrusted-peer"
_FORWARDING_HEADERS = ("x-forwarded-for", "forwarded")


class BodyTooLarge(Exception):
    """The body is longer than the limit; reading stopped there."""


class BodyTimeout(Exception):
    """The body did not arrive completely within the time allowed."""


async def read_body(request: Request, max_bytes: int, timeout_seconds: float) -> bytes:
    """Read the whole body, giving up as soon as it is known to be too large or too slow.

    A declared Content-Length over the limit is refused before any byte is read; otherwise
    the stream is read chunk by chunk and abandoned once the running total passes the limit.
    A client that disconnects meanwhile raises Starlette's `ClientDisconnect`.

    Args:
        request: The request whose body to read.
        max_bytes: The largest body accepted.
        timeout_seconds: How long the whole body may take to arrive.
    """
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > max_bytes:
        raise BodyTooLarge
    chunks, size = [], 0
    with anyio.move_on_after(timeout_seconds) as deadline:
        async for chunk in request.stream():
            size += len(chunk)
            if size > max_bytes:
                raise BodyTooLarge
            chunks.append(chunk)
    if deadline.cancelled_caught:
        raise BodyTimeout
    return b"".join(chunks)


def body_never_arrived(client: str, error: BodyTimeout | ClientDisconnect, timeout: float) -> Response:
    """One log line, and a reply that closes the connection: there is no message to answer.

    A body that is too slow gets `408 Request Timeout`; a client that went away gets nothing it
    could read (uvicorn drops what is sent on a closed connection).

    Args:
        client: The rate-limit key of the client, for the log.
        error: What cut the body short.
        timeout: The body deadline in seconds, for the log.
    """
    if isinstance(error, BodyTimeout):
        logger.warning("closed a connection from %s: request body not complete within %s s", client, timeout)
        return Response(status_code=HTTPStatus.REQUEST_TIMEOUT, headers={"Connection": "close"})
    logger.warning("%s disconnected before its request body was complete", client)
    return Response(status_code=HTTPStatus.BAD_REQUEST, headers={"Connection": "close"})


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON value")


def decode_message(body: bytes) -> Any:
    """Parse a body as strict JSON: UTF-8, no NaN or Infinity, only text and numbers it can send back.

    Python's parser also accepts `NaN`, `Infinity`, numbers that overflow to infinity such as
    `1e999`, and escaped lone surrogates such as `"\\ud800"`; none of them can be written back as
    JSON or UTF-8, so an id or a name made of them could not even be echoed in an error. Each
    raises ValueError here (UnicodeError is one), as malformed JSON does.

    Args:
        body: The raw request body.
    """
    value = json.loads(body.decode("utf-8"), parse_constant=_refuse_constant)
    # Writing the value back is the check: it fails on exactly what cannot be answered.
    json.dumps(value, ensure_ascii=False, allow_nan=False).encode("utf-8")
    return value


@functools.cache
def _loopback_pattern(hosts: tuple[str, ...]) -> re.Pattern[str]:
    """`http(s)://HOST` or `http(s)://HOST:PORT` for each of `hosts`, with nothing else around it."""
    names = "|".join(re.escape(host) for host in hosts)
    return re.compile(rf"https?://(?:{names})(?::(?P<port>[0-9]{{1,5}}))?")


def origin_allowed(origin: str, allowed: Sequence[str], loopback_hosts: tuple[str, ...]) -> bool:
    """Whether an `Origin` header names a page the server answers.

    A remote origin must be on `allowed` exactly (scheme, host and port). A page served from a
    loopback host (over http or https, on any port or none) is local software the user runs,
    which a DNS-rebinding page cannot pose as: such a page sends its own host name as Origin.

    Args:
        origin: The header's value.
        allowed: Remote origins accepted exactly, lower case.
        loopback_hosts: Host names as they appear in an origin, such as `localhost` or `[::1]`.
    """
    normal = origin.strip().rstrip("/").lower()
    if normal in allowed:
        return True
    match = _loopback_pattern(loopback_hosts).fullmatch(normal)
    return match is not None and (match["port"] is None or 0 < int(match["port"]) <= 65535)


def parse_networks(values: Iterable[str]) -> tuple[IPNetwork, ...]:
    """Turn addresses or CIDR blocks (`10.0.0.5`, `10.0.0.0/8`, `::1`) into networks.

    Args:
        values: The trusted proxies as an operator wrote them; ValueError names a bad one.
    """
    networks = []
    for value in values:
        try:
            networks.append(ipaddress.ip_network(value.strip(), strict=False))
        except ValueError as exc:
            raise ValueError(f"not an IP address or network: {value!r}") from exc
    return tuple(networks)


def _is_trusted(address: str, trusted: Sequence[IPNetwork]) -> bool:
    try:
        ip = ipaddress.ip_address(address.strip())
    except ValueError:
        return False
    return any(ip in network for network in trusted)


def client_key(request: Request, trusted: Sequence[IPNetwork]) -> str:
    """The key `request` is rate-limited under.

    The peer's address, unless the peer is a trusted proxy: then the right-most address of
    X-Forwarded-For that is not itself a trusted proxy. A forwarding header from any other peer
    puts the request under one shared key (UNTRUSTED_FORWARDED_KEY), so rotating the header
    buys nothing.

    Args:
        request: The incoming request.
        trusted: Networks whose peers may say who they forward for; empty trusts none.
    """
    peer = request.client.host if request.client else "unknown"
    forwarded = [request.headers.getlist(name) for name in _FORWARDING_HEADERS]
    if not any(forwarded):
        return peer
    if not _is_trusted(peer, trusted):
        return UNTRUSTED_FORWARDED_KEY
    hops = [hop.strip() for value in forwarded[0] for hop in value.split(",") if hop.strip()]
    for hop in reversed(hops):
        if not _is_trusted(hop, trusted):
            return hop
    return peer
