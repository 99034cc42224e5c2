"""The catalog-kind registry: built-in kinds without reading any distribution's metadata, other kinds from
the `docgen.kinds` entry points, and a located error for what is not a kind."""

from __future__ import annotations

import importlib.metadata
from collections.abc import Iterator
from pathlib import Path

import pytest

from docgen.core import kinds
from docgen.core.errors import ConfigError
from docgen.core.settings import load_settings


@pytest.fixture
def entry_points(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The entry-point groups asked for while the test runs; the registry's caches start empty."""
    asked: list[str] = []

    def fake(*, group: str) -> list[importlib.metadata.EntryPoint]:
        asked.append(group)
        return [importlib.metadata.EntryPoint(name="broken", value="docgen.core.kinds:KINDS", group=group)]

    monkeypatch.setattr(importlib.metadata, "entry_points", fake)
    kinds.kind_of.cache_clear()
    yield asked
    kinds.kind_of.cache_clear()


def test_built_in_kinds_are_found_without_reading_entry_points(
    repo_root: Path, entry_points: list[str]
) -> None:
    settings = load_settings(repo_root / "mkdocs.yml")
    assert {config.kind for config in settings.catalogs.values()} == {"errors", "tools"}
    assert [kinds.kind_of(name).name for name in ("errors", "tools", "routes")] == [
        "errors",
        "tools",
        "routes",
    ]
    assert entry_points == []


def test_an_entry_point_that_is_not_a_kind_is_a_config_error(entry_points: list[str]) -> None:
    assert kinds.known() == ("errors", "tools", "routes", "broken")
    assert entry_points == ["docgen.kinds"]
    with pytest.raises(ConfigError) as caught:
        kinds.kind_of("broken")
    assert caught.value.message == "docgen.core.kinds:KINDS is not a docgen catalog kind called 'broken'"
