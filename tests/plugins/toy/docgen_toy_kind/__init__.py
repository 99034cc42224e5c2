"""A toy catalog kind, outside docgen, registered through the `docgen.kinds` entry point of its
distribution (`../docgen_toy_kind-0.1.dist-info/entry_points.txt`): the `strings` kind lists the module-level
string constants of one Python file, optionally only those whose name starts with `prefix:`.

It gives what core and extract require (`docgen/core/kinds.py`, `docgen/extract/kind_stage.py`) and
nothing else, so check compares its facts and render shows its data as they are.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from docgen.core.catalog_config import CatalogConfig
from docgen.core.errors import CatalogError
from docgen.core.kinds import Companion
from docgen.core.models import Json, Source
from docgen.core.settings_checks import Validator
from docgen.core.yamlio import LoadedYaml
from docgen.extract.kind_stage import ExtractRun


@dataclass(frozen=True)
class StringsCatalog:
    """The string constants of one module, by name, in the order the module defines them."""

    name: str
    sources: tuple[Source, ...]
    strings: tuple[tuple[str, str], ...]
    kind: str = "strings"

    def as_data(self) -> dict[str, Json]:
        return {
            "catalog": self.name,
            "kind": self.kind,
            "sources": [source.as_data() for source in self.sources],
            "strings": [{"name": name, "value": value} for name, value in self.strings],
        }


@dataclass(frozen=True)
class StringsResult:
    catalog: StringsCatalog


class StringsKind:
    name = "strings"
    keys = frozenset({"prefix"})
    companions: frozenset[Companion] = frozenset()

    def configure(
        self,
        name: str,
        source: str,
        raw: Mapping[str, Any],
        path: tuple[str | int, ...],
        check: Validator,
        root: Path,
    ) -> CatalogConfig:
        prefix = raw.get("prefix", "")
        if not isinstance(prefix, str):
            check.fail((*path, "prefix"), f"expected the start of a constant's name, got {prefix!r}")
            prefix = ""
        return CatalogConfig(name, "strings", source, options={"prefix": prefix})

    def summary(self, catalog: Any) -> str:
        return f"{len(catalog.strings)} strings"

    def parse(self, loaded: LoadedYaml) -> StringsCatalog:
        data = loaded.data
        if not isinstance(data, dict) or not isinstance(data.get("strings"), list):
            raise CatalogError("expected a 'strings' list", file=loaded.file, line=1)
        return StringsCatalog(
            data["catalog"],
            tuple(Source(s["path"], tuple(s["symbols"])) for s in data["sources"]),
            tuple((item["name"], item["value"]) for item in data["strings"]),
        )

    def extract(self, run: ExtractRun, name: str, config: CatalogConfig) -> StringsResult:
        tree = ast.parse((run.root / config.source).read_text(encoding="utf-8"))
        prefix = config.options["prefix"]
        strings = tuple(
            (target.id, node.value.value)
            for node in tree.body
            if isinstance(node, ast.Assign)
            and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)
            for target in node.targets
            if isinstance(target, ast.Name) and target.id.startswith(prefix)
        )
        source = Source(config.source, tuple(name for name, _ in strings))
        return StringsResult(StringsCatalog(name, (source,), strings))


KIND = StringsKind()
