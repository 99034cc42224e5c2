"""Route and error styles of Flask applications, each in a small application written here: how rules,
blueprints and class-based views are declared and nested, and how errors are raised, returned and handled;
what Werkzeug sends is checked against the installed Werkzeug."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from flask import Flask
from openapi_spec_validator import validate
from werkzeug.exceptions import BadRequest, Conflict, Forbidden, NotFound, Unauthorized

from docgen.core.errors import ConfigError
from docgen.core.models import RoutesCatalog
from docgen.frameworks.flask.paths import openapi_path
from docgen.shell.cli import main
from tests.helpers import make_files, run_extract_in_memory

MKDOCS = """\
site_name: t
plugins:
  - docgen:
      catalogs:
        api:
          kind: routes
          source: api/main.py
          framework: flask
{extra}"""


def catalog(root: Path, main: str, *, extra: str = "", files: dict[str, str] | None = None) -> RoutesCatalog:
    make_files(
        root,
        {
            "api/__init__.py": "",
            "api/main.py": main,
            "mkdocs.yml": MKDOCS.format(extra=extra),
            **(files or {}),
        },
    )
    found = run_extract_in_memory(root).catalogs["api"]
    assert isinstance(found, RoutesCatalog)
    return found


def responses(found: RoutesCatalog) -> dict[tuple[str, str], list[tuple[int | None, str, str]]]:
    """(method, path) -> (status, detail, body key) of each error, in the order the operation lists them."""
    errors = {error.id: error for error in found.errors}
    return {
        (o.method, o.path): [(errors[e].status, errors[e].detail, errors[e].body_key) for e, _ in o.errors]
        for o in found.operations
    }


RULES = """\
from flask import Blueprint, Flask

app = Flask(__name__)
outer = Blueprint("outer", __name__, url_prefix="/outer")
inner = Blueprint("inner", __name__, url_prefix="/inner/")
plain = Blueprint("plain", __name__)
PREFIX = "/v2"
BOTH = ("GET", "POST")

@app.route("/")
def root(): ...

@app.route("/both", methods=BOTH)
def both(): ...

@inner.put("/files/<path:name>")
def upload(name): ...

@inner.route("")
def listing(): ...

@plain.get("/kinds/<any(a, b):kind>/<int:number>")
def kinds(kind, number): ...

def patched(): ...

app.add_url_rule("/patched", "patched", patched, methods=["PATCH"])
outer.register_blueprint(inner)
app.register_blueprint(outer, url_prefix="/api")
app.register_blueprint(plain, url_prefix=PREFIX)
"""


def test_rules_declared_every_way_with_the_prefixes_flask_gives_them(tmp_path: Path) -> None:
    found = catalog(tmp_path, RULES)
    assert [(o.method, o.path, o.function) for o in found.operations] == [
        ("get", "/", "api.main.root"),
        ("get", "/api/inner/", "api.main.listing"),
        ("put", "/api/inner/files/{name}", "api.main.upload"),
        ("get", "/both", "api.main.both"),
        ("post", "/both", "api.main.both"),
        ("patch", "/patched", "api.main.patched"),
        ("get", "/v2/kinds/{kind}/{number}", "api.main.kinds"),
    ]
    # The same rules as Flask itself routes them, less the HEAD and OPTIONS it adds and its static files.
    namespace: dict[str, object] = {"__name__": "api.main"}
    exec(compile(RULES, "api/main.py", "exec"), namespace)  # the test may run the application
    app = namespace["app"]
    assert isinstance(app, Flask)
    routed = {
        (method.lower(), openapi_path(rule.rule))
        for rule in app.url_map.iter_rules()
        if rule.endpoint != "static"
        for method in rule.methods or ()
        if method not in ("HEAD", "OPTIONS")
    }
    assert routed == {(o.method, o.path) for o in found.operations}


def test_class_based_views_one_operation_per_method(tmp_path: Path) -> None:
    found = catalog(
        tmp_path,
        """\
        from flask import Flask
        from flask.views import MethodView, View

        app = Flask(__name__)

        class Readable(MethodView):
            def get(self, item_id): ...

        class Item(Readable):
            def delete(self, item_id): ...

        class Report(View):
            methods = ["GET", "POST"]

            def dispatch_request(self): ...

        report = Report.as_view("report")
        app.add_url_rule("/items/<int:item_id>", view_func=Item.as_view("item"))
        app.add_url_rule("/report", view_func=report)
        """,
    )
    assert [(o.method, o.path, o.function) for o in found.operations] == [
        ("get", "/items/{item_id}", "api.main.Readable.get"),
        ("delete", "/items/{item_id}", "api.main.Item.delete"),
        ("get", "/report", "api.main.Report.dispatch_request"),
        ("post", "/report", "api.main.Report.dispatch_request"),
    ]


FACTORY = """\
from flask import Flask

