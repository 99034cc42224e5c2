"""Render: golden pages, editors' text kept byte for byte, hand edits detected, errors located."""

from __future__ import annotations

import difflib
import os
from pathlib import Path

import pytest
import yaml

from docgen.core.errors import TemplateError
from docgen.core.notes import EntryNotes, Notes
from docgen.core.pages import read_pages
from docgen.core.project import Project, load_project
from docgen.core.settings import CatalogConfig, Settings, load_settings
from docgen.render.published import catalog_as_json
from docgen.render.regions import digest_of
from docgen.render.renderer import Renderer, render_all, renderer_for
from docgen.templating.packaged import packaged_templates

GOLDEN = Path(__file__).resolve().parent.parent / "golden"
CASES = sorted(path.name for path in GOLDEN.iterdir() if (path / "case.yaml").is_file())
UPDATE = os.environ.get("DOCGEN_UPDATE_GOLDEN") == "1"


def golden_project(root: Path, templates: Path, **urls: str | None) -> Project:
    """The project of a golden folder: each catalog in its data/ configured, the templates given."""
    catalogs = {}
    for path in sorted((root / "data").glob("*.yaml")):
        if not path.name.endswith(".notes.yaml"):
            kind = yaml.safe_load(path.read_text(encoding="utf-8"))["kind"]
            catalogs[path.stem] = CatalogConfig(path.stem, kind, source="not read")
    settings = Settings(
        root=root,
        config_file=root / "mkdocs.yml",
        docs_dir=root / "docs",
        data_dir=root / "data",
        templates_dir=templates,
        site_url=urls.get("site_url"),
        repo_url=urls.get("repo_url"),
        catalogs=catalogs,
    )
    return load_project(settings)


def render_case(folder: Path, templates: Path) -> dict[str, str]:
    spec = yaml.safe_load((folder / "case.yaml").read_text(encoding="utf-8")) or {}
    project = golden_project(folder, templates, site_url=spec.get("site_url"), repo_url=spec.get("repo_url"))
    lines = spec.get("symbol_lines") or {}

    def locate(file: str, symbol: str) -> tuple[int, int] | None:
        found = lines.get(file, {}).get(symbol)
        return (found[0], found[1]) if found else None

    renderer = renderer_for(project, source_ref=spec.get("source_ref", "HEAD"), symbol_lines=locate)
    results = render_all(renderer, project.pages, force=spec.get("force", False))
    return {result.page: result.text for result in results}


@pytest.mark.parametrize("case", CASES)
def test_golden(case: str, repo_root: Path) -> None:
    folder = GOLDEN / case
    produced = render_case(folder, repo_root / "templates")
    expected_dir = folder / "expected"
    if UPDATE:
        for page, text in produced.items():
            target = expected_dir / page
            target.parent.mkdir(parents=True, exist_ok=True)
            with target.open("w", encoding="utf-8", newline="") as stream:
                stream.write(text)
    expected = read_pages(expected_dir)
    assert sorted(produced) == sorted(expected), "pages with regions differ from the expected/ folder"
    for page, text in produced.items():
        if text != expected[page]:
            diff = difflib.unified_diff(
                expected[page].splitlines(keepends=True),
                text.splitlines(keepends=True),
                f"expected/{page}",
                f"rendered/{page}",
            )
            pytest.fail(f"{case}: {page} differs from its golden file:\n{''.join(diff)}")


def test_golden_cases_cover_the_required_ground() -> None:
    assert {"error-table-full", "notes-gap", "constant-substitution", "tools-reference"} <= set(CASES)


# --- the editors' text ----------------------------------------------------------------------------


@pytest.fixture
def renderer(repo_root: Path) -> Renderer:
    return renderer_for(golden_project(GOLDEN / "notes-gap", repo_root / "templates"))


