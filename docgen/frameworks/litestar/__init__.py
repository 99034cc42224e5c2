"""Litestar: how its applications declare routes, routers, controllers, guards, dependencies, middleware and
exception handlers, what its HTTP exceptions mean on the wire, and its OpenAPI document taking a catalog's
error responses.

Owns: the `Framework` itself and what Litestar means by an HTTP error (`framework`), the names Litestar
gives its classes and decorators and how it joins paths (`names`), applications, routers, controllers and
route handlers as written (`layers`, with the records they make in `records` and the statement reading in
`blocks`), the operations they make (`routes`), authentication middleware (`middleware`), exception
handlers at every layer (`handlers`), the error responses merged into the application's OpenAPI document
(`openapi`, which the application imports).

May import: `docgen.core`, `docgen.extract`.
"""