def create_app():
    application = Flask(__name__)
    application.add_url_rule("/made", view_func=made)
    return application

def made(): ...
"""


def test_an_application_a_factory_builds_named_by_app(tmp_path: Path) -> None:
    found = catalog(tmp_path / "a", FACTORY, extra="          app: api.main.create_app\n")
    assert [o.path for o in found.operations] == ["/made"]
    with pytest.raises(ConfigError, match=r"no Flask application 'api\.main\.create_ap'") as caught:
        catalog(tmp_path / "b", FACTORY, extra="          app: api.main.create_ap\n")
    assert caught.value.hint == "did you mean 'api.main.create_app'?"


def test_werkzeug_errors_without_a_handler_are_its_html_page(tmp_path: Path) -> None:
    found = catalog(
        tmp_path,
        """\
        from flask import Flask, abort
        from werkzeug import exceptions

        app = Flask(__name__)

        class Clash(exceptions.Conflict):
            pass

        @app.get("/a/<int:n>")
        def a(n):
            if n == 1:
                abort(404)
            if n == 2:
                raise exceptions.BadRequest("Send a smaller n")
            if n == 3:
                raise exceptions.Forbidden(description="Not yours")
            raise Clash()
        """,
    )
    assert responses(found) == {
        ("get", "/a/{n}"): [
            (404, NotFound.description, "<html>"),
            (400, "Send a smaller n", "<html>"),
            (403, "Not yours", "<html>"),
            (409, Conflict.description, "<html>"),
        ]
    }
    assert BadRequest("Send a smaller n").description == "Send a smaller n"
    assert Forbidden(description="Not yours").get_description() == "<p>Not yours</p>"


def test_returned_responses_with_an_error_status_and_successes_that_are_not(tmp_path: Path) -> None:
    found = catalog(
        tmp_path,
        """\
        from flask import Flask, Response, jsonify, make_response

        app = Flask(__name__)

        @app.post("/r/<int:n>")
        def r(n):
            if n == 1:
                return "No teapots here", 418
            if n == 2:
                return make_response("Too big", 413)
            if n == 3:
                return Response("Down for maintenance", status=503)
            if n == 4:
                return jsonify({"message": "Unknown n"}), 422
            if n == 5:
                return jsonify(ok=True), 201
            return Response(status=204)
        """,
    )
    assert responses(found) == {
        ("post", "/r/{n}"): [
            (418, "No teapots here", "<html>"),
            (413, "Too big", "<html>"),
            (503, "Down for maintenance", "<html>"),
            (422, "Unknown n", "message"),
        ]
    }


def test_handlers_for_a_status_a_class_and_on_a_blueprint(tmp_path: Path) -> None:
    found = catalog(
        tmp_path,
        """\
        from flask import Blueprint, Flask, abort, jsonify
        from werkzeug.exceptions import BadRequest, NotFound

        app = Flask(__name__)
        bp = Blueprint("bp", __name__)

        class Overdrawn(Exception):
            pass

        @app.errorhandler(404)
        def not_found(error):
            return jsonify(message="Nothing here"), 404

        @bp.app_errorhandler(Overdrawn)
        def overdrawn(error):
            return {"problem": "The account is overdrawn"}, 402

        def bad_request(error):
            return error

        app.register_error_handler(BadRequest, bad_request)

        @bp.get("/h/<int:n>")
        def h(n):
            if n == 1:
                abort(404)
            if n == 2:
                raise NotFound()
            if n == 3:
                raise Overdrawn()
            abort(400, "Bad n")

        app.register_blueprint(bp)
        """,
    )
    assert responses(found) == {
        ("get", "/h/{n}"): [
            (404, "Nothing here", "message"),
            (404, "Nothing here", "message"),
            (402, "The account is overdrawn", "problem"),
            (400, "Bad n", "<html>"),
        ]
    }
    assert [e.handler for e in found.errors] == [
        "api.main.not_found",
        "api.main.not_found",
        "api.main.overdrawn",
        "api.main.bad_request",
    ]


def test_decorators_and_before_request_functions_run_first(tmp_path: Path) -> None:
    found = catalog(
        tmp_path,
        """\
        from functools import wraps

        from flask import Blueprint, Flask, abort, request

        app = Flask(__name__)
        admin = Blueprint("admin", __name__, url_prefix="/admin")

        def requires_role(role):
            def decorator(view):
                @wraps(view)
                def checked(*args, **kwargs):
                    if request.args.get("role") != role:
                        abort(403, f"Only {role} may do this")
                    return view(*args, **kwargs)
                return checked
            return decorator

        @app.before_request
        def open_hours():
            if request.args.get("closed"):
                abort(503, "The library is closed")

        @admin.before_request
        def admins():
            if not request.args.get("admin"):
                abort(401, "Admins sign in first")

        @admin.delete("/users/<int:user_id>")
        @requires_role("owner")
        def remove(user_id): ...

        app.register_blueprint(admin)
        """,
    )
    [operation] = found.operations
    assert operation.dependencies == ("api.main.open_hours", "api.main.admins")
    assert responses(found) == {
        ("delete", "/admin/users/{user_id}"): [
            (503, "The library is closed", "<html>"),
            (401, "Admins sign in first", "<html>"),
            (403, "Only {role} may do this", "<html>"),
        ]
    }
    assert found.operations[0].errors[2][1] == ("api.main.requires_role.decorator.checked",)


def test_an_html_page_in_the_fragment_is_text_html_with_the_detail_as_text(tmp_path: Path) -> None:
    catalog(
        tmp_path,
        """\
        from flask import Flask, abort

        app = Flask(__name__)

        @app.get("/gone")
        def gone():
            abort(410)
        """,
    )
    assert main(["--config", str(tmp_path / "mkdocs.yml"), "extract"]) == 0
    fragment = json.loads((tmp_path / "data" / "api.openapi.json").read_text(encoding="utf-8"))
    validate(fragment)
    response = fragment["paths"]["/gone"]["get"]["responses"]["410"]
    assert response["content"]["text/html"]["schema"] == {"type": "string"}
    [example] = response["content"]["text/html"]["examples"].values()
    assert example["value"] == (
        "The requested URL is no longer available on this server and there is no forwarding address. If "
        "you followed a link from a foreign page, please contact the author of this page."
    )


def test_a_handler_rendering_a_template_with_the_exception_keeps_its_description(tmp_path: Path) -> None:
    found = catalog(
        tmp_path,
        """\
        from flask import Flask, abort, render_template

        app = Flask(__name__)

        @app.errorhandler(404)
        @app.errorhandler(500)
        def page(error):
            return render_template("error.html", error=error), error.code

        @app.get("/t/<int:n>")
        def t(n):
            if n == 1:
                abort(500, "No databases are loaded.")
            abort(404)
        """,
    )
    assert responses(found) == {
        ("get", "/t/{n}"): [
            (500, "No databases are loaded.", "<html>"),
            (404, NotFound.description, "<html>"),
        ]
    }
    assert {error.handler for error in found.errors} == {"api.main.page"}


def test_a_redirect_raised_as_an_exception_is_not_an_error(tmp_path: Path) -> None:
    found = catalog(
        tmp_path,
        """\
        from flask import Blueprint, Flask, abort
        from werkzeug.exceptions import HTTPException

        app = Flask(__name__)
        bp = Blueprint("bp", __name__)

        class SeeOther(HTTPException):
            code = 303

        @bp.url_value_preprocessor
        def pull_project(endpoint, values):
            if not values:
                raise SeeOther()
            if values.get("project") == "gone":
                abort(410, "The project was deleted")

        @bp.get("/<project>/bills")
        def bills(project): ...

        app.register_blueprint(bp)
        """,
    )
    assert responses(found) == {("get", "/{project}/bills"): [(410, "The project was deleted", "<html>")]}


def test_routes_and_handlers_a_factory_declares_inside_itself(tmp_path: Path) -> None:
    found = catalog(
        tmp_path,
        """\
        from flask import Flask, abort, jsonify

        def create_app():
            app = Flask(__name__)

            @app.errorhandler(404)
            def not_found(error):
                return jsonify(error=error.description), 404

            @app.get("/inside/<int:n>")
            def inside(n):
                if n < 0:
                    abort(404)
                return {"n": n}

            return app

        app = create_app()
        """,
    )
    [operation] = found.operations
    assert (operation.method, operation.path, operation.function) == (
        "get",
        "/inside/{n}",
        "api.main.create_app.inside",
    )
    [error] = found.errors
    assert (error.status, error.detail, error.handler, error.body_key) == (
        404,
        NotFound.description,
        "api.main.create_app.not_found",
        "error",
    )
    assert [(source.path, source.symbols) for source in found.sources] == [
        ("api/main.py", ("create_app.inside",))
    ]


def test_abort_with_a_response_sends_that_response(tmp_path: Path) -> None:
    from flask import Flask, abort, jsonify, make_response

    source = """\
        from flask import Flask, abort, jsonify, make_response
        from werkzeug.exceptions import HTTPException

        app = Flask(__name__)

        @app.errorhandler(HTTPException)
        def http_error(error):
            return {"error": error.description}, error.code

        @app.get("/r")
        def r():
            abort(make_response(jsonify(message="Ask again later"), 429))
        """
    found = catalog(tmp_path, source)
    assert responses(found) == {("get", "/r"): [(429, "Ask again later", "message")]}
    assert [error.handler for error in found.errors] == [None]
    bare = Flask("bare")
    bare.register_error_handler(Exception, lambda error: ({"error": "handled"}, 500))
    bare.add_url_rule("/r", view_func=lambda: abort(make_response(jsonify(message="Ask again later"), 429)))
    answer = bare.test_client().get("/r")
    assert (answer.status_code, answer.get_json()) == (429, {"message": "Ask again later"})


def test_a_class_raised_without_calling_it(tmp_path: Path) -> None:
    found = catalog(
        tmp_path,
        """\
        from flask import Flask
        from werkzeug import exceptions
        from werkzeug.exceptions import Unauthorized

        app = Flask(__name__)

        @app.get("/c/<int:n>")
        def c(n):
            if n == 1:
                raise Unauthorized
            try:
                return {"n": 1 / n}
            except ZeroDivisionError as error:
                raise exceptions.BadRequest from error
        """,
    )
    assert responses(found) == {
        ("get", "/c/{n}"): [
            (401, Unauthorized.description, "<html>"),
            (400, BadRequest.description, "<html>"),
        ]
    }


FLASK_DOCS_HANDLER = """\
import json

