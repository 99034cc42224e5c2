"""The packaged templates' code compiled with docgen: current, used instead of compiling, and never used where
compiling would give other code."""

from __future__ import annotations

import sys
import traceback
from pathlib import Path
from types import CodeType

import jinja2
import pytest

from docgen.core.project import load_project
from docgen.core.settings import load_settings
from docgen.render.environment import ProjectTemplates, make_environment
from docgen.render.renderer import render_all, renderer_for
from docgen.templating import precompiled
from docgen.templating.packaged import PACKAGED, packaged_templates
from docgen.templating.sandbox import BoundedSandbox

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import precompile_templates  # noqa: E402  (a script, not a package)


@pytest.fixture
def compiled(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the templates Jinja compiles from here on (no cache: every load is seen)."""
    monkeypatch.setenv("DOCGEN_NO_CACHE", "1")
    names: list[str] = []
    compile_ = BoundedSandbox.compile

    def recording(self: BoundedSandbox, source: object, name: str | None = None, *args: object) -> object:
        names.append(str(name))
        return compile_(self, source, name, *args)

    monkeypatch.setattr(BoundedSandbox, "compile", recording)
    return names


def test_the_compiled_folder_is_what_the_templates_compile_to_today() -> None:
    stale = precompile_templates.stale()
    assert stale == [], f"run `.venv/bin/python scripts/precompile_templates.py`: stale {stale}"
    assert set(precompiled.generate(make_environment({}), packaged_templates(), PACKAGED)) == {
        "__init__.py",
        *(f"{precompiled.module_name(name)}.py" for name in packaged_templates()),
    }


def test_the_repository_renders_with_no_packaged_template_compiled(compiled: list[str]) -> None:
    project = load_project(load_settings(ROOT / "mkdocs.yml"))
    rendered = render_all(renderer_for(project), project.pages)
    assert len(rendered) >= 3 and {r.page: r.text for r in rendered} == {r.page: r.original for r in rendered}
    assert not [name for name in compiled if name.endswith(".md.j2")]


def test_a_project_template_of_a_packaged_name_is_compiled(compiled: list[str]) -> None:
    environment = make_environment({"related.md.j2": "mine\n"})
    assert environment.get_template("related.md.j2").render() == "mine\n"
    assert compiled == ["related.md.j2"]


def test_a_packaged_template_whose_text_changed_is_compiled(
    compiled: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    environment = make_environment({})
    loader = environment.loader
    assert isinstance(loader, ProjectTemplates)
    monkeypatch.setitem(loader.packaged, "related.md.j2", "edited in the installed package\n")
    assert environment.get_template("related.md.j2").render() == "edited in the installed package\n"
    assert compiled == ["related.md.j2"]


@pytest.mark.parametrize(
    "identity",
    [
        pytest.param({"trim_blocks": False}, id="other whitespace options"),
        pytest.param({"filters": {"mine": str}}, id="another filter"),
    ],
)
def test_an_environment_of_another_identity_compiles(
    compiled: list[str], identity: dict[str, object]
) -> None:
    options: dict[str, object] = {"keep_trailing_newline": True, "trim_blocks": True, "lstrip_blocks": True}
    environment = BoundedSandbox(loader=ProjectTemplates({}, "templates"), **{**options, **identity})  # type: ignore[arg-type]
    environment.get_template("retry-budget.md.j2")
    assert compiled == ["retry-budget.md.j2"]


def test_another_jinja_release_compiles(compiled: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(jinja2, "__version__", "3.9.0")
    make_environment({}).get_template("retry-budget.md.j2")
    assert compiled == ["retry-budget.md.j2"]


def failing_line(template: jinja2.Template) -> tuple[str, int]:
    """Where rendering `template` with nothing fails: the template's file and line in the traceback."""
    with pytest.raises(jinja2.UndefinedError) as failure:
        template.render()
    lines = [
        (frame.f_code.co_filename, line)
        for frame, line in traceback.walk_tb(failure.value.__traceback__)
        if frame.f_code.co_filename == template.filename
    ]
    assert lines, f"no frame of {template.filename} in the traceback"
    return lines[-1]


def test_a_failure_in_a_precompiled_template_is_located_as_in_a_compiled_one(compiled: list[str]) -> None:
    name = "error-table.md.j2"
    packaged = make_environment({}).get_template(name)
    assert packaged.filename == f"{PACKAGED}/{name}" and compiled == []
    assert _filenames(packaged.root_render_func.__code__) == {packaged.filename}
    same_text = make_environment({name: packaged_templates()[name]}).get_template(name)
    assert compiled == [name]
    assert failing_line(packaged) == (packaged.filename, failing_line(same_text)[1])


def _filenames(code: CodeType) -> set[str]:
    nested = [c for c in code.co_consts if isinstance(c, CodeType)]
    return {code.co_filename}.union(*(_filenames(c) for c in nested))
