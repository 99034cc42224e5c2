"""Each way a Django REST framework project declares its operations and errors, one small project per case,
read statically (nothing is imported)."""

from __future__ import annotations

from pathlib import Path

import pytest

from docgen.core.errors import SourceError
from docgen.core.models import RoutesCatalog
from tests.helpers import make_files, run_extract_in_memory

MKDOCS = """\
site_name: styles
plugins:
  - docgen:
      catalogs:
        routes:
          kind: routes
          source: proj/settings.py
          framework: drf
"""


def catalog(root: Path, files: dict[str, str], settings: str = "") -> RoutesCatalog:
    base = {
        "mkdocs.yml": MKDOCS,
        "docs/index.md": "# Styles\n",
        "proj/__init__.py": "",
        "proj/settings.py": f'ROOT_URLCONF = "proj.urls"\n{settings}',
    }
    make_files(root, {**base, **files})
    found = run_extract_in_memory(root).catalogs["routes"]
    assert isinstance(found, RoutesCatalog)
    return found


def answers(found: RoutesCatalog) -> dict[tuple[str, str], list[tuple[int | None, str, str]]]:
    """(method, path) -> (status, detail, body key) of each error, in the order the operation lists them."""
    errors = {error.id: error for error in found.errors}
    return {
        (o.method, o.path): [(errors[e].status, errors[e].detail, errors[e].body_key) for e, _ in o.errors]
        for o in found.operations
    }


VIEWSET = """\
from rest_framework import viewsets
from rest_framework.decorators import action
from rest_framework.response import Response


class NoteViewSet(viewsets.GenericViewSet):
    lookup_field = "slug"

    def list(self, request):
        return Response([])

    def destroy(self, request, slug=None):
        return Response(status=409)

    @action(["post"], detail=True, url_path="pin-it")
    def pin(self, request, slug=None):
        return Response({"error": "Pinned already."}, status=409)
"""


def test_a_router_without_trailing_slash_whose_urlpatterns_are_imported(tmp_path: Path) -> None:
    files = {
        "proj/urls.py": (
            'from django.urls import include, path\n\nurlpatterns = [path("v1/", include("notes"))]\n'
        ),
        "notes/__init__.py": "from .base import urlpatterns\n",
        "notes/base.py": (
            "from rest_framework.routers import SimpleRouter\n\nfrom notes.views import NoteViewSet\n\n"
            'router = SimpleRouter(trailing_slash=False)\nrouter.register("notes", NoteViewSet)\n'
            "urlpatterns = router.urls\n"
        ),
        "notes/views.py": VIEWSET,
    }
    assert answers(catalog(tmp_path, files)) == {
        ("get", "/v1/notes"): [],
        ("delete", "/v1/notes/{slug}"): [(409, "", "detail")],  # no data: an empty body
        ("post", "/v1/notes/{slug}/pin-it"): [(409, "Pinned already.", "error")],
    }


GENERIC = """\
from rest_framework.decorators import api_view, permission_classes
from rest_framework.generics import ListCreateAPIView, RetrieveDestroyAPIView
from rest_framework.permissions import IsAdminUser, IsAuthenticated
from rest_framework.response import Response

from proj.models import Tag


class Tags(ListCreateAPIView):
    queryset = Tag.objects.all()


class OneTag(RetrieveDestroyAPIView):
    queryset = Tag.objects.filter(hidden=False)
    permission_classes = [IsAuthenticated]


@api_view(["GET"])
@permission_classes([IsAuthenticated])
def count(request):
    return Response({"count": 0})


class Viewset:
    pass
"""


