"""Which calls lead to which catalogued errors, for the fingerprints of the symbols pages and evidence cite.

A fingerprint hashes a statement that leads to catalogued errors as the facts of those errors, not as its
syntax (`generator.core.symbols`), so that moving an error into a helper changes no fingerprint while
changing what a client sees does. The calls that lead to an entry are the ones extraction followed to reach
it: the configured function's call of the first helper on the entry's path, each helper's call of the next,
and the constructor call itself.

The facts are what a client sees and what decides it: id, code, status, message template, conditions, data
keys and the expressions of dynamic fields, with local names canonicalised as check compares them (a renamed
local variable is no change). Not where the call is (file, line, function, path): those are what a refactor
moves, and the catalog reports them already.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from generator.core.models import ErrorEntry
from generator.core.symbols import CallSpan
from generator.extract.fields import ErrorSite
from generator.extract.identity import canonical_expression, canonical_message

Marks = dict[str, dict[CallSpan, frozenset[str]]]
"""File -> span of a call -> the facts of the entries it leads to (`generator.core.symbols.ErrorMarks`)."""


def entry_facts(entry: ErrorEntry, module_names: frozenset[str]) -> str:
    """What a client sees of `entry` and what decides it, as one string; `module_names` are the names that
    are not local (as `generator.extract.identity.canonical_expression` takes them)."""
    facts = {
        "id": entry.id,
        "code": entry.code,
        "status": entry.status,
        "message": canonical_message(entry.message, module_names),
        "conditions": [canonical_expression(c, module_names) for c in entry.conditions],
        "data_keys": list(entry.data_keys),
        "dynamic": {key: canonical_expression(e, module_names) for key, e in entry.dynamic.items()},
    }
    return json.dumps(facts, sort_keys=True, ensure_ascii=False)


def add_error_marks(
    marks: Marks, sites: Sequence[ErrorSite], entries: Sequence[ErrorEntry], module_names: frozenset[str]
) -> None:
    """Add to `marks` every call that leads to one of `entries` (the entries of `sites`, in order)."""
    for site, entry in zip(sites, entries, strict=True):
        facts = frozenset((entry_facts(entry, module_names),))
        for file, span in site.calls:
            by_span = marks.setdefault(file, {})
            by_span[span] = by_span.get(span, frozenset()) | facts
