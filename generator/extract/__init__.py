"""The extract stage: the server's source, read statically with griffe, becomes catalogs (data and text).

Owns: locating the source (`source`), reading only the modules it reaches, dependencies included (`modules`,
with what cannot be read in `unreadable`), resolving static values (`resolve`), configured names (`names`),
the constructors and their subclasses (`constructors`), which argument gives which field (`binding`), finding
constructor calls (`calls`), following the configured functions into helpers (`reach`; the locals made from
classes: `local_names`; `cls(...)` in a classmethod as a call of its class: `class_calls`), the raise sites
behind `except` handlers (`handlers`), refusing a configuration that finds nothing (`silence`), each call's
fields (`fields`), building error sites (`sites`), stable ids (`identity`), the tools catalog (`tools`),
routes catalogs (`routes`: the interface each web framework implements; `fastapi_routes`,
`fastapi_dependencies`, `fastapi_handlers`: FastAPI's; `program`: the loaded package to follow calls in;
`raises`: the HTTP errors an operation reaches; `http_values`: their status and detail; `route_catalog`: the
catalog and its ids), and the stage end to end (`pipeline`). Nothing here imports or runs the server, and
nothing writes a file.

May import: `generator.core`.
"""