def test_generic_views_and_permissions_from_the_settings_and_a_decorator(tmp_path: Path) -> None:
    files = {
        "proj/urls.py": (
            "from django.urls import path, re_path\n\nfrom proj import views\n\nurlpatterns = [\n"
            '    path("tags/", views.Tags.as_view()),\n'
            '    re_path(r"^tags/(?P<name>[a-z-]+)/?$", views.OneTag.as_view()),\n'
            '    path("count/", views.count),\n]\n'
        ),
        "proj/models.py": "class Tag:\n    objects = None\n",
        "proj/views.py": GENERIC,
    }
    settings = (
        'REST_FRAMEWORK = {"DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"]}\n'
    )
    unauthenticated = (403, "Authentication credentials were not provided.", "detail")  # session first: 403
    missing = (404, "No Tag matches the given query.", "detail")
    assert answers(catalog(tmp_path, files, settings)) == {
        ("get", "/count/"): [unauthenticated],
        ("get", "/tags/"): [unauthenticated],
        ("post", "/tags/"): [unauthenticated],
        ("get", "/tags/{name}/"): [unauthenticated, missing],
        ("delete", "/tags/{name}/"): [unauthenticated, missing],
    }


def test_a_handler_that_answers_everything_itself_and_a_permission_set_at_run_time(tmp_path: Path) -> None:
    files = {
        "proj/urls.py": (
            "from django.urls import path\n\nfrom proj.views import Gone\n\n"
            'urlpatterns = [path("gone/", Gone.as_view())]\n'
        ),
        "proj/views.py": (
            "from django.http import Http404\nfrom rest_framework.views import APIView\n\n"
            "from proj import conf\n\n\n"
            "class Gone(APIView):\n    permission_classes = conf.PERMISSIONS.gone\n\n"
            "    def get(self, request):\n        raise Http404('It went away.')\n"
        ),
        "proj/conf.py": "PERMISSIONS = object()\n",
        "proj/handlers.py": (
            "from rest_framework.response import Response\n\n\ndef handle(exc, context):\n"
            "    if isinstance(exc, KeyError):\n        return Response({'detail': 'Missing.'}, status=400)\n"
            "    return None\n"
        ),
    }
    settings = 'REST_FRAMEWORK = {"EXCEPTION_HANDLER": "proj.handlers.handle"}\n'
    # The handler never hands Http404 to REST framework's: no status is known, and none is guessed.
    assert answers(catalog(tmp_path, files, settings)) == {
        ("get", "/gone/"): [(None, "It went away.", "detail")]
    }


def test_a_view_that_answers_with_rest_frameworks_method_not_allowed(tmp_path: Path) -> None:
    files = {
        "proj/urls.py": (
            "from django.urls import path\n\nfrom proj.views import Logout\n\n"
            'urlpatterns = [path("logout/", Logout.as_view())]\n'
        ),
        "proj/views.py": (
            "from rest_framework.response import Response\nfrom rest_framework.views import APIView\n\n\n"
            "class Logout(APIView):\n    def get(self, request):\n"
            "        return self.http_method_not_allowed(request)\n\n"
            "    def post(self, request):\n        return Response({'detail': 'Bye.'})\n"
        ),
    }
    assert answers(catalog(tmp_path, files)) == {
        ("get", "/logout/"): [(405, 'Method "GET" not allowed.', "detail")],
        ("post", "/logout/"): [],
    }


def test_a_model_viewset_mapped_by_hand_and_through_a_namespaced_include(tmp_path: Path) -> None:
    files = {
        "proj/urls.py": (
            "from django.urls import include, path\n\n"
            'urlpatterns = [path("api/", include(("proj.more", "api"), namespace="api"))]\n'
        ),
        "proj/more.py": (
            "from django.urls import path\n\nfrom proj.views import Pets\n\nurlpatterns = [\n"
            '    path("pets/", Pets.as_view({"get": "list", "post": "create"})),\n'
            '    path("pets/<uuid:pk>/", Pets.as_view({"get": "retrieve", "delete": "destroy"})),\n]\n'
        ),
        "proj/models.py": "class Pet:\n    objects = None\n",
        "proj/views.py": (
            "from rest_framework.viewsets import ModelViewSet\n\nfrom proj.models import Pet\n\n\n"
            "class Pets(ModelViewSet):\n    queryset = Pet.objects.all()\n"
        ),
    }
    found = catalog(tmp_path, files)
    missing = (404, "No Pet matches the given query.", "detail")
    assert answers(found) == {
        ("get", "/api/pets/"): [],
        ("post", "/api/pets/"): [],
        ("get", "/api/pets/{pk}/"): [missing],
        ("delete", "/api/pets/{pk}/"): [missing],
    }
    assert {operation.function for operation in found.operations} == {"proj.views.Pets"}


