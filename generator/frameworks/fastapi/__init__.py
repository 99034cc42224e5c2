"""FastAPI: how its applications declare routes, prefixes, dependencies and exception handlers, what its HTTP
exception means on the wire, and its OpenAPI document taking a catalog's error responses.

Owns: the `Framework` itself and what FastAPI means by an HTTP error (`framework`), applications, routers
and their prefixes (`routes`), `Depends`/`Security` (`dependencies`), exception handlers (`handlers`), the
error responses merged into the application's `/openapi.json` (`openapi`, which the application imports).

May import: `generator.core`, `generator.extract`.
"""
