"""The probe stage: the one part of docgen that runs the server, and only when asked to.

Owns: replaying each documented example against the server and building the evidence (`replay`); running
every example through the official clients (`clients`) against servers it starts under uvicorn (`servers`);
keeping the earlier outcomes of a client the user left out by name (`kept`); checking that each replayed
error links to its own entry (`links`); for an HTTP API (a routes catalog), telling how its app is served
(`apps`, in a process of its own: `detect`), serving it on 127.0.0.1 (`apps`; `wsgi_server`, `aiohttp_server`)
and sending each error's example there (`routes`).

May import: `docgen.core`, `docgen.templating`, `docgen.examples`.
"""
