"""docgen on an untrusted pull request, in the attacker's terms: each test changes what a pull request can
change in a copy of the repository (notes, examples, templates, pages, YAML, source), runs the real CLI in
a process of its own, and checks the exit code, the located message, and that nothing ran and nothing in
the tree changed."""

from __future__ import annotations

import contextlib
import errno
import os
import resource
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.conftest import REPO_ROOT
from tests.helpers import copy_project

NOTES = "data/mcp-errors.notes.yaml"
CANARY = "canary-3f9c1d7e"
"""A secret in docgen's environment, which no output may show."""

Edit = Callable[[Path], None]


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return copy_project(REPO_ROOT, tmp_path / "project")


def docgen(root: Path, *argv: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """The docgen command on `root`, as CI runs it, with a secret in its environment."""
    command = [sys.executable, "-m", "docgen.shell.cli", "-f", str(root / "mkdocs.yml"), *argv]
    environment = {**os.environ, "DOCGEN_CANARY": CANARY}
    return subprocess.run(
        command, cwd=root, env=environment, capture_output=True, text=True, timeout=timeout, check=False
    )


def tree(root: Path) -> dict[str, bytes]:
    """Every file under `root` and its bytes (links as where they point)."""
    files: dict[str, bytes] = {}
    for path in sorted(root.rglob("*")):
        relative = path.relative_to(root).as_posix()
        if path.is_symlink():
            files[relative] = f"-> {os.readlink(path)}".encode()
        elif path.is_file():
            files[relative] = path.read_bytes()
    return files


def line_of(path: Path, needle: str, after: str = "") -> int:
    """The line of the first `needle` that comes after the first `after`."""
    lines = path.read_text(encoding="utf-8").splitlines()
    start = next(number for number, line in enumerate(lines) if after in line)
    return next(number for number, line in enumerate(lines, 1) if number > start and needle in line)


def replace(relative: str, old: str, new: str) -> Edit:
    def edit(root: Path) -> None:
        path = root / relative
        text = path.read_text(encoding="utf-8")
        assert old in text, f"{old!r} not in {relative}: the test needs updating"
        path.write_text(text.replace(old, new, 1), encoding="utf-8")

    return edit


def set_field(relative: str, entry: str, key: str, value: str) -> Edit:
    """An edit that gives `key` of `entry` the one-line `value`, whatever shape the old value had: its
    continuation lines (indented deeper than the key) go with it."""

    def edit(root: Path) -> None:
        path = root / relative
        lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
        start = next(n for n, line in enumerate(lines) if line.strip() == f"{entry}:")
        first = next(n for n in range(start + 1, len(lines)) if lines[n].lstrip().startswith(f"{key}:"))
        indent = len(lines[first]) - len(lines[first].lstrip())
        end = first + 1
        while end < len(lines) and len(lines[end]) - len(lines[end].lstrip()) > indent:
            end += 1
        lines[first:end] = [f"{' ' * indent}{key}: {value}\n"]
        path.write_text("".join(lines), encoding="utf-8")

    return edit


def both(*edits: Edit) -> Edit:
    def edit(root: Path) -> None:
        for one in edits:
            one(root)

    return edit


def refused(
    project: Path, edit: Edit, command: str, exit_code: int, located: str
) -> subprocess.CompletedProcess[str]:
    """Apply `edit` and run `command`: the exit code, a message at `located`, no traceback, no change."""
    edit(project)
    before = tree(project)
    done = docgen(project, command)
    said = done.stdout + done.stderr
    assert done.returncode == exit_code, said
    assert done.stderr.startswith(f"docgen {command}: error: {located}"), said
    assert "Traceback" not in said
    assert tree(project) == before
    return done


Case = tuple[Edit, int, Callable[[Path], str], str]
"""An attack or a mistake: the edit, the exit code, where the message must point, and what it must say."""


def check_refuses(project: Path, case: Case, command: str = "check") -> subprocess.CompletedProcess[str]:
    """Apply the case's edit and run `command`: refused as the case says (see `refused`)."""
    edit, exit_code, location, message = case
    edit(project)
    done = refused(project, lambda root: None, command, exit_code, location(project))
    assert message in done.stderr
    return done


# 1. Notes, examples and templates cannot run code.


def payloads(marker: Path) -> dict[str, str]:
    """Attacks on Jinja, each of which would create `marker`, show a file, or show the secret if it worked.
    Single quotes only, so that each fits a double-quoted YAML string."""
    return {
        "cycler runs a command": f"x{{{{ cycler.__init__.__globals__.os.popen('touch {marker}').read() }}}}",
        "lipsum reads /etc/passwd": "{{ lipsum.__globals__['os'].popen('head /etc/passwd').read() }}",
        "a string's subclasses": "{{ ''.__class__.__mro__[1].__subclasses__() }}",
        "a constant's subclasses": "{{ MAX_BODY_BYTES.__class__.__base__.__subclasses__() }}",
        "namespace reads the environment": (
            "{{ namespace.__init__.__globals__['os'].environ['DOCGEN_CANARY'] }}"
        ),
        "str.format reaches globals": "{{ '{0.__init__.__globals__}'.format(namespace) }}",
    }


def into(place: str, payload: str) -> tuple[Edit, Callable[[Path], str]]:
    """An edit that puts `payload` at `place`, and where the error must then be located."""
    if place == "template":
        path = "templates/related.md.j2"

        def edit(root: Path) -> None:
            with (root / path).open("a", encoding="utf-8") as stream:
                stream.write(payload + "\n")

        return edit, lambda root: f"{path}:{len((root / path).read_text(encoding='utf-8').splitlines())}:"
    spots: dict[str, tuple[str, ...]] = {
        "notes cause": ("parse-error", "cause"),
        "notes action": ("body-too-large", "action"),
        "example client_note": ("      client_note: >-\n", "client_note:", "parse-error:"),
        "example size": ("      size: '{{ MAX_BODY_BYTES + 1 }}'", "size:", "body-too-large:"),
    }
    if place.startswith("notes"):
        entry, key = spots[place]
        return set_field(NOTES, entry, key, f'"{payload}"'), at(NOTES, f"{key}:", f"{entry}:")
    old, key, entry = spots[place]
    if place == "example size":
        edit = replace(NOTES, old, f'      size: "{payload}"')
    else:
        edit = replace(NOTES, old, f"{old}        {payload}\n")
    return edit, at(NOTES, key, entry)


PLACES = ["notes cause", "notes action", "example client_note", "example size", "template"]
SENT = {  # each place gets another attack; test_every_attack_through_the_notes runs them all in one place
    "notes cause": "a string's subclasses",
    "notes action": "a constant's subclasses",
    "example client_note": "lipsum reads /etc/passwd",
    "example size": "namespace reads the environment",
    "template": "str.format reaches globals",
}


def nothing_ran(done: subprocess.CompletedProcess[str], marker: Path) -> None:
    said = done.stdout + done.stderr
    assert not marker.exists()
    assert "root:" not in said  # no line of /etc/passwd
    assert CANARY not in said
    assert "<class" not in said  # no list of Python's classes


@pytest.mark.parametrize("command", ["check", "render"])
@pytest.mark.parametrize("place", PLACES)
def test_a_payload_runs_nothing_and_is_a_located_error(
    project: Path, tmp_path: Path, place: str, command: str
) -> None:
    marker = tmp_path / "pwned"
    edit, location = into(place, payloads(marker)[SENT[place]])
    edit(project)
    done = refused(project, lambda root: None, command, 3, location(project))
    nothing_ran(done, marker)


@pytest.mark.parametrize("attack", list(payloads(Path("/tmp/unused"))))
def test_every_attack_through_the_notes(project: Path, tmp_path: Path, attack: str) -> None:
    marker = tmp_path / "pwned"
    edit, location = into("notes cause", payloads(marker)[attack])
    done = refused(project, edit, "render", 3, location(project))
    nothing_ran(done, marker)


def test_check_reports_a_note_naming_no_constant_without_rendering_it(project: Path, tmp_path: Path) -> None:
    """A note naming something that is not one of the catalog's constants is drift (exit 1), and check then
    leaves the note out of what it renders: the payload is never run."""
    marker = tmp_path / "pwned"
    edit, _location = into("notes cause", payloads(marker)["cycler runs a command"])
    edit(project)
    before = tree(project)
    done = docgen(project, "check")
    assert done.returncode == 1
    assert f"{NOTES}:" in done.stdout and "names cycler, which the source no longer defines" in done.stdout
    assert tree(project) == before
    nothing_ran(done, marker)


# 2. Nothing a pull request writes can exhaust the machine: each bomb is refused, located, quickly.


def alias_bomb() -> str:
    """Nine anchors, each a list naming the one before nine times: hundreds of millions of values."""
    lines = ['bomb0: &b0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    lines += [f"bomb{n}: &b{n} [{', '.join([f'*b{n - 1}'] * 9)}]" for n in range(1, 9)]
    return "\n".join(lines) + "\n"


def appended(relative: str, text: str) -> Edit:
    def edit(root: Path) -> None:
        with (root / relative).open("a", encoding="utf-8") as stream:
            stream.write(text)

    return edit


def grown(relative: str, size: int = 17 * 1024 * 1024) -> Edit:
    """The file made larger than docgen reads, without writing the bytes (a sparse file)."""

    def edit(root: Path) -> None:
        with (root / relative).open("r+b") as stream:
            stream.truncate(size)

    return edit


def made(relative: str, how: Callable[[Path], None]) -> Edit:
    def edit(root: Path) -> None:
        how(root / relative)

    return edit


def _replaced(path: Path, how: Callable[[Path], None]) -> None:
    path.unlink()
    how(path)


def _lines_in(relative: str) -> Callable[[Path], int]:
    return lambda root: (root / relative).read_bytes().count(b"\n")


SERVER = "backend/app/mcp_server.py"
PARSE_CALL = '_rpc_error(\n            None, PARSE_ERROR, "Parse error: invalid JSON"'


def folded(expression: str) -> Edit:
    return replace(SERVER, PARSE_CALL, PARSE_CALL.replace("PARSE_ERROR", expression))


BOMBS: dict[str, Case] = {
    "alias bomb in the notes": (
        appended(NOTES, alias_bomb()),
        3,
        lambda root: f"{NOTES}:{_lines_in(NOTES)(root) - 8}:",
        "anchors and aliases",
    ),
    "alias bomb in a catalog": (
        appended("data/mcp-errors.yaml", alias_bomb()),
        3,
        lambda root: f"data/mcp-errors.yaml:{_lines_in('data/mcp-errors.yaml')(root) - 8}:",
        "anchors and aliases",
    ),
    "alias bomb in the evidence": (
        appended("data/mcp-errors.evidence.yaml", alias_bomb()),
        3,
        lambda root: "data/mcp-errors.evidence.yaml:",
        "anchors and aliases",
    ),
    "alias bomb in the specification": (
        appended("data/specs/mcp-2026-07-28.yaml", alias_bomb()),
        3,
        lambda root: "data/specs/mcp-2026-07-28.yaml:",
        "anchors and aliases",
    ),
    "alias bomb in mkdocs.yml": (
        appended("mkdocs.yml", "extra:\n" + "".join(f"  {line}\n" for line in alias_bomb().splitlines())),
        2,
        lambda root: f"mkdocs.yml:{_lines_in('mkdocs.yml')(root) - 8}:",
        "values, more than docgen follows (100,000)",
    ),
    "alias bomb in front matter": (
        replace("docs/index.md", "---\n", "---\n" + alias_bomb()),
        3,
        lambda root: "docs/index.md:2:",
        "front matter: YAML anchors and aliases",
    ),
    "brackets nested 100,000 deep": (
        appended(NOTES, "deep: " + "[" * 100_000 + "]" * 100_000 + "\n"),
        3,
        lambda root: f"{NOTES}:{_lines_in(NOTES)(root)}:",
        "nest more than 100 levels deep",
    ),
    "2**20000 as a code": (folded("2**20000"), 3, lambda root: f"{SERVER}:", "`2 ** 20000`"),
    "9**9**9 as a code": (folded("9**9**9"), 3, lambda root: f"{SERVER}:", "`9 ** 9 ** 9`"),
    "'x' * 10**10 as a code": (folded("'x' * 10**10"), 3, lambda root: f"{SERVER}:", "10,000,000,000 items"),
    "1 << 10**12 as a code": (folded("1 << 10**12"), 3, lambda root: f"{SERVER}:", "`1 << 10 ** 12`"),
    "a constant of 2**20000": (
        replace("backend/app/protocol.py", "PARSE_ERROR = -32700", "PARSE_ERROR = 2**20000"),
        3,
        lambda root: f"{SERVER}:",
        "`2 ** 20000`",
    ),
    # docgen reads only the modules extraction reaches: these replace one the server imports and needs.
    "a .py that is /dev/zero": (
        made("backend/app/protocol.py", lambda path: _replaced(path, lambda p: p.symlink_to("/dev/zero"))),
        3,
        lambda root: "backend/app/protocol.py:",
        "a link to a file outside the project",
    ),
    "a .py that is a pipe": (
        made("backend/app/protocol.py", lambda path: _replaced(path, os.mkfifo)),
        3,
        lambda root: "backend/app/protocol.py:",
        "not a regular file",
    ),
    "a 17 MiB .py": (
        grown("backend/app/protocol.py"),
        3,
        lambda root: "backend/app/protocol.py:",
        "17,825,792 bytes",
    ),
    "a 17 MiB notes file": (grown(NOTES), 3, lambda root: f"{NOTES}:", "over docgen's limit"),
    "a 17 MiB page": (grown("docs/index.md"), 3, lambda root: "docs/index.md:", "over docgen's limit"),
    "a 17 MiB template": (
        grown("templates/related.md.j2"),
        3,
        lambda root: "templates/related.md.j2:",
        "over docgen's limit",
    ),
    "a page that is a pipe": (
        made("docs/pipe.md", os.mkfifo),
        3,
        lambda root: "docs/pipe.md:",
        "not a regular file",
    ),
    "a page that is /dev/zero": (
        made("docs/zero.md", lambda path: path.symlink_to("/dev/zero")),
        3,
        lambda root: "docs/zero.md:",
        "a link to a place outside the project",
    ),
}


@pytest.mark.parametrize("case", BOMBS.values(), ids=BOMBS)
def test_a_bomb_is_refused(project: Path, case: Case) -> None:
    check_refuses(project, case)


# 3. A user's mistake is a located error (exit 2 or 3), never a traceback, and nothing is half-written.

SERVER_PAGE = "docs/developers/mcp-server.md"


def note_cause(value: str) -> Edit:
    return set_field(NOTES, "parse-error", "cause", f"'{value}'")


def at(relative: str, needle: str, after: str = "") -> Callable[[Path], str]:
    return lambda root: f"{relative}:{line_of(root / relative, needle, after=after)}:"


USER_ERRORS: dict[str, Case] = {
    "a note dividing by zero": (
        note_cause("{{ 1/0 }}"),
        3,
        at(NOTES, "cause:", "parse-error:"),
        "division by zero (ZeroDivisionError)",
    ),
    "a filter given text for a number": (
        note_cause("{{ INSTRUCTIONS | kib }}"),
        3,
        at(NOTES, "cause:", "parse-error:"),
        "the filter 'kib' cannot take",
    ),
    "a filter given a wrong argument": (
        note_cause("{{ SUPPORTED_PROTOCOL_VERSIONS | join_code(1, 2) }}"),
        3,
        at(NOTES, "cause:", "parse-error:"),
        "the filter 'join_code' cannot take",
    ),
    "an example of 100 GB": (
        replace(NOTES, "      size: '{{ MAX_BODY_BYTES + 1 }}'", "      size: 100000000000"),
        3,
        at(NOTES, "size:", "body-too-large:"),
        "100,000,000,000 bytes is more than an example may ask for (16,777,216 bytes)",
    ),
    "an example sent a billion times": (
        replace(
            NOTES, "      size: '{{ MAX_BODY_BYTES + 1 }}'", "      size: 300000\n      repeat: '{{ 10**9 }}'"
        ),
        3,
        at(NOTES, "repeat:", "body-too-large:"),
        "1,000,000,000 times is more than an example may ask for",
    ),
    "based_on holding a string": (
        replace(SERVER_PAGE, "based_on:\n", "based_on:\n  - just a string\n"),
        3,
        at(SERVER_PAGE, "just a string"),
        "front matter `based_on.0`: expected a citation (a mapping), not text",
    ),
    "based_on: 5": (
        replace(
            SERVER_PAGE, "based_on:\n  - file: backend/app/mcp_server.py", "based_on: 5\nunused:\n  - file: x"
        ),
        3,
        at(SERVER_PAGE, "based_on: 5"),
        "front matter `based_on`: expected a list of citations, not 5",
    ),
    "related: 5": (
        replace(SERVER_PAGE, "related:\n", "related: 5\nunused:\n"),
        3,
        at(SERVER_PAGE, "related: 5"),
        "front matter `related`: expected a list of page paths, not 5",
    ),
    "symbols: 5": (
        replace(SERVER_PAGE, "    symbols:", "    symbols: 5\n    unused:"),
        3,
        at(SERVER_PAGE, "symbols: 5"),
        "front matter `based_on.0.symbols`: expected a list of names, not 5",
    ),
    "a template dividing by zero": (
        appended("templates/related.md.j2", "{{ 1 // 0 }}\n"),
        3,
        lambda root: f"templates/related.md.j2:{_lines_in('templates/related.md.j2')(root)}:",
        "integer division or modulo by zero (ZeroDivisionError)",
    ),
    "a template that is not UTF-8": (
        made("templates/related.md.j2", lambda path: path.write_bytes(path.read_bytes() + b"caf\xe9\n")),
        3,
        lambda root: f"templates/related.md.j2:{_lines_in('templates/related.md.j2')(root)}:",
        "not valid UTF-8: byte 0xe9",
    ),
}


@pytest.mark.parametrize("command", ["check", "render"])
@pytest.mark.parametrize("case", USER_ERRORS.values(), ids=USER_ERRORS)
def test_a_user_error_is_located(project: Path, case: Case, command: str) -> None:
    assert "hint:" in check_refuses(project, case, command).stderr


STALE_PAGE = "docs/developers/mcp-errors.md"
make_stale = replace(NOTES, "could not be parsed as JSON.", "is not JSON at all.")
"""An edit after which `docgen render` must rewrite the error page."""


@pytest.fixture
def tmpfs(tmp_path: Path) -> Iterator[Callable[[str], Path]]:
    """Mount a small tmpfs (needs root: skipped elsewhere, where the chmod and in-process tests still run)."""
    mounted: list[Path] = []

    def mount(options: str) -> Path:
        point = tmp_path / f"fs{len(mounted)}"
        point.mkdir()
        done = subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(point)], check=False)
        if done.returncode != 0:
            pytest.skip("cannot mount a tmpfs here")
        mounted.append(point)
        return point

    yield mount
    for point in mounted:
        subprocess.run(["umount", "-l", str(point)], check=False)


