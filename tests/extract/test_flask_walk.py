"""Flask patterns met in real applications that the style tests did not cover, each in a small application
written here and held against what Flask's test client answers."""

from __future__ import annotations

import html
import json
from pathlib import Path

import pytest
from flask import Flask
from werkzeug.exceptions import BadRequest, Forbidden, UnsupportedMediaType

from docgen.shell.cli import main
from tests.extract.test_flask_styles import catalog, responses

OWN_TEXT_HANDLERS = """\
from flask import Blueprint, Flask, jsonify, request

app = Flask(__name__)
bp = Blueprint("api", __name__, url_prefix="/api")


class Invalid(Exception):
    pass


class Refused(Exception):
    pass


class Gone(Exception):
    pass


@bp.errorhandler(Invalid)
def on_invalid(error):
    message = str(error)
    return message, 400


@bp.errorhandler(Refused)
def on_refused(error):
    return jsonify(error=str(error)), 403


@app.errorhandler(Gone)
def on_gone(error):
    return {"message": f"{error}", "first": error.args[0]}, 410


def _check(value):
    if value != "ok":
        raise Invalid("Invalid path")
    return value


@bp.route("/a/<name>")
def a(name):
    _check(name)
    return jsonify(ok=True)


@bp.route("/b/<int:n>")
def b(n):
    if n == 1:
        raise Refused("No one here")
    raise Gone("It went away")


app.register_blueprint(bp)
"""


def _run(source: str) -> Flask:
    namespace: dict[str, object] = {"__name__": "api.main"}
    exec(compile(source, "api/main.py", "exec"), namespace)  # the test may run the application
    app = namespace["app"]
    assert isinstance(app, Flask)
    return app


def test_a_handler_answering_with_the_text_of_an_exception_of_the_application(tmp_path: Path) -> None:
    """`str(error)`, through a local name or in a JSON body, `f"{error}"` and `error.args[0]`: the text the
    exception was raised with, which the raise gives, not a template."""
    found = catalog(tmp_path, OWN_TEXT_HANDLERS)
    assert responses(found) == {
        ("get", "/api/a/{name}"): [(400, "Invalid path", "<html>")],
        ("get", "/api/b/{n}"): [(403, "No one here", "error"), (410, "It went away", "message")],
    }
    client = _run(OWN_TEXT_HANDLERS).test_client()
    answer = client.get("/api/a/x")
    assert (answer.status_code, answer.get_data(as_text=True)) == (400, "Invalid path")
    answer = client.get("/api/b/1")
    assert (answer.status_code, answer.get_json()) == (403, {"error": "No one here"})
    answer = client.get("/api/b/2")
    assert (answer.status_code, answer.get_json()["message"]) == (410, "It went away")


REQUEST_DATA = """\
from flask import Blueprint, Flask, jsonify, request
from werkzeug.exceptions import BadRequest

app = Flask(__name__)
api = Blueprint("api", __name__, url_prefix="/api")


@api.errorhandler(400)
def bad_request(error):
    return jsonify(error=error.description), 400


def _page():
    return int(request.args["page"])


@app.get("/search")
def search():
    return jsonify(q=request.args["q"], more=request.args["q"], page=request.args.get("page"))


@app.post("/items")
def add_item():
    data = request.get_json()
    return jsonify(name=data["name"])


@app.post("/forced")
def forced():
    return jsonify(request.get_json(force=True))


@app.post("/quiet")
def quiet():
    return jsonify(request.get_json(silent=True), request.form.get("name"))


@api.get("/list")
def listing():
    return jsonify(page=_page())


@api.put("/raw")
def raw():
    return jsonify(request.json)


app.register_blueprint(api)
"""


def test_reading_the_request_answers_400_or_415_as_werkzeug_does(tmp_path: Path) -> None:
    """A missing key of `request.args` (once per function), a body that is not JSON (415 unless forced) or
    does not parse (Flask's plain 400), each through the handler a blueprint registers for its status."""
    found = catalog(tmp_path, REQUEST_DATA)
    bad, json_type = BadRequest.description, UnsupportedMediaType.description
    wrong_type = (
        "Did not attempt to load JSON data because the request Content-Type was not 'application/json'."
    )
    assert json_type != wrong_type  # the message Werkzeug raises with, not the class's description
    assert responses(found) == {
        ("get", "/search"): [(400, bad, "<html>")],
        ("post", "/items"): [(415, wrong_type, "<html>"), (400, bad, "<html>")],
        ("post", "/forced"): [(400, bad, "<html>")],
        ("post", "/quiet"): [],
        ("get", "/api/list"): [(400, bad, "error")],
        ("put", "/api/raw"): [(415, wrong_type, "<html>"), (400, bad, "error")],
    }
    assert {e.exception for e in found.errors} == {"BadRequestKeyError", "UnsupportedMediaType", "BadRequest"}
    client = _run(REQUEST_DATA).test_client()
    for answer in (client.get("/search"), client.post("/items", data="{", content_type="application/json")):
        assert (answer.status_code, _paragraph(answer.get_data(as_text=True))) == (400, bad)
    for answer in (client.post("/items", data="x"), client.put("/api/raw", data="x")):
        assert (answer.status_code, _paragraph(answer.get_data(as_text=True))) == (415, wrong_type)
    answer = client.post("/forced", data="{")
    assert (answer.status_code, _paragraph(answer.get_data(as_text=True))) == (400, bad)
    assert client.post("/quiet", data="x").status_code == 200
    unparsed = client.put("/api/raw", data="{", content_type="application/json")
    for answer in (client.get("/api/list"), unparsed):
        assert (answer.status_code, answer.get_json()) == (400, {"error": bad})


