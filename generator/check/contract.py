"""Contract changes for clients since a base git ref: an error's code or status changed, or it vanished."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from typing import Any

from generator.core import catalog as catalogs
from generator.core.errors import CatalogError, ConfigError
from generator.core.findings import Finding
from generator.core.settings import Settings
from generator.extract.pipeline import Extraction


def contract_findings(settings: Settings, extraction: Extraction, base: str) -> Iterator[Finding]:
    """Breaking changes for clients since `base`: an error's code or status changed, or it vanished."""
    for name, fresh in extraction.catalogs.items():
        if fresh["kind"] != "errors":
            continue
        relative = settings.relative(settings.catalog_path(name))
        old = _catalog_at(settings, base, relative)
        if old is None:
            continue
        new = {e["id"]: e for e in fresh["entries"]}
        lines = {e["id"]: site for e, site in zip(fresh["entries"], extraction.sites[name], strict=True)}
        for entry in old["entries"]:
            current = new.get(entry["id"])
            before = f"{entry['code']} / HTTP {entry['status']}"
            if current is None:
                yield Finding(
                    "contract-removed",
                    relative,
                    None,
                    entry["id"],
                    f"clients relying on {before} ({entry['message']}) will no longer see it",
                    "note the change in the changelog; keep it if clients depend on it",
                    breaking=True,
                )
                continue
            site = lines[entry["id"]]
            for field, kind in (("code", "contract-code"), ("status", "contract-status")):
                if entry[field] != current[field]:
                    yield Finding(
                        kind,
                        site.file,
                        site.line,
                        entry["id"],
                        f"the {field} clients see changed since {base}",
                        "breaking for clients that branch on it: announce it or revert it",
                        old=str(entry[field]),
                        new=str(current[field]),
                        breaking=True,
                    )


def _catalog_at(settings: Settings, ref: str, relative: str) -> dict[str, Any] | None:
    try:
        shown = subprocess.run(
            ["git", "show", f"{ref}:{relative}"],
            cwd=settings.root,
            capture_output=True,
            text=True,
            check=False,
        )
    except OSError as err:
        raise ConfigError(f"cannot run git: {err.strerror}", hint="install git, or drop --base") from err
    if shown.returncode != 0:
        if "exists on disk, but not in" in shown.stderr or "does not exist in" in shown.stderr:
            return None
        raise ConfigError(
            f"cannot read {relative} at {ref!r}: {shown.stderr.strip()}",
            hint="pass a ref that exists, e.g. --base origin/main (fetch it first in CI)",
        )
    try:
        return catalogs.parse_catalog_text(shown.stdout, f"{ref}:{relative}")
    except CatalogError:
        return None
