"""A foreign server for the bench: a FastAPI application whose error constructor is an installed package's.

    python -m benchmarks.foreign benchmarks/work/foreign

writes the application (the same bytes every time), configures one errors catalog per router module as
README's "Documenting another server" does for gns3-server (`HTTPException` of fastapi, its status from
`status_code`, its message from `detail`), extracts, writes a note for every entry and renders, so that
`docgen check` on it is clean:

    mkdocs.yml                    one errors catalog per router module
    storefront/errors.py          a subclass of fastapi's HTTPException
    storefront/deps.py            dependencies that refuse a request
    storefront/routes/rNN.py      ROUTES_PER_MODULE routes, their statuses from `fastapi.status`,
                                  `starlette.status`, `http.HTTPStatus` and literals
    storefront/main.py            the application, with every router included
    docs/errors/rNN.md            a page per catalog with an error-table region

Every status and the constructor itself are read from fastapi's and starlette's installed files, which is what
the bench times against the floor of griffe loading `storefront` alone.
"""

from __future__ import annotations

import shutil
import sys
from collections.abc import Sequence
from pathlib import Path

import yaml

from benchmarks import synthetic
from benchmarks.scenarios import FOREIGN_PACKAGE as PACKAGE

MODULES = 5
ROUTES_PER_MODULE = 8

ERRORS = '''\
"""Errors of the storefront."""

from fastapi import HTTPException, status


class NotFound(HTTPException):
    def __init__(self, what: str) -> None:
        super().__init__(status_code=status.HTTP_404_NOT_FOUND, detail=f"No {what} has this id")
'''

DEPS = '''\
"""Dependencies every router runs."""

from fastapi import Header, HTTPException
from starlette import status as http


def require_token(x_token: str = Header("")) -> str:
    if not x_token:
        raise HTTPException(http.HTTP_401_UNAUTHORIZED, "Missing X-Token header")
    return x_token


def require_admin(user: str) -> str:
    if user != "admin":
        raise HTTPException(status_code=http.HTTP_403_FORBIDDEN, detail="Only admins may do this")
    return user
'''

STATUSES = (
    "status.HTTP_400_BAD_REQUEST",
    "http.HTTP_409_CONFLICT",
    "HTTPStatus.UNPROCESSABLE_ENTITY",
    "status.HTTP_429_TOO_MANY_REQUESTS",
    "413",
    "http.HTTP_410_GONE",
)


def route(module: int, number: int) -> list[str]:
    """One route: a path parameter, two or three guarded raises, one of them through a helper."""
    name = f"op_{module}_{number}"
    verb = ("get", "post", "put", "delete")[number % 4]
    first, second = STATUSES[number % len(STATUSES)], STATUSES[(number + module + 1) % len(STATUSES)]
    lines = [
        "",
        "",
        f'@router.{verb}("/r{module}/{number}/{{item_id}}")',
        f"def {name}(item_id: int, user: str = Depends(require_token)) -> dict[str, object]:",
        "    if item_id < 0:",
        f'        raise HTTPException(status_code={first}, detail="Item ids of route {module}-{number} are'
        ' not negative")',
        f"    if item_id > LIMIT + {number}:",
        f'        raise HTTPException({second}, f"Item {{item_id}} is over the limit of {module}-{number}")',
    ]
    if number % 2 == 0:
        lines += ["    if item_id == 0:", '        raise NotFound("item")']
    if number % 3 == 0:
        lines += ["    require_admin(user)"]
    return [*lines, '    return {"id": item_id}']


def router_module(module: int) -> tuple[str, list[str]]:
    """storefront/routes/rNN.py and the names of its route functions."""
    lines = [
        f'"""Routes of group {module}."""',
        "",
        "from http import HTTPStatus",
        "",
        "from fastapi import APIRouter, Depends, HTTPException, status",
        "from starlette import status as http",
        "",
        f"from {PACKAGE}.deps import require_admin, require_token",
        f"from {PACKAGE}.errors import NotFound",
        "",
        f'router = APIRouter(prefix="/g{module}")',
        f"LIMIT = {100 * (module + 1)}",
    ]
    for number in range(ROUTES_PER_MODULE):
        lines += route(module, number)
    return "\n".join(lines) + "\n", [f"op_{module}_{number}" for number in range(ROUTES_PER_MODULE)]


def main_module() -> str:
    imports = [f"from {PACKAGE}.routes import " + ", ".join(f"r{m:02d}" for m in range(MODULES))]
    includes = [f"app.include_router(r{m:02d}.router)" for m in range(MODULES)]
    head = ['"""The storefront application."""', "", "from fastapi import FastAPI", ""]
    return "\n".join([*head, *imports, "", 'app = FastAPI(title="Storefront")', *includes]) + "\n"


def catalog(module: int, functions: Sequence[str]) -> dict[str, object]:
    return {
        "kind": "errors",
        "source": f"{PACKAGE}/routes/r{module:02d}.py",
        "constructors": [{"HTTPException": {"arguments": {"status": "status_code", "message": "detail"}}}],
        "functions": [*functions, "require_token"],
    }


PAGE = """---
title: Errors of group {module}
catalog: r{module:02d}
---

# Errors of group {module}

<!-- docgen:begin error-table -->
<!-- docgen:end error-table -->
"""


def write_app(root: Path) -> Path:
    """Write the application and its docgen configuration under `root` (emptied first)."""
    shutil.rmtree(root, ignore_errors=True)
    files = {
        f"{PACKAGE}/__init__.py": "",
        f"{PACKAGE}/errors.py": ERRORS,
        f"{PACKAGE}/deps.py": DEPS,
        f"{PACKAGE}/routes/__init__.py": "",
        f"{PACKAGE}/main.py": main_module(),
        "docs/index.md": "# Storefront\n\nError pages, one per router.\n",
    }
    catalogs = {}
    for module in range(MODULES):
        text, functions = router_module(module)
        files[f"{PACKAGE}/routes/r{module:02d}.py"] = text
        files[f"docs/errors/r{module:02d}.md"] = PAGE.format(module=module)
        catalogs[f"r{module:02d}"] = catalog(module, functions)
    config = {"site_name": "storefront", "plugins": [{"docgen": {"catalogs": catalogs}}]}
    files["mkdocs.yml"] = yaml.safe_dump(config, sort_keys=False, default_flow_style=None, width=200)
    synthetic.write_files(root, files)
    return root


def prepare(root: Path) -> int:
    """Write the application, extract, write notes, render; return the number of catalog entries."""
    write_app(root)
    synthetic.docgen_quietly(root, "extract")
    entries = synthetic.write_notes(root, "r*.yaml", "LIMIT")
    synthetic.docgen_quietly(root, "render")
    return entries


def main(argv: Sequence[str] | None = None) -> int:
    """`python -m benchmarks.foreign DIR`."""
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 1:
        print("usage: python -m benchmarks.foreign DIR", file=sys.stderr)
        return 2
    entries = prepare(Path(args[0]).resolve())
    print(f"{args[0]}: {MODULES * ROUTES_PER_MODULE} routes, {entries} error entries", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
