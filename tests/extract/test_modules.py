"""Reading only the modules extraction reaches, dependencies included, statically."""

from __future__ import annotations

from pathlib import Path

import pytest

from docgen.core.errors import ConfigError, SourceError
from docgen.extract.modules import SourceModules
from docgen.extract.resolve import STDLIB_ENUMS, Resolver
from docgen.extract.sites import find_function
from docgen.extract.source import FunctionBodies
from tests.helpers import make_files, make_project, run_extract_in_memory

STARLETTE_SERVER = """\
from starlette import status
from starlette.exceptions import HTTPException

def endpoint(request):
    return _rpc_error(1, -32000, 'Forbidden', status=status.HTTP_403_FORBIDDEN)
"""


def test_a_constant_of_an_installed_dependency_resolves(tmp_path: Path) -> None:
    make_project(tmp_path, STARLETTE_SERVER)
    [entry] = run_extract_in_memory(tmp_path).catalogs["errors"].as_data()["entries"]
    assert (entry["code"], entry["status"]) == (-32000, 403)
    assert entry["constants_used"] == ["HTTP_403_FORBIDDEN"]


def test_only_the_files_on_the_way_are_read(tmp_path: Path) -> None:
    """Resolving `HTTPException` reads starlette's package file and its exceptions module, not all of it."""
    make_files(tmp_path, {"app/__init__.py": "", "app/server.py": STARLETTE_SERVER})
    modules = SourceModules(tmp_path, [FunctionBodies()], search_paths=[tmp_path], stop_at=STDLIB_ENUMS)
    module = modules.load_package_closure("app.server")
    init = find_function(module, "HTTPException", Resolver(modules), what="constructor")
    assert init.path == "starlette.exceptions.HTTPException.__init__"
    assert [p.name for p in init.parameters] == ["self", "status_code", "detail", "headers"]
    read = modules.loaded()
    assert read[:2] == ["app", "app.server"]
    assert "starlette.exceptions" in read and "starlette.routing" not in read
    assert len([name for name in read if name.startswith("starlette")]) <= 4


def test_a_constructor_from_a_folder_on_python_path_is_followed_and_cited(tmp_path: Path) -> None:
    server = """\
        from libx.errors import ApiError

        def endpoint(request):
            raise ApiError(7, -32001, 'Gone', status=410)
        """
    make_project(tmp_path, server, constructors="ApiError")
    make_files(
        tmp_path,
        {
            "deps/libx/__init__.py": "",
            "deps/libx/errors.py": "class ApiError(Exception):\n"
            "    def __init__(self, request_id, code, message, status=500, data=None):\n"
            "        super().__init__(message)\n",
        },
    )
    config = tmp_path / "mkdocs.yml"
    config.write_text(
        config.read_text().replace("      catalogs:", "      python_path: [deps]\n      catalogs:")
    )
    catalog = run_extract_in_memory(tmp_path).catalogs["errors"].as_data()
    [entry] = catalog["entries"]
    assert (entry["code"], entry["status"], entry["message"]) == (-32001, 410, "Gone")
    # Inside the project, the dependency is part of what the catalog comes from.
    assert [source["path"] for source in catalog["sources"]] == ["deps/libx/errors.py", "app/server.py"]


def test_a_constructor_imported_from_nothing_installed_is_a_clear_error(tmp_path: Path) -> None:
    server = "from nowhere_installed import ApiError\n\ndef endpoint(request):\n    raise ApiError(1, 'x')\n"
    make_project(tmp_path, server, constructors="ApiError")
    with pytest.raises(ConfigError) as caught:
        run_extract_in_memory(tmp_path)
    assert (caught.value.file, caught.value.line) == ("mkdocs.yml", 8)  # the constructors: line
    assert "nowhere_installed" in caught.value.message
    assert caught.value.hint and "python_path" in caught.value.hint


def test_a_value_imported_from_nothing_installed_is_a_located_error(tmp_path: Path) -> None:
    server = (
        "from nowhere_installed import CODE\n\ndef endpoint(request):\n    return _rpc_error(1, CODE, 'x')\n"
    )
    make_project(tmp_path, server)
    with pytest.raises(SourceError) as caught:
        run_extract_in_memory(tmp_path)
    assert caught.value.file == "app/server.py" and caught.value.line == 6  # the import, not the use
    said = caught.value.message
    assert "from nowhere_installed.CODE, but nowhere_installed is not in the source nor installed" in said
    assert caught.value.hint and "python_path" in caught.value.hint


def test_a_name_a_module_makes_only_when_run_is_a_dynamic_value(tmp_path: Path) -> None:
    """Starlette serves deprecated status names through a module __getattr__: known only at run time."""
    server = (
        "from starlette.status import HTTP_422_UNPROCESSABLE_ENTITY\n\n"
        "def endpoint(request):\n"
        "    return _rpc_error(1, -32602, 'x', status=HTTP_422_UNPROCESSABLE_ENTITY)\n"
    )
    make_project(tmp_path, server)
    [entry] = run_extract_in_memory(tmp_path).catalogs["errors"].as_data()["entries"]
    assert entry["dynamic"] == {"status": "HTTP_422_UNPROCESSABLE_ENTITY"}
    assert "status" not in entry
