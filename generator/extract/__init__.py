"""The extract stage: the server's source, read statically with griffe, becomes catalogs (data and text).

Owns: loading the source (`source`), resolving static values (`resolve`), finding constructor calls (`calls`),
building error sites (`sites`), stable ids (`identity`), the tools catalog (`tools`), routes catalogs
(`routes`: the interface each web framework implements; `fastapi_routes`, `fastapi_dependencies`,
`fastapi_handlers`: FastAPI's; `program`: the loaded package to follow calls in; `raises`: the HTTP errors an
operation reaches; `http_values`: their status and detail; `route_catalog`: the catalog and its ids), and the
stage end to end (`pipeline`). Nothing here imports or runs the server, and nothing writes a file.

May import: `generator.core`.
"""
