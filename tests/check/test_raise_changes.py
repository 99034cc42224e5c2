"""How check pairs the raise sites behind one handled error: a reworded raise is one change; a raise in
another file (or function, or of another exception) is one added and one removed."""

from __future__ import annotations

from docgen.core.findings import Kind
from docgen.core.models import RaiseSite
from docgen.kinds.errors.drift import RaiseChange, raise_changes


def site(message: str, *, file: str = "app/users.py", function: str = "get_user") -> RaiseSite:
    return RaiseSite(exception="NotFound", function=function, file=file, message=message)


def test_equal_sites_are_unchanged_whatever_their_line() -> None:
    moved = RaiseSite("NotFound", "get_user", "app/users.py", "No such user", line=40)
    assert list(raise_changes([site("No such user")], [moved])) == []


def test_a_reworded_raise_in_the_same_place_is_one_change() -> None:
    old, new = site("No such user"), site("User not found")
    assert list(raise_changes([old], [new])) == [RaiseChange(Kind.RAISE_CHANGED, old, new)]


def test_a_raise_in_another_file_is_added_and_the_old_one_removed() -> None:
    old, new = site("No such user"), site("User not found", file="app/admin.py")
    assert list(raise_changes([old], [new])) == [
        RaiseChange(Kind.RAISE_ADDED, None, new),
        RaiseChange(Kind.RAISE_REMOVED, old, None),
    ]


def test_a_raise_in_another_function_is_added_and_the_old_one_removed() -> None:
    old, new = site("No such user"), site("User not found", function="list_users")
    assert [change.kind for change in raise_changes([old], [new])] == [Kind.RAISE_ADDED, Kind.RAISE_REMOVED]


def test_rewordings_pair_in_order() -> None:
    old = [site("first"), site("second")]
    new = [site("first, reworded"), site("second, reworded")]
    assert list(raise_changes(old, new)) == [
        RaiseChange(Kind.RAISE_CHANGED, old[0], new[0]),
        RaiseChange(Kind.RAISE_CHANGED, old[1], new[1]),
    ]
