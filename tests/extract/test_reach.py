"""Following the configured functions into helpers, methods and closures; and never passing in silence."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from docgen.core.errors import ConfigError, ConfigErrors, SourceError
from docgen.core.limits import MAX_CALL_DEPTH
from tests.helpers import MKDOCS_ERRORS, make_files, make_project, run_extract_in_memory


def entries(root: Path) -> list[dict[str, Any]]:
    result: list[dict[str, Any]] = run_extract_in_memory(root).catalogs["errors"].as_data()["entries"]
    return result


def facts(root: Path) -> list[tuple[str, str, list[str], list[str]]]:
    """(function, file, path, conditions) of every entry, in catalog order."""
    return [
        (e["function"], e["file"], e.get("path", [e["function"]]), e["conditions"]) for e in entries(root)
    ]


def test_a_module_helper_is_followed_with_the_callers_guards(tmp_path: Path) -> None:
    make_project(
        tmp_path,
        """\
        def _refuse(origin):
            if origin != "ok":
                return _rpc_error(None, -32600, f"Origin not allowed: {origin}", status=403)
            return None

        def endpoint(request):
            if request.origin is not None:
                if (refusal := _refuse(request.origin)) is not None:
                    return refusal
            return _rpc_error(None, -32603, "Internal error")
        """,
    )
    assert facts(tmp_path) == [
        (
            "_refuse",
            "app/server.py",
            ["endpoint", "_refuse"],
            ["request.origin is not None", "origin != 'ok'"],
        ),
        ("endpoint", "app/server.py", ["endpoint"], []),
    ]
    sources = run_extract_in_memory(tmp_path).catalogs["errors"].as_data()["sources"]
    assert sources == [{"path": "app/server.py", "symbols": ["_rpc_error", "endpoint", "_refuse"]}]


def test_helpers_two_levels_deep_in_another_module(tmp_path: Path) -> None:
    make_project(
        tmp_path,
        """\
        from app import checks

        def endpoint(request):
            return checks.check_all(request)
        """,
        extra={
            "app/checks.py": """\
                from app.server import _rpc_error

                def check_all(request):
                    return _check_size(request)

                def _check_size(request):
                    if len(request) > 10:
                        return _rpc_error(None, -32600, "Too large", status=413)
                    return None
                """
        },
    )
    assert facts(tmp_path) == [
        ("_check_size", "app/checks.py", ["endpoint", "check_all", "_check_size"], ["len(request) > 10"])
    ]
    sources = run_extract_in_memory(tmp_path).catalogs["errors"].as_data()["sources"]
    assert sources[1] == {"path": "app/checks.py", "symbols": ["check_all", "_check_size"]}


def test_self_and_inherited_methods_are_followed(tmp_path: Path) -> None:
    make_project(
        tmp_path,
        """\
        class Base:
            def _deny(self, who):
                return _rpc_error(None, -32001, f"Denied: {who}", status=403)

        class Handler(Base):
            def handle(self, request):
                if not request.user:
                    return self._deny(request.user)
                return self._check(request)

            def _check(self, request):
                return _rpc_error(None, -32002, "Checked", status=400)
        """,
        functions="Handler.handle",
    )
    assert facts(tmp_path) == [
        ("Base._deny", "app/server.py", ["Handler.handle", "Base._deny"], ["not request.user"]),
        ("Handler._check", "app/server.py", ["Handler.handle", "Handler._check"], []),
    ]


def test_calls_inside_closures_are_found(tmp_path: Path) -> None:
    make_project(
        tmp_path,
        """\
        def endpoint(request):
            def refuse(reason):
                return _rpc_error(None, -32600, f"Refused: {reason}", status=400)

            if not request:
                return refuse("empty")
            return None
        """,
    )
    assert facts(tmp_path) == [("endpoint.refuse", "app/server.py", ["endpoint.refuse"], [])]


def test_a_cycle_of_helpers_is_walked_once_per_path(tmp_path: Path) -> None:
    make_project(
        tmp_path,
        """\
        def _ping(n):
            if n:
                return _pong(n - 1)
            return _rpc_error(None, -32000, "Ping", status=400)

        def _pong(n):
            return _ping(n)

        def endpoint(request):
            return _ping(request)
        """,
    )
    assert [e["path"] for e in entries(tmp_path)] == [["endpoint", "_ping"]]


def test_a_helper_below_the_bound_is_a_located_error(tmp_path: Path) -> None:
    depth = MAX_CALL_DEPTH
    chain = "\n".join(f"def h{i}(r):\n    return h{i + 1}(r)\n" for i in range(depth + 1))
    bottom = f"def h{depth + 1}(r):\n    return _rpc_error(None, -32000, 'Deep', status=400)\n"
    make_project(tmp_path, f"{chain}\n{bottom}\ndef endpoint(r):\n    return h0(r)\n")
    with pytest.raises(SourceError) as caught:
        run_extract_in_memory(tmp_path)
    lines = (tmp_path / "app" / "server.py").read_text(encoding="utf-8").splitlines()
    assert (caught.value.file, caught.value.line) == ("app/server.py", lines.index("    return h12(r)") + 1)
    assert caught.value.message == (
        "endpoint reaches h12 through 13 calls, more than docgen follows (12): endpoint -> h0 -> h1 -> h2 -> "
        "h3 -> h4 -> h5 -> h6 -> h7 -> h8 -> h9 -> h10 -> h11 -> h12"
    )
    assert caught.value.hint == (
        "configure a function nearer the constructor calls in 'functions:' (its calls are then followed from "
        "there), or call the deep helper from nearer"
    )
    # Exactly MAX_CALL_DEPTH helpers down, the call is found.
    make_project(tmp_path, f"{chain}\n{bottom}\ndef endpoint(r):\n    return h2(r)\n")
    assert [len(e["path"]) for e in entries(tmp_path)] == [depth + 1]


def test_a_configured_function_called_by_another_keeps_its_own_entries(tmp_path: Path) -> None:
    make_project(
        tmp_path,
        """\
        def handle(request):
            return _rpc_error(None, -32601, "Not found", status=404)

        def endpoint(request):
            return handle(request)
        """,
        functions="endpoint, handle",
    )
    assert [e.get("path", [e["function"]]) for e in entries(tmp_path)] == [["handle"]]


def test_a_function_that_reaches_no_call_is_a_located_error(tmp_path: Path) -> None:
    make_project(
        tmp_path,
        """\
        def endpoint(request):
            return _rpc_error(None, -32600, "Bad", status=400)

        def create_app():
            return object()
        """,
        functions="endpoint, create_app",
    )
    with pytest.raises(ConfigError) as caught:
        run_extract_in_memory(tmp_path)
    assert caught.value.exit_code == 2
    assert (caught.value.file, caught.value.line) == ("mkdocs.yml", 9)
    assert "'create_app' reaches no call of '_rpc_error'" in caught.value.message
    assert "remove 'create_app'" in str(caught.value.hint)


def test_a_constructor_never_called_is_a_located_error(tmp_path: Path) -> None:
    make_project(
        tmp_path,
        """\
        def other_error(code, message):
            return (code, message)

        def endpoint(request):
            return _rpc_error(None, -32600, "Bad", status=400)
        """,
        constructors="_rpc_error, other_error",
    )
    with pytest.raises(ConfigError) as caught:
        run_extract_in_memory(tmp_path)
    assert (caught.value.file, caught.value.line) == ("mkdocs.yml", 8)
    assert "'other_error' is never called" in caught.value.message


def test_every_silent_function_is_reported_at_once(tmp_path: Path) -> None:
    make_project(
        tmp_path,
        """\
        def a(request):
            return None

        def b(request):
            return None
        """,
        functions="a, b",
    )
    with pytest.raises(ConfigErrors) as caught:
        run_extract_in_memory(tmp_path)
    assert ["'a' reaches no" in e.message or "'b' reaches no" in e.message for e in caught.value.errors] == [
        True,
        True,
    ]


def test_a_method_of_a_module_level_instance_or_a_static_method_is_followed(tmp_path: Path) -> None:
    make_project(
        tmp_path,
        """\
        class Policy:
            def refusal(self, origin):
                if origin not in self.allowed:
                    return _rpc_error(None, -32600, f"Origin not allowed: {origin}", status=403)
                return None

            @staticmethod
            def size(body):
                if len(body) > 9:
                    return _rpc_error(None, -32600, "Too large", status=413)
                return None

        class Quota:
            def deny(self, client):
                return _rpc_error(None, -32603, "Rate limited", status=429)

        POLICY = Policy()
        QUOTA: Quota = make_quota()

        def endpoint(request):
            first = POLICY.refusal(request.origin) or QUOTA.deny(request.client)
            return first or Policy.size(request.body)
        """,
    )
    assert [e["path"] for e in entries(tmp_path)] == [
        ["endpoint", "Policy.refusal"],
        ["endpoint", "Quota.deny"],
        ["endpoint", "Policy.size"],
    ]


def test_a_helper_shared_by_two_functions_makes_one_entry_under_the_first_path(tmp_path: Path) -> None:
    make_project(
        tmp_path,
        """\
        def _session(request):
            if request.session is None:
                return _rpc_error(None, -32600, "Missing session", status=400)
            return None

        def get(request):
            return _session(request) or _session(request)

        def post(request):
            return _session(request)
        """,
        functions="get, post",
    )
    # post reaches the call too (it is no configuration error), but the call is one error, listed once.
    assert [e.get("path") for e in entries(tmp_path)] == [["get", "_session"]]


CLASS_MKDOCS = MKDOCS_ERRORS.format(
    source="app/server.py", constructors="ApiError", functions="first, second"
).replace("{code: 1, message: 2, status: status, data: data}", "{message: 0, status: status_code}")

CLASS_SERVER = """\
class ApiError(Exception):
    status_code = 500

    def __init__(self, message):
        super().__init__(message)

    @classmethod
    def refused(cls, why):
        return cls(f"Refused: {why}")