def test_settings_a_settings_module_star_imports(tmp_path: Path) -> None:
    base = (
        'ROOT_URLCONF = "proj.urls"\nREST_FRAMEWORK = {\n'
        '    "DEFAULT_AUTHENTICATION_CLASSES": ["rest_framework.authentication.TokenAuthentication"],\n'
        '    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],\n}\n'
    )
    files = {
        "mkdocs.yml": MKDOCS.replace("proj/settings.py", "proj/conf/dev.py"),
        "proj/conf/__init__.py": "",
        "proj/conf/base.py": base,
        "proj/conf/dev.py": "from .base import *  # noqa: F403\n\nDEBUG = True\n",
        "proj/urls.py": (
            'from django.urls import path\n\nfrom proj.views import me\n\nurlpatterns = [path("me/", me)]\n'
        ),
        "proj/views.py": (
            "from rest_framework.decorators import api_view\n"
            "from rest_framework.response import Response\n\n\n"
            "@api_view()\ndef me(request):\n    return Response({})\n"
        ),
    }
    # TokenAuthentication names a scheme (`Token`): REST framework answers 401, not 403.
    unauthenticated = (401, "Authentication credentials were not provided.", "detail")
    assert answers(catalog(tmp_path, files)) == {("get", "/me/"): [unauthenticated]}


def test_a_shortcut_lookup_and_throttling(tmp_path: Path) -> None:
    files = {
        "proj/urls.py": (
            "from django.urls import path\n\nfrom proj import views\n\nurlpatterns = [\n"
            '    path("tags/<int:pk>/", views.tag),\n    path("tags/", views.Tags.as_view()),\n]\n'
        ),
        "proj/models.py": "class Tag:\n    objects = None\n",
        "proj/views.py": (
            "from django.shortcuts import get_object_or_404\n"
            "from rest_framework.decorators import api_view, throttle_classes\n"
            "from rest_framework.response import Response\n"
            "from rest_framework.throttling import UserRateThrottle\n"
            "from rest_framework.views import APIView\n\n"
            "from proj.models import Tag\n\n\n"
            "@api_view()\n@throttle_classes([UserRateThrottle])\ndef tag(request, pk):\n"
            "    return Response({'name': get_object_or_404(Tag.objects.all(), pk=pk).name})\n\n\n"
            "class Tags(APIView):\n    def get(self, request):\n        return Response([])\n"
        ),
    }
    settings = (
        'REST_FRAMEWORK = {"DEFAULT_THROTTLE_CLASSES": ["rest_framework.throttling.AnonRateThrottle"]}\n'
    )
    throttled = (429, "Request was throttled. Expected available in {wait} seconds.", "detail")
    assert answers(catalog(tmp_path, files, settings)) == {
        ("get", "/tags/"): [throttled],
        ("get", "/tags/{pk}/"): [throttled, (404, "No Tag matches the given query.", "detail")],
    }


