"""Pages against what render writes now, and against the source they cite.

Regions that are stale or edited by hand (each with a diff), a page that names a catalog but has lost every
generated region, citations of files or symbols that do not exist, Last-verified stamps, and links.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator, Mapping, Sequence

from docgen.check.kind_stage import FIX
from docgen.check.links import link_findings
from docgen.check.stamps import StaleStamp, cited_symbols, stale_findings, stale_stamps, stamp_findings
from docgen.core.findings import Finding, Kind
from docgen.core.pages import FrontMatter
from docgen.core.symbols import SourceFiles
from docgen.render.discarded import DISCARDED_FOLDER
from docgen.render.renderer import PageResult


def region_findings(results: Sequence[PageResult], docs: str) -> Iterator[Finding]:
    """A finding per generated region whose text is not what render writes now."""
    for result in results:
        shown = f"{docs}/{result.page}"
        for region in result.regions:
            if region.state == "fresh":
                continue
            diff = "".join(
                difflib.unified_diff(
                    region.actual.splitlines(keepends=True),
                    region.expected.splitlines(keepends=True),
                    f"committed {shown}",
                    f"rendered {shown}",
                )
            )
            if region.state == "hand-edited":
                places = "; ".join(region.places or region.edit_in)
                yield Finding(
                    Kind.REGION_HAND_EDITED,
                    shown,
                    region.line,
                    region.name,
                    "this generated region was edited by hand; render will not overwrite it",
                    f"make the edit where the text comes from ({places}), then run `docgen render --force` "
                    f"(it keeps the hand-edited text in {DISCARDED_FOLDER}/)",
                    diff=diff,
                )
            else:
                yield Finding(
                    Kind.PAGE_STALE,
                    shown,
                    region.line,
                    region.name,
                    "the generated region no longer matches the catalog",
                    f"run `{FIX}`",
                    diff=diff,
                )


def source_findings(
    sources: SourceFiles,
    pages: Mapping[str, str],
    fronts: Mapping[str, FrontMatter],
    rendered: Sequence[PageResult],
    docs: str,
) -> Iterator[Finding]:
    """Missing regions, citations and Last-verified stamps of every page, and every page's links."""
    with_regions = {result.page for result in rendered}
    stale: list[StaleStamp] = []
    for page in sorted(pages):
        shown, front = f"{docs}/{page}", fronts[page]
        if page not in with_regions:
            yield from _missing_region(front, shown)
        yield from _citation_findings(sources, front, shown)
        yield from stamp_findings(sources, front, page=shown)
        stale.extend(stale_stamps(sources, front, page=shown))
    yield from stale_findings(stale)
    yield from link_findings(pages, display_root=docs)


def _missing_region(front: FrontMatter, page: str) -> Iterator[Finding]:
    """A page whose front matter names a catalog promises generated text: without a single region (its
    markers deleted, most likely along with the table), readers no longer see the catalog."""
    catalog = front.meta.get("catalog")
    if catalog is not None:
        yield Finding(
            Kind.PAGE_MISSING_REGION,
            page,
            front.line("catalog"),
            str(catalog),
            f"the page names catalog {catalog!r} but has no generated region",
            "restore the region's markers (`<!-- docgen:begin NAME -->` and `<!-- docgen:end NAME -->`, then "
            "`docgen render`), or remove `catalog:` from the front matter",
        )


def _citation_findings(sources: SourceFiles, front: FrontMatter, page: str) -> Iterator[Finding]:
    for file, name, symbol in cited_symbols(sources, front, page=page):
        if not sources.exists(file):
            yield Finding(
                Kind.CITATION_FILE,
                page,
                front.line("based_on"),
                file,
                "the cited file does not exist",
                "fix the path in the page's based_on list",
            )
            break
        if symbol is None:
            yield Finding(
                Kind.CITATION_SYMBOL,
                page,
                front.line("based_on"),
                f"{file}:{name}",
                f"{file} defines no {name}",
                "fix the symbol in the page's based_on list, or restore it in the code",
            )
