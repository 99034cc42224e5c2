"""The parsed-YAML cache: the same text is parsed once across runs; anything else is parsed as always, and a
cache that is missing, damaged or off never changes what a file reads as, or whether it is refused."""

from __future__ import annotations

import datetime
from pathlib import Path

import pytest

from docgen.core import yaml_cache
from docgen.core.errors import CatalogError
from docgen.core.yamlio import load_yaml

VARIANT = "aliases=False|loaders=2"


def large(entries: int = 400, extra: str = "") -> str:
    """A catalog-like document well over yaml_cache.MIN_CHARS."""
    lines = ["entries:"]
    for n in range(entries):
        lines += [f"- id: entry-{n}", f"  code: {-32000 - n}", f"  message: 'Error number {n}: {{field}}'"]
        lines += ["  conditions:", f"  - count > {n}", "  flag: yes"]
    return "\n".join(lines) + "\n" + extra


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("DOCGEN_CACHE_DIR", str(folder))
    monkeypatch.delenv("DOCGEN_NO_CACHE", raising=False)
    return folder


def entries(cache: Path) -> list[Path]:
    return sorted((cache / "yaml").glob("*.marshal")) if (cache / "yaml").is_dir() else []


def test_a_large_document_is_kept_and_the_next_load_reads_it_back_equal(cache: Path) -> None:
    text = large()
    first = load_yaml(text, "data/a.yaml")
    assert len(entries(cache)) == 1
    second = load_yaml(text, "data/b.yaml")
    assert second.data == first.data and second.data is not first.data
    assert second.data["entries"][3]["flag"] is True  # `yes` read as YAML 1.1 reads it, then kept as a bool
    assert second.file == "data/b.yaml" and second.loader is first.loader
    assert second.line(("entries", 2, "code")) == first.line(("entries", 2, "code")) == 15


def test_the_kept_values_are_what_the_next_run_uses(cache: Path) -> None:
    text = large()
    yaml_cache.put(text, VARIANT, {"from": "the cache"}, 0)
    assert load_yaml(text, "data/a.yaml").data == {"from": "the cache"}  # looked up by the text: no parse


def test_a_damaged_entry_is_parsed_again(cache: Path) -> None:
    text = large()
    expected = load_yaml(text, "data/a.yaml").data
    for entry in entries(cache):
        entry.write_bytes(b"\x00not marshal")
    assert load_yaml(text, "data/a.yaml").data == expected


def test_small_documents_dates_and_errors_are_never_kept(cache: Path) -> None:
    assert load_yaml("a: 1\n", "small.yaml").data == {"a": 1}
    dated = load_yaml(large(extra="verified: 2026-07-28\n"), "dated.yaml")
    assert dated.data["verified"] == datetime.date(2026, 7, 28)  # marshal cannot keep a date
    assert entries(cache) == []
    broken = large(extra="entries: again\n")  # a key given twice
    for _ in range(2):  # refused, located, on every run
        with pytest.raises(CatalogError, match=r"x\.yaml:2402: the key 'entries' is given twice"):
            load_yaml(broken, "x.yaml")
    assert entries(cache) == []


def test_no_cache_keeps_nothing(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DOCGEN_NO_CACHE", "1")
    assert load_yaml(large(), "data/a.yaml").data["entries"][0]["id"] == "entry-0"
    assert not cache.exists()


def test_an_unwritable_cache_costs_nothing_but_time(cache: Path) -> None:
    cache.write_text("a file where the folder should be", encoding="utf-8")
    assert load_yaml(large(), "data/a.yaml").data["entries"][1]["code"] == -32001
