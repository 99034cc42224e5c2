"""The opt-in verdict cache of `docgen check`: a run whose every input is byte for byte one a trusted run
has checked prints that run's report and exits with its code, without loading anything.

Off unless `DOCGEN_VERDICTS` names a folder. A verdict is written there only when `DOCGEN_VERDICTS_RECORD=1`
is set too: in a trusted run (a push to the default branch, a maintainer's machine), never in a job that
runs a pull request's changes, whose verdicts a later run would then believe. A run with the folder set and
no record flag only reads.

The key is a SHA-256 over the content of everything the verdict depends on, so that changing any one of them
checks afresh (tests/shell/test_verdicts.py changes each in turn):

- every file under the project's root (the folder holding mkdocs.yml): the sources, data/, the pages, the
  templates, the configuration, pins, and anything else there. Left out are folders that are never an
  input: `.git`, virtual environments (a folder holding `pyvenv.cfg`), `node_modules`, `__pycache__`, and
  the folders the root `.gitignore` names by a plain pattern ending in `/` (such as `site/`), which a fresh
  clone does not have; keep no input in them;
- docgen's own files (when it is installed outside the project), Python's version, and the name and
  version of every installed distribution on `sys.path`, with the paths each `.pth` file adds;
- the command line and the `DOCGEN_*` variables other than the caches' own.

Hashing every file is most of what a hit costs. A trusted run also keeps, beside the verdicts, each file's
SHA-256 with its status (`hashes.json`: size, modification and change times in nanoseconds, inode and
device); a later run takes the hash from there for a file whose status is still exactly that, and hashes any
other. Writing a file always moves its change time, which no program can set back, so a file with the
recorded status holds the recorded bytes. A file changed less than two seconds before the trusted run read
it is not kept (its change time could be shared by a write that followed within the clock's tick), and a
fresh clone, where every file is new, hashes them all.

A folder linked in by a symbolic link, a command other than `check`, `--format github` (which writes the job
summary) and `--base` (which reads git history) are never looked up or recorded: they run as usual.
Everything here is the standard library, so a lookup costs reading and hashing the files, nothing more.
"""

from __future__ import annotations

import fnmatch
import hashlib
import json
import os
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

FOLDER = "DOCGEN_VERDICTS"
RECORD = "DOCGEN_VERDICTS_RECORD"
_FORMAT = b"docgen-verdicts-2"
_UNHASHED_ENV = frozenset({FOLDER, RECORD, "DOCGEN_CACHE_DIR", "DOCGEN_NO_CACHE"})
"""Variables that say where results are kept, not what they are."""
_NEVER_INPUT = frozenset(
    {".git", "node_modules", "__pycache__", ".mypy_cache", ".ruff_cache", ".pytest_cache"}
)


class _Unkeyable(Exception):
    """The run cannot be keyed safely: it runs as usual."""


def config_of(argv: Sequence[str]) -> Path | None:
    """The configuration file of a `check` run this cache may answer, or None for any other run."""
    config, rest = Path("mkdocs.yml"), list(argv)
    while rest and rest[0] != "check":
        option = rest.pop(0)
        if option in ("-f", "--config") and rest:
            config = Path(rest.pop(0))
        elif option.startswith("--config="):
            config = Path(option.removeprefix("--config="))
        else:
            return None
    if not rest:
        return None
    options = [option.replace("--format=", "--format ") for option in rest[1:]]
    answered = {("--format", "text"), ("--format", "json")}
    pairs = " ".join(options).split()
    if len(pairs) % 2 or any(tuple(pairs[i : i + 2]) not in answered for i in range(0, len(pairs), 2)):
        return None
    return config


