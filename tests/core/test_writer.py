"""The one writer: whole files, through a temporary file and a rename, only when their text changed."""

from __future__ import annotations

import os
from pathlib import Path

from docgen.core.writer import write_outputs


def test_only_changed_files_are_written_and_listed(tmp_path: Path) -> None:
    assert write_outputs(tmp_path, {"b/one.txt": "1\n", "a.txt": "a\n"}) == ["a.txt", "b/one.txt"]
    before = (tmp_path / "a.txt").stat().st_mtime_ns
    os.utime(tmp_path / "a.txt", ns=(before - 10**9, before - 10**9))
    assert write_outputs(tmp_path, {"a.txt": "a\n", "b/one.txt": "2\n"}) == ["b/one.txt"]
    assert (tmp_path / "a.txt").stat().st_mtime_ns == before - 10**9  # untouched: same text
    assert (tmp_path / "b" / "one.txt").read_text(encoding="utf-8") == "2\n"
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["a.txt", "b", "one.txt"]  # no temporary left


def test_a_file_keeps_its_permissions_and_text_is_written_as_utf8(tmp_path: Path) -> None:
    path = tmp_path / "page.md"
    path.write_text("old\n", encoding="utf-8")
    path.chmod(0o640)
    write_outputs(tmp_path, {"page.md": "Ünïcødé — new\r\n"})
    assert path.read_bytes() == "Ünïcødé — new\r\n".encode()
    assert path.stat().st_mode & 0o777 == 0o640