def test_an_authentication_class_of_the_source_is_followed(tmp_path: Path) -> None:
    files = {
        "proj/urls.py": (
            "from django.urls import path\n\nfrom proj.views import Notes\n\n"
            'urlpatterns = [path("notes/", Notes.as_view())]\n'
        ),
        "proj/auth.py": (
            "from rest_framework.authentication import BaseAuthentication\n"
            "from rest_framework.exceptions import AuthenticationFailed\n\n\n"
            "class KeyAuthentication(BaseAuthentication):\n"
            "    def authenticate(self, request):\n"
            "        if request.headers.get('X-Key') == 'old':\n"
            "            raise AuthenticationFailed('This key has expired.')\n"
            "        return None\n\n"
            "    def authenticate_header(self, request):\n        return 'Key'\n"
        ),
        "proj/views.py": (
            "from rest_framework.permissions import IsAuthenticated\n"
            "from rest_framework.response import Response\n"
            "from rest_framework.views import APIView\n\n\n"
            "class Notes(APIView):\n    permission_classes = [IsAuthenticated]\n\n"
            "    def get(self, request):\n        return Response([])\n"
        ),
    }
    settings = 'REST_FRAMEWORK = {"DEFAULT_AUTHENTICATION_CLASSES": ["proj.auth.KeyAuthentication"]}\n'
    found = catalog(tmp_path, files, settings)
    assert answers(found) == {
        ("get", "/notes/"): [
            (401, "Authentication credentials were not provided.", "detail"),  # it names a scheme: 401
            (401, "This key has expired.", "detail"),
        ]
    }
    assert found.operations[0].dependencies == ("proj.auth.KeyAuthentication.authenticate",)


def test_authentication_failed_is_403_under_session_authentication(tmp_path: Path) -> None:
    files = {
        "proj/urls.py": (
            "from django.urls import path\n\nfrom proj.views import key\n\n"
            'urlpatterns = [path("key/", key)]\n'
        ),
        "proj/views.py": (
            "from rest_framework.decorators import api_view\n"
            "from rest_framework.exceptions import AuthenticationFailed\n\n\n"
            "@api_view(['POST'])\ndef key(request):\n    raise AuthenticationFailed('Wrong key.')\n"
        ),
    }
    # REST framework's default authentication starts with sessions, which name no scheme: 401 becomes 403.
    assert answers(catalog(tmp_path, files)) == {("post", "/key/"): [(403, "Wrong key.", "detail")]}


def test_a_view_imported_from_another_package(tmp_path: Path) -> None:
    files = {
        "proj/urls.py": (
            "from django.urls import path\n\nfrom tokens.views import Refresh\n\n"
            'urlpatterns = [path("refresh/", Refresh.as_view())]\n'
        ),
        "tokens/__init__.py": "",
        "tokens/views.py": (
            "from rest_framework.exceptions import NotFound\nfrom rest_framework.views import APIView\n\n\n"
            "class Refresh(APIView):\n    def post(self, request):\n"
            "        raise NotFound('No such token.')\n"
        ),
    }
    assert answers(catalog(tmp_path, files)) == {("post", "/refresh/"): [(404, "No such token.", "detail")]}


def test_an_exception_class_raised_without_a_call(tmp_path: Path) -> None:
    files = {
        "proj/urls.py": (
            "from django.urls import path\n\nfrom proj.views import page\n\n"
            'urlpatterns = [path("page/", page)]\n'
        ),
        "proj/views.py": (
            "from django.http import Http404\nfrom rest_framework import exceptions\n"
            "from rest_framework.decorators import api_view\n\n\n"
            "@api_view()\ndef page(request):\n    if request.GET:\n        raise Http404\n"
            "    try:\n        request.user.page\n    except AttributeError as exc:\n        raise exc\n"
            "    raise exceptions.NotAcceptable\n"
        ),
    }
    assert answers(catalog(tmp_path, files)) == {
        ("get", "/page/"): [
            (404, "Not found.", "detail"),
            (406, "Could not satisfy the request Accept header.", "detail"),
        ]
    }


ERRORS_MKDOCS = """\
site_name: styles
plugins:
  - docgen:
      catalogs:
        errors:
          kind: errors
          source: proj/views.py
          framework: drf
          functions: [lend]
"""


