"""Each error's link to its own documentation: its public URL, where a server carries it, and how to read it
from an answer.

An entry's URL is the canonical page that shows its catalog's error table plus the row's anchor
(`#err-<id>`), so it lasts as long as the entry's id does. A catalog's `links:` setting names where the server
puts that URL in an error answer: a field of JSON-RPC `error.data`, a member of the body (RFC 9457's `type`, a
`documentation_url`), or a response header. Probe reads it from every replayed answer with `received_link`
and compares it with `entry_anchor`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from docgen.core.records import record

ANCHOR_PREFIX = "err-"
"""The prefix of an error row's anchor on its page, as the error table writes it."""
PLACES = ("data", "body", "header")
"""Where a link may sit: `error.data` of a JSON-RPC error, the body's top level, or a response header."""
_LINK_HEADER = re.compile(r"<([^>]*)>")


@record
class LinkPlace:
    """Where a server carries each error's link: `place` is one of `PLACES`, `key` the field or header."""

    place: str
    key: str

    def describe(self) -> str:
        """Where the link is looked for, as messages name it (`error.data.docs_url`, `header Link`)."""
        return {"data": "error.data.", "body": "the body's ", "header": "header "}[self.place] + self.key


def entry_anchor(entry_id: str) -> str:
    """The anchor of an entry's row on its page, without `#`."""
    return f"{ANCHOR_PREFIX}{entry_id}"


def entry_url(page_url: str, entry_id: str) -> str:
    """The public URL of an entry: its page's canonical URL and the row's anchor."""
    return f"{page_url}#{entry_anchor(entry_id)}"


def received_link(place: LinkPlace, headers: Mapping[str, str], body: str) -> str | None:
    """The link an answer carries where `place` says, or None when it carries none there.

    A `Link` header may hold several links; the first `<...>` is taken, as a server sends one per error.
    """
    if place.place == "header":
        value = headers.get(place.key.lower())
        if value is None:
            return None
        bracketed = _LINK_HEADER.search(value)
        return bracketed.group(1) if bracketed else value.strip()
    try:
        message: Any = json.loads(body)
    except ValueError:
        return None
    holder: Any = message if isinstance(message, dict) else {}
    if place.place == "data":
        error = holder.get("error")
        holder = error.get("data") if isinstance(error, dict) else None
    value = holder.get(place.key) if isinstance(holder, dict) else None
    return value if isinstance(value, str) else None


def linked_entry(link: str) -> str | None:
    """The entry id a link names by its anchor, or None when its fragment is not an error row's."""
    _, hash_sign, fragment = link.partition("#")
    if not hash_sign or not fragment.startswith(ANCHOR_PREFIX):
        return None
    return fragment.removeprefix(ANCHOR_PREFIX) or None
