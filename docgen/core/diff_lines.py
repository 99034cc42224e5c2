"""Which lines a pull request changed, read from `git diff --unified=0 --no-prefix` output.

A `ChangedLines` tells `docgen check --format github --base REF` where an annotation belongs: GitHub shows
an annotation beside the diff only on a line the pull request touched, and one on an unchanged page line
is noise the reviewer cannot act on there. The parsing is strict about what it trusts: headers are read
only between hunks, and a hunk's body is consumed by the counts its `@@` line gives, so an added line that
happens to read `+++ x` or `diff --git` is never taken for a header.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Mapping

from docgen.core.records import record

_HUNK = re.compile(rb"@@ -\d+(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")
_ESCAPES = {ord("a"): 7, ord("b"): 8, ord("t"): 9, ord("n"): 10, ord("v"): 11, ord("f"): 12, ord("r"): 13}


@record
class ChangedLines:
    """The lines that differ from a base commit, on the side of the files as they are now."""

    ref: str
    """How the user named the base (`--base REF`), for messages."""
    lines: Mapping[str, frozenset[int]]
    """Project-relative path -> the 1-based lines added or rewritten since the base."""
    whole: frozenset[str]
    """Files git does not track yet: every line of them is new."""

    def touches(self, file: str, line: int | None) -> bool:
        """Whether a finding at `file:line` sits on a changed line (one without a line: in a changed file)."""
        if file in self.whole:
            return True
        changed = self.lines.get(file)
        if not changed:
            return False
        return line is None or line in changed


def changed_in_diff(diff: bytes) -> dict[str, frozenset[int]]:
    """Path -> changed lines of a `git diff --unified=0 --no-prefix` output (paths as git prints them).

    An added or rewritten line counts where it now stands; a context line (should a configuration add
    some) does not. A pure deletion (`+N,0`) counts on the line after it, where the removed lines stood and
    where GitHub shows the deletion. A deleted file, or a binary one (no `+++` line), has no lines.
    """
    found: dict[str, set[int]] = {}
    current: set[int] = set()
    old_left = new_left = number = 0
    for line in diff.split(b"\n"):
        if old_left > 0 or new_left > 0:  # inside a hunk: only its own lines, whatever they read like
            if line.startswith(b"+"):
                current.add(number)
                number, new_left = number + 1, new_left - 1
            elif line.startswith(b"-"):
                old_left -= 1
            elif line.startswith(b" "):
                number, old_left, new_left = number + 1, old_left - 1, new_left - 1
            continue  # and `\ No newline at end of file`, which belongs to the line before it
        if line.startswith(b"diff --git "):
            current = set()  # a file with no `+++` line (binary, a mode change) records nothing
        elif line.startswith(b"+++ "):
            name = line[4:]
            current = set() if name == b"/dev/null" else found.setdefault(_unquoted(name), set())
        elif line.startswith(b"@@ ") and (hunk := _HUNK.match(line)) is not None:
            old_left = int(hunk[1]) if hunk[1] is not None else 1
            number = int(hunk[2])
            new_left = int(hunk[3]) if hunk[3] is not None else 1
            if not new_left:
                current.add(number + 1)
    return {path: frozenset(lines) for path, lines in found.items() if lines}


_COMPOUND = (
    ast.FunctionDef,
    ast.AsyncFunctionDef,
    ast.ClassDef,
    ast.If,
    ast.For,
    ast.AsyncFor,
    ast.While,
    ast.With,
    ast.AsyncWith,
    ast.Try,
    ast.TryStar,
    ast.Match,
)


def with_statement_starts(lines: frozenset[int], source: bytes) -> frozenset[int]:
    """`lines` of a Python file, plus the first line of each call and simple statement that spans one of
    them: a finding about a call stands on its first line, while a pull request may change only a later
    line of it (`status=400` on the call's third line). Compound statements are left out, or a changed line
    would make the `def` line of every function around it count. Source that does not parse keeps its lines
    as they are."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return lines
    starts = set(lines)
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call | ast.stmt) or isinstance(node, _COMPOUND):
            continue
        end = node.end_lineno or node.lineno
        if end > node.lineno and any(node.lineno < line <= end for line in lines):
            starts.add(node.lineno)
    return frozenset(starts)


def untracked(listing: bytes) -> frozenset[str]:
    """The paths of a `git ls-files -z` output."""
    return frozenset(_decoded(name) for name in listing.split(b"\0") if name)


def _unquoted(name: bytes) -> str:
    """A path as git prints it in a diff header: as it is, or C-quoted (`"a\\tb"`, octal for odd bytes)."""
    if not (name.startswith(b'"') and name.endswith(b'"') and len(name) >= 2):
        return _decoded(name)
    body, out, index = name[1:-1], bytearray(), 0
    while index < len(body):
        byte = body[index]
        if byte != ord("\\") or index + 1 == len(body):
            out.append(byte)
            index += 1
        elif body[index + 1 : index + 4].isdigit():
            out.append(int(body[index + 1 : index + 4], 8) & 0xFF)
            index += 4
        else:
            out.append(_ESCAPES.get(body[index + 1], body[index + 1]))
            index += 2
    return _decoded(bytes(out))


def _decoded(name: bytes) -> str:
    return name.decode("utf-8", "surrogateescape")
