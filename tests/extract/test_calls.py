"""The call finder: skipping statements by their source lines finds exactly what a full walk finds."""

from __future__ import annotations

import ast

from generator.extract.calls import CallFinder, name_counts

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


def test_skipping_by_lines_finds_what_a_full_walk_finds() -> None:
    [function] = ast.parse(SOURCE).body
    assert isinstance(function, ast.FunctionDef)
    # Every line may hold any number of calls: nothing is skipped, and every statement is walked to the end.
    every_line = dict.fromkeys(range(1, SOURCE.count("\n") + 2), 1000)
    full = found(CallFinder(NAMES, every_line), function.body)
    pruned = found(CallFinder(NAMES, name_counts(SOURCE, NAMES)), function.body)
    assert pruned == full
    assert [line for line, *_ in full] == [5, 6, 11, 14, 19, 26, 33, 39, 40, 40, 41, 41]
    scopes = [c.scope for c in CallFinder(NAMES, name_counts(SOURCE, NAMES)).calls(function.body)]
    assert scopes == [(), (), (), (), (), (), (), ("inner",), (), (), (), ()]
    assert full[2][2] == (
        "not (params.get('a') is None)",
        "not (rpc_error(2, -1, 'in a test'))",
        "for item in items",
        "item == 3",
    )


def test_lines_are_counted_as_the_parser_counts_them() -> None:
    code = "a = 1\r\nb = rpc_error\rc = 2;\x0cd = rpc_error\ne = '\u00e9'\nf = 3\n"
    assert [node.lineno for node in ast.parse(code).body] == [1, 2, 3, 3, 4, 5]
    # rpc_error on lines 2 and 3 (a form feed does not end line 3); line 4 holds non-ASCII text, so it counts
    # as many occurrences as it has characters
    assert name_counts(code, NAMES) == {2: 1, 3: 1, 4: 7}


def test_a_name_inside_a_longer_identifier_is_not_a_match() -> None:
    assert name_counts("x = my_rpc_error_table\ny = rpc_error\n", NAMES) == {2: 1}


def test_every_occurrence_on_a_line_counts() -> None:
    assert name_counts("raise Fault(rpc_error(1), 'rpc_error')  # rpc_error\n", NAMES) == {1: 4}
