"""The sandbox every template and note renders in: no way out of the data it is given, and no step that asks
for more work, memory or time than the limits allow. Each payload is refused before it does what it asks."""

from __future__ import annotations

import time
from pathlib import Path
from types import SimpleNamespace

import jinja2
import pytest

from docgen.core.errors import TemplateError
from docgen.core.limits import MAX_INT_BITS, TEMPLATE_MAX_TEXT, TEMPLATE_MAX_WORK
from docgen.core.project import load_project
from docgen.core.settings import Settings
from docgen.render.environment import make_environment
from docgen.templating import template_cache
from docgen.templating.render_budget import RenderLimitError, render_budget
from docgen.templating.sandbox import (
    _SAFE_ATTRIBUTES_KEPT,
    JINJA_FILTERS,
    BoundedSandbox,
    TemplateFailure,
)


@pytest.fixture
def environment() -> jinja2.Environment:
    return make_environment({})


def render(environment: jinja2.Environment, source: str, **variables: object) -> str:
    return template_cache.from_string(environment, source, name="test").render(variables)


def escapes(marker: Path) -> dict[str, str]:
    """Ways out of the sandbox, each of which would create `marker` or show a secret if it worked."""
    touch = f"popen('touch {marker}').read()"
    return {
        "cycler's globals": f"x{{{{ cycler.__init__.__globals__.os.{touch} }}}}",
        "lipsum's globals": f"{{{{ lipsum.__globals__['os'].{touch} }}}}",
        "namespace's globals": f"{{{{ namespace.__init__.__globals__['os'].{touch} }}}}",
        "a constant's class": "{{ LIMIT.__class__.__mro__[1].__subclasses__() }}",
        "a string's class": "{{ ''.__class__.__mro__[1].__subclasses__() }}",
        "str.format": "{{ '{0.__init__.__globals__}'.format(namespace) }}",
        "format_map": "{{ '{x.__class__}'.format_map({'x': 1}) }}",
        "the template's context": "{{ self._TemplateReference__context }}",
        "range's module": "{{ range.__module__ }}",
        "a mutating method": "{% set l = [1] %}{{ l.append(2) }}",
        "dict.update": "{% set d = {} %}{{ d.update({'a': 1}) }}",
    }


def test_no_payload_reaches_python(environment: jinja2.Environment, tmp_path: Path) -> None:
    marker = tmp_path / "pwned"
    for name, payload in escapes(marker).items():
        with pytest.raises(jinja2.TemplateError) as caught:
            render(environment, payload, LIMIT=262144)
        assert isinstance(caught.value, jinja2.UndefinedError | jinja2.sandbox.SecurityError), name
    assert not marker.exists()


BOMBS = {
    "string repetition": ("{{ 'x' * 10**10 }}", "10,000,000,000 characters"),
    "list repetition": ("{{ [0] * 10**9 }}", "1,000,000,000 characters"),
    "power": ("{{ 2 ** 20000 }}", "20,001 bits"),
    "power of powers": ("{{ 99 ** 99 ** 9 }}", "bits"),  # Jinja reads it as (99 ** 99) ** 9
    "product": ("{{ (2 ** 4000) * (2 ** 4000) }}", "more than 4,096 bits"),
    "range": ("{% for i in range(10**10) %}{% endfor %}", "range() is given 10,000,000,000"),
    "nested loops": (
        "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}",
        f"more than {TEMPLATE_MAX_WORK:,} units of work",
    ),
    "doubling with ~": ("{% set a = 'x' * 1000 %}" + "{% set a = a ~ a %}" * 40, "characters"),
    "doubling with set blocks": (
        "{% set a %}xx{% endset %}" + "{% set a %}{{ a }}{{ a }}{% endset %}" * 40,
        "the rendered text would be",
    ),
    "output size": ("{% for i in range(100000) %}" + "x" * 100 + "{% endfor %}", "the rendered text"),
    "replace filter": ("{{ ('x' * 1000000) | replace('x', 'y' * 1000) }}", "the result of |replace"),
    "replace method": ("{{ ('x' * 1000000).replace('x', 'y' * 1000) }}", "the result of replace()"),
    "join method": ("{{ ('x' * 1000000).join(['a'] * 1000) }}", "the joined text"),
    "indent width": ("{{ ('\n' * 1000000) | indent(1000) }}", "the result of |indent"),
    "padding width": ("{{ 'x'.center(10**9) }}", "center() is given 1,000,000,000"),
    "percent width": ("{{ '%999999999d' % 1 }}", "1,000,000,010 characters"),
    "format filter width": ("{{ '%*d' | format(10**7, 1) }}", "'format' is given 10,000,000"),
    "format filter digits": ("{{ '%999999999d' | format(1) }}", "the result of |format"),
    "bytes": ("{{ (1).to_bytes(10**9, 'big') }}", "to_bytes() is given"),
    "recursion": ("{% macro f() %}{{ f() }}{% endmacro %}{{ f() }}", "calls itself too deeply"),
}


