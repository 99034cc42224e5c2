"""What real FastAPI applications write around their routes, followed as they mean it: dependencies behind a
module-level `Annotated` alias, prefixes and statuses taken from a settings object's defaults, and routers
included under a condition."""

from __future__ import annotations

from pathlib import Path

from tests.extract.test_route_styles import catalog, responses


def test_dependencies_behind_module_level_annotated_aliases(tmp_path: Path) -> None:
    deps = """\
    from typing import Annotated, TypeAlias

    from fastapi import Depends, HTTPException


    def get_db():
        raise HTTPException(503, "The database is down")


    SessionDep = Annotated[object, Depends(get_db)]


    def get_current_user(db: SessionDep):
        raise HTTPException(401, "Not authenticated")


    CurrentUser: TypeAlias = Annotated[dict, Depends(get_current_user)]
    Admin = Annotated[CurrentUser, "an admin"]
    """
    main = """\
    from fastapi import FastAPI

    from api import deps
    from api.deps import CurrentUser

    app = FastAPI()


    @app.get("/me")
    def me(user: CurrentUser): ...


    @app.get("/admin")
    def admin(user: deps.Admin): ...


    @app.get("/plain")
    def plain(user: dict): ...
    """
    found = catalog(tmp_path, main, files={"api/deps.py": deps})
    reached = [(503, "The database is down"), (401, "Not authenticated")]
    assert responses(found) == {("get", "/admin"): reached, ("get", "/me"): reached, ("get", "/plain"): []}
