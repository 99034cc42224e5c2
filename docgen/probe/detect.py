"""`python -m docgen.probe.detect MODULE:ATTR`: import the application from the working folder and print, as
one JSON line, how `docgen probe` is to serve it (`docgen.probe.apps.interface_of`), or the located error
that stopped it. probe runs it in a process of its own, from the project root, before serving the app."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from docgen.core.errors import ConfigError, DocgenError
from docgen.probe.apps import interface_of
from docgen.probe.replay import load_app


def main(argv: list[str]) -> int:
    spec = argv[0]
    try:
        served = interface_of(load_app(spec, Path.cwd(), keep=True), spec)
    except DocgenError as err:
        kind = "config" if isinstance(err, ConfigError) else "source"
        print(json.dumps({"error": kind, "message": err.message, "hint": err.hint}))
        return 0
    print(json.dumps({"interface": served.interface, "factory": served.factory}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
