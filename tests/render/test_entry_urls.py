"""Each published error's URL: found by its row's anchor in the rendered regions, only with a `site_url`."""

from __future__ import annotations

from typing import Any

from docgen.render.entry_urls import anchor_pages, with_urls
from docgen.render.renderer import PageResult, RegionReport

TABLE = '<a id="err-parse-error"></a>`-32700` | ... |\n<a id="err-rate-limited"></a>`-32603` | ... |\n'


def result(page: str, body: str) -> PageResult:
    region = RegionReport(page, 10, "error-table", "fresh", body, body)
    return PageResult(page, "", "", (region,), ("demo",))


def catalog(kind: str = "errors") -> dict[str, Any]:
    entries = [{"id": "parse-error", "code": -32700}, {"id": "unshown", "code": 1}]
    return {"catalog": "demo", "kind": kind, "entries": entries}


def test_each_row_is_found_on_the_page_that_holds_its_anchor() -> None:
    pages = anchor_pages([result("z/other.md", TABLE), result("dev/errors.md", TABLE), result("a.md", "no")])
    assert pages == {"parse-error": "dev/errors.md", "rate-limited": "dev/errors.md"}


def test_an_entry_shown_on_a_page_gets_its_url_after_its_id() -> None:
    linked = with_urls(catalog(), "https://example.com/", {"parse-error": "dev/errors.md"})
    assert linked["entries"] == [
        {"id": "parse-error", "url": "https://example.com/dev/errors/#err-parse-error", "code": -32700},
        {"id": "unshown", "code": 1},
    ]


def test_without_a_site_url_or_for_another_kind_nothing_is_added() -> None:
    assert with_urls(catalog(), None, {"parse-error": "dev/errors.md"}) == catalog()
    assert with_urls(catalog(), "", {"parse-error": "dev/errors.md"}) == catalog()
    assert with_urls(catalog("tools"), "https://example.com", {"parse-error": "x.md"}) == catalog("tools")
