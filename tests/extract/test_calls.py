"""The call finder: every constructor call of a body, in source order, with the conditions it runs under."""

from __future__ import annotations

import ast

from docgen.extract.calls import CallFinder

NAMES = ("rpc_error", "Fault")

# Every kind of statement the finder descends into; calls nested in calls, in guards and over several lines;
# the names also in comments and strings; a nested def (a closure: scanned, and named as the call's scope);
# a name written in full-width letters (the parser reads it as `rpc_error`); a form feed (whitespace to the
# parser, a line break to splitlines).
SOURCE = """\
def handler(params, items):
    # rpc_error is mentioned here, in a comment, and "rpc_error" in a string below
    note = "rpc_error"
    if params.get("a") is None:
        return rpc_error(1, -32602, "a missing")
    elif rpc_error(2, -1, "in a test"):
        pass
    else:
        for item in items:
            if item == 3:
                raise Fault(
                    -32000,
                    f"item {item}",
                    data={"cause": errors.rpc_error(3, -5, "nested")},
                )
        else:
            total = len(items)
    while params.get("retry"):
        with open(rpc_error(4, -2, "ctx")) as handle:
            handle.read()
    try:
        value = int(params["n"])
    except (KeyError, ValueError):
        value = 0
    except TypeError:
        return rpc_error(5, -3, "type")
    else:
        value += \x0c1
    finally:
        cleanup()
    match params.get("mode"):
        case "x" if value > 2:
            return rpc_error(6, -4, "mode x")
        case "y":
            return None
        case _:
            pass
    def inner():
        return rpc_error(7, -6, "in a closure")
    log(rpc_error(8, 0, "first"), rpc_error(9, 0, "second"))
    return [wrap(rpc_error(10, 0, "deeper, so found later")), \uff52pc_error(11, -7, "full width")]
"""


def found(finder: CallFinder, body: list[ast.stmt]) -> list[tuple[int, int, tuple[str, ...], int]]:
    return [(c.call.lineno, c.call.col_offset, c.conditions, c.statement.lineno) for c in finder.calls(body)]


def test_every_call_is_found_in_source_order_with_its_guards() -> None:
    [function] = ast.parse(SOURCE).body
    assert isinstance(function, ast.FunctionDef)
    full = found(CallFinder(NAMES), function.body)
    assert [line for line, *_ in full] == [5, 6, 11, 14, 19, 26, 33, 39, 40, 40, 41, 41]
    scopes = [c.scope for c in CallFinder(NAMES).calls(function.body)]
    assert scopes == [(), (), (), (), (), (), (), ("inner",), (), (), (), ()]
    assert full[2][2] == (
        "not (params.get('a') is None)",
        "not (rpc_error(2, -1, 'in a test'))",
        "for item in items",
        "item == 3",
    )
