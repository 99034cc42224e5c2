"""The longer texts of `docgen --help` and its commands' help: what docgen does, its environment and
limits, and the examples and description of `check` and `probe`. They are kept apart from the parser
(`cli`) so that it reads as the list of commands and options it is.
"""

from __future__ import annotations

from docgen.core import limits

DESCRIPTION = """\
Keep documentation true to the server it documents.

docgen reads the backend source statically (it never imports or runs it), writes what it finds to YAML
catalogs in data/, renders the generated regions of the pages in docs/, and checks in pull requests that
the docs still match the code. Settings come from the docgen plugin section of mkdocs.yml. Only
`docgen probe` runs the server, and only when asked to.

typical use:
  docgen init        once, in the server's project folder: mkdocs.yml, a page, draft notes
  docgen extract     after changing backend/: refresh data/*.yaml
  docgen render      then refresh the generated regions of docs/
  docgen check       in CI: exit 1 with a diff when docs and code disagree
  docgen probe       replay each error's example against the server; record what it answered
"""


def _limits_help() -> str:
    """The limits of docgen/core/limits.py, as `docgen --help` lists them."""
    mb, cap = 2**20, limits
    rows = {
        "files read": f"regular files only, at most {cap.MAX_FILE_BYTES // mb} MiB each",
        "YAML": f"nesting up to {cap.YAML_MAX_DEPTH} levels; no key given twice; no anchors or aliases in\n"
        f"docgen's files, and at most {cap.YAML_MAX_NODES:,} values once mkdocs.yml's are followed",
        "constant folding": f"integers up to {cap.MAX_INT_BITS:,} bits, strings and tuples up to "
        f"{cap.MAX_FOLDED_ITEMS:,} items",
        "templates, notes": f"in Jinja's sandbox; per render at most {cap.TEMPLATE_MAX_WORK:,} units of "
        f"work,\n{cap.TEMPLATE_MAX_SECONDS:g} s, and {cap.TEMPLATE_MAX_TEXT:,} characters or items in any "
        "value or the output",
        "examples": f"size up to {cap.EXAMPLE_MAX_BYTES // mb} MiB, repeat up to {cap.EXAMPLE_MAX_REPEAT:,}",
        "source": f"routers up to {cap.MAX_ROUTER_DEPTH} include_router calls deep; calls (helpers,\n"
        f"dependencies) up to {cap.MAX_CALL_DEPTH} deep; imports, base classes and dispatch tables within\n"
        "the bounds README.md lists",
    }
    lines = ["limits (fixed, so that an untrusted pull request cannot exhaust the machine; see README.md):"]
    for label, text in rows.items():
        first, *rest = text.split("\n")
        lines += [f"  {label:<18} {first}", *(f"  {'':<18} {line}" for line in rest)]
    return "\n".join([*lines, "Going past a limit is a located error with exit code 3.", ""])


ENVIRONMENT = f"""\
environment:
  DOCGEN_CACHE_DIR   where compiled templates and parsed YAML are kept between runs
                     (default: $XDG_CACHE_HOME/docgen, else ~/.cache/docgen)
  DOCGEN_NO_CACHE=1  compile every template and parse every file afresh, and keep nothing
  DOCGEN_VERDICTS    a folder of check verdicts: a check whose every input a trusted run has checked
                     prints that run's report without loading anything (off unless set)
  DOCGEN_VERDICTS_RECORD=1  a trusted run: write its verdict there (never in a pull request's job)

{_limits_help()}"""

CHECK_EXAMPLES = """\
examples:
  docgen check                                  before pushing: is anything out of date?
  docgen check --format github --base origin/main   in a pull request's CI job
  docgen check --format json | jq '.findings[].kind'

Most findings are fixed by `docgen extract && docgen render`; a page whose cited source changed is re-read by
a person and then stamped with `docgen verify PAGE`.
"""


PROBE_DESCRIPTION = """\
Send each error's example request (the `example:` of its entry in data/<catalog>.notes.yaml) to the
server, compare the JSON-RPC code and HTTP status it answers with the catalog, and write what it saw to
data/<catalog>.evidence.yaml: the date, a fingerprint of the cited server source, and per entry the answer.
The error page shows that evidence, and `docgen check` reports it once the source has changed since.

This is the only command that runs the server. Choose how (without either, the configuration's
`probe_app: MODULE:ATTR` is served as with --app):
  --app MODULE:ATTR   import the ASGI app from the project root and call it in process (no network). The
                      module is imported afresh on every run, so its rate limiter starts empty. For a routes
                      catalog (an HTTP API), serve the ASGI app under uvicorn, the WSGI app under the
                      standard library's server, or the aiohttp app under aiohttp, on a free port of
                      127.0.0.1 (told apart by how it is called; ATTR may be a factory taking no argument).
  --url URL           send real HTTP requests to a server you started, e.g. http://127.0.0.1:8000/mcp (for
                      an HTTP API, its root: each example's path is added to it).
                      The rate-limit example sends RATE_LIMIT_REQUESTS + 1 requests, so it spends this
                      client's whole budget: other calls from the same address are refused until the
                      window has passed, and probing twice within one window fails.

A routes catalog's example is a request to one of its operations (`method`, `path` with its parameters
filled in, `query`, `headers`, `body`); the answer's status and its detail (read where the catalog says the
error keeps it, `{placeholders}` standing for any text) are compared with the catalog. An HTTP API has no
official clients: its own answer is the evidence, and `docgen check` holds the catalog to it.

For an MCP server, it then runs every example through the official clients (the Python SDK in its
2026-07-28 and legacy modes; with Node 20+, the TypeScript client for 2026-07-28 and the 1.x SDK for legacy
sessions) and records what each surfaced: the exception's class, code and message, a result with isError,
or that the client would not send the request. With --app, each client
gets servers of its own under uvicorn on 127.0.0.1 (one more per example that spends the rate-limit
budget); with --url they share your server and leave out the budget-spending examples.

A client that cannot run here stops probe before it starts anything (exit 2), naming what is missing:
  python              the Python SDK (mcp): `make .venv/.installed` installs it
  typescript          Node.js 20+ and the Node packages: `make node-packages` runs npm ci in clients/,
                      installing the pinned @modelcontextprotocol/client (2.x, for 2026-07-28) and
                      @modelcontextprotocol/sdk (1.x, legacy sessions) from clients/package-lock.json
Or leave a client out by name with --skip-client (--no-clients leaves out both): the evidence then keeps
the outcomes it recorded before, each with its date, where the example and the server source are
unchanged, and the page says which rows that client has not run.

Exit 0 when every row reproduced, 1 naming each row that did not (the evidence is written either way),
2 on a usage or configuration error (a bad --app, an unreachable --url, a client that cannot run), 3 on
unreadable input.
"""

PROBE_EXAMPLES = """\
examples:
  docgen probe                                 the app named by `probe_app:` in mkdocs.yml
  docgen probe --app myapp.main:app            an ASGI (FastAPI, Starlette, ...) or WSGI (Flask, ...) app
  docgen probe --skip-client typescript        an MCP server's evidence without Node here
  docgen probe --url http://127.0.0.1:8000/mcp   a server you started (an HTTP API: its root URL)
  then: docgen render   (an MCP server's page shows the new evidence)
"""