from flask import Flask, abort
from werkzeug.exceptions import HTTPException

app = Flask(__name__)


@app.errorhandler(HTTPException)
def handle_exception(e):
    response = e.get_response()
    response.data = json.dumps({"code": e.code, "name": e.name, "description": e.description})
    response.content_type = "application/json"
    return response


@app.get("/d/<int:n>")
def d(n):
    if n == 1:
        abort(404)
    abort(409, "Already there")
"""


def test_the_json_handler_flask_documents(tmp_path: Path) -> None:
    found = catalog(tmp_path, FLASK_DOCS_HANDLER)
    assert responses(found) == {
        ("get", "/d/{n}"): [(404, NotFound.description, "description"), (409, "Already there", "description")]
    }
    namespace: dict[str, object] = {"__name__": "api.main"}
    exec(compile(FLASK_DOCS_HANDLER, "api/main.py", "exec"), namespace)  # the test may run the application
    app = namespace["app"]
    assert isinstance(app, Flask)
    for n, error in zip((1, 2), found.errors, strict=True):
        answer = app.test_client().get(f"/d/{n}")
        assert (answer.status_code, answer.get_json()[error.body_key]) == (error.status, error.detail)


def test_flask_sqlalchemy_get_or_404_and_a_helper_of_that_name(tmp_path: Path) -> None:
    found = catalog(
        tmp_path,
        """\
        from flask import Flask, abort

        from api.models import Book, db

        app = Flask(__name__)

        def first_or_404(items):
            if not items:
                abort(404, "No items at all")
            return items[0]

        @app.get("/books/<int:book_id>")
        def book(book_id):
            return Book.query.get_or_404(book_id, description="No book has this id").title

        @app.get("/books/first")
        def first():
            db.first_or_404(db.select(Book))
            return first_or_404([])
        """,
        files={"api/models.py": "class Book:\n    query = None\n\n\ndb = None\n"},
    )
    assert responses(found) == {
        ("get", "/books/first"): [(404, NotFound.description, "<html>"), (404, "No items at all", "<html>")],
        ("get", "/books/{book_id}"): [(404, "No book has this id", "<html>")],
    }


def test_a_response_returned_through_a_local_name(tmp_path: Path) -> None:
    found = catalog(
        tmp_path,
        """\
        from flask import Flask, Response

        app = Flask(__name__)

        @app.get("/drip")
        def drip():
            numbytes = 3
            if numbytes <= 0:
                response = Response("number of bytes must be positive", status=400)
                return response
            response = Response(b"*" * numbytes, status=200)
            return response
        """,
    )
    assert responses(found) == {("get", "/drip"): [(400, "number of bytes must be positive", "<html>")]}


STATUS_SET_LATER = """\
from flask import Flask, current_app, jsonify

