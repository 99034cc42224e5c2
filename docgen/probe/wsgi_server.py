"""Serve a WSGI application on 127.0.0.1 with the standard library: `python -m docgen.probe.wsgi_server
MODULE:ATTR PORT [--factory]`, run by `docgen probe` from the project root (`docgen.probe.apps`).

wsgiref's server handles one request at a time; a thread per request keeps a slow answer from holding up
the next. It logs nothing but errors, which go to the log probe shows when the server does not start.
With `--factory`, ATTR is called with no argument and what it returns is served.
"""

from __future__ import annotations

import importlib
import sys
from socketserver import ThreadingMixIn
from typing import Any
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server


class _ThreadingServer(ThreadingMixIn, WSGIServer):
    daemon_threads = True


class _QuietHandler(WSGIRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        """Log no request: probe records the answers itself."""


def application(spec: str, *, factory: bool) -> Any:
    """The object `MODULE:ATTR` names, imported from the working folder (called, when it is a factory)."""
    module_name, _, attribute = spec.partition(":")
    sys.path.insert(0, ".")
    found = getattr(importlib.import_module(module_name), attribute)
    return found() if factory else found


def main(argv: list[str]) -> int:
    spec, port, *flags = argv
    app = application(spec, factory="--factory" in flags)
    server = make_server("127.0.0.1", int(port), app, _ThreadingServer, _QuietHandler)
    server.serve_forever()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
