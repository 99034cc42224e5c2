"""FastAPI and Starlette: how their applications declare routes, prefixes, dependencies and exception
handlers, what their HTTP exception means on the wire, and FastAPI's OpenAPI document taking a catalog's
error responses.

Owns: the `Framework` itself and what FastAPI means by an HTTP error (`framework`), the applications and
routers the source declares and what is attached to them, under which condition (`routers`), the operations
reachable from an application through its routers and prefixes (`routes`), Starlette applications whose
routes are data (`starlette`), `Depends`/`Security` (`dependencies`), exception handlers (`handlers`), the
error responses merged into the application's `/openapi.json` (`openapi`, which the application imports).

May import: `docgen.core`, `docgen.extract`.
"""
