"""Plugins by name: built-ins imported only when named, entry points read only for other names, and a
plugin that cannot load refused with a message, never a traceback."""

from __future__ import annotations

import json
from collections import OrderedDict
from pathlib import Path

import pytest

from docgen.core import plugins
from docgen.core.errors import ConfigError
from docgen.core.plugins import PluginGroup
from docgen.core.settings import FRAMEWORKS
from docgen.frameworks.fastapi.framework import FastAPIFramework
from tests.helpers import make_files

GROUP = "docgen.test-plugins"
BUILTINS = {"one": "collections:OrderedDict"}
TESTED = PluginGroup(GROUP, f"{__name__}:BUILTINS")


def installed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, points: str) -> None:
    """A distribution on sys.path that declares `points` in GROUP, as an installed package would."""
    make_files(
        tmp_path,
        {
            "toy-0.1.dist-info/METADATA": "Metadata-Version: 2.1\nName: toy\nVersion: 0.1\n",
            "toy-0.1.dist-info/entry_points.txt": f"[{GROUP}]\n{points}\n",
        },
    )
    monkeypatch.syspath_prepend(str(tmp_path))


def test_a_built_in_loads_without_reading_entry_points(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(**_: object) -> None:
        raise AssertionError("entry points were read for a built-in")

    monkeypatch.setattr(plugins, "entry_points", refuse)
    assert FRAMEWORKS.known("fastapi")
    assert FRAMEWORKS.load("fastapi") is FastAPIFramework
    assert TESTED.load("one") is OrderedDict


def test_an_installed_plugin_is_known_listed_after_the_built_ins_and_loaded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    installed(tmp_path, monkeypatch, "two = json:dumps\nzero = json:loads")
    assert (TESTED.known("two"), TESTED.known("three")) == (True, False)
    assert TESTED.names() == ("one", "two", "zero")
    assert TESTED.load("two") is json.dumps


def test_an_unknown_or_broken_plugin_is_a_configuration_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    installed(tmp_path, monkeypatch, "broken = no_such_module_anywhere:Thing")
    with pytest.raises(ConfigError) as unknown:
        TESTED.load("three")
    assert (unknown.value.message, unknown.value.hint) == (
        f"no plugin 'three' in {GROUP}",
        "known: one, broken",
    )
    with pytest.raises(ConfigError) as broken:
        TESTED.load("broken")
    assert broken.value.message == (
        f"the plugin 'broken' of {GROUP} (no_such_module_anywhere:Thing) cannot be loaded: "
        "No module named 'no_such_module_anywhere'"
    )
