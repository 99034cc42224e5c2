"""Every committed version of one file along the current branch, oldest first, for the errors' changelog.

History follows the first parent from HEAD, so a merged pull request counts as one change on the day it
merged. The path goes to git as a literal pathspec after `--` and the versions are read through one
`git cat-file --batch` (names on standard input), so neither a file name nor `.gitattributes` can make git
run anything. A checkout that is not a git repository, or has no commit yet, has no history: `None`, which
the site build shows as a changelog not available (with a warning) rather than an empty one.
"""

from __future__ import annotations

from pathlib import Path

from docgen.core.errors import InputError
from docgen.core.git_ref import run_git
from docgen.core.limits import HISTORY_MAX_BYTES
from docgen.core.records import record


@record
class Version:
    """The file as one commit left it."""

    commit: str
    """The full commit id."""
    date: str
    """The commit's date (committer's, `YYYY-MM-DD`)."""
    data: bytes | None
    """The file's bytes; None where that commit deleted it."""


def file_versions(root: Path, relative: str) -> list[Version] | None:
    """The versions of `relative` (a path from the project root) committed along the first-parent chain of
    HEAD, oldest first; None outside a git repository or before the first commit."""
    if "\n" in relative or "\r" in relative:
        raise InputError("cannot read this file's history: its path holds a line break", file=relative)
    top = run_git(root, "rev-parse", "--show-prefix")
    if top.returncode != 0:
        return None
    prefix = top.stdout.decode("utf-8", "surrogateescape").strip()
    log = run_git(
        root,
        "log",
        "--first-parent",
        "--no-renames",
        "--format=%H %cs",
        "HEAD",
        "--",
        f":(literal){relative}",
    )
    if log.returncode != 0:
        return None
    commits = [line.split(" ") for line in log.stdout.decode("ascii", "replace").splitlines() if line]
    commits.reverse()
    names = "".join(f"{commit}:{prefix}{relative}\n" for commit, _ in commits).encode(
        "utf-8", "surrogateescape"
    )
    _refuse_large_history(root, names, relative, len(commits))
    read = run_git(root, "cat-file", "--batch", given=names)
    blobs = _blobs(read.stdout, len(commits), relative)
    return [Version(commit, date, blob) for (commit, date), blob in zip(commits, blobs, strict=True)]


def _refuse_large_history(root: Path, names: bytes, relative: str, count: int) -> None:
    """Size every version before reading one, so a long history is refused before it fills memory."""
    sizes = run_git(root, "cat-file", "--batch-check=%(objectsize)", given=names)
    total = sum(int(word) for word in sizes.stdout.split() if word.isdigit())
    if total > HISTORY_MAX_BYTES:
        raise InputError(
            f"its {count:,} committed versions hold {total:,} bytes, over docgen's limit of "
            f"{HISTORY_MAX_BYTES:,} bytes for one catalog's history",
            file=relative,
            hint="leave the changelog region out of the page, or split the catalog",
        )


def _blobs(output: bytes, count: int, relative: str) -> list[bytes | None]:
    """Split `git cat-file --batch` output into one entry per name asked: the bytes, or None when missing."""
    blobs: list[bytes | None] = []
    at = 0
    while len(blobs) < count:
        end = output.find(b"\n", at)
        if end < 0:
            raise InputError(f"git stopped after {len(blobs)} of {count} versions", file=relative)
        header = output[at:end].split(b" ")
        at = end + 1
        if header[-1] == b"missing" or len(header) != 3:
            blobs.append(None)
            continue
        size = int(header[2])
        # A folder where the file was is a tree: git prints it too, and it is not the file.
        blobs.append(output[at : at + size] if header[1] == b"blob" else None)
        at += size + 1
    return blobs