def test_an_errors_catalog_of_the_framework_records_rest_frameworks_codes(tmp_path: Path) -> None:
    files = {
        "mkdocs.yml": ERRORS_MKDOCS,
        "docs/index.md": "# Errors\n",
        "proj/__init__.py": "",
        "proj/views.py": (
            "from django.utils.translation import gettext_lazy as _\n"
            "from rest_framework.exceptions import NotFound, ValidationError\n\n\n"
            "def lend(request):\n    if not request.data:\n        raise NotFound()\n"
            "    if request.data.get('days', 0) > 30:\n"
            "        raise ValidationError(_('A loan lasts 30 days at most.'), code='too_long')\n"
            "    raise ValidationError({'book': [_('Name the book.')]})\n"
        ),
    }
    make_files(tmp_path, files)
    found = run_extract_in_memory(tmp_path).catalogs["errors"].as_data()["entries"]
    assert [(e["code"], e["status"], e["message"]) for e in found] == [
        ("not_found", 404, "Not found."),  # default_code, status_code and default_detail of the class
        ("too_long", 400, "A loan lasts 30 days at most."),
        ("invalid", 400, "Name the book."),
    ]


PLUGIN_URLS = """\
from django.urls import include, path
from rest_framework.routers import DefaultRouter

from proj import plugins, views

router = DefaultRouter()
router.register("notes", views.NoteViewSet, basename="note")

urlpatterns = [
    path("api/", include(router.urls)),
    path("plugins/", include(plugins.PLUGIN.urls)),
    path("admin/", include(plugins.load_urls())),
]
"""

PLUGINS = """\
import importlib


def load_urls():
    return importlib.import_module("proj.more_urls").urlpatterns


PLUGIN = importlib.import_module("proj.plugin")
"""


def test_an_include_docgen_cannot_follow_is_a_located_notice_and_finding(tmp_path: Path) -> None:
    """`include(plugin.urls)` of an object made at run time, and `include(load_urls())`: their patterns
    cannot be listed, and extract and check say so at each include rather than leave them out in silence."""
    from docgen.kinds.routes.catalog import RoutesExtraction

    files = {"proj/urls.py": PLUGIN_URLS, "proj/plugins.py": PLUGINS, "proj/views.py": VIEWSET}
    catalog(tmp_path, files)
    result = run_extract_in_memory(tmp_path).results["routes"]
    assert isinstance(result, RoutesExtraction)
    assert [(shown, file, line) for shown, _reason, file, line in result.unfollowed] == [
        ("include(plugins.PLUGIN.urls)", "proj/urls.py", 11),
        ("include(plugins.load_urls())", "proj/urls.py", 12),
    ]
    assert ("get", "/api/notes/") in {
        (o.method, o.path) for o in result.catalog.operations
    }  # the rest is read


def test_a_router_s_urls_given_to_path_are_read(tmp_path: Path) -> None:
    files = {
        "proj/urls.py": (
            "from django.urls import path\nfrom rest_framework.routers import DefaultRouter\n\n"
            "from notes.views import NoteViewSet\n\nrouter = DefaultRouter()\n"
            'router.register("notes", NoteViewSet)\n\nurlpatterns = [path("api/", router.urls)]\n'
        ),
        "notes/__init__.py": "",
        "notes/views.py": VIEWSET,
    }
    assert ("post", "/api/notes/{slug}/pin-it/") in answers(catalog(tmp_path, files))


def test_a_router_that_registers_its_own_way_is_located_not_skipped(tmp_path: Path) -> None:
    # wagtail's API: `api_router = WagtailAPIRouter("wagtailapi")`, `api_router.register_endpoint(...)`.
    files = {
        "proj/urls.py": (
            "from django.urls import path\n\nfrom proj.routing import EndpointRouter\n"
            "from notes.views import NoteViewSet\n\napi_router = EndpointRouter()\n"
            'api_router.register_endpoint("notes", NoteViewSet)\n\n'
            'urlpatterns = [path("api/v2/", api_router.urls)]\n'
        ),
        "proj/routing.py": "class EndpointRouter:\n    def register_endpoint(self, name, view): ...\n",
        "notes/__init__.py": "",
        "notes/views.py": VIEWSET,
    }
    with pytest.raises(SourceError) as raised:
        catalog(tmp_path, files)
    assert (raised.value.file, raised.value.line) == ("proj/urls.py", 9)
    assert "include(api_router.urls) cannot be followed" in raised.value.message
