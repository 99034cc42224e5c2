"""`python -m backend.app`: start the Connect MCP server as it is meant to run.

    python -m backend.app                         # 127.0.0.1:8000, no proxy trusted
    python -m backend.app --trusted-proxy 10.0.0.5 --host 0.0.0.0

Nothing in X-Forwarded-For or Forwarded is believed unless the peer is one of the
`--trusted-proxy` addresses or networks; slow clients are cut off after the header and body
deadlines (see `backend.app.serve`).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

import uvicorn

from backend.app import mcp_server
from backend.app.serve import uvicorn_config


def parse(argv: Sequence[str] | None) -> argparse.Namespace:
    """The command line, with every default taken from the server's constants."""
    parser = argparse.ArgumentParser(prog="python -m backend.app", description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8000, help="port to listen on (default 8000)")
    parser.add_argument(
        "--trusted-proxy",
        action="append",
        default=[],
        metavar="ADDRESS",
        help="an address or CIDR network of a proxy whose X-Forwarded-For is believed; repeatable",
    )
    parser.add_argument(
        "--header-timeout",
        type=float,
        default=mcp_server.HEADER_READ_TIMEOUT_SECONDS,
        help="seconds a client may take to send a request's headers",
    )
    parser.add_argument(
        "--body-timeout",
        type=float,
        default=mcp_server.BODY_READ_TIMEOUT_SECONDS,
        help="seconds a client may take to send a request's body",
    )
    parser.add_argument("--log-level", default="info", choices=["debug", "info", "warning", "error"])
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the server until it is stopped; the exit status is 2 for a bad command line."""
    args = parse(argv)
    try:
        app = mcp_server.create_app(
            trusted_proxies=args.trusted_proxy,
            body_timeout=args.body_timeout,
            header_deadline=args.header_timeout,
        )
        config = uvicorn_config(
            app,
            host=args.host,
            port=args.port,
            header_timeout=args.header_timeout,
            keep_alive_timeout=mcp_server.KEEP_ALIVE_TIMEOUT_SECONDS,
            max_header_bytes=mcp_server.MAX_HEADER_BYTES,
            log_level=args.log_level,
        )
    except ValueError as exc:
        print(f"python -m backend.app: {exc}", file=sys.stderr)
        return 2
    server = uvicorn.Server(config)
    server.run()
    return 0 if server.started else 1


if __name__ == "__main__":
    sys.exit(main())
