"""Files as committed at a git ref, for `docgen check --base REF`, read so that neither the ref nor a path can
act as an option of git or make git run anything.

The ref is the user's text: it is checked for shape (not empty, not starting with `-`, no control
characters), then resolved once to a commit id with `git rev-parse --verify --end-of-options REF^{commit}`.
Everything after that names the commit by that id. Files are looked up through `git cat-file --batch-check`
(the name goes in on standard input, never on the command line) and read with `git cat-file blob ID`: plumbing
that runs no pager, no textconv and no filter, whatever a pull request writes into `.gitattributes`.
"""

from __future__ import annotations

import os
import re
import subprocess
import tempfile
import threading
import unicodedata
from pathlib import Path
from typing import IO

from docgen.core.diff_lines import ChangedLines, changed_in_diff, untracked, with_statement_starts
from docgen.core.errors import ConfigError, DocgenError, InputError
from docgen.core.limits import GIT_DIFF_MAX_BYTES, GIT_MAX_SECONDS, MAX_FILE_BYTES
from docgen.core.reader import read_bytes
from docgen.core.records import record

_HEX = re.compile("[0-9a-f]{40}|[0-9a-f]{64}")
_FETCH_HINT = "pass a branch, tag or commit that exists here, e.g. --base origin/main (in CI, fetch it first)"


@record
class Commit:
    """A commit a user named, resolved by git."""

    ref: str
    """How the user named it (`--base REF`), for messages."""
    id: str
    """Its full commit id: what every later git call names it by."""
    prefix: str
    """The project root's path inside the repository (`docs/` for a project in a folder `docs`; empty at
    the top), since a path in `COMMIT:PATH` is read from the repository's top."""


def verified_commit(root: Path, ref: str) -> Commit:
    """The commit `ref` names in the repository holding `root`; a ConfigError (exit 2) naming the ref when it
    is empty, shaped like an option, holds a control character, or names no commit."""
    _refuse_shape(ref)
    done = run_git(
        root, "rev-parse", "--show-prefix", "--verify", "--quiet", "--end-of-options", f"{ref}^{{commit}}"
    )
    lines = done.stdout.decode("utf-8", "replace").split("\n")
    if done.returncode != 0 or len(lines) != 3 or not lines[1]:
        said = _last_line(done.stderr)
        raise ConfigError(
            f"--base {ref!r} names no commit in this repository" + (f" (git: {said})" if said else ""),
            hint=_FETCH_HINT,
        )
    return Commit(ref=ref, id=lines[1], prefix=lines[0])


def _refuse_shape(ref: str) -> None:
    if not ref:
        raise ConfigError("--base is empty", hint=_FETCH_HINT)
    if ref.startswith("-"):
        raise ConfigError(
            f"--base {ref!r} starts with '-', so git would read it as an option", hint=_FETCH_HINT
        )
    if any(unicodedata.category(char) in {"Cc", "Zl", "Zp"} for char in ref):
        raise ConfigError(f"--base {ref!r} holds a control character or a line break", hint=_FETCH_HINT)


def bytes_at(root: Path, commit: Commit, relative: str) -> bytes | None:
    """The bytes of `relative` (a path from the project root) as committed in `commit`; None when no file
    is there."""
    shown = f"{commit.ref}:{relative}"
    if "\n" in relative or "\r" in relative:
        raise ConfigError(f"cannot look up {shown!r} in git: the path holds a line break", hint=_FETCH_HINT)
    found = run_git(
        root,
        "cat-file",
        "--batch-check=%(objectname) %(objecttype) %(objectsize)",
        given=f"{commit.id}:{commit.prefix}{relative}\n".encode(),
    )
    # `ID blob SIZE` for a file; `NAME missing` (the name may hold spaces), or a folder's `ID tree SIZE`,
    # when there is no file at that path.
    answer = found.stdout.decode("ascii", "replace").rstrip("\n").split(" ")
    if found.returncode != 0 or len(answer) != 3 or answer[1] != "blob" or not _HEX.fullmatch(answer[0]):
        return None
    blob, size = answer[0], int(answer[2])
    if size > MAX_FILE_BYTES:
        raise InputError(
            f"the file is {size:,} bytes at {commit.ref!r}, "
            f"over docgen's limit of {MAX_FILE_BYTES:,} bytes for one file",
            file=shown,
            hint="docgen reads no file this large; compare against another --base",
        )
    read = run_git(root, "cat-file", "--end-of-options", "blob", blob)
    if read.returncode != 0:
        raise InputError(f"git cannot read the file: {_last_line(read.stderr)}", file=shown, hint=_FETCH_HINT)
    return read.stdout


