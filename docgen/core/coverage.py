"""How much of a catalog extract could read: the one line `docgen extract` ends each catalog's output with.

A site is one place the server builds an error (an errors catalog's entry, a routes catalog's raise site).
It is resolved when every field a client receives was read from the code; otherwise each field that was not
counts once under its reason, so the line says what an editor still has to state or check:

- `dynamic status`, `dynamic code`, `dynamic data`: a value known only when the server runs;
- `no status`: a site without a status where the catalog's other sites have one (a status a handler or
  middleware docgen does not read gives), or a routes catalog's raise whose status cannot be told;
- `no message`: an errors catalog's entry whose message is empty (the call gives none, and neither its
  class nor its framework has one);
- `message template`: a message that a value known only at run time completes (`No item has the id
  {item_id}`), documented as a template.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping

from docgen.core.records import record

TEMPLATE = "message template"
NO_STATUS = "no status"
NO_MESSAGE = "no message"


@record
class Coverage:
    """The counts of one catalog's coverage line."""

    sites: int
    resolved: int
    """Sites with every field resolved."""
    unresolved: Mapping[str, int]
    """Reason -> how many sites have a field unresolved for it, in the order reasons were first met."""
    operations: int | None = None
    """How many operations a routes catalog has; None for a catalog without operations."""

    def line(self) -> str:
        """`coverage: 3 operations, 5 sites, 4 fully resolved; unresolved: 1 message template`."""
        parts = [] if self.operations is None else [f"{self.operations} operations"]
        parts += [f"{self.sites} sites", f"{self.resolved} fully resolved"]
        reasons = ", ".join(f"{count} {reason}" for reason, count in self.unresolved.items())
        return f"coverage: {', '.join(parts)}; unresolved: {reasons or 'none'}"


def coverage_of(reasons: Iterable[Iterable[str]], *, operations: int | None = None) -> Coverage:
    """The coverage of sites given as the reasons each one's fields are unresolved (empty: resolved)."""
    counted: Counter[str] = Counter()
    sites = resolved = 0
    for site in reasons:
        found = list(dict.fromkeys(site))
        sites += 1
        resolved += not found
        counted.update(found)
    return Coverage(sites, resolved, dict(counted), operations)


def is_template(text: str) -> bool:
    """Whether a message holds a `{placeholder}`, which extract writes for a value known at run time."""
    return _PLACEHOLDER.search(text) is not None


_PLACEHOLDER = re.compile(r"\{[^{}]+\}")
