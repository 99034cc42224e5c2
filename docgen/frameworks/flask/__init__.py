"""Flask and Werkzeug: how a Flask application declares routes, blueprints and error handlers, and what
Werkzeug's exceptions send to the client.

Owns: the `Framework` itself and what Flask means by an HTTP error (`framework`), reading applications,
blueprints, their rules and `before_request` functions (`routes`, with rules routed through a helper of the
application's own in `rule_helpers`) and walking them into operations (`blueprints`), class-based views
(`views`), rules and prefixes as text and as OpenAPI paths (`paths`), error handlers (`handlers`), and the
installed Werkzeug's exception classes with their status and description (`werkzeug`).

May import: `docgen.core`, `docgen.extract`.
"""