def test_a_full_disk_changes_nothing(tmpfs: Callable[[str], Path]) -> None:
    point = tmpfs("size=8m")
    project = copy_project(REPO_ROOT, point / "project")
    make_stale(project)
    with (point / "filler").open("wb") as filler, contextlib.suppress(OSError):
        while True:
            filler.write(b"\0" * 65536)
            filler.flush()
    done = refused(project, lambda root: None, "render", 3, f"{STALE_PAGE}: cannot write the file:")
    assert "No space left on device" in done.stderr and "the disk is full" in done.stderr


def test_a_read_only_docs_folder_changes_nothing(tmp_path: Path, tmpfs: Callable[[str], Path]) -> None:
    if os.geteuid() == 0:  # root writes through permissions: make the file system itself read-only
        point = tmpfs("size=16m")
        project = copy_project(REPO_ROOT, point / "project")
        make_stale(project)
        subprocess.run(["mount", "-o", "remount,ro", str(point)], check=True)
    else:
        project = copy_project(REPO_ROOT, tmp_path / "project")
        make_stale(project)
        for folder in [project / "docs", *(project / "docs").rglob("*")]:
            if folder.is_dir():
                folder.chmod(0o555)
    done = refused(project, lambda root: None, "render", 3, f"{STALE_PAGE}: cannot write the file:")
    assert "nothing was changed" in done.stderr


