"""The docgen section of mkdocs.yml: what a valid one gives; every mistake reported, all at once."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from docgen.core.errors import ConfigError, ConfigErrors
from docgen.core.settings import CatalogConfig, Settings, load_settings
from tests.helpers import make_files

VALID = """\
catalogs:
  errors:
    kind: errors
    source: app/server.py
    constructors: [_rpc_error]
    functions: [endpoint, handle]
    arguments: {code: 1, message: 2, status: status, data: data}
  tools:
    kind: tools
    source: app
    decorators: {tool: tool, resource: resource, prompt: prompt}
"""


def write_config(root: Path, section: str, *, head: str = "site_name: test\n") -> str:
    """Write a project whose mkdocs.yml is `head` plus `section` as the docgen options; return its text."""
    indented = textwrap.indent(textwrap.dedent(section), " " * 6)
    text = f"{head}plugins:\n  - search\n  - docgen:\n{indented}"
    make_files(root, {"app/__init__.py": "", "app/server.py": "", "mkdocs.yml": text})
    return text


def load(root: Path) -> Settings:
    return load_settings(root / "mkdocs.yml")


def problems(root: Path) -> list[ConfigError]:
    """Every configuration error load_settings reports, in order."""
    with pytest.raises(ConfigError) as caught:
        load(root)
    error = caught.value
    return error.errors if isinstance(error, ConfigErrors) else [error]


def the_problem(root: Path) -> ConfigError:
    [error] = problems(root)
    return error


def line_of(text: str, needle: str) -> int:
    """The 1-based number of the first line of `text` containing `needle`."""
    return next(number for number, line in enumerate(text.splitlines(), 1) if needle in line)


# A valid configuration.


def test_a_valid_configuration_gives_every_setting(tmp_path: Path) -> None:
    write_config(tmp_path, VALID, head="site_name: test\nsite_url: https://docs.example/\ndocs_dir: pages\n")
    (tmp_path / "pages").mkdir()  # a docs_dir that is given must exist
    settings = load(tmp_path)
    root = tmp_path.resolve()
    assert settings.root == root
    assert settings.config_file == root / "mkdocs.yml"
    assert settings.docs_dir == root / "pages"
    assert settings.data_dir == root / "data"
    assert settings.templates_dir == root / "templates"
    assert settings.site_url == "https://docs.example/"
    assert settings.repo_url is None
    assert settings.catalogs == {
        "errors": CatalogConfig(
            name="errors",
            kind="errors",
            source="app/server.py",
            constructors=("_rpc_error",),
            functions=("endpoint", "handle"),
            arguments={"code": 1, "message": 2, "status": "status", "data": "data"},
        ),
        "tools": CatalogConfig(
            name="tools",
            kind="tools",
            source="app",
            decorators={"tool": "tool", "resource": "resource", "prompt": "prompt"},
        ),
    }


CONSTRUCTOR_FORMS = {
    "a list of names and own maps": """\
        catalogs:
          errors:
            kind: errors
            source: app/server.py
            constructors:
              - ApiError
              - NotFound: {arguments: {message: 0, code: errcode}}
            functions: [endpoint]
            arguments: {status: 0, message: 1}
        """,
    "a mapping": """\
        catalogs:
          errors:
            kind: errors
            source: app/server.py
            constructors:
              ApiError:
              NotFound: {arguments: {message: 0, code: errcode}}
            functions: [endpoint]
            arguments: {status: 0, message: 1}
        """,
}


@pytest.mark.parametrize("section", CONSTRUCTOR_FORMS.values(), ids=CONSTRUCTOR_FORMS)
def test_each_constructor_may_have_its_own_argument_map(tmp_path: Path, section: str) -> None:
    text = write_config(tmp_path, section)
    config = load(tmp_path).catalogs["errors"]
    assert config.constructors == ("ApiError", "NotFound")
    assert config.arguments == {"status": 0, "message": 1}
    assert config.constructor_arguments == {"NotFound": {"message": 0, "code": "errcode"}}
    assert config.lines["constructors.NotFound"] == line_of(text, "NotFound")
    assert config.lines["functions.endpoint"] == line_of(text, "functions:")


def test_a_catalog_without_a_code_is_valid_and_every_map_needs_a_message(tmp_path: Path) -> None:
    section = """\
        catalogs:
          errors:
            kind: errors
            source: app/server.py
            constructors:
              - HTTPException: {arguments: {status: status_code}}
              - Other: {arguments: {message: 0}, extra: 1}
              - 7
            functions: [endpoint]
        """
    text = write_config(tmp_path, section)
    with pytest.raises(ConfigErrors) as caught:
        load(tmp_path)
    found = {(e.line, e.message) for e in caught.value.errors}
    assert found == {
        (
            line_of(text, "HTTPException"),
            "'catalogs.errors.constructors.0.HTTPException.arguments': missing 'message'",
        ),
        (line_of(text, "extra"), "'catalogs.errors.constructors.1.Other.extra': unknown key"),
        (
            line_of(text, "- 7"),
            "'catalogs.errors.constructors.2': expected a name or 'Name: {arguments: ...}', got 7",
        ),
    }


def test_data_and_templates_folders_can_be_moved(tmp_path: Path) -> None:
    write_config(tmp_path, "data_dir: generated\ntemplates_dir: partials\n" + VALID)
    settings = load(tmp_path)
    assert settings.catalog_path("errors") == tmp_path.resolve() / "generated" / "errors.yaml"
    assert settings.notes_path("errors") == tmp_path.resolve() / "generated" / "errors.notes.yaml"
    assert settings.templates_dir == tmp_path.resolve() / "partials"
    assert settings.relative(settings.catalog_path("errors")) == "generated/errors.yaml"


def test_a_single_name_may_be_written_without_a_list(tmp_path: Path) -> None:
    write_config(tmp_path, VALID.replace("functions: [endpoint, handle]", "functions: endpoint"))
    assert load(tmp_path).catalogs["errors"].functions == ("endpoint",)


def test_plugins_may_be_a_mapping_as_mkdocs_allows(tmp_path: Path) -> None:
    write_config(tmp_path, VALID)
    section = textwrap.indent(VALID, " " * 4)
    text = f"site_name: test\nplugins:\n  search: {{}}\n  docgen:\n{section}"
    (tmp_path / "mkdocs.yml").write_text(text, encoding="utf-8")
    assert set(load(tmp_path).catalogs) == {"errors", "tools"}
    (tmp_path / "mkdocs.yml").write_text(text.replace("kind: errors", "knd: errors"), encoding="utf-8")
    messages = [error.message for error in problems(tmp_path)]
    assert "'catalogs.errors.knd': unknown key" in messages


def test_mkdocs_tags_do_not_stop_the_configuration_loading(tmp_path: Path) -> None:
    head = """\
        site_name: test
        site_url: !ENV [SITE_URL, "https://docs.example/"]
        theme:
          name: material
          custom_dir: !relative $config_dir/overrides
        markdown_extensions:
          - pymdownx.emoji:
              emoji_index: !!python/name:material.extensions.emoji.twemoji
              emoji_generator: !!python/name:material.extensions.emoji.to_svg
        extra:
          token: !ENV TOKEN
        """
    write_config(tmp_path, VALID, head=textwrap.dedent(head))
    assert set(load(tmp_path).catalogs) == {"errors", "tools"}


# Mistakes, all reported together, each located and with a hint when one helps.


def test_unknown_keys_at_every_level_are_reported_at_once_with_suggestions(tmp_path: Path) -> None:
    section = """\
        data_dri: data
        colour: blue
        catalogs:
          errors:
            kind: errors
            source: app/server.py
            sorce: app/server.py
            constructors: [_rpc_error]
            functions: [endpoint]
            function: [endpoint]
            arguments: {code: 1, message: 2, stauts: status}
          tools:
            kind: tools
            source: app
            decorators:
              tool: tool
              promt: prompt
        """
    text = write_config(tmp_path, section)
    found = {(error.location, error.message, error.hint) for error in problems(tmp_path)}
    assert found == {
        (f"mkdocs.yml:{line_of(text, 'data_dri')}", "'data_dri': unknown key", "did you mean 'data_dir'?"),
        (
            f"mkdocs.yml:{line_of(text, 'colour')}",
            "'colour': unknown key",
            "known keys: catalogs, data_dir, probe_app, python_path, templates_dir",
        ),
        (
            f"mkdocs.yml:{line_of(text, 'sorce')}",
            "'catalogs.errors.sorce': unknown key",
            "did you mean 'source'?",
        ),
        (
            f"mkdocs.yml:{line_of(text, 'function:')}",
            "'catalogs.errors.function': unknown key",
            "did you mean 'functions'?",
        ),
        (
            f"mkdocs.yml:{line_of(text, 'stauts')}",
            "'catalogs.errors.arguments.stauts': unknown key",
            "did you mean 'status'?",
        ),
        (
            f"mkdocs.yml:{line_of(text, 'promt')}",
            "'catalogs.tools.decorators.promt': unknown key",
            "did you mean 'prompt'?",
        ),
    }


def test_all_problems_are_printed_together(tmp_path: Path) -> None:
    write_config(
        tmp_path, VALID.replace("source: app/server.py", "sorce: app/server.py").replace("tool:", "tol:")
    )
    with pytest.raises(ConfigErrors) as caught:
        load(tmp_path)
    lines = str(caught.value).splitlines()
    assert lines[0].startswith("mkdocs.yml:")
    assert sum(line.startswith("mkdocs.yml:") for line in lines) == len(caught.value.errors) >= 3
    assert "  hint: did you mean 'source'?" in lines


def test_a_misspelled_kind_key_is_still_suggested(tmp_path: Path) -> None:
    text = write_config(tmp_path, VALID.replace("kind: tools", "knd: tools"))
    assert {(error.message, error.hint, error.line) for error in problems(tmp_path)} == {
        (
            "'catalogs.tools.kind': expected 'errors', 'tools' or 'routes', got None",
            None,
            line_of(text, "  tools:"),
        ),
        ("'catalogs.tools.knd': unknown key", "did you mean 'kind'?", line_of(text, "knd:")),
    }


MISSING = {
    "source": ("    source: app/server.py\n", "'catalogs.errors.source': expected the path", "  errors:"),
    "kind": (
        "    kind: errors\n",
        "'catalogs.errors.kind': expected 'errors', 'tools' or 'routes', got None",
        "  errors:",
    ),
    "constructors": (
        "    constructors: [_rpc_error]\n",
        "'catalogs.errors.constructors': missing",
        "  errors:",
    ),
    "functions": (
        "    functions: [endpoint, handle]\n",
        "'catalogs.errors.functions': missing",
        "  errors:",
    ),
    "arguments": (
        "    arguments: {code: 1, message: 2, status: status, data: data}\n",
        "'catalogs.errors.arguments': expected a mapping with keys among code, data, message, status",
        "  errors:",
    ),
    "arguments.message": ("message: 2, ", "'catalogs.errors.arguments': missing 'message'", "arguments:"),
    "catalogs": (VALID, "'catalogs': expected a mapping of catalog name to its settings", "docgen"),
}


@pytest.mark.parametrize(("removed", "message", "parent"), MISSING.values(), ids=MISSING)
def test_a_missing_required_key_is_located_at_its_parent(
    tmp_path: Path, removed: str, message: str, parent: str
) -> None:
    text = write_config(tmp_path, VALID.replace(removed, "", 1) or "data_dir: data\n")
    error = the_problem(tmp_path)
    assert error.message.startswith(message)
    assert error.line == line_of(text, parent)


def test_a_missing_argument_role_says_how_to_add_it(tmp_path: Path) -> None:
    write_config(tmp_path, VALID.replace("message: 2, ", ""))
    assert the_problem(tmp_path).hint == "add 'message:' with a position (0-based) or a keyword name"


WRONG_TYPES = {
    "functions as a number": (
        "functions: [endpoint, handle]",
        "functions: 5",
        "expected a list of names, got 5",
    ),
    "constructors with a number": (
        "[_rpc_error]",
        "[1]",
        "expected a name or 'Name: {arguments: ...}', got 1",
    ),
    "no functions at all": ("functions: [endpoint, handle]", "functions: []", "expected at least one name"),
    "a negative position": ("code: 1,", "code: -1,", "expected a 0-based position or a name, got -1"),
    "a boolean position": ("code: 1,", "code: true,", "expected a 0-based position or a name, got True"),
    "a float position": ("code: 1,", "code: 1.5,", "expected a 0-based position or a name, got 1.5"),
    "an empty keyword": ("status: status", "status: ''", "expected a 0-based position or a name, got ''"),
    "arguments as a list": (
        "{code: 1, message: 2, status: status, data: data}",
        "[code, message]",
        "expected a mapping with keys among code, data, message, status",
    ),
    "a decorator given as a position": ("prompt: prompt", "prompt: 3", "expected a decorator name, got 3"),
    "an unknown kind": ("kind: tools", "kind: pages", "expected 'errors', 'tools' or 'routes', got 'pages'"),
    "a kind that is a list": (
        "kind: tools",
        "kind: [tools]",
        "expected 'errors', 'tools' or 'routes', got ['tools']",
    ),
    "a source that is a number": ("source: app\n", "source: 5\n", "expected the path of a Python file"),
    "a catalog that is not a mapping": (
        VALID[VALID.index("  tools:") :].rstrip("\n"),
        "  tools: app",
        "expected a mapping with at least 'kind' and 'source'",
    ),
    "data_dir as a list": ("catalogs:\n", "data_dir: [data]\ncatalogs:\n", "expected a folder relative to"),
}


@pytest.mark.parametrize(("old", "new", "message"), WRONG_TYPES.values(), ids=WRONG_TYPES)
def test_a_value_of_the_wrong_type_is_located_at_its_key(
    tmp_path: Path, old: str, new: str, message: str
) -> None:
    assert old in VALID
    text = write_config(tmp_path, VALID.replace(old, new, 1))
    error = the_problem(tmp_path)
    assert message in error.message
    assert error.line == line_of(text, new.strip().splitlines()[0])
    assert error.file == "mkdocs.yml"


def test_a_source_that_does_not_exist_is_reported_with_a_hint(tmp_path: Path) -> None:
    text = write_config(tmp_path, VALID.replace("source: app/server.py", "source: app/nowhere.py"))
    error = the_problem(tmp_path)
    assert error.message == "'catalogs.errors.source': app/nowhere.py does not exist"
    assert error.line == line_of(text, "nowhere")
    assert error.hint == "give a path relative to mkdocs.yml"


# The file itself.


def test_a_missing_docgen_plugin_is_reported_where_plugins_are(tmp_path: Path) -> None:
    text = "site_name: test\ntheme:\n  name: material\nplugins:\n  - search\n"
    make_files(tmp_path, {"mkdocs.yml": text})
    error = the_problem(tmp_path)
    assert error.message == "the docgen plugin is not configured"
    assert error.location == "mkdocs.yml:4"
    assert error.hint and "- docgen:" in error.hint


def test_no_plugins_at_all_is_the_same_error(tmp_path: Path) -> None:
    make_files(tmp_path, {"mkdocs.yml": "site_name: test\n"})
    assert the_problem(tmp_path).message == "the docgen plugin is not configured"


def test_a_bare_docgen_plugin_asks_for_catalogs(tmp_path: Path) -> None:
    make_files(tmp_path, {"mkdocs.yml": "site_name: test\nplugins:\n  - search\n  - docgen\n"})
    error = the_problem(tmp_path)
    assert error.message == "'catalogs': expected a mapping of catalog name to its settings"
    assert error.line == 4


def test_malformed_yaml_is_a_config_error_at_its_line(tmp_path: Path) -> None:
    text = write_config(tmp_path, VALID.replace("[endpoint, handle]", "[endpoint, handle"))
    error = the_problem(tmp_path)
    assert error.message.startswith("invalid YAML:")
    assert error.file == "mkdocs.yml"
    assert error.line == line_of(text, "arguments:")  # where the unclosed list runs into the next key


def test_a_document_that_is_not_a_mapping_is_rejected(tmp_path: Path) -> None:
    make_files(tmp_path, {"mkdocs.yml": "- just\n- a list\n"})
    assert the_problem(tmp_path).location == "mkdocs.yml:1"


def test_a_missing_file_says_where_to_run_from(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as caught:
        load(tmp_path)
    assert caught.value.file == "mkdocs.yml"
    assert caught.value.hint and "--config" in caught.value.hint


ROUTES = """\
catalogs:
  routes:
    kind: routes
    source: app/server.py
    framework: fastapi
    app: app.server.app
    openapi: openapi.json
