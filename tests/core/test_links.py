"""Each error's link: the `links:` setting of an errors catalog, and reading a link back from an answer."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from docgen.core.links import LinkPlace, entry_url, linked_entry, received_link
from tests.core.test_settings import VALID, line_of, load, problems, write_config


def with_links(tmp_path: Path, links: str) -> str:
    return write_config(tmp_path, VALID.replace("  tools:\n", f"    links: {links}\n  tools:\n"))


@pytest.mark.parametrize(
    ("links", "place"),
    [
        ("{in: data, key: docs_url}", LinkPlace("data", "docs_url")),
        ("{in: body, key: type}", LinkPlace("body", "type")),
        ("{in: body, key: documentation_url}", LinkPlace("body", "documentation_url")),
        ("{in: header, name: Link}", LinkPlace("header", "Link")),
    ],
)
def test_links_name_where_the_server_carries_each_link(tmp_path: Path, links: str, place: LinkPlace) -> None:
    with_links(tmp_path, links)
    catalogs = load(tmp_path).catalogs
    assert catalogs["errors"].links == place
    assert catalogs["tools"].links is None


@pytest.mark.parametrize(
    ("links", "needle", "message"),
    [
        ("docs_url", "links:", "'catalogs.errors.links': expected a mapping, got 'docs_url'"),
        ("{in: query, key: x}", "links:", "'catalogs.errors.links.in': expected one of data, body, header"),
        ("{key: x}", "links:", "'catalogs.errors.links': expected one of data, body, header"),
        ("{in: data}", "links:", "'catalogs.errors.links': expected the field name as text"),
        ("{in: header, name: 3}", "links:", "'catalogs.errors.links.name': expected the header name as text"),
        ("{in: data, key: x, name: y}", "links:", "'catalogs.errors.links.name': unknown key"),
    ],
)
def test_a_wrong_links_setting_is_located(tmp_path: Path, links: str, needle: str, message: str) -> None:
    text = with_links(tmp_path, links)
    [error] = problems(tmp_path)
    assert (error.line, error.message) == (line_of(text, needle), message)
    if not message.endswith("unknown key"):  # an unknown key's hint lists the known keys instead
        assert error.hint is not None and "{in: data, key: docs_url}" in error.hint


URL = "https://example.com/errors/#err-parse-error"


def test_a_link_is_read_where_the_setting_says() -> None:
    in_data = json.dumps({"error": {"code": 1, "message": "m", "data": {"docs_url": URL}}})
    in_body = json.dumps({"type": URL, "status": 400})
    assert received_link(LinkPlace("data", "docs_url"), {}, in_data) == URL
    assert received_link(LinkPlace("body", "type"), {}, in_body) == URL
    assert received_link(LinkPlace("header", "Link"), {"link": f'<{URL}>; rel="help"'}, "") == URL
    assert received_link(LinkPlace("header", "Link"), {"link": URL}, "") == URL


def test_an_answer_without_the_link_gives_none() -> None:
    no_data = json.dumps({"error": {"code": 1, "message": "m"}})
    not_text = json.dumps({"error": {"code": 1, "message": "m", "data": {"docs_url": 7}}})
    assert received_link(LinkPlace("data", "docs_url"), {}, no_data) is None
    assert received_link(LinkPlace("data", "docs_url"), {}, not_text) is None
    assert received_link(LinkPlace("data", "docs_url"), {}, "not json") is None
    assert received_link(LinkPlace("body", "type"), {}, "[1]") is None
    assert received_link(LinkPlace("header", "Link"), {}, "") is None


def test_a_link_names_an_entry_by_its_anchor() -> None:
    assert entry_url("https://example.com/errors/", "parse-error") == URL
    assert linked_entry(URL) == "parse-error"
    assert linked_entry("https://example.com/errors/") is None
    assert linked_entry("https://example.com/errors/#codes") is None
    assert linked_entry("https://example.com/errors/#err-") is None
