"""Which calls lead to which catalogued errors, for the fingerprints of the symbols pages and evidence cite.

A fingerprint hashes a statement that leads to catalogued errors as the facts of those errors, not as its
syntax (`docgen.core.fingerprints`), so that moving an error into a helper changes no fingerprint while
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
from collections.abc import Iterator, Mapping, Sequence

from docgen.core.fingerprints import CallSpan
from docgen.core.models import ErrorEntry
from docgen.extract.fields import ErrorSite
from docgen.extract.identity import canonical_expression, canonical_message


def entry_facts(entry: ErrorEntry, module_names: frozenset[str]) -> str:
    """What a client sees of `entry` and what decides it, as one string; `module_names` are the names that
    are not local (as `docgen.extract.identity.canonical_expression` takes them)."""
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


_Lead = tuple[ErrorEntry, frozenset[str]]
"""An entry a call leads to, with the module names its facts are canonicalised against."""


class FileMarks(Mapping[CallSpan, frozenset[str]]):
    """The calls of one file that lead to catalogued errors; the facts of a call's errors are worked out when
    a fingerprint first asks for them (most calls sit in functions no page cites)."""

    def __init__(self) -> None:
        self._leads: dict[CallSpan, list[_Lead]] = {}
        self._facts: dict[CallSpan, frozenset[str]] = {}

    def lead(self, span: CallSpan, entry: ErrorEntry, module_names: frozenset[str]) -> None:
        self._leads.setdefault(span, []).append((entry, module_names))
        self._facts.pop(span, None)

    def __getitem__(self, span: CallSpan) -> frozenset[str]:
        if span not in self._facts:
            leads = self._leads[span]  # KeyError for a call that leads nowhere, as a Mapping says
            self._facts[span] = frozenset(entry_facts(entry, names) for entry, names in leads)
        return self._facts[span]

    def __contains__(self, span: object) -> bool:
        return span in self._leads  # asked for every call a cited function holds: no KeyError raised

    def __iter__(self) -> Iterator[CallSpan]:
        return iter(self._leads)

    def __len__(self) -> int:
        return len(self._leads)


class MarkedCalls(Mapping[str, FileMarks]):
    """File -> its `FileMarks`: the `ErrorMarks` that `SourceFiles.mark_errors` takes (core/symbols.py)."""

    def __init__(self) -> None:
        self._files: dict[str, FileMarks] = {}

    def add(
        self, sites: Sequence[ErrorSite], entries: Sequence[ErrorEntry], module_names: frozenset[str]
    ) -> None:
        """Add every call that leads to one of `entries` (the entries of `sites`, in order)."""
        for site, entry in zip(sites, entries, strict=True):
            for file, span in site.calls:
                marks = self._files.get(file)
                if marks is None:
                    marks = self._files[file] = FileMarks()
                marks.lead(span, entry, module_names)

    def __getitem__(self, file: str) -> FileMarks:
        return self._files[file]

    def __iter__(self) -> Iterator[str]:
        return iter(self._files)

    def __len__(self) -> int:
        return len(self._files)