class Busy(ApiError):
    status_code = 503


class Locked(ApiError):
    status_code = 423


class Registry:
    @classmethod
    def make(cls):
        return cls()


def first(flag):
    Registry.make()
    if flag:
        raise Busy.refused("busy")
    raise Locked.refused("locked")


def second():
    raise Busy.refused("still busy")
"""


def test_cls_in_a_classmethod_is_the_class_it_was_called_on_once_per_class(tmp_path: Path) -> None:
    make_files(tmp_path, {"app/__init__.py": "", "app/server.py": CLASS_SERVER, "mkdocs.yml": CLASS_MKDOCS})
    found = [(e["function"], e["status"], e.get("path"), e["conditions"]) for e in entries(tmp_path)]
    # One entry per class the inherited classmethod builds; `second` reaches Busy's again (listed under the
    # first path); Registry's cls() builds no error.
    assert found == [
        ("ApiError.refused", 503, ["first", "ApiError.refused"], ["flag"]),
        ("ApiError.refused", 423, ["first", "ApiError.refused"], []),
    ]


def test_a_field_no_parameter_or_class_attribute_gives_is_a_located_error(tmp_path: Path) -> None:
    server = CLASS_SERVER.replace("    status_code = 500\n\n", "").replace(
        "    status_code = 423\n", "    pass\n"
    )
    make_files(tmp_path, {"app/__init__.py": "", "app/server.py": server, "mkdocs.yml": CLASS_MKDOCS})
    with pytest.raises(SourceError) as caught:
        run_extract_in_memory(tmp_path)
    line = next(n for n, text in enumerate(server.splitlines(), 1) if "return cls(" in text)
    assert caught.value.location == f"app/server.py:{line}"
    assert caught.value.message == "the status of this Locked() call is missing"
    assert (
        caught.value.hint
        == "pass the status, or give the constructor a default or a class attribute of the mapped name"
    )
