"""Serve an aiohttp application on 127.0.0.1 with aiohttp's own runner: `python -m
docgen.probe.aiohttp_server MODULE:ATTR PORT [--factory]`, run by `docgen probe` from the project root
(`docgen.probe.apps`). An aiohttp `Application` speaks neither ASGI nor WSGI. With `--factory`, ATTR is
called with no argument and the application it returns is served.
"""

from __future__ import annotations

import sys

from docgen.probe.wsgi_server import application


def main(argv: list[str]) -> int:
    from aiohttp import web  # noqa: PLC0415 (only a project served with aiohttp has it)

    spec, port, *flags = argv
    app = application(spec, factory="--factory" in flags)
    web.run_app(app, host="127.0.0.1", port=int(port), print=None, access_log=None)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
