"""What `docgen render --force` overwrites, kept: an editor's hand edit is never simply gone.

Each hand-edited region a forced render replaces is kept as a Markdown file under `.docgen/discarded/`,
named after the page, the region and a digest of the edited text (the same edit forced twice is one file; a
new edit is a new file). The writer writes these files together with the pages, so either both are written
or neither is. Nothing here touches files.
"""

from __future__ import annotations

import difflib
import posixpath
from collections.abc import Iterator, Sequence

from docgen.core.records import record
from docgen.render.regions import digest_of
from docgen.render.renderer import PageResult, RegionReport

DISCARDED_FOLDER = ".docgen/discarded"
"""Where forced renders keep what they overwrite, relative to the project root (outside docs_dir, so the
site never publishes it)."""


@record
class Discarded:
    """One overwritten hand edit: where it was, where it is kept, and what changed."""

    page: str
    """The page, relative to the project root."""
    region: RegionReport
    kept: str
    """The file that keeps the edited text, relative to the project root."""
    text: str
    """That file's content."""
    diff: str
    """A unified diff from the edited text to what render wrote."""


def discarded_edits(results: Sequence[PageResult], docs: str) -> Iterator[Discarded]:
    """Every hand-edited region of `results` (rendered with force), with the file that keeps its text."""
    for result in results:
        shown = f"{docs}/{result.page}"
        for region in result.regions:
            if region.state != "hand-edited":
                continue
            stem = posixpath.splitext(shown)[0]
            kept = f"{DISCARDED_FOLDER}/{stem}.{region.name}.{digest_of(region.actual)}.md"
            yield Discarded(shown, region, kept, _kept_text(shown, region), _diff(shown, region))


def _kept_text(page: str, region: RegionReport) -> str:
    where = "; ".join(region.places or region.edit_in) or "the template"
    heading = (
        f"<!-- The hand-edited text of region '{region.name}' of {page} (line {region.line}), kept when "
        f"`docgen render --force` replaced it. Move what should stay to: {where}; then delete this file."
        " -->\n"
    )
    return heading + region.actual


def _diff(page: str, region: RegionReport) -> str:
    return "".join(
        difflib.unified_diff(
            region.actual.splitlines(keepends=True),
            region.expected.splitlines(keepends=True),
            f"edited {page}",
            f"rendered {page}",
        )
    )
