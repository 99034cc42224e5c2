"""The one walk from a function into the functions of the loaded source it calls, and on down.

Three searches follow calls: an errors catalog from each configured function into its helpers (`reach`), a
routes catalog from each operation's function and dependencies to the raises they reach (`raises`), and an
`except` handler from its `try` body to where what it catches is raised (`handlers`). What each one looks
for in a function, and which calls it resolves to which function, is its own; how far the walk goes, how it
stays out of cycles and how much work it may do is this module's, so that the three are bounded alike.

A search gives `CallWalk` a visitor: called with what the search knows about one function (its state), it
yields, in the order a reader meets them, what it collects there and an `Into` for each call it resolved to
a function of the loaded source. The walk passes the collected values on and follows each `Into` at once,
depth first, so values come out in source order. A call that would go past `MAX_CALL_DEPTH` calls below the
function a walk started from is a `SourceError` (exit 3) located at that call, naming the chain that led
there (a search that gives `cut` is told it instead, and the walk goes on without that call, for the search
to report where it is), and so is entering more than `MAX_CALL_VISITS` function bodies in one `CallWalk`:
a bound reached never leaves a call out silently. Both figures are in `docgen.core.limits`.

Cycles: `each="path"` walks a function once per path (never again while it is on the way down to itself;
a callee called several times from one body is followed once per variant), so that every path to a call
is known; `each="walk"` walks a function once per `CallWalk` whatever the path, from whichever root, for
searches that need each function's contents once.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator
from typing import Generic, Literal, TypeVar

from docgen.core.errors import SourceError
from docgen.core.limits import MAX_CALL_DEPTH, MAX_CALL_VISITS

State = TypeVar("State")
"""What a search knows about one function it walks (its node, the path and guards that led there, ...)."""
Found = TypeVar("Found")
"""What a search collects in a function (a constructor call, a raise site, ...)."""


class Into(Generic[State]):
    """A call a visitor asks the walk to follow: the callee's state and identity, and the call's line.

    A plain class, not a record: one is made for every call a visitor resolves, and only the walk reads it."""

    __slots__ = ("key", "line", "state", "variant")

    def __init__(self, state: State, key: str, line: int, variant: Hashable = None) -> None:
        self.state = state
        self.key = key
        """The callee's identity (its dotted path): what cycles and visited sets are told by."""
        self.line = line
        """The line of the call in the caller's file (for a dependency: the line of the caller's `def`)."""
        self.variant = variant
        """With `each="path"`, one caller body follows a (key, variant) pair once: the same helper called
        twice is walked once, but once for each class `cls` stands for in it."""


Visitor = Callable[[State], Iterator["Found | Into[State]"]]
"""What a search does in one function: yields what it collects there and the calls to follow, in order."""


class CallWalk(Generic[State, Found]):
    """A depth-bounded, cycle-safe walk over call targets, shared by the roots it is started from."""

    def __init__(
        self,
        visit: Visitor[State, Found],
        *,
        each: Literal["path", "walk"],
        hint: str,
        name: Callable[[State], str],
        file: Callable[[State], str | None],
        cut: Callable[[SourceError], None] | None = None,
    ) -> None:
        self.visit = visit
        self.cut = cut
        """Where a call past `MAX_CALL_DEPTH` is told, when the search goes on without it (a routes
        catalog's walk, which says so at the call); None: such a call is an error."""
        self.each = each
        self.hint = hint
        """What to do when a bound is reached, in the search's own terms."""
        self.name = name
        """A function as messages name it; asked only for a message, as naming costs more than walking."""
        self.file = file
        """The file of a function (where its calls sit) as messages name it (None: no place is known)."""
        self.seen: set[str] = set()
        """With `each="walk"`: every function walked so far, from whichever root."""
        self.visits = 0
        """The function bodies entered below the roots so far (held to `MAX_CALL_VISITS`)."""

    def walk(self, root: State, key: str, *, again: bool = False) -> Iterator[Found]:
        """What the visitor collects in `root` (the function `key`) and in the functions it reaches. With
        `each="walk"`, a root already walked is not walked again, unless `again` (for a part of a function,
        or a function reached some way the walk does not see: nothing is then marked walked)."""
        if self.each == "walk" and not again:
            if key in self.seen:
                return
            self.seen.add(key)
        yield from self._body((root,), (key,))

    def _body(self, states: tuple[State, ...], keys: tuple[str, ...]) -> Iterator[Found]:
        """What the visitor collects in the last of `states` and below; `states` and `keys` are the path
        from the root."""
        followed: set[tuple[str, Hashable]] = set()
        for item in self.visit(states[-1]):
            if not isinstance(item, Into):
                yield item
                continue
            if item.key in (keys if self.each == "path" else self.seen):
                continue
            if len(keys) > MAX_CALL_DEPTH:
                if self.cut is None:
                    raise self._too_deep(item, states)
                self.cut(self._too_deep(item, states))
                continue
            if self.each == "path":
                if (item.key, item.variant) in followed:
                    continue
                followed.add((item.key, item.variant))
            else:
                self.seen.add(item.key)
            self.visits += 1
            if self.visits > MAX_CALL_VISITS:
                raise self._too_much(item, states)
            yield from self._body((*states, item.state), (*keys, item.key))

    def _too_deep(self, call: Into[State], states: tuple[State, ...]) -> SourceError:
        chain = [self.name(state) for state in (*states, call.state)]
        return SourceError(
            f"{chain[0]} reaches {chain[-1]} through {len(states)} calls, more than docgen follows "
            f"({MAX_CALL_DEPTH}): {' -> '.join(chain)}",
            file=self.file(states[-1]),
            line=call.line,
            hint=self.hint,
        )

    def _too_much(self, call: Into[State], states: tuple[State, ...]) -> SourceError:
        return SourceError(
            f"following the calls of {self.name(states[0])} entered over {MAX_CALL_VISITS:,} function bodies "
            f"(docgen's limit), here at a call of {self.name(call.state)}",
            file=self.file(states[-1]),
            line=call.line,
            hint=self.hint,
        )
