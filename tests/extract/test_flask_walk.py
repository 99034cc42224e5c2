"""Flask patterns met in real applications that the style tests did not cover, each in a small application
written here and held against what Flask's test client answers."""

from __future__ import annotations

from pathlib import Path

from flask import Flask

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
