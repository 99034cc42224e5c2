"""The template cache: compiled code is reused between processes, never trusted when a template changed, and
never a reason for a run to fail."""

from __future__ import annotations

from pathlib import Path

import jinja2
import pytest

from docgen.render.environment import make_environment
from docgen.templating import template_cache


def write_template(folder: Path, text: str) -> dict[str, str]:
    """The one template a project with `text` as its greeting template loads."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "greeting.md.j2").write_text(text, encoding="utf-8")
    return {"greeting.md.j2": text}


def render(templates: dict[str, str], **variables: object) -> str:
    """Render with a new environment, as a new process would."""
    return make_environment(templates).get_template("greeting.md.j2").render(variables)


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("DOCGEN_CACHE_DIR", str(folder))
    monkeypatch.delenv("DOCGEN_NO_CACHE", raising=False)
    return folder


def refuse_to_compile(monkeypatch: pytest.MonkeyPatch) -> None:
    def compile_(*args: object, **kwargs: object) -> None:
        raise AssertionError("compiled although the cache holds this template")

    monkeypatch.setattr(jinja2.Environment, "compile", compile_)


def test_a_second_environment_reuses_the_compiled_code(
    tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    templates = write_template(tmp_path / "templates", "Hello {{ name | cell }}!\n")
    assert render(templates, name="a|b") == "Hello a\\|b!\n"
    assert len(list(cache.iterdir())) == 1
    refuse_to_compile(monkeypatch)
    assert render(templates, name="again") == "Hello again!\n"


def test_notes_compiled_from_strings_are_cached_too(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    environment = make_environment({})
    template = template_cache.from_string(environment, "{{ LIMIT | kib }} at most", name="note")
    assert template.render(LIMIT=262144) == "256 KiB at most"
    refuse_to_compile(monkeypatch)
    again = template_cache.from_string(make_environment({}), "{{ LIMIT | kib }} at most", name="note")
    assert again.render(LIMIT=1024) == "1 KiB at most"


def test_an_edited_template_is_compiled_again(tmp_path: Path, cache: Path) -> None:
    templates = write_template(tmp_path / "templates", "Hello {{ name }}!\n")
    assert render(templates, name="you") == "Hello you!\n"
    edited = write_template(tmp_path / "templates", "Goodbye {{ name }}.\n")
    assert render(edited, name="you") == "Goodbye you.\n"


def test_environments_with_other_whitespace_rules_do_not_share_code(tmp_path: Path, cache: Path) -> None:
    templates = write_template(tmp_path / "templates", "{% if true %}\nyes\n{% endif %}\n")
    assert render(templates) == "yes\n"  # trim_blocks drops the newline after each block tag
    plain = template_cache.attach(jinja2.Environment(loader=jinja2.DictLoader(templates)))
    assert plain.get_template("greeting.md.j2").render() == "\nyes\n"
    assert len(list(cache.iterdir())) == 2


def test_turned_off_nothing_is_written(tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DOCGEN_NO_CACHE", "1")
    templates = write_template(tmp_path / "templates", "Hello {{ name }}!\n")
    assert make_environment(templates).bytecode_cache is None
    assert render(templates, name="you") == "Hello you!\n"
    assert not cache.exists()


def test_a_cache_that_cannot_be_written_is_ignored(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocked = tmp_path / "not-a-directory"
    blocked.write_text("a file where the cache directory would go", encoding="utf-8")
    monkeypatch.setenv("DOCGEN_CACHE_DIR", str(blocked / "docgen"))
    templates = write_template(tmp_path / "templates", "Hello {{ name }}!\n")
    assert render(templates, name="you") == "Hello you!\n"
    assert render(templates, name="twice") == "Hello twice!\n"


def test_a_damaged_entry_is_compiled_again(tmp_path: Path, cache: Path) -> None:
    templates = write_template(tmp_path / "templates", "Hello {{ name }}!\n")
    render(templates, name="you")
    (entry,) = cache.iterdir()
    entry.write_bytes(entry.read_bytes()[:20])
    assert render(templates, name="again") == "Hello again!\n"
    entry.write_bytes(b"not a cache entry at all")
    assert render(templates, name="third") == "Hello third!\n"


def test_the_default_location_follows_xdg(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("DOCGEN_CACHE_DIR", raising=False)
    monkeypatch.delenv("DOCGEN_NO_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert template_cache.cache_dir() == tmp_path / "xdg" / "docgen"
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert template_cache.cache_dir() == Path.home() / ".cache" / "docgen"


def test_environments_with_other_extensions_do_not_share_code(cache: Path) -> None:
    plain = template_cache.attach(jinja2.Environment())
    extended = template_cache.attach(jinja2.Environment(extensions=["jinja2.ext.loopcontrols"]))
    source = "{% for x in [1, 2] %}{{ x }}{% endfor %}"
    assert template_cache.from_string(plain, source, name="t").render() == "12"
    assert template_cache.from_string(extended, source, name="t").render() == "12"
    assert len(list(cache.iterdir())) == 2


@pytest.mark.parametrize(
    "text",
    [
        "Plain prose, with `code` and a | pipe.",
        "A dict {'a': 1} and a JS object { id: 2 }, braces but no tag.\n",
        "  {\n  } and a lone { before a %, a # and a second {\n\n",
        "Lines\nwith\nendings\n",
    ],
)
def test_text_without_jinja_syntax_renders_as_itself(text: str) -> None:
    assert not template_cache.needs_jinja(text)
    assert make_environment({}).from_string(text).render() == text


@pytest.mark.parametrize(
    "text", ["{{ LIMIT }}", "{% if true %}x{% endif %}", "a {# comment #} b", "windows\r\nline"]
)
def test_text_with_a_tag_an_expression_a_comment_or_a_carriage_return_needs_jinja(text: str) -> None:
    assert template_cache.needs_jinja(text)
    assert make_environment({}).from_string(text).render(LIMIT=1) != text


def test_render_text_uses_text_without_jinja_as_written_and_renders_the_rest(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    environment = make_environment({})
    assert (
        template_cache.render_text(environment, "{{ LIMIT }} at most", {"LIMIT": 4}, name="note")
        == "4 at most"
    )
    compiled: list[str] = []
    monkeypatch.setattr(template_cache, "from_string", lambda env, source, *, name: compiled.append(source))
    plain = "A dict {'a': 1}, no tag.\n"
    assert template_cache.render_text(environment, plain, {"LIMIT": 4}, name="note") == plain
    assert compiled == []  # never compiled
