"""Probe's check of each error's link: every replayed answer must carry, where the catalog's `links:` setting
says, the link to its own entry (`#err-<id>`), on the site when `site_url` is set.

A link the server leaves out, one that names another entry, and one that names no entry are each a failed
row, told at the line of the call that built the error; the evidence keeps the answer as received (the body,
and the link's header when it travels in one), so the page shows what the server really sent.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from docgen.core.links import LinkPlace, entry_anchor, linked_entry, received_link
from docgen.core.records import record
from docgen.probe.replay import Observation


@record
class LinkProblem:
    """A replayed error whose answer does not link to its own entry."""

    entry_id: str
    message: str


def link_problem(place: LinkPlace, entry_id: str, seen: Observation, site_url: str | None) -> str | None:
    """What is wrong with the link of the answer `seen` to entry `entry_id`'s example, or None."""
    where = place.describe()
    link = received_link(place, seen.headers, seen.body)
    if link is None:
        return f"the answer carries no link in {where}; expected one to #{entry_anchor(entry_id)}"
    named = linked_entry(link)
    if named is None:
        return f"the link in {where} names no entry (no #{entry_anchor('<id>')} anchor): {link}"
    if named != entry_id:
        return f"the link in {where} names entry '{named}', not this one ('{entry_id}'): {link}"
    if site_url and not link.startswith(site_url.rstrip("/") + "/"):
        return f"the link in {where} is not on the site {site_url}: {link}"
    return None


def link_problems(
    place: LinkPlace | None, seen: Mapping[str, Observation], site_url: str | None
) -> Iterator[LinkProblem]:
    """The problems of every replayed answer's link, by entry in the order `seen` holds them; none when the
    catalog sets no `links:`."""
    if place is None:
        return
    for entry_id, observation in seen.items():
        message = link_problem(place, entry_id, observation, site_url)
        if message is not None:
            yield LinkProblem(entry_id, message)
