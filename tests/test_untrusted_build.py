"""A pull request's mkdocs.yml, in the attacker's terms: what a site build would run, `docgen check` reports.

The workflow builds the site only after `docgen check` passes, and MkDocs' own loader runs `hooks:` and
`!!python/...` tags. Each test gives a copy of the repository a mkdocs.yml that would run code or reach
outside the project at build time, runs the real CLI in a process of its own, and checks the exit code, the
located finding, that nothing the attack would write exists, and that the tree is unchanged.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from tests.conftest import REPO_ROOT
from tests.helpers import copy_project
from tests.test_untrusted import docgen, tree

EVIL_HOOK = "import pathlib\npathlib.Path({target!r}).write_text('the hook ran')\n"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return copy_project(REPO_ROOT, tmp_path / "project")


def add_to_config(root: Path, text: str) -> dict[str, int]:
    """Append `text` to mkdocs.yml; the line of each appended line, by its text."""
    path = root / "mkdocs.yml"
    before = path.read_text(encoding="utf-8")
    path.write_text(before + text, encoding="utf-8")
    first = before.count("\n") + 1
    return {line.strip(): first + index for index, line in enumerate(text.splitlines()) if line.strip()}


def findings(root: Path) -> tuple[int, list[tuple[str, int, str]]]:
    """check's exit code and its findings as (kind, line, subject), for a project whose mkdocs.yml changed."""
    result = docgen(root, "check", "--format", "json")
    assert "Traceback" not in result.stderr
    report = json.loads(result.stdout)
    found = [(f["kind"], f["line"], f["subject"]) for f in report["findings"] if f["file"] == "mkdocs.yml"]
    return result.returncode, found


def test_a_hook_that_writes_a_file_is_reported_and_does_not_run(project: Path, tmp_path: Path) -> None:
    target = tmp_path / "written-by-the-hook"
    (project / "evil.py").write_text(EVIL_HOOK.format(target=str(target)), encoding="utf-8")
    lines = add_to_config(project, "hooks:\n  - evil.py\n")
    before = tree(project)
    result = docgen(project, "check")
    assert result.returncode == 1, result.stdout + result.stderr
    assert f"mkdocs.yml:{lines['- evil.py']}: build-runs-code: hooks: evil.py" in result.stdout
    assert "MkDocs runs the Python file evil.py during the build" in result.stdout
    assert not target.exists()
    assert tree(project) == before


def test_a_python_object_apply_tag_is_reported_and_does_not_run(project: Path, tmp_path: Path) -> None:
    target = tmp_path / "written-by-the-tag"
    tag = f'!!python/object/apply:os.system ["touch {target}"]'
    lines = add_to_config(project, f"extra:\n  version: {tag}\n")
    before = tree(project)
    result = docgen(project, "check", "--format", "github")
    assert result.returncode == 1, result.stdout + result.stderr
    line = lines[f"version: {tag}"]
    assert f"::error file=mkdocs.yml,line={line}," in result.stdout
    assert "!!python/object/apply:os.system" in result.stdout
    assert not target.exists()
    assert tree(project) == before


def test_every_other_way_to_run_code_or_reach_out_at_build_time_is_reported(project: Path) -> None:
    spelt = "!<tag:yaml.org,2002:python/object/new:os.system>"  # the tag without its `!!` shorthand
    (project / "shadow.py").write_text("raise SystemExit('imported')\n", encoding="utf-8")
    (project / "docs" / "page.html").write_text("{{ lipsum.__globals__ }}\n", encoding="utf-8")
    add_to_config(
        project,
        "INHERIT: ../../base.yml\n"
        "site_dir: ../../somewhere-else\n"
        "extra_templates:\n  - page.html\n"
        "extra:\n"
        "  name: !!python/name:os.system\n"
        "  module: !!python/module:shutil\n"
        f"  spelt: {spelt} [id]\n"
        "  token: !ENV GITHUB_TOKEN\n",
    )
    text = (project / "mkdocs.yml").read_text(encoding="utf-8")
    text = text.replace("  name: material\n", "  name: material\n  custom_dir: overrides\n", 1)
    text = text.replace("  - search\n", "  - search\n  - macros\n", 1)
    text = text.replace("  - admonition\n", "  - admonition\n  - shadow\n  - markdown_exec\n", 1)
    snippets = "  - pymdownx.snippets:\n      base_path: [/etc]\n      url_download: true\n"
    text = text.replace("  - pymdownx.details\n", "  - pymdownx.details\n" + snippets, 1)
    (project / "mkdocs.yml").write_text(text, encoding="utf-8")
    numbered = dict(enumerate(text.splitlines(), 1))

    def at(needle: str) -> int:
        return next(number for number, line in numbered.items() if line.strip() == needle)

    code, found = findings(project)
    assert code == 1
    kind = "build-runs-code"
    assert sorted(found) == sorted(
        [
            (kind, at("custom_dir: overrides"), "theme.custom_dir"),
            (kind, at("- shadow"), "markdown_extensions: shadow"),
            (kind, at("- markdown_exec"), "markdown_extensions: markdown_exec"),
            (kind, at("base_path: [/etc]"), "pymdownx.snippets"),
            (kind, at("url_download: true"), "pymdownx.snippets"),
            (kind, at("- macros"), "plugins: macros"),
            (kind, at("INHERIT: ../../base.yml"), "INHERIT"),
            (kind, at("site_dir: ../../somewhere-else"), "site_dir"),
            (kind, at("extra_templates:"), "extra_templates"),
            (kind, at("name: !!python/name:os.system"), "!!python/name:os.system"),
            (kind, at("module: !!python/module:shutil"), "!!python/module:shutil"),
            (kind, at(f"spelt: {spelt} [id]"), "!!python/object/new:os.system"),
            (kind, at("token: !ENV GITHUB_TOKEN"), "!ENV"),
        ]
    )


def test_the_extension_callables_material_documents_are_allowed(project: Path) -> None:
    add_to_config(
        project,
        "extra:\n"
        "  fence: !!python/name:pymdownx.superfences.fence_code_format\n"
        "  emoji: !!python/name:material.extensions.emoji.twemoji\n"
        "  slug: !!python/object/apply:pymdownx.slugs.slugify {kwds: {case: lower}}\n",
    )
    code, found = findings(project)
    assert found == []
    assert code == 0


def test_an_alias_bomb_is_refused_at_once_and_located(project: Path) -> None:
    levels = ['  a: &a ["x", "x", "x", "x", "x", "x", "x", "x", "x", "x"]']
    for previous, name in zip("abcdefgh", "bcdefghi", strict=False):
        levels.append(f"  {name}: &{name} [{', '.join([f'*{previous}'] * 10)}]")
    lines = add_to_config(project, "extra:\n" + "\n".join(levels) + "\n")
    started = time.monotonic()
    result = docgen(project, "check")
    assert time.monotonic() - started < 20  # MkDocs' own loader spends minutes and gigabytes on it
    assert result.returncode == 2
    first_anchor = next(number for text, number in lines.items() if text.startswith("a: &a"))
    assert f"mkdocs.yml:{first_anchor}: its aliases expand to" in result.stderr
    assert "more than docgen follows (100,000)" in result.stderr
