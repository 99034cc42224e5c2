"""YAML in and out: byte-stable dumping, literal blocks, line-aware loading, mkdocs.yml's custom tags."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
import yaml

from docgen.core import yamlio
from docgen.core.errors import CatalogError, ConfigError
from docgen.core.yamlio import dump_yaml, load_yaml, read_yaml

TRICKY_STRINGS = {
    "two lines": "line one\nline two",
    "a trailing newline": "line one\nline two\n",
    "trailing blank lines": "line one\n\n",
    "an indented first line": "  indented\nflush",
    "a leading newline": "\nstarts blank",
    "a trailing space before a newline": "trailing \nspace",
    "a tab": "tab\there\nnext",
    "CRLF": "windows\r\nline",
    "looks like a bool": "yes",
    "looks like null": "null",
    "looks like a date": "2026-07-28",
    "looks like a number": "-32600",
    "a comment sign": "# not a comment",
    "a colon": "Unknown tool: {name}",
    "a list marker": "- item",
    "the empty string": "",
    "non-ASCII": "Größe überschritten",
    "longer than the line width": "word " * 40,
}


def round_trip(data: Any) -> Any:
    return load_yaml(dump_yaml(data), "x.yaml").data


@pytest.mark.parametrize("text", TRICKY_STRINGS.values(), ids=TRICKY_STRINGS)
def test_strings_round_trip_as_values_and_list_items(text: str) -> None:
    data = {"message": text, "conditions": [text], "nested": {"deep": [{"value": text}]}}
    assert round_trip(data) == data


def test_a_catalog_shaped_document_round_trips_and_dumps_to_the_same_bytes() -> None:
    data = {
        "catalog": "errors",
        "constants": {"MAX_BODY_BYTES": 262144, "VERSIONS": ["2025-06-18", "2026-07-28"], "RATIO": 0.5},
        "entries": [
            {"id": "bad", "code": -32600, "status": 400, "data_keys": [], "draft_cause": None, "flag": True},
        ],
    }
    text = dump_yaml(data)
    assert round_trip(data) == data
    assert dump_yaml(data) == text
    assert dump_yaml(load_yaml(text, "x.yaml").data) == text


def test_key_order_is_insertion_order_not_sorted() -> None:
    text = dump_yaml({"zebra": 1, "apple": 2, "mango": {"z": 1, "a": 2}})
    assert text == "zebra: 1\napple: 2\nmango:\n  z: 1\n  a: 2\n"


def test_multi_line_strings_become_literal_blocks() -> None:
    text = dump_yaml({"cause": "The tool does not exist.\nCall tools/list first.", "short": "one line"})
    assert text == "cause: |-\n  The tool does not exist.\n  Call tools/list first.\nshort: one line\n"


def test_a_multi_line_string_with_a_final_newline_keeps_it() -> None:
    assert dump_yaml({"text": "a\nb\n"}) == "text: |\n  a\n  b\n"


def test_tuples_are_lists_and_shared_objects_are_not_aliased() -> None:
    shared = ["a", "b"]
    text = dump_yaml({"first": shared, "second": shared, "pair": (1, 2)})
    assert "&" not in text and "*" not in text
    assert text == "first:\n- a\n- b\nsecond:\n- a\n- b\npair:\n- 1\n- 2\n"


def test_non_ascii_is_written_as_is() -> None:
    assert dump_yaml({"message": "Größe"}) == "message: Größe\n"


ASCII_LINES = [
    *(text for text in TRICKY_STRINGS.values() if text.isascii() and text.isprintable()),
    " leading and trailing spaces ",
    'it\'s "quoted" with a \\ backslash',
    "key: value # and a comment",
    "{not: a mapping}, [nor, a list]",
    "x" * 130,
    "word " * 19 + "x" * 30 + " tail",
]


def test_libyaml_writes_the_same_bytes_as_the_pure_python_emitter(
    monkeypatch: pytest.MonkeyPatch, repo_root: Path
) -> None:
    documents: list[Any] = [
        {"message": text, "list": [text], text or "empty": {"nested": text}} for text in ASCII_LINES
    ]
    documents += [
        load_yaml(path.read_text(encoding="utf-8"), path.name).data
        for path in (repo_root / "data").glob("*.yaml")
    ]
    documents += [{"message": text} for text in TRICKY_STRINGS.values()]
    fast = [dump_yaml(document) for document in documents]
    monkeypatch.setattr(yamlio, "_DUMPERS", yamlio._DUMPERS[:1])
    assert [dump_yaml(document) for document in documents] == fast


@pytest.mark.parametrize("pure_python", [False, True], ids=["libyaml", "pure Python"])
def test_nodes_built_directly_dump_to_the_bytes_of_yaml_dump(
    monkeypatch: pytest.MonkeyPatch, repo_root: Path, pure_python: bool
) -> None:
    documents: list[Any] = [
        load_yaml(path.read_text(encoding="utf-8"), path.name).data
        for path in (repo_root / "data").glob("*.yaml")
    ]
    documents += [
        {"message": text, "list": [text], text or "empty": {"nested": text}} for text in ASCII_LINES
    ]
    documents += [{"message": text, "pair": (text, [text])} for text in TRICKY_STRINGS.values()]
    # Values the representer itself handles (bool is a subclass of int), and empty collections.
    documents.append({"yes": True, "none": None, "float": 1.5, "big": 10**20, 3: [], 2.5: "x", "empty": {}})
    documents += [[], {}, "plain", -32600, [[1, (2, 3)], {"a": {"b": [{}]}}]]
    if pure_python:
        monkeypatch.setattr(yamlio, "_DUMPERS", yamlio._DUMPERS[:1])
    for document in documents:
        dumper = yamlio._DUMPERS[-1] if yamlio._one_line_ascii(document) else yamlio._DUMPERS[0]
        expected = yaml.dump(
            document,
            Dumper=dumper,
            sort_keys=False,
            default_flow_style=False,
            allow_unicode=True,
            width=100,
            indent=2,
        )
        assert dump_yaml(document) == expected


def test_the_header_comes_first_and_does_not_change_the_data() -> None:
    text = dump_yaml({"a": 1}, header="# Generated: do not edit.\n")
    assert text == "# Generated: do not edit.\na: 1\n"
    assert load_yaml(text, "x.yaml").data == {"a": 1}


def test_lines_are_recorded_for_keys_and_list_items() -> None:
    loaded = load_yaml("top: 1\nentries:\n  - id: a\n    code: 1\n  - id: b\n    code: 2\n", "x.yaml")
    assert loaded.file == "x.yaml"
    assert loaded.line_of(("top",)) == 1
    assert loaded.line_of(("entries",)) == 2
    assert loaded.line_of(("entries", 1)) == 5
    assert loaded.line_of(("entries", 1, "code")) == 6


def test_an_unknown_path_falls_back_to_its_nearest_ancestor() -> None:
    loaded = load_yaml("entries:\n  - id: a\n    code: 1\n", "x.yaml")
    assert loaded.line_of(("entries", 0, "missing")) == 2
    assert loaded.line_of(("nowhere", "deeper")) == 1


def test_malformed_yaml_is_a_located_error_with_a_hint() -> None:
    text = "entries:\n  - id: a\n    code: [1, 2\n  - id: b\n"
    with pytest.raises(CatalogError) as caught:
        load_yaml(text, "data/x.yaml")
    error = caught.value
    assert error.file == "data/x.yaml"
    assert error.line == 4
    assert error.message.startswith("invalid YAML:")
    assert error.hint and "YAML syntax" in error.hint
    assert str(error).startswith("data/x.yaml:4: invalid YAML")


def test_the_error_class_can_be_chosen() -> None:
    with pytest.raises(ConfigError) as caught:
        load_yaml("a: [\n", "mkdocs.yml", error=ConfigError)
    assert caught.value.file == "mkdocs.yml"
    assert caught.value.line == 2


def test_mkdocs_tags_load_as_plain_values() -> None:
    text = (
        "emoji: !!python/name:material.extensions.emoji.twemoji\n"
        "key: !ENV [API_KEY, 'none']\n"
        "home: !ENV HOME\n"
        "custom: !relative {a: 1}\n"
    )
    data = load_yaml(text, "mkdocs.yml").data
    assert isinstance(data.pop("emoji"), str)  # never imported; docgen does not need its value
    assert data == {"key": ["API_KEY", "none"], "home": "HOME", "custom": {"a": 1}}


def test_python_object_tags_are_never_constructed() -> None:
    text = "danger: !!python/object/apply:os.system ['echo hacked']\n"
    assert load_yaml(text, "x.yaml").data == {"danger": ["echo hacked"]}


def test_read_yaml_reports_a_missing_or_non_utf8_file(tmp_path: Path) -> None:
    with pytest.raises(CatalogError, match="file not found") as caught:
        read_yaml(tmp_path / "absent.yaml", "data/absent.yaml")
    assert caught.value.file == "data/absent.yaml"
    latin = tmp_path / "latin.yaml"
    latin.write_bytes(b"message: caf\xe9\n")
    with pytest.raises(CatalogError, match="not valid UTF-8") as caught:
        read_yaml(latin, "data/latin.yaml")
    assert caught.value.hint == "save the file as UTF-8"


PLAIN_OR_NOT = {
    "scalars of every kind": "s: text\ni: 404\nh: 0x1f\nf: 1.5\nb: yes\nn: ~\nd: 2026-07-28\nq: '404'\n",
    "non-string keys": "entries:\n  404: a\n  yes: b\n  ~: c\n  1.5: d\n",
    "nested lists and mappings": "a:\n- b: [1, {c: d}]\n- []\n- {}\n",
    "anchors and aliases": "base: &b {x: 1}\nmore: *b\nlist: [*b, *b]\n",
    "a merge key": "base: &b {x: 1, y: 2}\nchild:\n  <<: *b\n  y: 3\n",
    "a value key": "a:\n  =: 1\n",
    "a set": "s: !!set {a, b}\n",
    "an ordered map": "o: !!omap [a: 1, b: 2]\n",
    "mkdocs tags": "e: !!python/name:x.y\nk: !ENV [A, 'b']\nr: !relative {a: 1}\n",
    "a binary scalar": "b: !!binary aGVsbG8=\n",
    "an ampersand in a string": "m: 'Q & A'\nn: 7\n",
    "an empty document": "",
    "a bare scalar": "just text\n",
}
BROKEN = {
    "a list as a key": "? [a, b]\n: 1\n",
    "a str tag on a list": "a: !!str [1]\n",
    "a seq tag on a mapping": "a: !!seq {b: 1}\n",
    "a map tag on a list": "a: !!map [1]\n",
}


def pyyaml(text: str) -> Any:
    """What PyYAML's own constructor builds, on the pure-Python loader."""
    return yamlio._TolerantLoader(text).get_single_data()


