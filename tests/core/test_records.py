"""Records behave as frozen dataclasses do: compared, hashed and shown by their fields, read-only to mypy."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from mypy import api as mypy_api

from docgen.core.records import record


@record
class Point:
    x: int
    y: int = 0
    line: int | None = dataclasses.field(default=None, compare=False, repr=False)


@record
class Point3(Point):
    z: int = 0


@dataclasses.dataclass(frozen=True)
class Frozen:
    x: int
    y: int = 0
    line: int | None = dataclasses.field(default=None, compare=False, repr=False)


def test_equal_by_the_compared_fields_only() -> None:
    assert Point(1, 2, line=3) == Point(1, 2, line=9)
    assert Point(1, 2) != Point(1, 3)
    assert hash(Point(1, 2, line=3)) == hash(Point(1, 2, line=9))
    assert len({Point(1), Point(1, line=5), Point(2)}) == 2


def test_records_of_another_class_are_never_equal() -> None:
    assert Point3(1, 2) != Point(1, 2)
    assert Point(1, 2) != (1, 2)
    assert Point3(1, 2, z=3) == Point3(1, 2, z=3)
    assert Point3(1, 2, z=3) != Point3(1, 2, z=4)


def test_shown_hashed_and_compared_as_a_frozen_dataclass() -> None:
    assert repr(Point(1, 2, line=3)) == repr(Frozen(1, 2, line=3)).replace("Frozen", "Point")
    assert hash(Point(1, 2)) == hash(Frozen(1, 2))
    assert repr(Point3(1)) == "Point3(x=1, y=0, z=0)"


def test_an_unhashable_field_makes_the_record_unhashable_as_a_dataclass() -> None:
    @record
    class Holder:
        items: list[int]

    with pytest.raises(TypeError, match="unhashable"):
        hash(Holder([1]))
    assert Holder([1]) == Holder([1])


def test_dataclass_tools_work_on_records() -> None:
    moved = dataclasses.replace(Point(1, 2, line=3), y=5)
    assert (moved.x, moved.y, moved.line) == (1, 5, 3)
    assert [field.name for field in dataclasses.fields(Point3)] == ["x", "y", "line", "z"]
    assert dataclasses.is_dataclass(Point)


def test_a_class_defining_its_own_equality_is_refused() -> None:
    class Own:
        x: int

        def __eq__(self, other: object) -> bool:
            return True

        __hash__ = object.__hash__

    with pytest.raises(TypeError, match="__eq__"):
        record(Own)


def test_mypy_refuses_assigning_to_a_field(tmp_path: Path) -> None:
    program = tmp_path / "assigns.py"
    program.write_text(
        "from docgen.core.records import record\n\n\n@record\nclass Point:\n    x: int\n\n\n"
        "point = Point(1)\npoint.x = 2\n",
        encoding="utf-8",
    )
    report, _, status = mypy_api.run(["--strict", "--cache-dir", str(tmp_path / "cache"), str(program)])
    assert status == 1
    assert 'assigns.py:10: error: Property "x" defined in "Point" is read-only' in report


def test_records_of_one_field_and_of_none() -> None:
    @record
    class Name:
        text: str

    @record
    class Nothing:
        pass

    assert Name("a") == Name("a") != Name("b")
    assert hash(Name("a")) == hash(("a",))
    assert Nothing() == Nothing()
    assert hash(Nothing()) == hash(())
    assert repr(Nothing()) == f"{Nothing.__qualname__}()"  # as a dataclass shows it


@record
class Shaped:
    name: str
    tags: list[str] = dataclasses.field(default_factory=list)
    kind: str = dataclasses.field(default="shaped", init=False)
    count: int = 1


@dataclasses.dataclass
class ShapedDataclass:
    name: str
    tags: list[str] = dataclasses.field(default_factory=list)
    kind: str = dataclasses.field(default="shaped", init=False)
    count: int = 1


@record
class SameShape:  # Point's shape (three arguments) with other names: the template is shared, the names not
    a: str
    b: str = "b"
    c: str = "c"


def test_the_init_takes_what_a_dataclass_init_takes() -> None:
    import inspect

    assert str(inspect.signature(Shaped)) == str(inspect.signature(ShapedDataclass))
    assert Shaped.__init__.__qualname__ == "Shaped.__init__"
    made = Shaped("a", count=3)
    assert (made.name, made.tags, made.kind, made.count) == ("a", [], "shaped", 3)
    assert vars(made) == vars(ShapedDataclass("a", count=3))
    assert Shaped("b").tags is not Shaped("c").tags  # a fresh value from the factory for each record
    given = ["x"]
    assert Shaped("d", given).tags is given
    assert (SameShape("1").a, SameShape("1", c="3").c, Point(7, line=2).line) == ("1", "3", 2)
    with pytest.raises(TypeError, match="missing 1 required positional argument: 'name'"):
        Shaped()  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="unexpected keyword argument 'kind'"):
        Shaped("e", kind="other")  # type: ignore[call-arg]


def test_a_field_without_a_default_after_one_with_a_default_is_refused() -> None:
    class Unordered:
        x: int = 0
        y: int

    with pytest.raises(TypeError, match="non-default argument 'y' follows default argument"):
        record(Unordered)


def test_an_undocumented_record_is_described_as_a_dataclass_is() -> None:
    @record
    class Bare:
        name: str
        count: int = 1

    @dataclasses.dataclass
    class BareDataclass:
        name: str
        count: int = 1

    assert Bare.__doc__ == BareDataclass.__doc__.replace("BareDataclass", "Bare")  # type: ignore[union-attr]
