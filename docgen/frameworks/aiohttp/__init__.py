"""aiohttp's web server: how its applications declare routes, sub-applications and middlewares, and what its
HTTP exceptions and responses send on the wire.

Owns: the `Framework` itself and what aiohttp means by an HTTP error (`framework`), what the names of a
program stand for (`reading`: applications, route tables, factories, views, decorators' wrappers), the
operations reachable from an application (`routes`), its paths in OpenAPI form (`paths`), and middlewares
read as exception handlers (`middlewares`).

May import: `docgen.core`, `docgen.extract`.
"""
