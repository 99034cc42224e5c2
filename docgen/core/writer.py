"""The only code in docgen that writes files: whole files, atomically, and only when they change.

Every file of a run is first written in full to a temporary file beside it; only when all of them are
written are they renamed over their targets. So a full disk, a file-size limit or a folder docgen may not
write to stops the run with a located error (exit 3) and leaves every target as it was: no half-written
file, and no run that updated some pages but not others.

- A target that is a symbolic link is written through: the file it leads to is replaced and the link stays
  a link. A link that leads outside the project is refused (docgen writes inside the project only).
- A temporary file carries the id of the process writing it (`.page.md.<pid>.<random>.tmp`). A process
  killed between writing and renaming leaves its file behind; the next write of the same target removes
  every such file whose process is gone, so they never pile up, while a concurrent run's files are kept.
"""

from __future__ import annotations

import errno
import os
import tempfile
from collections.abc import Callable, Mapping
from functools import partial
from pathlib import Path
from typing import TypeVar

from docgen.core.errors import OutputError

T = TypeVar("T")

_HINTS = {
    errno.ENOSPC: "the disk is full: free some space and run again (nothing was changed)",
    errno.EDQUOT: "the disk quota is used up: free some space and run again (nothing was changed)",
    errno.EFBIG: "the file is larger than this process may write (see `ulimit -f`); nothing was changed",
    errno.EACCES: "docgen needs permission to write here; nothing was changed",
    errno.EPERM: "docgen needs permission to write here; nothing was changed",
    errno.EROFS: "the file system is read-only; nothing was changed",
}


def write_outputs(root: Path, outputs: Mapping[str, str]) -> list[str]:
    """Write every `relative path -> text` pair under `root`; return the paths that changed, sorted."""
    staged: list[tuple[str, Path, Path]] = []
    try:
        for relative, text in sorted(outputs.items()):
            target, data = _target(root, relative), text.encode("utf-8")
            _remove_stale_temporaries(target)
            if not _unchanged(target, data):
                staged.append((relative, target, _stage(target, data, relative)))
        for relative, target, temporary in staged:
            _attempt(relative, partial(os.replace, temporary, target))
    finally:
        for _relative, _replaced, temporary in staged:
            temporary.unlink(missing_ok=True)  # gone once renamed; left over when the run failed
    return [relative for relative, _replaced, _temporary in staged]


def _target(root: Path, relative: str) -> Path:
    """The file to replace for `relative`: itself, or the file a link leads to, inside the project."""
    path = root / relative
    real = path.resolve()
    if real != path.absolute() and not real.is_relative_to(root.resolve()):
        raise OutputError(
            f"the file is a link to {real}, outside the project; docgen writes only inside it",
            file=relative,
            hint="make it a regular file, or a link to a file inside the project",
        )
    return real


def _temporary_prefix(target: Path) -> str:
    return f".{target.name}."


def _remove_stale_temporaries(target: Path) -> None:
    """Remove the temporary files of `target` left by processes that no longer run."""
    prefix = _temporary_prefix(target)
    try:
        leftovers = [
            p for p in target.parent.iterdir() if p.name.startswith(prefix) and p.name.endswith(".tmp")
        ]
    except OSError:
        return  # no folder yet, or one docgen cannot list: the write itself will say
    for leftover in leftovers:
        writer = leftover.name[len(prefix) :].split(".", 1)[0]
        if not (writer.isdigit() and _running(int(writer))):
            leftover.unlink(missing_ok=True)


def _running(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's process
    return True


def _unchanged(target: Path, data: bytes) -> bool:
    try:
        return target.is_file() and target.stat().st_size == len(data) and target.read_bytes() == data
    except OSError:
        return False


def _stage(target: Path, data: bytes, relative: str) -> Path:
    """`data` written in full to a new temporary file beside `target`, with the target's permissions."""
    _attempt(relative, lambda: target.parent.mkdir(parents=True, exist_ok=True))
    handle, name = _attempt(
        relative,
        lambda: tempfile.mkstemp(
            dir=target.parent, prefix=f"{_temporary_prefix(target)}{os.getpid()}.", suffix=".tmp"
        ),
    )
    temporary = Path(name)
    try:
        with os.fdopen(handle, "wb") as stream:
            _attempt(relative, lambda: _write(stream.fileno(), data))
        mode = target.stat().st_mode & 0o777 if target.exists() else 0o644
        _attempt(relative, lambda: os.chmod(temporary, mode))
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    return temporary


def _write(descriptor: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(descriptor, view) :]
    os.fsync(descriptor)


def _attempt(relative: str, action: Callable[[], T]) -> T:
    try:
        return action()
    except OSError as err:
        raise OutputError(
            f"cannot write the file: {err.strerror or err}",
            file=relative,
            hint=_HINTS.get(err.errno or 0, "nothing was changed"),
        ) from err
