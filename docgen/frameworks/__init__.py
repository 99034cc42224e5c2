"""Web frameworks: everything docgen knows about one framework, one subpackage each, read by routes catalogs.

Owns:

- the one registry of built-in frameworks (`BUILTIN` below: the name `framework:` gives in mkdocs.yml ->
  `module:attribute` of the class), which `core.settings.FRAMEWORKS` reads without importing a framework;
  a package outside docgen adds one through the entry-point group `docgen.frameworks` instead;
- FastAPI and Starlette (`fastapi`): its applications, routers, prefixes, conditions and dependencies
  (Starlette's routes declared as data included), its exception handlers, its HTTP exception with the
  status and detail it takes and the detail it fills in, the body its errors have on the wire, and its
  OpenAPI document taking the catalog's error responses;
- aiohttp's web server (`aiohttp`): applications, route tables, sub-applications, class-based views and
  middlewares, its HTTP exceptions with the status their class holds and the plain-text body they send;
- Flask and Werkzeug (`flask`): applications, blueprints and class-based views, error handlers, and the
  status and description of each Werkzeug exception, read from the installed Werkzeug;
- Litestar (`litestar`): its applications, routers, controllers and route handlers, guards, authentication
  middleware and dependencies by name, exception handlers at every layer, its `HTTPException` family, and
  its OpenAPI document taking the catalog's error responses;
- Django REST framework on Django (`drf`): a project's settings and URL configuration with its includes,
  routers and viewsets, its views' methods and actions, its `APIException` family with what the installed
  framework gives a raise that leaves them out, Django's `Http404` and `PermissionDenied`, the configured
  exception handler, what it answers without a raise (a generic lookup, permission classes, serializer
  validation), and a schema generator taking the catalog's error responses;
- a routes catalog's error responses merged into an application's OpenAPI document, the same for every
  framework (`openapi`, standard library only, as the application imports it).

Each framework implements `docgen.extract.routes.Framework`, the interface through which the generic
extractor (`docgen.extract.raises`, driven for the routes kind by `docgen.kinds.routes.catalog`) reads
operations and HTTP errors; the interface stays there because the extractor consumes it and may not import
this package.

Nothing here imports or runs the server. This module imports nothing, so that checking a configuration's
`framework:` costs no framework's import.

May import: `docgen.core`, `docgen.extract`.
"""

BUILTIN = {
    "aiohttp": "docgen.frameworks.aiohttp.framework:AiohttpFramework",
    "drf": "docgen.frameworks.drf.framework:DRFFramework",
    "fastapi": "docgen.frameworks.fastapi.framework:FastAPIFramework",
    "flask": "docgen.frameworks.flask.framework:FlaskFramework",
    "litestar": "docgen.frameworks.litestar.framework:LitestarFramework",
}
"""The frameworks docgen ships: name -> `module:attribute` of the class, imported only when configured."""
