"""Stable entry ids: an entry keeps its id, and so its editors' notes, across edits of the backend.

New call sites are matched to the previous catalog's entries in passes, from the most to the least certain
evidence; each pass only pairs what is unambiguous on both sides. Local variable names are ignored, so a
renamed variable never breaks the match. What no pass can pair gets a fresh id, and the closest unpaired old
entry is named as its most likely predecessor.
"""

from __future__ import annotations

import ast
import builtins
import functools
import re
from collections import Counter, defaultdict
from collections.abc import Hashable, Iterable, Mapping, Sequence
from difflib import SequenceMatcher

from docgen.core.models import ErrorEntry
from docgen.core.records import record
from docgen.extract.fields import ErrorSite

_BUILTINS = frozenset(dir(builtins))
_PLACEHOLDER = re.compile(r"\{([^{}]*)\}")


@record
class LikelySuccessor:
    """An old entry that vanished and a new one that most likely took its place."""

    old_id: str
    new_id: str
    similarity: float


@functools.lru_cache(maxsize=65536)
def canonical_expression(text: str, module_names: frozenset[str]) -> str:
    """`text` with every local name replaced by `_`, so renaming a local variable changes nothing.

    Cached: extract canonicalises each condition of the old and the new catalog, and check again to compare.
    """
    try:
        tree = ast.parse(text.removeprefix("except ").removeprefix("for "), mode="exec")
    except SyntaxError:
        return text
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id not in module_names and node.id not in _BUILTINS:
            node.id = "_"
        elif isinstance(node, ast.arg):
            node.arg = "_"
    return ast.unparse(tree)


def canonical_message(message: str, module_names: frozenset[str]) -> str:
    """A message template with local names inside `{...}` fields replaced."""
    return _PLACEHOLDER.sub(lambda m: "{" + canonical_expression(m.group(1), module_names) + "}", message)


def signature(entry: ErrorEntry, module_names: frozenset[str]) -> dict[str, Hashable]:
    """The comparable facts of an entry (of the old catalog, or a new site's), local names canonicalised."""
    return {
        "function": entry.function,
        "code": entry.code,
        "status": entry.status,
        "message": canonical_message(entry.message, module_names),
        "conditions": tuple(canonical_expression(c, module_names) for c in entry.conditions),
    }


_PASSES: Sequence[tuple[str, ...]] = (
    ("function", "conditions", "code", "status", "message"),
    ("function", "conditions", "message"),
    ("function", "conditions"),
    ("function", "message"),
    ("function", "code", "status"),
    # The scanned function was renamed (or a call moved to another one): everything else still agrees.
    ("conditions", "code", "status", "message"),
    # The call moved into a helper, and its guard was split between the caller and the helper.
    ("code", "status", "message"),
)


def assign_ids(
    sites: Sequence[ErrorSite],
    previous: Sequence[ErrorEntry],
    module_names: frozenset[str],
) -> tuple[list[str], list[LikelySuccessor]]:
    """An id for every site (in order), and the likely successors of old entries that found no match."""
    if _unchanged(sites, previous):
        # The common case, and what the passes would conclude anyway: the first pass pairs sites that agree
        # on every fact in order, so each site keeps the id of the old entry at its position.
        return [entry.id for entry in previous], []
    return _matched_ids(sites, previous, module_names)


def _unchanged(sites: Sequence[ErrorSite], previous: Sequence[ErrorEntry]) -> bool:
    """Whether every site states, as written, the facts of the old entry at its position."""
    return len(sites) == len(previous) and all(
        (new.function, new.code, new.status, new.message, new.conditions)
        == (old.function, old.code, old.status, old.message, old.conditions)
        for new, old in zip((site.entry for site in sites), previous, strict=True)
    )


def _matched_ids(
    sites: Sequence[ErrorSite],
    previous: Sequence[ErrorEntry],
    module_names: frozenset[str],
) -> tuple[list[str], list[LikelySuccessor]]:
    """The passes of the module docstring, from the most to the least certain evidence."""
    new_sigs = [signature(site.entry, module_names) for site in sites]
    old_sigs = [signature(entry, module_names) for entry in previous]
    ids: list[str | None] = [None] * len(sites)
    free_old = set(range(len(previous)))
    for number, keys in enumerate(_PASSES):
        pairs = _unique_pairs(new_sigs, old_sigs, keys, ids, free_old, in_order=number == 0)
        for new_index, old_index in pairs:
            ids[new_index] = previous[old_index].id
            free_old.discard(old_index)
    by_old_id = {previous[i].id: i for i in free_old}
    for index, site in enumerate(sites):
        # Same headline as an unmatched old entry: the message's slug is the old id, so it is the same error.
        same_headline = by_old_id.get(slug(site.entry.message)) if ids[index] is None else None
        if same_headline is not None and same_headline in free_old:
            ids[index] = previous[same_headline].id
            free_old.discard(same_headline)
    taken = {i for i in ids if i} | {previous[i].id for i in free_old}
    codes = Counter(site.entry.code for site in sites if isinstance(site.entry.code, str))
    shared = frozenset(code for code, count in codes.items() if count > 1)
    successors: list[LikelySuccessor] = []
    # Each vanished entry is named as the predecessor of one new entry at most.
    unnamed = {i: _Candidate(_as_text(old_sigs[i])) for i in sorted(free_old)}
    for index, site in enumerate(sites):
        if ids[index] is None:
            ids[index] = _fresh_id(site.entry, taken, shared)
            taken.add(ids[index] or "")
            best = _closest(_as_text(new_sigs[index]), unnamed)
            if best is not None:
                old_index, ratio = best
                del unnamed[old_index]
                successors.append(LikelySuccessor(previous[old_index].id, str(ids[index]), ratio))
    return [str(i) for i in ids], successors


