"""Tools catalogs in check: tools, resources and prompts added, removed or changed since the catalog was
committed, each at the committed line of the item where it has one."""

from __future__ import annotations

from collections.abc import Iterator

from docgen.check.kind_stage import FIX
from docgen.core.findings import Finding, Kind
from docgen.core.models import TOOL_KINDS, ToolsCatalog
from docgen.core.project import CommittedCatalog


def tools_drift(committed: CommittedCatalog, fresh: ToolsCatalog) -> Iterator[Finding]:
    """Tools, resources and prompts added, removed or changed."""
    assert isinstance(committed.catalog, ToolsCatalog)
    path = committed.file
    for kind in TOOL_KINDS:
        old = {item.name: item for item in committed.catalog.items(kind)}
        new = {item.name: item for item in fresh.items(kind)}
        for name in sorted(new.keys() - old.keys()):
            yield Finding(Kind.TOOL_ADDED, path, None, name, f"a new entry in {kind}", f"run `{FIX}`")
        for name in sorted(old.keys() - new.keys()):
            line = committed.item_line(kind, name)
            yield Finding(Kind.TOOL_REMOVED, path, line, name, f"gone from {kind}", f"run `{FIX}`")
        for name in sorted(old.keys() & new.keys()):
            if old[name] != new[name]:
                yield Finding(
                    Kind.TOOL_CHANGED,
                    path,
                    committed.item_line(kind, name),
                    name,
                    f"its description or parameters changed in {kind}",
                    f"run `{FIX}`",
                )