def outside_regions(text: str) -> str:
    """The page with every region body cut out, the attributes docgen writes (edit-in, digest) blanked: what
    editors own."""
    import re

    text = re.sub(r"(?: edit-in=\S+)? digest=[0-9a-f]+ -->", " -->", text)
    return re.sub(r"(<!-- docgen:begin [^\n]*\n).*?(<!-- docgen:end)", r"\1\2", text, flags=re.DOTALL)


BEGIN, END = "<!-- docgen:begin error-table catalog=demo -->", "<!-- docgen:end error-table -->"
ODD_PAGES = {
    "lf": f"# T\n\n{BEGIN}\n{END}\ntail",
    "crlf": f"# T\r\n\r\n{BEGIN}\r\n{END}\r\n\r\n",
    "whitespace": f"  \t\n#  T  \n\n\n\n{BEGIN}\n \t\n\n{END}\n   trailing spaces   \n\t\n",
    "mixed": f"a\r\nb\n{BEGIN}\r\n{END}\nc\r\n",
    "bom-and-unicode": f"\ufeff# Ünïcødé — “x”\n{BEGIN}\n{END}\n€",
}


@pytest.mark.parametrize("name", sorted(ODD_PAGES))
def test_text_outside_regions_survives_byte_for_byte(renderer: Renderer, name: str) -> None:
    original = ODD_PAGES[name]
    result = renderer.render_page(original, page="p.md")
    assert result.text != original
    assert outside_regions(result.text) == outside_regions(original)
    assert '| <a id="err-documented"></a>`-32600` | `400` |' in result.text


def test_crlf_page_gets_a_crlf_region(renderer: Renderer) -> None:
    result = renderer.render_page(ODD_PAGES["crlf"], page="p.md")
    assert "\n" not in result.text.replace("\r\n", "")


def test_render_is_idempotent(renderer: Renderer) -> None:
    once = renderer.render_page(ODD_PAGES["whitespace"], page="p.md")
    twice = renderer.render_page(once.text, page="p.md")
    assert twice.text == once.text
    assert [region.state for region in once.regions] == ["stale"]
    assert [region.state for region in twice.regions] == ["fresh"]


def test_a_new_empty_region_is_filled(renderer: Renderer) -> None:
    result = renderer.render_page(ODD_PAGES["lf"], page="p.md")
    assert [region.state for region in result.regions] == ["stale"]


# --- hand edits -----------------------------------------------------------------------------------


def rendered(renderer: Renderer) -> str:
    return renderer.render_page(ODD_PAGES["lf"], page="p.md").text


def test_hand_edit_inside_a_region_is_reported_and_kept(renderer: Renderer) -> None:
    edited = rendered(renderer).replace("The method is unknown.", "The method is unknown, says an editor.")
    result = renderer.render_page(edited, page="p.md")
    [report] = result.regions
    assert (report.state, report.line, report.name) == ("hand-edited", 3, "error-table")
    assert "says an editor" in report.actual and "says an editor" not in report.expected
    assert result.text == edited


def test_force_overwrites_a_hand_edit(renderer: Renderer) -> None:
    edited = rendered(renderer).replace("The method is unknown.", "Edited.")
    result = renderer.render_page(edited, page="p.md", force=True)
    assert result.text == rendered(renderer)


def test_stale_region_is_rewritten(renderer: Renderer) -> None:
    old_body = "\nold generated table\n\n"
    page = (
        f"x\n<!-- docgen:begin error-table catalog=demo digest={digest_of(old_body)} -->\n{old_body}"
        "<!-- docgen:end error-table -->\n"
    )
    result = renderer.render_page(page, page="p.md")
    assert result.regions[0].state == "stale"
    assert result.text == rendered(renderer).replace("# T\n\n", "x\n").replace("tail", "")


# --- errors, located ------------------------------------------------------------------------------