@pytest.mark.parametrize(("source", "message"), BOMBS.values(), ids=BOMBS)
def test_a_resource_bomb_is_refused_quickly(
    environment: jinja2.Environment, source: str, message: str
) -> None:
    started = time.monotonic()
    with pytest.raises(jinja2.TemplateError) as caught:
        render(environment, source)
    assert message in str(caught.value)
    assert isinstance(caught.value, RenderLimitError | TemplateFailure)
    assert time.monotonic() - started < 5  # refused, not worked through (the limit is ten seconds)


COMPILE_BOMBS = {
    "deeply nested parentheses": "{{ " + "(" * 3000 + "1" + ")" * 3000 + " }}",
    "a number too long to read": "{{ 1" + "0" * 5000 + " }}",
}


@pytest.mark.parametrize("source", COMPILE_BOMBS.values(), ids=COMPILE_BOMBS)
def test_a_template_that_cannot_be_compiled_is_a_syntax_error(
    environment: jinja2.Environment, source: str
) -> None:
    with pytest.raises(jinja2.TemplateSyntaxError, match="cannot be compiled"):
        render(environment, source)


def test_constant_expressions_are_not_folded_while_compiling(environment: jinja2.Environment) -> None:
    """Jinja folds constant arithmetic and filters at compile time, outside any budget; here it may not."""
    started = time.monotonic()
    with pytest.raises(RenderLimitError):
        environment.from_string("{{ 'x' * 10**10 }}{{ 7 ** 999999 }}")  # compiles: nothing is computed
        render(environment, "{{ 7 ** 999999 }}")
    assert time.monotonic() - started < 1


def test_ordinary_python_errors_become_template_errors(environment: jinja2.Environment) -> None:
    with pytest.raises(TemplateFailure, match=r"division by zero \(ZeroDivisionError\)"):
        render(environment, "{{ 1 / 0 }}")
    with pytest.raises(TemplateFailure, match="the filter 'kib' cannot take 'abc'"):
        render(environment, "{{ 'abc' | kib }}")
    with pytest.raises(TemplateFailure, match="the filter 'indent' cannot take"):
        render(environment, "{{ 'a\nb' | indent(none) }}")


def test_a_kept_attribute_answer_is_never_given_for_another_type(environment: jinja2.Environment) -> None:
    """The sandbox keeps its answers by type and attribute name: `format` read first on a value that may
    have it never lets a string's `format` through, nor `items` on a dict let a list's `append`."""

    class Shown:
        format = "plain"
        append = "also plain"

    assert render(environment, "{{ x.format }} {{ x.append }}", x=Shown()) == "plain also plain"
    with pytest.raises(jinja2.sandbox.SecurityError):
        render(environment, "{{ x.format('{0}', 1) }}", x="text")
    with pytest.raises(jinja2.sandbox.SecurityError):
        render(environment, "{{ x.append(1) }}", x=[])
    assert render(environment, "{{ x.format }}", x=Shown()) == "plain"


def test_the_kept_attribute_answers_are_bounded(environment: jinja2.Environment) -> None:
    """A template that reads many attribute names fills the memo to its bound and no further; what it
    reads past the bound is still answered, and answered right."""
    names = [f"a{index}" for index in range(_SAFE_ATTRIBUTES_KEPT + 10)]
    source = "{% for name in names %}{{ x[name] }}{% endfor %}"
    assert render(environment, source, names=names, x=SimpleNamespace(**dict.fromkeys(names, 1))) == (
        "1" * len(names)
    )
    assert len(environment._safe_attributes) == _SAFE_ATTRIBUTES_KEPT  # type: ignore[attr-defined]
    with pytest.raises(jinja2.sandbox.SecurityError):
        render(environment, "{{ x.update({}) }}", x={})


def test_what_templates_need_still_works(environment: jinja2.Environment) -> None:
    source = (
        "{% set ns = namespace(total=0) %}{% for x in values %}{% set ns.total = ns.total + x %}"
        "{{ loop.index }}{{ ',' if not loop.last }}{% endfor %} = {{ ns.total }}; "
        "{{ values | map('string') | join('-') }}; {{ '%.1f' | format(LIMIT / 3) }}; "
        "{{ LIMIT | kib }}; {{ ', '.join(['a', 'b']) }}; {{ 'a' ~ 1 }}; {{ range(3) | list | length }}; "
        "{{ 'x\ny' | indent(2) }}; {{ 2 ** 10 }}"
    )
    assert render(environment, source, values=[1, 2, 3], LIMIT=1024) == (
        "1,2,3 = 6; 1-2-3; 341.3; 1 KiB; a, b; a1; 3; x\n  y; 1024"
    )