"""


def test_a_routes_catalog_names_its_framework_application_and_document(tmp_path: Path) -> None:
    write_config(tmp_path, ROUTES)
    config = load(tmp_path).catalogs["routes"]
    assert (config.kind, config.framework, config.app, config.openapi) == (
        "routes",
        "fastapi",
        "app.server.app",
        "openapi.json",
    )


def test_a_routes_catalog_refuses_an_unknown_framework_and_bad_paths_all_at_once(tmp_path: Path) -> None:
    text = write_config(
        tmp_path,
        ROUTES.replace("fastapi", "bottle")
        .replace("app.server.app", "[x]")
        .replace("openapi.json", "../o.json"),
    )
    assert {(error.message, error.hint, error.line) for error in problems(tmp_path)} == {
        (
            "'catalogs.routes.framework': expected the application's web framework, got 'bottle'",
            "known frameworks: aiohttp, drf, fastapi, flask, litestar",
            line_of(text, "framework:"),
        ),
        (
            "'catalogs.routes.openapi': ../o.json is outside the project",
            "give a path inside the project",
            line_of(text, "openapi:"),
        ),
        (
            "'catalogs.routes.app': expected the dotted path of the application, got ['x']",
            None,
            line_of(text, "app:"),
        ),
    }


def test_an_errors_catalog_may_publish_its_conditions_and_name_public_constants(tmp_path: Path) -> None:
    extra = "    publish_conditions: true\n    public_constants: [PUBLIC_KEY, DEMO_TOKEN]\n"
    write_config(tmp_path, VALID.replace("  tools:\n", extra + "  tools:\n"))
    catalogs = load(tmp_path).catalogs
    assert catalogs["errors"].publish_conditions is True
    assert catalogs["errors"].public_constants == ("PUBLIC_KEY", "DEMO_TOKEN")
    assert (catalogs["tools"].publish_conditions, catalogs["tools"].public_constants) == (False, ())


def test_publication_options_of_the_wrong_shape_are_located(tmp_path: Path) -> None:
    extra = "    publish_conditions: sometimes\n    public_constants: {a: 1}\n"
    text = write_config(tmp_path, VALID.replace("  tools:\n", extra + "  tools:\n"))
    found = {(error.line, error.message) for error in problems(tmp_path)}
    prefix = "'catalogs.errors."
    assert found == {
        (
            line_of(text, "publish_conditions"),
            f"{prefix}publish_conditions': expected true or false, got 'sometimes'",
        ),
        (
            line_of(text, "public_constants"),
            f"{prefix}public_constants': expected a list of names, got {{'a': 1}}",
        ),
    }


def test_probe_app_and_examples_are_read_and_checked(tmp_path: Path) -> None:
    write_config(tmp_path, "probe_app: app.server:app\n" + ROUTES + "    examples: required\n")
    settings = load(tmp_path)
    assert settings.probe_app == "app.server:app"
    assert settings.catalogs["routes"].examples == "required"
    text = write_config(tmp_path, "probe_app: app.server\n" + ROUTES + "    examples: always\n")
    assert {(error.message, error.line) for error in problems(tmp_path)} == {
        ("'probe_app': expected MODULE:ATTR, got 'app.server'", line_of(text, "probe_app:")),
        (
            "'catalogs.routes.examples': expected required or optional, got 'always'",
            line_of(text, "examples:"),
        ),
    }
