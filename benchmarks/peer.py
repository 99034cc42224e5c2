"""The peer row: the same error table kept by cog (`cog --check`), the tool a team would otherwise reach for.

The page written here holds one cog block that reads the committed catalog and notes with PyYAML's C loader
and prints the table's rows (code, status, cause, action), as the error-table region does, without docgen's
templates, evidence, citations or any of its other checks. `cog -r` fills it once; the benchmark then times
`cog --check` on it, which re-runs the block and compares.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from benchmarks.timing import BenchmarkError

CATALOG = "data/mcp-errors.yaml"
NOTES = "data/mcp-errors.notes.yaml"

PAGE = f'''\
# Errors (kept by cog)

<!-- [[[cog
import cog, yaml
loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
with open("{CATALOG}", encoding="utf-8") as stream:
    entries = yaml.load(stream, Loader=loader)["entries"]
with open("{NOTES}", encoding="utf-8") as stream:
    notes = yaml.load(stream, Loader=loader)["entries"]
cog.outl("| Code | HTTP | Cause | What to do |")
cog.outl("|---|---|---|---|")
for entry in entries:
    note = notes.get(entry["id"]) or {{}}
    cause = " ".join(str(note.get("cause", "")).split())
    action = " ".join(str(note.get("action", "")).split())
    cog.outl(f"| `{{entry['code']}}` | `{{entry['status']}}` | {{cause}} | {{action}} |")
]]] -->
<!-- [[[end]]] -->
'''


def prepare(repo: Path, work: Path, cog: Path) -> Path:
    """Write the cog page under `work` and fill it (`cog -r`); return its path."""
    page = work / "peer" / "errors.md"
    page.parent.mkdir(parents=True, exist_ok=True)
    page.write_text(PAGE, encoding="utf-8")
    done = subprocess.run([str(cog), "-r", str(page)], cwd=repo, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise BenchmarkError(f"cog -r {page}: exit {done.returncode}\n{done.stderr[-2000:]}")
    return page