@pytest.mark.parametrize("text", PLAIN_OR_NOT.values(), ids=PLAIN_OR_NOT)
def test_the_plain_builder_agrees_with_pyyaml(text: str) -> None:
    data = load_yaml(text, "x.yaml", aliases=True).data  # as mkdocs.yml is read: anchors allowed
    assert data == pyyaml(text)
    assert [type(value) for value in _leaves(data)] == [type(value) for value in _leaves(pyyaml(text))]


@pytest.mark.parametrize("text", BROKEN.values(), ids=BROKEN)
def test_the_plain_builder_leaves_what_pyyaml_rejects_to_pyyaml(text: str) -> None:
    with pytest.raises(yamlio.yaml.YAMLError) as expected:
        pyyaml(text)
    with pytest.raises(CatalogError) as caught:
        load_yaml(text, "x.yaml")
    assert caught.value.message == f"invalid YAML: {expected.value.problem}"  # type: ignore[attr-defined]
    assert caught.value.line == expected.value.problem_mark.line + 1  # type: ignore[attr-defined]


def test_the_plain_builder_agrees_with_pyyaml_on_the_repository_data(repo_root: Path) -> None:
    for path in (repo_root / "data").rglob("*.yaml"):
        text = path.read_text(encoding="utf-8")
        assert load_yaml(text, path.name).data == pyyaml(text), path


