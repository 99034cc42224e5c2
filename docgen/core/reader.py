"""Reading a file of the project: its bytes within docgen's limits, and its text as UTF-8, every refusal a
located error. The counterpart of `writer`; `yamlio` parses what is read here.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from docgen.core.errors import CatalogError, DocgenError
from docgen.core.limits import MAX_FILE_BYTES


def read_bytes(
    path: Path, display: str, *, error: type[DocgenError] = CatalogError, within: Path | None = None
) -> bytes:
    """A file's bytes, within docgen's limits: only a regular file (a link is followed), at most
    MAX_FILE_BYTES. Anything else is refused before a byte is read (a `.py` that is a link to `/dev/zero`
    would otherwise be read until memory runs out).

    With `within` (the project root), a file whose real location is outside that folder is refused too: a
    pull request could otherwise commit `data/x.notes.yaml` as a link to a secret on the CI machine and have
    it quoted back in an error message.
    """
    if within is not None and not path.resolve().is_relative_to(within.resolve()):
        raise error(
            "the file is a link to a place outside the project; docgen reads only the project's own files",
            file=display,
            hint="replace the link with the file itself, inside the project",
        )
    try:
        info = os.stat(path)
        if not stat.S_ISREG(info.st_mode):
            raise error(
                "not a regular file (a folder, a device or a pipe); docgen reads only files",
                file=display,
                hint="replace it with a file, or remove it",
            )
        _refuse_large(info.st_size, display, error)
        with path.open("rb") as stream:
            if not stat.S_ISREG(os.fstat(stream.fileno()).st_mode):
                raise error("not a regular file", file=display)  # replaced after the first look
            data = stream.read(MAX_FILE_BYTES + 1)
    except FileNotFoundError as err:
        raise error("file not found", file=display) from err
    except OSError as err:
        raise error(f"cannot read the file: {err.strerror}", file=display) from err
    _refuse_large(len(data), display, error)
    return data


def _refuse_large(size: int, display: str, error: type[DocgenError]) -> None:
    if size > MAX_FILE_BYTES:
        raise error(
            f"the file is {size:,} bytes, over docgen's limit of {MAX_FILE_BYTES:,} bytes for one file",
            file=display,
            hint="docgen reads no file this large; split it, or keep it out of what docgen reads",
        )


def decode_utf8(data: bytes, display: str, *, error: type[DocgenError], encoding: str = "utf-8") -> str:
    """`data` as text; bytes that are not UTF-8 are an error at their line and column."""
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + 1
        column = err.start - (data.rfind(b"\n", 0, err.start) + 1) + 1
        raise error(
            f"not valid UTF-8: byte 0x{data[err.start]:02x} at line {line}, column {column} "
            f"(byte {err.start} of the file)",
            file=display,
            line=line,
            hint="save the file as UTF-8",
        ) from err


def read_text(
    path: Path,
    display: str,
    *,
    error: type[DocgenError] = CatalogError,
    encoding: str = "utf-8",
    newline: str | None = None,
    within: Path | None = None,
) -> str:
    """A file's text; a missing, unreadable, oversized, non-regular or non-UTF-8 file becomes `error`,
    located at `display` (and, for bytes that are not UTF-8, at their line).

    `newline=""` keeps line endings as written (pages are spliced byte for byte); otherwise `\r\n` and `\r`
    read as `\n`, as Python's text files do. `encoding="utf-8-sig"` drops a byte-order mark, as MkDocs does.
    `within` is as for `read_bytes`.
    """
    data = read_bytes(path, display, error=error, within=within)
    text = decode_utf8(data, display, error=error, encoding=encoding)
    if newline is None and "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text
