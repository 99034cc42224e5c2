"""Django REST framework, on Django: how a project declares its operations, what its views answer, and
what the framework answers for them.

Owns: the `Framework` and what REST framework means by an HTTP error (`framework`), the settings it reads
(`settings`: `ROOT_URLCONF`, `REST_FRAMEWORK`), the URL configuration with its includes and routers
(`urls`) and its patterns as OpenAPI paths (`paths`), the methods and actions each view answers
(`views`), the errors the framework answers without a raise in the source, a generic lookup and the
permission classes (`implied`), the serializer validation an operation runs (`serializers`), the configured
exception handler (`handlers`), the operations put together (`routes`), and a schema generator whose
OpenAPI document takes a catalog's error responses (`openapi`, which the project imports).

May import: `docgen.core`, `docgen.extract`.
"""