def test_only_the_offered_filters_and_globals_exist(environment: jinja2.Environment) -> None:
    assert set(environment.globals) == {"range", "namespace"}
    assert set(environment.filters) == {
        *JINJA_FILTERS,
        "kib",
        "number_word",
        "join_code",
        "cell",
        "attribute",
    }
    for refused in ("attr", "center", "random", "pprint", "wordwrap", "batch"):
        with pytest.raises(jinja2.TemplateSyntaxError, match="No filter named"):
            render(environment, f"{{{{ 'x' | {refused} }}}}")


def test_the_limits_are_the_documented_ones(environment: jinja2.Environment) -> None:
    assert len(render(environment, "{{ 'x' * n }}", n=TEMPLATE_MAX_TEXT)) == TEMPLATE_MAX_TEXT
    with pytest.raises(RenderLimitError):
        render(environment, "{{ 'x' * n }}", n=TEMPLATE_MAX_TEXT + 1)
    assert render(environment, "{{ (2 ** n).bit_length() }}", n=MAX_INT_BITS - 1) == str(MAX_INT_BITS)
    with pytest.raises(RenderLimitError):
        render(environment, "{{ 2 ** n }}", n=MAX_INT_BITS)


def test_each_render_has_its_own_budget(environment: jinja2.Environment) -> None:
    """Many small renders in one process (a large site's notes) never add up to a refusal."""
    template = template_cache.from_string(environment, "{{ ('x' * 3000000) | length }}", name="t")
    assert all(template.render() == "3000000" for _ in range(5))  # reads through 15 million characters


def test_sandboxed_and_plain_code_never_share_a_cache_entry(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = tmp_path / "cache"
    monkeypatch.setenv("DOCGEN_CACHE_DIR", str(cache))
    source = "{{ 6 * 7 }}"
    plain = template_cache.attach(jinja2.Environment(undefined=jinja2.StrictUndefined, autoescape=False))
    assert template_cache.from_string(plain, source, name="note").render() == "42"
    sandboxed = template_cache.attach(BoundedSandbox())
    assert template_cache.from_string(sandboxed, source, name="note").render() == "42"
    assert len(list(cache.iterdir())) == 2  # the plain entry was not loaded into the sandbox


def templates_of(root: Path) -> dict[str, str]:
    """The templates a project under `root` loads from its `templates/` folder."""
    settings = Settings(
        root, root / "mkdocs.yml", root / "docs", root / "data", root / "templates", None, None, {}
    )
    return dict(load_project(settings).templates)


def test_templates_are_read_as_bounded_regular_files(tmp_path: Path) -> None:
    templates = tmp_path / "templates"
    templates.mkdir()
    (tmp_path / "docs").mkdir()
    (templates / "ok.md.j2").write_text("fine\n", encoding="utf-8")
    environment = make_environment(templates_of(tmp_path))
    assert environment.get_template("ok.md.j2").render() == "fine\n"
    with pytest.raises(jinja2.TemplateNotFound):
        environment.get_template("../secret.txt")
    (tmp_path / "secret.txt").write_text("root:x:0:0\n", encoding="utf-8")
    (templates / "leak.md.j2").symlink_to(tmp_path / "secret.txt")
    with pytest.raises(TemplateError, match="outside the templates folder") as caught:
        templates_of(tmp_path)
    assert caught.value.location == "templates/leak.md.j2"
    assert "root:" not in str(caught.value)
    (templates / "leak.md.j2").unlink()
    (templates / "latin1.md.j2").write_bytes(b"caf\xe9\n")
    with pytest.raises(TemplateError, match="not valid UTF-8") as caught:
        templates_of(tmp_path)
    assert caught.value.location == "templates/latin1.md.j2:1"


def test_a_call_of_the_templates_own_macro_is_charged_to_the_render(environment: jinja2.Environment) -> None:
    # Macro calls skip the checks meant for outside callables, but each is still charged (with its
    # arguments), on top of the loop's one unit per iteration.
    source = "{% macro f(a, b) %}{% endmacro %}{% for i in range(1000) %}{{ f(i, i) }}{% endfor %}"
    with render_budget() as running:
        assert render(environment, source) == ""
    assert running.work >= 1000 + 1000 * 3