def _unique_pairs(
    new_sigs: Sequence[dict[str, Hashable]],
    old_sigs: Sequence[dict[str, Hashable]],
    keys: tuple[str, ...],
    ids: Sequence[str | None],
    free_old: set[int],
    *,
    in_order: bool = False,
) -> Iterable[tuple[int, int]]:
    """(new, old) pairs that agree on `keys` and on nothing ambiguous.

    With `in_order`, sites that agree on every fact are paired in source order even when there are several:
    they cannot be told apart, so any pairing is as good, and pairing none would re-id them on every run.
    """
    by_key_new: dict[tuple[Hashable, ...], list[int]] = defaultdict(list)
    by_key_old: dict[tuple[Hashable, ...], list[int]] = defaultdict(list)
    for index, sig in enumerate(new_sigs):
        if ids[index] is None:
            by_key_new[tuple(sig[k] for k in keys)].append(index)
    for index in sorted(free_old):
        by_key_old[tuple(old_sigs[index][k] for k in keys)].append(index)
    for key, news in by_key_new.items():
        olds = by_key_old.get(key, [])
        if in_order or (len(news) == 1 and len(olds) == 1):
            yield from zip(news, olds, strict=False)


class _Candidate:
    """An unmatched old entry as text, with its character counts for a cheap bound of difflib's ratio."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.counts = Counter(text)

    def bound(self, text: str, counts: Counter[str]) -> float:
        """An upper bound of `SequenceMatcher(None, text, self.text).ratio()` (its `quick_ratio`)."""
        common = sum(min(count, self.counts[char]) for char, count in counts.items())
        return 2.0 * common / (len(text) + len(self.text))


def _closest(text: str, candidates: Mapping[int, _Candidate]) -> tuple[int, float] | None:
    """The candidate with the highest difflib ratio to `text` (the later one on a tie), if at least 0.5.

    Each new entry is compared with every unmatched old one, so a comparison must be cheap: the ratio itself
    is computed only while a candidate's bound can still beat the best so far, highest bounds first. Before,
    800 reworded entries took 80 s.
    """
    counts = Counter(text)
    bounds = sorted(((c.bound(text, counts), i) for i, c in candidates.items()), reverse=True)
    best = (0.5, -1)  # a ratio below 0.5 names no predecessor
    for bound, index in bounds:
        if bound < best[0]:
            break
        best = max(best, (SequenceMatcher(None, text, candidates[index].text).ratio(), index))
    return (best[1], round(best[0], 2)) if best[1] >= 0 else None


def _as_text(sig: dict[str, Hashable]) -> str:
    return " | ".join(str(sig[k]) for k in ("function", "code", "status", "message", "conditions"))


def slug(text: str) -> str:
    """A short lowercase id from a message: its headline (the part before a colon), without `{fields}`."""
    headline = _PLACEHOLDER.sub(" ", text).split(":")[0]
    words = re.findall(r"[a-z0-9]+", headline.lower())
    return "-".join(words[:5])


def _fresh_id(entry: ErrorEntry, taken: set[str], shared: frozenset[str]) -> str:
    """A new entry's id: its own symbolic code (`unauthorized`), which names the error as its clients do,
    where no other entry has the same (`shared`: there the message tells them apart), else the headline of
    its message. Only new entries get one: a kept id never changes."""
    code = abs(entry.code) if isinstance(entry.code, int) else slug(str(entry.code or ""))
    # A code known only at run time is None here.
    symbolic = code if isinstance(code, str) and entry.code not in shared else ""
    base = symbolic or slug(entry.message) or "-".join(str(p) for p in ("error", code, entry.status) if p)
    candidate, counter = base, 2
    while candidate in taken:
        candidate, counter = f"{base}-{counter}", counter + 1
    return candidate