def test_lines_are_found_on_the_first_question_only() -> None:
    loaded = load_yaml("a: 1\nb:\n  c: 2\n", "x.yaml")
    assert "lines" not in vars(loaded)
    assert loaded.line_of(("b", "c")) == 3
    assert loaded.lines is loaded.lines


def _leaves(data: Any) -> list[Any]:
    if isinstance(data, dict):
        return [leaf for key, value in data.items() for leaf in (key, *_leaves(value))]
    if isinstance(data, list):
        return [leaf for item in data for leaf in _leaves(item)]
    return [data]


# What docgen refuses to build: anchors in its own files, aliases that expand too far, nesting too deep.


def alias_bomb(levels: int = 9) -> str:
    """Nine anchors, each a list naming the one before nine times: 9**9 values once followed."""
    lines = ['a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for level in range(1, levels):
        lines.append(f"a{level}: &a{level} [{', '.join([f'*a{level - 1}'] * 9)}]")
    return "\n".join(lines) + "\n"


def test_docgen_files_may_have_no_anchor(tmp_path: Path) -> None:
    with pytest.raises(CatalogError) as caught:
        load_yaml("entries:\n  a: &x {cause: c}\n  b: *x\n", "data/x.notes.yaml")
    assert caught.value.location == "data/x.notes.yaml:2"
    assert "anchors and aliases" in caught.value.message
    assert load_yaml("m: 'Q & A'\n", "x.yaml").data == {"m": "Q & A"}  # an ampersand is not an anchor


def test_an_alias_bomb_is_refused_at_once() -> None:
    started = time.monotonic()
    with pytest.raises(CatalogError, match="anchors and aliases") as caught:
        load_yaml(alias_bomb(), "data/x.yaml")
    assert caught.value.line == 1
    with pytest.raises(CatalogError, match="expand to 490,329,064 values") as caught:
        load_yaml(alias_bomb(), "mkdocs.yml", aliases=True)
    assert caught.value.line == 1
    assert time.monotonic() - started < 1


def test_mkdocs_yml_may_use_a_few_aliases() -> None:
    text = "defaults: &d {a: 1}\nfirst: *d\nsecond: *d\n"
    assert load_yaml(text, "mkdocs.yml", aliases=True).data == {
        "defaults": {"a": 1},
        "first": {"a": 1},
        "second": {"a": 1},
    }


@pytest.mark.parametrize("levels", [1000, 100_000])
def test_deep_flow_nesting_is_refused_not_a_crash(levels: int) -> None:
    """libyaml's composer recurses in C: 100,000 brackets overflowed its stack and killed the process."""
    with pytest.raises(CatalogError, match="nest more than 100 levels"):
        load_yaml("a: " + "[" * levels + "]" * levels + "\n", "x.yaml")


def test_deep_block_nesting_is_refused_at_its_line() -> None:
    text = "".join(" " * depth + "k:\n" for depth in range(150)) + " " * 150 + "v\n"
    with pytest.raises(CatalogError, match="nest more than 100 levels") as caught:
        load_yaml(text, "x.yaml")
    assert caught.value.line == 101


def test_an_integer_too_long_to_read_is_a_located_error() -> None:
    with pytest.raises(
        CatalogError, match="an integer of 5,001 digits; docgen reads integers of at most 4,300"
    ) as caught:
        load_yaml("a: 1\nsize: 1" + "0" * 5000 + "\n", "x.yaml")
    assert (caught.value.file, caught.value.line) == ("x.yaml", 2)


DUPLICATES = {
    "a plain document": ("entries:\n  a:\n    cause: One.\n    cause: Two.\n", 4, "'cause'", "1 line above"),
    "entry ids": ("entries:\n  a: {cause: x}\n  b: {}\n  a: {cause: y}\n", 4, "'a'", "2 lines above"),
    "a tagged document": ("e: !!python/name:x.y\nnav: 1\nnav: 2\n", 3, "'nav'", "1 line above"),
    "ints that read the same": ("entries:\n  404: a\n  404: b\n", 3, "'404'", "1 line above"),
}


@pytest.mark.parametrize(("text", "line", "key", "distance"), DUPLICATES.values(), ids=DUPLICATES)
def test_a_key_given_twice_is_refused_naming_both_lines(
    text: str, line: int, key: str, distance: str
) -> None:
    """PyYAML keeps the last value without a word: a second `cause:` would drop an editor's sentence."""
    for aliases in (False, True):
        with pytest.raises(CatalogError) as caught:
            load_yaml(text, "data/x.notes.yaml", aliases=aliases)
        assert caught.value.line == line
        assert f"the key {key} is given twice, here and {distance}" in caught.value.message