def test_unknown_template_names_page_line_and_suggests(renderer: Renderer) -> None:
    page = "# T\n\n<!-- docgen:begin error-tabel catalog=demo -->\n<!-- docgen:end error-tabel -->\n"
    with pytest.raises(TemplateError) as caught:
        renderer.render_page(page, page="developers/x.md")
    assert caught.value.location == "docs/developers/x.md:3"  # from the project root
    assert "error-tabel" in caught.value.message
    assert caught.value.hint == "did you mean 'error-table'?"


REGION_BEGIN = "<!-- docgen:begin page-header -->"


def test_a_project_without_templates_renders_with_the_packaged_ones(tmp_path: Path) -> None:
    (tmp_path / "templates").mkdir()
    renderer = renderer_for(golden_project(GOLDEN / "notes-gap", tmp_path / "templates"))
    page = "<!-- docgen:begin error-table catalog=demo -->\n<!-- docgen:end error-table -->\n"
    (tmp_path / "copied").mkdir()
    for name, text in packaged_templates().items():
        (tmp_path / "copied" / name).write_text(text, encoding="utf-8")
    copied = renderer_for(golden_project(GOLDEN / "notes-gap", tmp_path / "copied"))
    rendered = renderer.render_page(page, page="p.md").text
    assert rendered == copied.render_page(page, page="p.md").text
    assert "\n| " in rendered  # the packaged error table, not a refusal


def test_a_project_template_overrides_the_packaged_one_and_errors_name_either(tmp_path: Path) -> None:
    templates = tmp_path / "templates"
    templates.mkdir()
    (templates / "page-header.md.j2").write_text("Own header.\n", encoding="utf-8")
    renderer = renderer_for(golden_project(GOLDEN / "notes-gap", templates))
    page = f"{REGION_BEGIN}\n<!-- docgen:end page-header -->\n"
    assert "\nOwn header.\n" in renderer.render_page(page, page="p.md").text
    with pytest.raises(TemplateError) as caught:
        renderer.render_page("<!-- docgen:begin no-such -->\n<!-- docgen:end no-such -->\n", page="p.md")
    hint = caught.value.hint or ""
    assert hint.startswith("known regions: based-on, client-checklist, ") and "page-header" in hint
    assert hint.endswith(f"a region of your own needs {templates}/no-such.md.j2")
    (templates / "page-header.md.j2").unlink()
    (templates / "error-table.md.j2").write_text("{{ 1 // 0 }}\n", encoding="utf-8")
    broken = renderer_for(golden_project(GOLDEN / "notes-gap", templates))
    with pytest.raises(TemplateError) as caught:
        broken.render_page(
            "<!-- docgen:begin error-table catalog=demo -->\n<!-- docgen:end error-table -->\n", page="p.md"
        )
    assert caught.value.location == f"{templates}/error-table.md.j2:1"


def test_unknown_catalog_is_located(renderer: Renderer) -> None:
    page = "<!-- docgen:begin error-table catalog=dmeo -->\n<!-- docgen:end error-table -->\n"
    with pytest.raises(TemplateError) as caught:
        renderer.render_page(page, page="p.md")
    assert caught.value.location == "docs/p.md:1"
    assert caught.value.hint == "did you mean 'demo'?"


def test_unknown_constant_in_notes_names_notes_file_entry_and_field(repo_root: Path) -> None:
    project = golden_project(GOLDEN / "constant-substitution", repo_root / "templates")
    notes = {
        "limits": Notes("data/limits.notes.yaml", {"too-many": EntryNotes("Over {{ RATE_LIMIT_REQUEST }}.")})
    }
    renderer = renderer_for(project, notes=notes)
    page = "<!-- docgen:begin error-table catalog=limits -->\n<!-- docgen:end error-table -->\n"
    with pytest.raises(TemplateError) as caught:
        renderer.render_page(page, page="p.md")
    assert caught.value.file == "data/limits.notes.yaml"
    assert "'too-many'" in caught.value.message and "'cause'" in caught.value.message
    assert "RATE_LIMIT_REQUEST" in caught.value.message
    assert caught.value.hint == "did you mean 'RATE_LIMIT_REQUESTS'?"


