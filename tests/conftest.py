"""Fixtures shared by every test folder."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session")
def repo_root() -> Path:
    """The checkout under test."""
    return REPO_ROOT


@pytest.fixture(scope="session", autouse=True)
def _template_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Compiled templates go to a folder of this test run, not the user's ~/.cache; docgen processes the
    tests start inherit it."""
    saved = {name: os.environ.get(name) for name in ("DOCGEN_CACHE_DIR", "DOCGEN_NO_CACHE")}
    os.environ["DOCGEN_CACHE_DIR"] = str(tmp_path_factory.mktemp("docgen-cache"))
    os.environ.pop("DOCGEN_NO_CACHE", None)
    yield
    for name, value in saved.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value
