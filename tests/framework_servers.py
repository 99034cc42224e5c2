"""One small server per web framework docgen reads, written for the tests that take an empty folder through
`docgen init` and on to a built site: each is a package `shop` and the errors its routes answer with."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Server:
    """A server's files (path -> text) and the errors its page must list: (status, message)."""

    framework: str
    files: dict[str, str]
    errors: tuple[tuple[int, str], ...]

    def write(self, root: Path) -> Path:
        """`root` holding only the server's files."""
        for name, text in self.files.items():
            path = root / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        return root


ERRORS = ((404, "No item has this id"), (403, "Items cannot be deleted"))

FASTAPI = """\
from fastapi import FastAPI, HTTPException

app = FastAPI()
ITEMS = {1: "pen"}


@app.get("/items/{item_id}")
def get_item(item_id: int) -> dict[str, str]:
    if item_id not in ITEMS:
        raise HTTPException(status_code=404, detail="No item has this id")
    return {"name": ITEMS[item_id]}


@app.delete("/items/{item_id}")
def delete_item(item_id: int) -> None:
    raise HTTPException(status_code=403, detail="Items cannot be deleted")
"""

STARLETTE = """\
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

ITEMS = {1: "pen"}


async def get_item(request: Request) -> JSONResponse:
    item_id = int(request.path_params["item_id"])
    if item_id not in ITEMS:
        raise HTTPException(status_code=404, detail="No item has this id")
    return JSONResponse({"name": ITEMS[item_id]})


async def delete_item(request: Request) -> JSONResponse:
    raise HTTPException(status_code=403, detail="Items cannot be deleted")


app = Starlette(
    routes=[
        Route("/items/{item_id:int}", get_item, methods=["GET"]),
        Route("/items/{item_id:int}/delete", delete_item, methods=["POST"]),
    ]
)
"""

FLASK = """\
from flask import Flask, abort

app = Flask(__name__)
ITEMS = {1: "pen"}


@app.get("/items/<int:item_id>")
def get_item(item_id: int) -> dict[str, str]:
    if item_id not in ITEMS:
        abort(404, description="No item has this id")
    return {"name": ITEMS[item_id]}


@app.delete("/items/<int:item_id>")
def delete_item(item_id: int) -> dict[str, str]:
    abort(403, description="Items cannot be deleted")
"""

AIOHTTP = """\
from aiohttp import web

routes = web.RouteTableDef()
ITEMS = {1: "pen"}


@routes.get("/items/{item_id}")
async def get_item(request: web.Request) -> web.Response:
    item_id = int(request.match_info["item_id"])
    if item_id not in ITEMS:
        raise web.HTTPNotFound(text="No item has this id")
    return web.json_response({"name": ITEMS[item_id]})


@routes.delete("/items/{item_id}")
async def delete_item(request: web.Request) -> web.Response:
    raise web.HTTPForbidden(text="Items cannot be deleted")


app = web.Application()
app.add_routes(routes)
"""

LITESTAR = """\
from litestar import Litestar, delete, get
from litestar.exceptions import NotFoundException, PermissionDeniedException

ITEMS = {1: "pen"}


@get("/items/{item_id:int}")
async def get_item(item_id: int) -> dict[str, str]:
    if item_id not in ITEMS:
        raise NotFoundException(detail="No item has this id")
    return {"name": ITEMS[item_id]}


@delete("/items/{item_id:int}")
async def delete_item(item_id: int) -> None:
    raise PermissionDeniedException(detail="Items cannot be deleted")


app = Litestar(route_handlers=[get_item, delete_item])
"""

DRF_SETTINGS = """\
SECRET_KEY = "for-the-test-only"
INSTALLED_APPS = ["django.contrib.contenttypes", "django.contrib.auth", "rest_framework", "shop"]
ROOT_URLCONF = "shop.urls"
"""

DRF_URLS = """\
from django.urls import path

from shop.views import ItemView

urlpatterns = [path("items/<int:item_id>", ItemView.as_view())]
"""

DRF_VIEWS = """\
from rest_framework.exceptions import NotFound, PermissionDenied
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

ITEMS = {1: "pen"}


class ItemView(APIView):
    def get(self, request: Request, item_id: int) -> Response:
        if item_id not in ITEMS:
            raise NotFound("No item has this id")
        return Response({"name": ITEMS[item_id]})

    def delete(self, request: Request, item_id: int) -> Response:
        raise PermissionDenied("Items cannot be deleted")
"""


def _module(text: str) -> dict[str, str]:
    return {"shop/__init__.py": "", "shop/main.py": text}


SERVERS = {
    "fastapi": Server("fastapi", _module(FASTAPI), ERRORS),
    "starlette": Server("fastapi", _module(STARLETTE), ERRORS),
    "flask": Server("flask", _module(FLASK), ERRORS),
    "aiohttp": Server("aiohttp", _module(AIOHTTP), ERRORS),
    "litestar": Server("litestar", _module(LITESTAR), ERRORS),
    "drf": Server(
        "drf",
        {
            "shop/__init__.py": "",
            "shop/settings.py": DRF_SETTINGS,
            "shop/urls.py": DRF_URLS,
            "shop/views.py": DRF_VIEWS,
        },
        ERRORS,
    ),
}
"""Server by name (Starlette's is read by the fastapi adapter)."""
