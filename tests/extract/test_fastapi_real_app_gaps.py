"""Styles of FastAPI application found on real servers that docgen once passed over in silence: a
dependency that is a module-level instance of a class with `__call__`, a router included through an
attribute docgen cannot follow, and an HTTPException whose detail is a dict. Each is either followed or a
located finding; none is a silent gap."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from docgen.core.models import RoutesCatalog
from docgen.shell.cli import main
from tests.extract.test_routes import shop_project
from tests.helpers import run_extract_in_memory

GAPS = '''"""What real applications write."""

from fastapi import APIRouter, Depends, FastAPI, HTTPException, Request


class Authenticator:
    def __call__(self, request: Request) -> str:
        if "x-key" not in request.headers:
            raise HTTPException(status_code=401, detail="Send an X-Key header")
        return request.headers["x-key"]


authenticate = Authenticator()

router = APIRouter()


@router.get("/coded")
def coded() -> dict[str, str]:
    raise HTTPException(status_code=400, detail={"code": "bad_sort", "message": "Unknown sort order"})


@router.get("/keyed")
def keyed(user: str = Depends(authenticate)) -> dict[str, str]:
    return {"user": user}


class Plugins:
    def __init__(self, app: FastAPI, extra: object) -> None:
        self.app = app
        self.extra = extra

    def mount(self) -> None:
        self.app.include_router(self.extra.router)
'''


def project_with_gaps(root: Path) -> Path:
    shop_project(root)
    (root / "shop" / "gaps.py").write_text(GAPS, encoding="utf-8")
    main_py = root / "shop" / "main.py"
    text = main_py.read_text(encoding="utf-8")
    text = text.replace("from shop import items, orders\n", "from shop import gaps, items, orders\n")
    main_py.write_text(text + '\napp.include_router(gaps.router, prefix="/g")\n', encoding="utf-8")
    return root


def line_of(path: Path, text: str) -> int:
    return path.read_text(encoding="utf-8").splitlines().index(text) + 1


def test_a_module_level_instance_as_a_dependency_runs_its_call_method(tmp_path: Path) -> None:
    catalog = run_extract_in_memory(project_with_gaps(tmp_path)).catalogs["shop-routes"]
    assert isinstance(catalog, RoutesCatalog)
    keyed = next(o for o in catalog.operations if o.path == "/g/keyed")
    errors = {e.id: e for e in catalog.errors}
    assert [(errors[i].status, errors[i].detail, via) for i, via in keyed.errors] == [
        (401, "Send an X-Key header", ("shop.gaps.keyed", "shop.gaps.Authenticator.__call__"))
    ]


def test_a_router_included_through_an_attribute_is_a_located_finding(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = project_with_gaps(tmp_path)
    config = str(root / "mkdocs.yml")
    assert main(["--config", config, "extract"]) == 0
    line = line_of(root / "shop" / "gaps.py", "        self.app.include_router(self.extra.router)")
    said = capsys.readouterr().err
    assert f"shop/gaps.py:{line}: include_router(self.extra.router) cannot be followed: the router, `" in said
    assert main(["--config", config, "render"]) == 0
    capsys.readouterr()
    assert main(["--config", config, "check"]) == 1
    out = capsys.readouterr().out
    assert (
        f"shop/gaps.py:{line}: source-unfollowed: include_router(self.extra.router): "
        "include_router(self.extra.router) cannot be followed: the router, `self.extra.router`, is not one"
        in out
    )


def test_a_dict_as_the_detail_is_read_inside_fastapis_body(tmp_path: Path) -> None:
    root = project_with_gaps(tmp_path)
    assert main(["--config", str(root / "mkdocs.yml"), "extract"]) == 0
    catalog = run_extract_in_memory(root).catalogs["shop-routes"]
    assert isinstance(catalog, RoutesCatalog)
    error = next(e for e in catalog.errors if e.function == "shop.gaps.coded")
    assert (error.status, error.detail, error.body_key) == (400, "Unknown sort order", "detail.message")
    fragment = json.loads((root / "data" / "shop-routes.openapi.json").read_text(encoding="utf-8"))
    examples = fragment["paths"]["/g/coded"]["get"]["responses"]["400"]["content"]["application/json"]
    [example] = examples["examples"].values()
    assert example["value"] == {"detail": {"message": "Unknown sort order"}}
    # What the application really sends: the message sits where the catalog says.
    from fastapi import FastAPI
    from fastapi.testclient import TestClient

    spec = importlib.util.spec_from_file_location("gaps_under_test", root / "shop" / "gaps.py")
    assert spec is not None and spec.loader is not None
    gaps = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gaps)
    app = FastAPI()
    app.include_router(gaps.router, prefix="/g")
    answer = TestClient(app).get("/g/coded")
    assert answer.status_code == 400
    assert answer.json()["detail"]["message"] == error.detail