def test_a_read_only_data_folder_changes_nothing(tmpfs: Callable[[str], Path]) -> None:
    point = tmpfs("size=16m")
    project = copy_project(REPO_ROOT, point / "project")
    replace(SERVER, '"Parse error: invalid JSON"', '"Parse error: not JSON"')(project)
    subprocess.run(["mount", "-o", "remount,ro", str(point)], check=True)
    done = refused(project, lambda root: None, "extract", 3, "data/mcp-errors.yaml: cannot write the file:")
    assert "Read-only file system" in done.stderr


def test_a_file_size_limit_changes_nothing(project: Path) -> None:
    make_stale(project)
    before = tree(project)
    command = [sys.executable, "-m", "docgen.shell.cli", "-f", str(project / "mkdocs.yml"), "render"]
    limit = 16 * 1024  # smaller than the error page, larger than anything else render writes

    def limited() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    done = subprocess.run(
        command, capture_output=True, text=True, preexec_fn=limited, timeout=120, check=False
    )
    assert done.returncode == 3, done.stderr
    assert done.stderr.startswith(
        f"docgen render: error: {STALE_PAGE}: cannot write the file: File too large"
    )
    assert "ulimit -f" in done.stderr and "Traceback" not in done.stderr
    assert tree(project) == before


def test_a_write_that_fails_midway_leaves_every_file_as_it_was(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """At the writer boundary itself (for machines where no tmpfs can be mounted): every page with a Related
    region must be rewritten; the first is written in full to its temporary file, the second fails with
    ENOSPC, and no page changes."""
    from docgen.core import writer
    from docgen.shell.cli import main

    appended("templates/related.md.j2", "\nAnd the rest of the site.\n")(project)
    before = tree(project)
    written: list[int] = []
    real = writer._write

    def fill_up(descriptor: int, data: bytes) -> None:
        if written:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        written.append(len(data))
        real(descriptor, data)

    monkeypatch.setattr(writer, "_write", fill_up)
    assert main(["-f", str(project / "mkdocs.yml"), "render"]) == 3
    said = capsys.readouterr().err
    assert ": cannot write the file: No space left on device" in said and "the disk is full" in said
    assert written and tree(project) == before


# 4. Nothing is lost without a word, and nothing broken passes as clean.

DUPLICATES: dict[str, Case] = {
    "a second cause in the notes": (
        both(
            note_cause("One cause."),
            replace(
                NOTES,
                "    action: Fix how the request",
                "    cause: A second cause.\n    action: Fix how the request",
            ),
        ),
        3,
        at(NOTES, "cause: A second cause."),
        "the key 'cause' is given twice, here and 1 line above",
    ),
    "an entry id given twice in the notes": (
        appended(NOTES, "  parse-error:\n    cause: Again.\n"),
        3,
        lambda root: f"{NOTES}:{_lines_in(NOTES)(root) - 1}:",
        "the key 'parse-error' is given twice",
    ),
    "a key given twice in a catalog": (
        replace("data/mcp-errors.yaml", "kind: errors\n", "kind: errors\nkind: tools\n"),
        3,
        at("data/mcp-errors.yaml", "kind: tools"),
        "the key 'kind' is given twice, here and 1 line above",
    ),
    "a key given twice in mkdocs.yml": (
        appended("mkdocs.yml", "site_name: again\n"),
        2,
        lambda root: f"mkdocs.yml:{_lines_in('mkdocs.yml')(root)}:",
        "the key 'site_name' is given twice",
    ),
    "a key given twice in front matter": (
        replace(SERVER_PAGE, "status: Available\n", "status: Available\nstatus: Draft\n"),
        3,
        at(SERVER_PAGE, "status: Draft"),
        "the key 'status' is given twice, here and 1 line above",
    ),
}


@pytest.mark.parametrize("case", DUPLICATES.values(), ids=DUPLICATES)
def test_a_key_given_twice_is_refused(project: Path, case: Case) -> None:
    check_refuses(project, case)


def test_verify_keeps_the_comment_on_the_stamp_lines(project: Path) -> None:
    """A reviewer's note beside the date is theirs: verify rewrites the date and fingerprints only."""
    page = project / SERVER_PAGE
    stamp = next(
        line for line in page.read_text(encoding="utf-8").splitlines() if line.startswith("last_verified:")
    )
    replace(SERVER_PAGE, f"{stamp}\n", f"{stamp}  # re-read by Ana (#42)\n")(project)
    replace(SERVER_PAGE, "verified_fingerprints:\n", "verified_fingerprints:  # written by docgen verify\n")(
        project
    )
    done = docgen(project, "verify", SERVER_PAGE, "--date", "2031-06-15")
    assert done.returncode == 0, done.stderr
    text = page.read_text(encoding="utf-8")
    assert "last_verified: 2031-06-15  # re-read by Ana (#42)\n" in text
    assert (
        "verified_fingerprints:  # written by docgen verify\n  backend/app/mcp_server.py:_handle: sha256:"
        in text
    )
    assert stamp not in text
    assert docgen(project, "check").returncode == 0


FOLDERS: dict[str, Case] = {
    "docs_dir misspelt": (
        replace("mkdocs.yml", "docs_dir: docs\n", "docs_dir: dcos\n"),
        2,
        at("mkdocs.yml", "docs_dir: dcos"),
        "'docs_dir': dcos does not exist",
    ),
    "docs_dir outside the project": (
        replace("mkdocs.yml", "docs_dir: docs\n", "docs_dir: ../../..\n"),
        2,
        at("mkdocs.yml", "docs_dir: ../../.."),
        "is outside the project",
    ),
    "the docs folder removed": (
        made("docs", shutil.rmtree),
        2,
        at("mkdocs.yml", "docs_dir: docs"),
        "'docs_dir': docs does not exist",
    ),
    "no docs folder, none configured": (
        both(made("docs", shutil.rmtree), replace("mkdocs.yml", "docs_dir: docs\n", "")),
        3,
        lambda root: "docs:",
        "the docs folder does not exist",
    ),
    "templates_dir outside the project": (
        replace("mkdocs.yml", "      catalogs:", "      templates_dir: /etc\n      catalogs:"),
        2,
        at("mkdocs.yml", "templates_dir: /etc"),
        "'templates_dir': /etc is outside the project",
    ),
}


@pytest.mark.parametrize("case", FOLDERS.values(), ids=FOLDERS)
def test_a_folder_that_is_not_there_is_not_clean(project: Path, case: Case) -> None:
    done = check_refuses(project, case)
    assert "match the code" not in done.stdout + done.stderr


FENCE_AND_MARKERS: dict[str, tuple[Edit, Callable[[Path], str], str]] = {
    "an unclosed fence above a hand-edited region": (
        both(
            replace(SERVER_PAGE, "## Limits\n", "## Limits\n\n```text\n"),
            replace(SERVER_PAGE, "| Largest request body | 256 KiB |", "| Largest request body | 10 GiB |"),
        ),
        at(SERVER_PAGE, "```text"),
        "is never closed, so the docgen marker at line",
    ),
    "an end marker in an untriggerable reason": (
        replace(
            NOTES,
            "        HTTP `200`, with no internal detail in the message.",
            "\n        <!-- docgen:end error-examples -->",
        ),
        at(NOTES, "untriggerable:"),
        "untriggerable: a line of it starts like a docgen marker",
    ),
    "an end marker in a cause": (
        both(
            note_cause("Broken."),
            replace(
                NOTES,
                "    cause: 'Broken.'",
                "    cause: |\n      Broken.\n      <!-- docgen:end error-table -->",
            ),
        ),
        at(NOTES, "cause:", "parse-error:"),
        "it holds a line that starts like a docgen marker",
    ),
    "a begin marker in a client note": (
        replace(NOTES, "      client_note: >-\n", "      client_note: |\n        <!-- docgen:begin x -->\n"),
        at(NOTES, "client_note:", "parse-error:"),
        "example client_note: it holds a line that starts like a docgen marker",
    ),
    "a template that writes an end marker": (
        appended("templates/server-limits.md.j2", "<!-- docgen:end server-limits -->\n"),
        at(SERVER_PAGE, "<!-- docgen:begin server-limits"),
        "would be a docgen marker",
    ),
    "a template that leaves a fence open": (
        appended("templates/server-limits.md.j2", "```text\n"),
        at(SERVER_PAGE, "<!-- docgen:begin server-limits"),
        "it leaves a code fence (```) open",
    ),
}


@pytest.mark.parametrize("command", ["check", "render"])
@pytest.mark.parametrize(("edit", "location", "message"), FENCE_AND_MARKERS.values(), ids=FENCE_AND_MARKERS)
def test_nothing_writes_or_passes_a_page_that_cannot_be_read_back(
    project: Path, edit: Edit, location: Callable[[Path], str], message: str, command: str
) -> None:
    edit(project)
    done = refused(project, lambda root: None, command, 3, location(project))
    assert message in done.stderr
    if command == "render":  # and every page still reads back
        assert docgen(project, "check").returncode == 3


def test_the_site_build_fails_on_a_fence_that_hides_a_region(project: Path) -> None:
    FENCE_AND_MARKERS["an unclosed fence above a hand-edited region"][0](project)
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(project / "site")],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode != 0
    assert f"{SERVER_PAGE}:" in done.stderr and "is never closed" in done.stderr