app = Flask(__name__)


@app.get("/s/<int:n>")
def s(n):
    if n == 1:
        response = jsonify(message="Pick another n")
        response.status_code = 400
        return response
    if n == 2:
        response = current_app.make_response("")
        response.headers["WWW-Authenticate"] = "Bearer"
        response.status_code = 401
        return response
    response = jsonify(n=n)
    response.status_code = 200
    return response
"""


def test_a_status_set_on_the_response_before_it_is_returned(tmp_path: Path) -> None:
    found = catalog(tmp_path, STATUS_SET_LATER)
    assert responses(found) == {("get", "/s/{n}"): [(400, "Pick another n", "message"), (401, "", "<html>")]}
    namespace: dict[str, object] = {"__name__": "api.main"}
    exec(compile(STATUS_SET_LATER, "api/main.py", "exec"), namespace)  # the test may run the application
    app = namespace["app"]
    assert isinstance(app, Flask)
    client = app.test_client()
    answer = client.get("/s/1")
    assert (answer.status_code, answer.get_json()) == (400, {"message": "Pick another n"})
    answer = client.get("/s/2")
    assert (answer.status_code, answer.get_data(as_text=True)) == (401, "")
    assert client.get("/s/3").status_code == 200


def test_a_detail_formatted_at_run_time_is_a_template(tmp_path: Path) -> None:
    found = catalog(
        tmp_path,
        """\
        from flask import Flask, abort, request

        app = Flask(__name__)

        @app.before_request
        def refuse_chunked():
            server = request.environ.get("SERVER_SOFTWARE", "")
            if request.environ.get("HTTP_TRANSFER_ENCODING") == "chunked":
                abort(501, "Chunked requests are not supported for server %s" % server)

        @app.get("/f/<name>")
        def f(name):
            abort(404, "No file named {} in {folder}".format(name, folder="/srv"))
        """,
    )
    assert responses(found) == {
        ("get", "/f/{name}"): [
            (501, "Chunked requests are not supported for server {server}", "<html>"),
            (404, "No file named {name} in /srv", "<html>"),
        ]
    }


def test_rules_routed_through_a_helper_and_a_blueprint_of_a_plugin_hook(tmp_path: Path) -> None:
    found = catalog(
        tmp_path,
        """\
        from flask import Blueprint, abort
        from flask.views import MethodView

        from api.helpers import register_view

        FORUM_URL_PREFIX = "/forum"

        class ViewTopic(MethodView):
            def get(self, topic_id, slug=None):
                abort(404)

            def post(self, topic_id, slug=None): ...

        def load_blueprints(app):
            forum = Blueprint("forum", __name__)
            register_view(
                forum,
                routes=["/topic/<int:topic_id>", "/topic/<int:topic_id>-<slug>"],
                view_func=ViewTopic.as_view("view_topic"),
            )
            register_view(forum, routes=["/search"], view_func=ViewTopic.as_view("search"), methods=["GET"])
            app.register_blueprint(forum, url_prefix=FORUM_URL_PREFIX)
        """,
        files={
            "api/helpers.py": """\
                def register_view(bp_or_app, routes, view_func, *args, **kwargs):
                    for route in routes:
                        bp_or_app.add_url_rule(route, view_func=view_func, *args, **kwargs)
                """
        },
    )
    assert [(o.method, o.path, o.function) for o in found.operations] == [
        ("get", "/forum/search", "api.main.ViewTopic.get"),
        ("get", "/forum/topic/{topic_id}", "api.main.ViewTopic.get"),
        ("post", "/forum/topic/{topic_id}", "api.main.ViewTopic.post"),
        ("get", "/forum/topic/{topic_id}-{slug}", "api.main.ViewTopic.get"),
        ("post", "/forum/topic/{topic_id}-{slug}", "api.main.ViewTopic.post"),
    ]
    assert {error.status for error in found.errors} == {404}


def test_a_blueprint_no_application_registers_keeps_its_own_prefix(tmp_path: Path) -> None:
    found = catalog(
        tmp_path,
        """\
        from flask import Blueprint

        bp = Blueprint("bp", __name__, url_prefix="/bp")

        @bp.get("/x")
        def x(): ...
        """,
    )
    assert [o.path for o in found.operations] == ["/bp/x"]


def test_flask_restful_resources_and_their_json_errors(tmp_path: Path) -> None:
    found = catalog(
        tmp_path,
        """\
        from functools import wraps

        from flask import Blueprint, Flask, request
        from flask_restful import Api, Resource, abort

        app = Flask(__name__)
        bp = Blueprint("api", __name__, url_prefix="/api")
        api = Api(bp, prefix="/v1")

        def need_auth(f):
            @wraps(f)
            def wrapper(*args, **kwargs):
                if not request.authorization:
                    abort(401)
                return f(*args, **kwargs)
            return wrapper

        class Todo(Resource):
            method_decorators = [need_auth]

            def get(self, todo_id):
                abort(404, message=f"Todo {todo_id} doesn't exist")

            def delete(self, todo_id):
                return "", 204

        api.add_resource(Todo, "/todos/<int:todo_id>", "/todo/<int:todo_id>")
        app.register_blueprint(bp)
        """,
    )
    key = "api.main.need_auth.wrapper"
    assert [(o.method, o.path, o.function, o.dependencies) for o in found.operations] == [
        ("get", "/api/v1/todo/{todo_id}", "api.main.Todo.get", (key,)),
        ("delete", "/api/v1/todo/{todo_id}", "api.main.Todo.delete", (key,)),
        ("get", "/api/v1/todos/{todo_id}", "api.main.Todo.get", (key,)),
        ("delete", "/api/v1/todos/{todo_id}", "api.main.Todo.delete", (key,)),
    ]
    assert responses(found)[("get", "/api/v1/todos/{todo_id}")] == [
        (401, Unauthorized.description, "message"),
        (404, "Todo {todo_id} doesn't exist", "message"),
    ]


def test_a_flask_application_is_detected_when_framework_is_left_out(tmp_path: Path) -> None:
    make_files(
        tmp_path,
        {
            "api/__init__.py": "",
            "api/main.py": "from flask import Flask\n\napp = Flask(__name__)\n\n"
            "@app.get('/ping')\ndef ping(): ...\n",
            "mkdocs.yml": MKDOCS.format(extra="").replace("          framework: flask\n", ""),
        },
    )
    found = run_extract_in_memory(tmp_path).catalogs["api"]
    assert isinstance(found, RoutesCatalog)
    assert (found.framework, [o.path for o in found.operations]) == ("flask", ["/ping"])


SCOPED_HANDLERS = """\
from flask import Blueprint, Flask, abort, jsonify