class FileHashes:
    """Content hashes of files by their status, as a trusted run recorded them (`hashes.json`)."""

    _NAME = "hashes.json"
    _SETTLED_NS = 2_000_000_000
    """A file whose change time is this close to the start of the run is hashed but not kept."""

    def __init__(self, known: dict[str, list[object]] | None = None) -> None:
        self.known = known or {}
        self.seen: dict[str, list[object]] = {}
        self.started = time.time_ns()

    @classmethod
    def load(cls, folder: Path) -> FileHashes:
        try:
            known = json.loads((folder / cls._NAME).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            known = None  # none yet, or unreadable: every file is hashed
        return cls(known if isinstance(known, dict) else None)

    def sha256(self, path: str) -> str:
        """The SHA-256 of the file at `path`: recorded when its status is the recorded one, else read."""
        status = os.stat(path)
        stamp = [status.st_size, status.st_mtime_ns, status.st_ctime_ns, status.st_ino, status.st_dev]
        known = self.known.get(path)
        if known is not None and known[:5] == stamp and isinstance(known[5], str):
            found = known[5]
        else:
            with open(path, "rb") as file:
                found = hashlib.sha256(file.read()).hexdigest()
        if self.started - status.st_ctime_ns > self._SETTLED_NS:
            self.seen[path] = [*stamp, found]
        return found

    def save(self, folder: Path) -> None:
        """Keep the hashes of the files this run read and that had settled (a trusted run only)."""
        _keep(folder, self._NAME, self.seen)  # if it cannot be written, the next run hashes every file


def key(argv: Sequence[str], config: Path, hashes: FileHashes | None = None) -> str | None:
    """The key of a run of `docgen ARGV` with `config`, or None when it cannot be keyed safely."""
    hashes = hashes if hashes is not None else FileHashes()
    digest = hashlib.sha256(_FORMAT)
    try:
        root = config.resolve(strict=True).parent
        _add(digest, "argv", json.dumps(list(argv)).encode())
        environment = sorted(
            (name, value)
            for name, value in os.environ.items()
            if name.startswith("DOCGEN_") and name not in _UNHASHED_ENV
        )
        _add(digest, "env", json.dumps(environment).encode())
        _add(digest, "python", f"{sys.version}|{sys.platform}|{sys.implementation.cache_tag}".encode())
        _add(digest, "config", str(config.resolve().relative_to(root)).encode())
        _installed(digest)
        package = Path(__file__).resolve().parent.parent
        if not package.is_relative_to(root):
            _tree(digest, package, "docgen", hashes)
        _tree(digest, root, "project", hashes)
    except (OSError, ValueError, _Unkeyable):
        return None
    return digest.hexdigest()


def lookup(folder: Path, run_key: str) -> tuple[int, bytes, bytes] | None:
    """The exit code, standard output and error of the verdict recorded under `run_key`, or None."""
    try:
        stored = json.loads((folder / f"{run_key}.json").read_text(encoding="utf-8"))
        return int(stored["code"]), stored["stdout"].encode(), stored["stderr"].encode()
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None  # none yet, or unreadable: the run checks afresh


def record(folder: Path, run_key: str, code: int, stdout: str, stderr: str) -> None:
    """Keep a trusted run's verdict under `run_key` (a drift or a clean verdict, not an error's exit)."""
    if code not in (0, 1):
        return
    _keep(folder, f"{run_key}.json", {"code": code, "stdout": stdout, "stderr": stderr})


def _keep(folder: Path, name: str, value: object) -> None:
    """Write `value` as JSON to `folder/name` whole or not at all (a partial file renamed into place); a
    cache that cannot be written is only a slower next run."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        partial = folder / f".{name}.{os.getpid()}.partial"
        partial.write_text(json.dumps(value), encoding="utf-8")
        os.replace(partial, folder / name)
    except OSError:
        pass


def _add(digest: hashlib._Hash, label: str, value: bytes) -> None:
    """Add one labelled value, its length first, so that no two sequences of values hash alike."""
    digest.update(f"\0{label}\0{len(value)}\0".encode())
    digest.update(value)


def _installed(digest: hashlib._Hash) -> None:
    """Every distribution (name and version, from its metadata folder's name) on sys.path, and the paths
    each `.pth` file adds, in sys.path order."""
    for entry in sys.path:
        folder = Path(entry or ".")
        if not folder.is_dir():
            _add(digest, "path", entry.encode())
            continue
        names = sorted(os.listdir(folder))
        _add(digest, "path", entry.encode())
        for name in names:
            if name.endswith((".dist-info", ".egg-info")):
                _add(digest, "dist", name.encode())
            elif name.endswith(".pth"):
                _add(digest, "pth", name.encode() + b"\0" + (folder / name).read_bytes())


def _tree(digest: hashlib._Hash, root: Path, label: str, hashes: FileHashes) -> None:
    """Every file under `root` but the folders that are never an input, by relative path and the SHA-256 of
    its content."""
    patterns = _ignored_folders(root)
    plain = {pattern for pattern in patterns if not any(char in pattern for char in "*?[")}
    globs = [pattern for pattern in patterns if pattern not in plain]
    for relative, path in _files(str(root), "", plain, globs):
        _add(digest, label, relative.encode())
        _add(digest, "sha256", hashes.sha256(path).encode())


def _files(folder: str, prefix: str, plain: set[str], globs: list[str]) -> Iterator[tuple[str, str]]:
    """(path relative to the root, path) of every file under `folder`, in a fixed order."""
    with os.scandir(folder) as scan:
        entries = {entry.name: entry for entry in scan}
    for name in sorted(entries):
        entry, relative = entries[name], prefix + name
        if entry.is_dir(follow_symlinks=False):
            if name in _NEVER_INPUT or name in plain or relative in plain:
                continue
            if globs and any(fnmatch.fnmatch(relative, g) or fnmatch.fnmatch(name, g) for g in globs):
                continue
            if os.path.exists(os.path.join(entry.path, "pyvenv.cfg")):
                continue  # a virtual environment
            yield from _files(entry.path, relative + "/", plain, globs)
        elif entry.is_symlink() and os.path.isdir(entry.path):
            raise _Unkeyable(f"{entry.path} links to a folder")
        elif entry.is_file():
            yield relative, entry.path


def _ignored_folders(root: Path) -> list[str]:
    """The folder patterns of the root `.gitignore` written as a plain `name/` or `path/name/`."""
    try:
        lines = (root / ".gitignore").read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return []
    patterns = []
    for written in lines:
        line = written.strip()
        if line.endswith("/") and not line.startswith(("#", "!")) and "**" not in line:
            patterns.append(line.strip("/"))
    return patterns