def _paragraph(page: str) -> str:
    """The text of Werkzeug's error page: its one paragraph."""
    return html.unescape(page.split("<p>", 1)[1].split("</p>", 1)[0])


FACTORY_PREFIX = """\
from flask import Blueprint, Flask, abort

bp = Blueprint("dash", __name__)


@bp.get("/jobs/<int:n>")
def job(n):
    abort(404)


def make_app(url_prefix):
    app = Flask(__name__)
    app.register_blueprint(bp, url_prefix=url_prefix)
    return app
"""


def test_a_prefix_known_only_at_run_time_is_a_located_finding(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A blueprint registered under a parameter of the factory: the path keeps it in braces, extract says
    where it is written, and the fragment leaves the operation out rather than make up a path parameter;
    a value the configuration states then gives the path."""
    found = catalog(tmp_path, FACTORY_PREFIX)
    [operation] = found.operations
    assert (operation.path, [u.expression for u in operation.unresolved]) == (
        "{url_prefix}/jobs/{n}",
        ["url_prefix"],
    )
    assert main(["--config", str(tmp_path / "mkdocs.yml"), "extract"]) == 0
    told = [line for line in capsys.readouterr().err.splitlines() if line.startswith("api/main.py:13: ")]
    assert len(told) == 1
    assert "`url_prefix`, which cannot be read statically" in told[0]
    fragment = json.loads((tmp_path / "data" / "api.openapi.json").read_text(encoding="utf-8"))
    assert fragment["paths"] == {}
    stated = '          run_time_values: [{expression: url_prefix, value: "/rq"}]\n'
    [operation] = catalog(tmp_path, FACTORY_PREFIX, extra=stated).operations
    assert (operation.path, operation.unresolved) == ("/rq/jobs/{n}", ())


ERROR_HELPER = """\
from flask import Flask, jsonify

app = Flask(__name__)


def error(status, message, code="error"):
    return jsonify(error=message, code=code), status


@app.get("/items/<int(signed=True):n>")
def item(n):
    if n == 0:
        return error(404, "No such item", code="missing")
    if n < 0:
        return error(400, "Items count from 1")
    return jsonify(n=n)
"""


def test_an_error_helper_is_read_at_each_call_with_its_values(tmp_path: Path) -> None:
    found = catalog(tmp_path, ERROR_HELPER)
    assert responses(found) == {
        ("get", "/items/{n}"): [(404, "No such item", "error"), (400, "Items count from 1", "error")]
    }
    client = _run(ERROR_HELPER).test_client()
    assert [
        (a.status_code, a.get_json()["error"]) for a in (client.get("/items/0"), client.get("/items/-1"))
    ] == [
        (404, "No such item"),
        (400, "Items count from 1"),
    ]


BY_METHOD = """\
from flask import Flask, abort, jsonify, request

app = Flask(__name__)


@app.before_request
def reject_cross_site_post():
    if request.method == "POST" and request.headers.get("Origin", "x") != "x":
        abort(403)


@app.route("/notes", methods=["GET", "POST", "PUT"])
def notes():
    if request.method in ("POST", "PUT") and not request.is_json:
        return jsonify(error="Send JSON"), 415
    return jsonify([])
"""


def test_a_check_on_request_method_answers_only_for_that_method(tmp_path: Path) -> None:
    found = catalog(tmp_path, BY_METHOD)
    forbidden = (403, Forbidden.description, "<html>")
    assert responses(found) == {
        ("get", "/notes"): [],
        ("post", "/notes"): [forbidden, (415, "Send JSON", "error")],
        ("put", "/notes"): [(415, "Send JSON", "error")],
    }
    client = _run(BY_METHOD).test_client()
    assert client.get("/notes", headers={"Origin": "y"}).status_code == 200
    assert client.post("/notes", headers={"Origin": "y"}).status_code == 403
    assert [client.post("/notes").status_code, client.put("/notes").status_code] == [415, 415]


CHECKED_KEY = """\
from flask import Flask, jsonify, request

app = Flask(__name__)


@app.get("/query")
def query():
    if request.args.get("sql"):
        return jsonify(sql=request.args["sql"])
    if "q" in request.args:
        return jsonify(q=request.args["q"])
    return jsonify(sql=None)


@app.get("/page")
def page():
    return jsonify(page=request.args["page"])
"""


def test_a_key_read_under_a_check_that_it_is_there_answers_nothing(tmp_path: Path) -> None:
    found = catalog(tmp_path, CHECKED_KEY)
    assert responses(found) == {
        ("get", "/page"): [(400, BadRequest.description, "<html>")],
        ("get", "/query"): [],
    }
    client = _run(CHECKED_KEY).test_client()
    answered = [client.get(p).status_code for p in ("/query?sql=1", "/query?q=1", "/query", "/page")]
    assert answered == [200, 200, 200, 400]