app = Flask(__name__)
api = Blueprint("api", __name__, url_prefix="/api")
v1 = Blueprint("v1", __name__, url_prefix="/v1")


@api.errorhandler(404)
def api_not_found(error):
    return jsonify(error=error.description), 404


@app.errorhandler(404)
def page_not_found(error):
    return "There is no such page", 404


def find(n):
    if n > 9:
        abort(404)
    return n


@v1.get("/items/<int:n>")
def item(n):
    return {"n": find(n)}


@app.get("/pages/<int:n>")
def page(n):
    if n < 0:
        abort(404, "Pages are numbered from 0")
    return {"n": n}


api.register_blueprint(v1)
app.register_blueprint(api)
"""


def test_a_blueprint_s_own_handler_answers_for_its_routes_only(tmp_path: Path) -> None:
    found = catalog(tmp_path, SCOPED_HANDLERS)
    assert responses(found) == {
        ("get", "/api/v1/items/{n}"): [(404, NotFound.description, "error")],
        ("get", "/pages/{n}"): [(404, "There is no such page", "<html>")],
    }
    namespace: dict[str, object] = {"__name__": "api.main"}
    exec(compile(SCOPED_HANDLERS, "api/main.py", "exec"), namespace)  # the test may run the application
    app = namespace["app"]
    assert isinstance(app, Flask)
    client = app.test_client()
    answer = client.get("/api/v1/items/10")
    assert (answer.status_code, answer.get_json()) == (404, {"error": NotFound.description})
    answer = client.get("/pages/-1")
    assert (answer.status_code, answer.get_data(as_text=True)) == (404, "There is no such page")


def test_blueprints_of_factories_imported_in_the_app_factory_and_routed_by_helpers(tmp_path: Path) -> None:
    # changedetection.io: `import pkg.blueprint.rss as rss` inside the app factory, `rss.construct_blueprint(
    # datastore)` makes a blueprint that `construct_main_feed_routes(rss_blueprint, datastore)` routes on its
    # parameter, and a blueprint registered only under an `if`.
    found = catalog(
        tmp_path,
        """\
        from flask import Flask

        def create_app(datastore):
            app = Flask(__name__)
            import api.rss as rss

            app.register_blueprint(rss.construct_blueprint(datastore), url_prefix="/rss")
            if datastore.llm:
                from api.llm import construct_llm_blueprint

                app.register_blueprint(construct_llm_blueprint(datastore), url_prefix="/llm")
            return app
        """,
        files={
            "api/rss.py": """\
            from flask import Blueprint

            from api.feeds import construct_feed_routes

            def construct_blueprint(datastore):
                rss_blueprint = Blueprint("rss", __name__)
                construct_feed_routes(rss_blueprint, datastore)
                return rss_blueprint
            """,
            "api/feeds.py": """\
            from flask import abort

            def construct_feed_routes(blueprint, datastore):
                @blueprint.route("/<uuid>")
                def feed(uuid):
                    abort(404, "No such watch")
            """,
            "api/llm.py": """\
            from flask import Blueprint

            def construct_llm_blueprint(datastore):
                llm = Blueprint("llm", __name__)

                @llm.route("/models")
                def models():
                    return []

                return llm
            """,
        },
        extra="          app: api.main.create_app\n",
    )
    assert responses(found) == {
        ("get", "/llm/models"): [],
        ("get", "/rss/{uuid}"): [(404, "No such watch", found.errors[0].body_key)],
    }
    assert {o.path: o.condition for o in found.operations} == {
        "/llm/models": "datastore.llm",
        "/rss/{uuid}": None,
    }