def test_a_linked_page_is_written_through_its_link(project: Path) -> None:
    page = project / SERVER_PAGE
    shared = project / "shared" / "mcp-server.md"
    shared.parent.mkdir()
    page.rename(shared)
    page.symlink_to(os.path.relpath(shared, page.parent))
    replace("templates/server-limits.md.j2", "| Limit | Value |", "| Limit | Its value |")(project)
    done = docgen(project, "render")
    assert done.returncode == 0, done.stderr
    assert page.is_symlink() and "| Limit | Its value |" in shared.read_text(encoding="utf-8")
    assert docgen(project, "check").returncode == 0


def test_a_page_linked_outside_the_project_is_never_written(project: Path, tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere" / "mcp-server.md"
    outside.parent.mkdir()
    page = project / SERVER_PAGE
    outside.write_bytes(page.read_bytes())
    page.unlink()
    page.symlink_to(outside)
    replace("templates/server-limits.md.j2", "| Limit | Value |", "| Limit | Its value |")(project)
    before = outside.read_bytes()
    done = refused(project, lambda root: None, "render", 3, f"{SERVER_PAGE}: the file is a link to")
    assert "outside the project; docgen reads only the project's own files" in done.stderr
    assert outside.read_bytes() == before


LINKED_OUT = {
    "the notes": NOTES,
    "the evidence": "data/mcp-errors.evidence.yaml",
    "a catalog": "data/mcp-errors.yaml",
    "the specification": "data/specs/mcp-2026-07-28.yaml",
    "a page": SERVER_PAGE,
}


@pytest.mark.parametrize("command", ["check", "render"])
@pytest.mark.parametrize("relative", LINKED_OUT.values(), ids=LINKED_OUT)
def test_a_file_linked_outside_the_project_is_not_read(
    project: Path, tmp_path: Path, relative: str, command: str
) -> None:
    """A pull request can commit a link where a data file or page belongs; pointed at a secret on the CI
    machine, its text could come back in a parse error. docgen refuses the link before reading a byte."""
    secret = tmp_path / "secret.yaml"
    secret.write_text(f"token: {CANARY}\n  broken: [\n", encoding="utf-8")
    target = project / relative
    target.unlink()
    target.symlink_to(secret)
    done = refused(
        project, lambda root: None, command, 3, f"{relative}: the file is a link to a place outside"
    )
    assert CANARY not in done.stdout + done.stderr


# What held before and must keep holding: no page truncated by a killed render, concurrent renders, and
# nothing of the backend imported.


def variant(root: Path, number: int) -> None:
    """The notes in one of two versions (even: as committed), so that every render has a page to rewrite."""
    path = root / NOTES
    written = ("could not be parsed as JSON.", "could not be read as JSON.")
    old, new = written if number % 2 else written[::-1]
    path.write_text(path.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")


def expected_pages(tmp_path: Path) -> dict[int, bytes]:
    """The error page as a finished render writes it, for each version of the notes."""
    pages = {}
    for number in (0, 1):
        copy = copy_project(REPO_ROOT, tmp_path / f"expected-{number}")
        variant(copy, number)
        assert docgen(copy, "render").returncode == 0
        pages[number] = (copy / STALE_PAGE).read_bytes()
    assert pages[0] != pages[1]
    return pages


def leftovers(root: Path) -> list[Path]:
    return sorted(root.rglob("*.tmp"))


def render_process(root: Path) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "docgen.shell.cli", "-f", str(root / "mkdocs.yml"), "render"]
    return subprocess.Popen(command, cwd=root, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def test_a_killed_render_never_truncates_a_page_nor_leaves_files_behind(
    project: Path, tmp_path: Path
) -> None:
    pages = expected_pages(tmp_path)
    started = time.monotonic()
    assert docgen(project, "render").returncode == 0
    duration = time.monotonic() - started
    for kill in range(20):  # SIGKILL at 20 points spread over a whole render, the final write included
        variant(project, kill + 1)
        before = (project / STALE_PAGE).read_bytes()
        process = render_process(project)
        time.sleep(duration * (kill + 1) / 20)
        process.kill()
        process.wait()
        assert (project / STALE_PAGE).read_bytes() in (before, pages[(kill + 1) % 2])
    assert docgen(project, "render").returncode == 0
    assert (project / STALE_PAGE).read_bytes() == pages[20 % 2]
    assert leftovers(project) == []


def test_temporary_files_of_gone_processes_are_removed_and_others_kept(project: Path) -> None:
    gone = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True, check=True
    )
    folder = (project / STALE_PAGE).parent
    killed = folder / f".mcp-errors.md.{gone.stdout.strip()}.k1ll3d.tmp"  # its process has ended
    older = folder / ".mcp-errors.md.q8z1x_2a.tmp"  # written by a docgen that put no process id in the name
    running = folder / f".mcp-errors.md.{os.getpid()}.inflight.tmp"  # a process still writing
    for path in (killed, older, running):
        path.write_text("half a page", encoding="utf-8")
    variant(project, 1)
    assert docgen(project, "render").returncode == 0
    assert leftovers(project) == [running]


def test_concurrent_renders_agree_and_leave_nothing_behind(project: Path, tmp_path: Path) -> None:
    pages = expected_pages(tmp_path)
    variant(project, 1)
    processes = [render_process(project) for _ in range(4)]
    assert [process.wait(timeout=120) for process in processes] == [0, 0, 0, 0]
    assert (project / STALE_PAGE).read_bytes() == pages[1]
    assert leftovers(project) == []
    assert docgen(project, "check").returncode == 0


def test_nothing_of_the_backend_is_imported(project: Path, tmp_path: Path) -> None:
    """Importing the backend package would create the marker file: extract, check, render and the site
    build never do."""
    marker = tmp_path / "imported"
    init = project / "backend" / "app" / "__init__.py"
    init.write_text(
        init.read_text(encoding="utf-8") + f"\nopen({str(marker)!r}, 'w').close()\n", encoding="utf-8"
    )
    replace(SERVER, '"Parse error: invalid JSON"', '"Parse error: not JSON"')(project)
    for command in ("check", "extract", "render"):
        assert docgen(project, command).returncode in (0, 1)
    build = [sys.executable, "-m", "mkdocs", "build", "-q", "-d", str(tmp_path / "site")]
    assert subprocess.run(build, cwd=project, capture_output=True, timeout=300, check=False).returncode == 0
    assert not marker.exists()


# 6. Every message names the line.


def latin1(relative: str, old: bytes, new: bytes) -> Edit:
    def edit(root: Path) -> None:
        path = root / relative
        data = path.read_bytes()
        assert old in data
        path.write_bytes(data.replace(old, new, 1))

    return edit


LINES: dict[str, Case] = {
    "notes that are not UTF-8": (
        latin1(NOTES, b"could not be parsed as JSON.", b"could not be pars\xe9d as JSON."),
        3,
        lambda root: f"{NOTES}:15:",
        "not valid UTF-8: byte 0xe9 at line 15, column 46",
    ),
    "a page that is not UTF-8": (
        latin1(SERVER_PAGE, b"# The Connect MCP server", b"# The Connect MCP serv\xe9r"),
        3,
        lambda root: f"{SERVER_PAGE}:24:",
        "not valid UTF-8: byte 0xe9 at line 24, column 23",
    ),
    "a Jinja syntax error in the notes": (
        note_cause("Larger than {{ MAX_BODY_BYTES | }}."),
        3,
        at(NOTES, "cause:", "parse-error:"),
        "notes for entry 'parse-error', field 'cause': ",
    ),
    "a citation outside the repository": (
        replace(SERVER_PAGE, "  - file: backend/app/mcp_server.py", "  - file: ../../etc/passwd"),
        3,
        at(SERVER_PAGE, "file: ../../etc/passwd"),
        "the citation '../../etc/passwd' points outside the repository",
    ),
    "an absolute source": (
        replace("mkdocs.yml", "source: backend/app/mcp_server.py", "source: /usr/lib/python3/dist-packages"),
        2,
        at("mkdocs.yml", "source: /usr/lib"),
        "'catalogs.mcp-errors.source': /usr/lib/python3/dist-packages is outside the project",
    ),
    "a source outside the project": (
        replace("mkdocs.yml", "source: backend/app/mcp_server.py", "source: ../elsewhere/server.py"),
        2,
        at("mkdocs.yml", "source: ../elsewhere"),
        "is outside the project",
    ),
}


@pytest.mark.parametrize("case", LINES.values(), ids=LINES)
def test_the_message_names_the_line(project: Path, case: Case) -> None:
    check_refuses(project, case)