def changed_lines(root: Path, commit: Commit) -> ChangedLines:
    """The lines of the project under `root` that differ from `commit`: tracked files as they are now
    (committed or not) against it, and every line of a file git does not track yet (unless ignored)."""
    # --relative keeps to the project's folder and names paths from it, as findings do; the options after
    # it fix what configuration could change (renames, prefixes, colour, hunks merged with context, a
    # submodule's own diff, an external diff or a textconv).
    diff = _git_capped(
        root,
        "-c",
        "core.quotePath=false",
        "diff",
        "--relative",
        "--unified=0",
        "--no-color",
        "--no-ext-diff",
        "--no-textconv",
        "--no-renames",
        "--no-prefix",
        "--inter-hunk-context=0",
        "--submodule=short",
        commit.id,
        "--",
        shown=f"git diff {commit.ref}",
    )
    listing = _git_capped(root, "ls-files", "--others", "--exclude-standard", "-z", shown="git ls-files")
    lines = {path: _with_starts(root, path, found) for path, found in changed_in_diff(diff).items()}
    return ChangedLines(ref=commit.ref, lines=lines, whole=untracked(listing))


def _with_starts(root: Path, path: str, lines: frozenset[int]) -> frozenset[int]:
    """A Python file's changed lines with the first lines of the calls and statements they fall in."""
    if not path.endswith(".py"):
        return lines
    try:
        source = read_bytes(root / path, path, error=InputError, within=root)
    except DocgenError:
        return lines  # a file docgen will not read has no findings to place either
    return with_statement_starts(lines, source)


def _git_capped(root: Path, *args: str, shown: str) -> bytes:
    """What git `args` prints, read up to GIT_DIFF_MAX_BYTES: past it, or past GIT_MAX_SECONDS, git is
    stopped and the call is an error (`shown` names it), never a cut answer, which would hide changes."""
    with tempfile.TemporaryFile() as stderr:
        process = _spawn(root, args, stderr)
        expired = threading.Event()

        def stop() -> None:
            expired.set()
            process.kill()

        timer = threading.Timer(GIT_MAX_SECONDS, stop)
        timer.start()
        try:
            output = _read_capped(process, shown)
            process.wait()
        finally:
            timer.cancel()
            if process.poll() is None:
                process.kill()
                process.wait()
        stderr.seek(0)
        said = _last_line(stderr.read(64 * 1024))
    if expired.is_set():
        raise InputError(
            f"git took longer than {GIT_MAX_SECONDS:g} s, docgen's limit for one git call",
            file=shown,
            hint="check the repository (`git fsck`), or drop --base",
        )
    if process.returncode != 0:
        raise InputError(f"git failed: {said or f'exit {process.returncode}'}", file=shown, hint=_FETCH_HINT)
    return output


def _spawn(root: Path, args: tuple[str, ...], stderr: IO[bytes]) -> subprocess.Popen[bytes]:
    try:
        return subprocess.Popen(
            ["git", "--no-pager", *args],
            cwd=root,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=stderr,
            env=_environment(),
        )
    except OSError as err:
        raise ConfigError(f"cannot run git: {err.strerror}", hint="install git, or drop --base") from err


def _read_capped(process: subprocess.Popen[bytes], shown: str) -> bytes:
    """Standard output of `process` to its end; an InputError as soon as it passes GIT_DIFF_MAX_BYTES."""
    assert process.stdout is not None  # opened with stdout=PIPE
    chunks: list[bytes] = []
    size = 0
    with process.stdout:
        while chunk := process.stdout.read(1 << 16):
            size += len(chunk)
            if size > GIT_DIFF_MAX_BYTES:
                raise InputError(
                    f"git printed more than {GIT_DIFF_MAX_BYTES:,} bytes, docgen's limit for the changes "
                    "it annotates",
                    file=shown,
                    hint="compare against a nearer --base, or drop --base (the report then lists every "
                    "finding as an annotation)",
                )
            chunks.append(chunk)
    return b"".join(chunks)


def run_git(root: Path, *args: str, given: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    """git `args` in `root`, with no pager, no prompt and no external diff, within GIT_MAX_SECONDS."""
    command = ["git", "--no-pager", *args]
    try:
        return subprocess.run(
            command,
            cwd=root,
            input=given,
            capture_output=True,
            env=_environment(),
            timeout=GIT_MAX_SECONDS,
            check=False,
        )
    except OSError as err:
        raise ConfigError(f"cannot run git: {err.strerror}", hint="install git, or drop --base") from err
    except subprocess.TimeoutExpired as err:
        raise InputError(
            f"git {args[0]} took longer than {GIT_MAX_SECONDS:g} s, docgen's limit for one git call",
            hint="check the repository (`git fsck`), or drop --base",
        ) from err


def _environment() -> dict[str, str]:
    environment = {
        name: value
        for name, value in os.environ.items()
        if name
        not in {"GIT_EXTERNAL_DIFF", "GIT_DIFF_OPTS", "GIT_PAGER", "PAGER", "GIT_ASKPASS", "SSH_ASKPASS"}
    }
    return environment | {"GIT_PAGER": "cat", "PAGER": "cat", "GIT_TERMINAL_PROMPT": "0", "LC_ALL": "C"}


def _last_line(stderr: bytes) -> str:
    lines = stderr.decode("utf-8", "replace").strip().splitlines()
    return lines[-1] if lines else ""