def broken_template(tmp_path: Path, source: str) -> Renderer:
    templates = tmp_path / "templates"
    templates.mkdir()
    (templates / "broken.md.j2").write_text(source, encoding="utf-8")
    (tmp_path / "docs").mkdir()
    return renderer_for(golden_project(tmp_path, templates))


def test_template_syntax_error_names_template_file_and_line(tmp_path: Path) -> None:
    renderer = broken_template(tmp_path, "line one\n{% for x in y %}\nno endfor\n")
    with pytest.raises(TemplateError) as caught:
        renderer.render_page("<!-- docgen:begin broken -->\n<!-- docgen:end broken -->\n", page="p.md")
    assert caught.value.file is not None and caught.value.file.endswith("broken.md.j2")
    assert caught.value.line == 3  # Jinja reports where the template ended while a block was open
    assert isinstance(caught.value.__cause__, Exception)


def test_undefined_variable_names_template_file_line_and_page(tmp_path: Path) -> None:
    renderer = broken_template(tmp_path, "fine\n\n{{ page.status }}\n")
    with pytest.raises(TemplateError) as caught:
        renderer.render_page("x\n<!-- docgen:begin broken -->\n<!-- docgen:end broken -->\n", page="p.md")
    assert caught.value.file is not None and caught.value.file.endswith("broken.md.j2")
    assert caught.value.line == 3
    assert "status" in caught.value.message and "p.md:2" in caught.value.message


def test_related_page_that_does_not_exist_is_located(renderer: Renderer) -> None:
    page = "---\nrelated: [nope.md]\n---\n<!-- docgen:begin related -->\n<!-- docgen:end related -->\n"
    with pytest.raises(TemplateError) as caught:
        renderer.render_page(page, page="guide/p.md")
    assert caught.value.location == "docs/guide/p.md:4"
    assert "guide/nope.md" in caught.value.message


def test_invalid_front_matter_is_located(renderer: Renderer) -> None:
    page = "---\ntitle: ok\ndescription: a: b\n---\n<!-- docgen:begin related -->\n"
    page += "<!-- docgen:end related -->\n"
    with pytest.raises(TemplateError) as caught:
        renderer.render_page(page, page="p.md")
    assert caught.value.location == "docs/p.md:3"


# --- the whole site -------------------------------------------------------------------------------


def test_pages_without_regions_are_left_out(renderer: Renderer) -> None:
    pages = {"plain.md": "# Plain\n", "with.md": ODD_PAGES["lf"]}
    results = render_all(renderer, pages)
    assert [result.page for result in results] == ["with.md"]
    assert results[0].catalogs == ("demo",)


def test_committed_pages_are_up_to_date(repo_root: Path) -> None:
    project = load_project(load_settings(repo_root / "mkdocs.yml"))
    results = render_all(renderer_for(project), project.pages)
    stale = [f"{r.page}:{region.line} {region.name} {region.state}" for r in results for region in r.regions]
    assert all(line.endswith("fresh") for line in stale), "run `docgen render`:\n" + "\n".join(stale)
    assert {r.page: r.text for r in results} == {r.page: project.pages[r.page] for r in results}
    pages = {r.page for r in results}
    assert {"developers/mcp-errors.md", "developers/mcp-public-tools.md", "index.md"} <= pages


def test_catalog_json_carries_rendered_notes(renderer: Renderer) -> None:
    data = catalog_as_json(renderer.inputs, "demo")
    by_id = {entry["id"]: entry for entry in data["entries"]}
    assert by_id["cause-only"]["cause"] == "The method is unknown."
    assert by_id["cause-only"]["action"] is None
    assert by_id["undocumented"]["cause"] is None
    facts = renderer.inputs.catalogs["demo"].as_data()["entries"][0]
    published = [key for key in facts if key not in ("conditions", "draft_cause")]  # see render/published.py
    assert list(by_id["cause-only"]) == [*published, "cause", "action"]
