"""Patterns of reusable REST framework apps (a password-reset app mounted by `include()`): views bound to a
module-level name by `as_view()`, a serializer made from `self.serializer_class`, whose `validate` a plain
mixin gives, a lookup shortcut inside a `try` that turns its 404 into another, and errors by field whose
message is a translated string in a list. Each value below is what REST framework answers for it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from docgen.kinds.routes.catalog import RoutesExtraction
from tests.extract.test_drf_styles import MKDOCS, answers, catalog
from tests.helpers import run_extract_in_memory

URLS = """\
from django.urls import include, path

urlpatterns = [path("api/reset/", include("resets.urls", namespace="reset"))]
"""
APP_URLS = """\
from django.urls import path

from resets.views import confirm, request_token

app_name = "reset"
urlpatterns = [
    path("confirm/", confirm, name="confirm"),
    path("", request_token, name="request"),
]
"""
SERIALIZERS = """\
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from . import models

BAD_TOKEN = _("The token is not valid.")


class TokenCheck:
    def validate(self, data):
        try:
            get_object_or_404(models.Token, key=data.get("token"))
        except (TypeError, Http404):
            raise Http404(BAD_TOKEN)
        return data


class ConfirmSerializer(TokenCheck, serializers.Serializer):
    token = serializers.CharField()
"""
VIEWS = """\
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy as _
from rest_framework import exceptions
from rest_framework.generics import GenericAPIView
from rest_framework.response import Response

from resets import models
from resets.serializers import ConfirmSerializer


def token_for(email):
    if not email:
        raise exceptions.ValidationError({"email": [_("No account has that address.")]})
    return get_object_or_404(models.Account, email=email)


class Confirm(GenericAPIView):
    permission_classes = ()
    authentication_classes = ()
    serializer_class = ConfirmSerializer

    def post(self, request):
        serializer = self.serializer_class(data=request.data)
        serializer.is_valid(raise_exception=True)
        return Response({"status": "OK"})


class RequestToken(GenericAPIView):
    permission_classes = ()
    authentication_classes = ()

    def post(self, request):
        token_for(request.data.get("email"))
        return Response({"status": "OK"})


confirm = Confirm.as_view()
request_token = RequestToken.as_view()
"""
MODELS = """\
from django.db import models


class Token(models.Model):
    key = models.CharField(max_length=64)


class Account(models.Model):
    email = models.EmailField()
"""
FILES = {
    "proj/urls.py": URLS,
    "resets/__init__.py": "",
    "resets/urls.py": APP_URLS,
    "resets/serializers.py": SERIALIZERS,
    "resets/views.py": VIEWS,
    "resets/models.py": MODELS,
}


def test_views_bound_by_name_and_what_their_serializers_and_helpers_answer(tmp_path: Path) -> None:
    found = answers(catalog(tmp_path, FILES))
    assert found == {
        # a helper's lookup shortcut is listed first in the helper's errors, as for a view's own
        ("post", "/api/reset/"): [
            (404, "No Account matches the given query.", "detail"),
            (400, "No account has that address.", "email"),
        ],
        # the shortcut's own 404 is caught in `validate` and answered with the app's text instead
        ("post", "/api/reset/confirm/"): [(404, "The token is not valid.", "detail")],
    }


TOKEN_URLS = """\
from django.urls import path

from tokens.views import Obtain, Refresh, Verify

urlpatterns = [
    path("token/", Obtain.as_view()),
    path("token/refresh/", Refresh.as_view()),
    path("token/verify/", Verify.as_view()),
]
"""
TOKEN_VIEWS = """\
from django.utils.module_loading import import_string
from rest_framework.generics import GenericAPIView
from rest_framework.response import Response

from tokens.conf import api_settings
from tokens.serializers import CheckSerializer, VerifySerializer


class TokenView(GenericAPIView):
    permission_classes = ()
    authentication_classes = ()
    _serializer_class = ""

    def get_serializer_class(self):
        return import_string(self._serializer_class)

    def post(self, request):
        serializer = self.get_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        return Response(serializer.validated_data)


class Obtain(TokenView):
    _serializer_class = api_settings.OBTAIN_SERIALIZER


class Refresh(GenericAPIView):
    permission_classes = ()
    serializer_class = api_settings.REFRESH_SERIALIZER

    def post(self, request):
        self.serializer_class(data=request.data).is_valid(raise_exception=True)
        return Response({})


class Verify(GenericAPIView):
    permission_classes = ()
    serializer_class = CheckSerializer

    def get_serializer_class(self):
        if self.request.data.get("strict"):
            return VerifySerializer
        return self.serializer_class

    def post(self, request):
        self.get_serializer_class()(data=request.data).is_valid(raise_exception=True)
        return Response({})
"""
TOKEN_SERIALIZERS = """\
from rest_framework import exceptions, serializers


class BaseObtain(serializers.Serializer):
    default_error_messages = {"no_account": "No active account."}

    def validate(self, attrs):
        if not attrs:
            raise exceptions.AuthenticationFailed(self.error_messages["no_account"], "no_account")
        return attrs


class ObtainSerializer(BaseObtain):
    def validate(self, attrs):
        return super().validate(attrs)


class VerifySerializer(serializers.Serializer):
    def validate(self, attrs):
        raise serializers.ValidationError("Token is blacklisted")


class CheckSerializer(serializers.Serializer):
    def validate_token(self, value):
        raise serializers.ValidationError("Token is malformed")
"""
TOKEN_FILES = {
    "proj/urls.py": TOKEN_URLS,
    "tokens/__init__.py": "",
    "tokens/conf.py": "class _Settings:\n    OBTAIN_SERIALIZER = ''\n    REFRESH_SERIALIZER = ''\n\n\n"
    "api_settings = _Settings()\n",
    "tokens/views.py": TOKEN_VIEWS,
    "tokens/serializers.py": TOKEN_SERIALIZERS,
}
TOKEN_STATED = """\
          run_time_values:
            - expression: Obtain.get_serializer_class()
              value: tokens.serializers.ObtainSerializer
"""


def test_a_serializer_chosen_at_run_time_is_located_until_stated(tmp_path: Path) -> None:
    found = answers(catalog(tmp_path, TOKEN_FILES))
    # the one a view's getter names is followed; the others are not guessed
    assert found == {
        ("post", "/token/"): [],
        ("post", "/token/refresh/"): [],
        ("post", "/token/verify/"): [
            (400, "Token is blacklisted", "non_field_errors"),
            (400, "Token is malformed", "token"),
        ],
    }
    extraction = run_extract_in_memory(tmp_path).results["routes"]
    assert isinstance(extraction, RoutesExtraction)
    assert [
        (path, expression, file, line) for _m, path, expression, _r, file, line in extraction.undetermined
    ] == [
        ("/token/", "Obtain.get_serializer_class()", "tokens/views.py", 14),
        ("/token/refresh/", "api_settings.REFRESH_SERIALIZER", "tokens/views.py", 29),
    ]
    stated = answers(catalog(tmp_path, {**TOKEN_FILES, "mkdocs.yml": MKDOCS + TOKEN_STATED}))
    # the stated serializer's `validate` is followed, into its base's through `super().validate(...)`,
    # whose `self.error_messages[...]` is the classes' `default_error_messages`;
    # a view without authentication classes of its own falls back to the settings' (403 without a scheme)
    assert stated[("post", "/token/")] == [(403, "No active account.", "detail")]


KNOX_AUTH = """\
from django.utils.translation import gettext_lazy as _
from rest_framework import exceptions
from rest_framework.authentication import BaseAuthentication, get_authorization_header


class TokenAuthentication(BaseAuthentication):
    def authenticate(self, request):
        auth = get_authorization_header(request).split()
        if not auth:
            return None
        if len(auth) == 1:
            msg = _("Invalid token header. No credentials provided.")
            raise exceptions.AuthenticationFailed(msg)
        elif len(auth) > 2:
            msg = _("Invalid token header. Token string should not contain spaces.")
            raise exceptions.AuthenticationFailed(msg)
        return None

    def authenticate_header(self, request):
        return "Token"
"""
KNOX_VIEWS = """\
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.views import APIView


class LoginView(APIView):
    authentication_classes = api_settings.DEFAULT_AUTHENTICATION_CLASSES
    permission_classes = (IsAuthenticated,)

    def post(self, request):
        return Response({})
"""
KNOX_SETTINGS = 'REST_FRAMEWORK = {"DEFAULT_AUTHENTICATION_CLASSES": ("knoxish.auth.TokenAuthentication",)}\n'


def test_rest_frameworks_own_settings_named_by_a_view_and_a_message_bound_in_each_branch(
    tmp_path: Path,
) -> None:
    files = {
        "proj/urls.py": "from django.urls import path\n\nfrom knoxish.views import LoginView\n\n"
        'urlpatterns = [path("login/", LoginView.as_view())]\n',
        "knoxish/__init__.py": "",
        "knoxish/auth.py": KNOX_AUTH,
        "knoxish/views.py": KNOX_VIEWS,
    }
    found = answers(catalog(tmp_path, files, KNOX_SETTINGS))
    # `api_settings.DEFAULT_AUTHENTICATION_CLASSES` is the project's list: its first class names a scheme
    # (`Token`), so REST framework answers 401, and the class's `authenticate` runs before the view
    assert found == {
        ("post", "/login/"): [
            (401, "Authentication credentials were not provided.", "detail"),
            (401, "Invalid token header. No credentials provided.", "detail"),
            (401, "Invalid token header. Token string should not contain spaces.", "detail"),
        ]
    }


DETAIL_DICT = """\
from django.utils.translation import gettext_lazy as _
from rest_framework import exceptions
from rest_framework.decorators import api_view
from rest_framework.response import Response


class DetailDictMixin:
    def __init__(self, detail=None, code=None):
        detail_dict = {"detail": self.default_detail, "code": self.default_code}
        if isinstance(detail, dict):
            detail_dict.update(detail)
        elif detail is not None:
            detail_dict["detail"] = detail
        if code is not None:
            detail_dict["code"] = code
        super().__init__(detail_dict)


class AuthenticationFailed(DetailDictMixin, exceptions.AuthenticationFailed):
    pass


class InvalidToken(AuthenticationFailed):
    status_code = 401
    default_detail = _("Token is invalid or expired")
    default_code = "token_not_valid"


@api_view(["POST"])
def check(request):
    if "a" in request.data:
        raise AuthenticationFailed(_("User not found"), code="user_not_found")
    if "b" in request.data:
        raise InvalidToken({"detail": _("Given token not valid for any token type"), "messages": []})
    raise InvalidToken()
"""


def test_an_exception_that_builds_its_detail_dict_in_its_init(tmp_path: Path) -> None:
    files = {
        "proj/urls.py": "from django.urls import path\n\nfrom tokens.views import check\n\n"
        'urlpatterns = [path("check/", check)]\n',
        "tokens/__init__.py": "",
        "tokens/views.py": DETAIL_DICT,
    }
    found = answers(catalog(tmp_path, files))
    # each answers {"detail": ..., "code": ...}: the raise's text, the dict's, else the class's default;
    # 403 for all, as REST framework turns an `AuthenticationFailed` into one when the view's first
    # authentication class (SessionAuthentication, the default) names no scheme
    assert found == {
        ("post", "/check/"): [
            (403, "User not found", "detail"),
            (403, "Given token not valid for any token type", "detail"),
            (403, "Token is invalid or expired", "detail"),
        ]
    }


LOGIN = """\
from django.utils.translation import gettext_lazy as _
from rest_framework import exceptions, serializers
from rest_framework.generics import GenericAPIView
from rest_framework.response import Response


class LoginSerializer(serializers.Serializer):
    email = serializers.EmailField()

    def _validate_email(self, email):
        if not email:
            raise exceptions.ValidationError(_('Must include "email" and "password".'))

    @staticmethod
    def validate_auth_user_status(user):
        if not user:
            raise exceptions.ValidationError(_("User account is disabled."))

    def validate_email(self, value):
        raise serializers.ValidationError("Unknown domain.")

    def validate(self, attrs):
        self._validate_email(attrs.get("email"))
        self.validate_auth_user_status(attrs.get("user"))
        return attrs


class LoginView(GenericAPIView):
    permission_classes = ()
    serializer_class = LoginSerializer

    def post(self, request):
        self.serializer = self.get_serializer(data=request.data)
        self.serializer.is_valid(raise_exception=True)
        return Response({})
"""


def test_a_serializer_kept_on_the_view_and_the_helpers_its_validate_calls(tmp_path: Path) -> None:
    files = {
        "proj/urls.py": "from django.urls import path\n\nfrom logins.views import LoginView\n\n"
        'urlpatterns = [path("login/", LoginView.as_view())]\n',
        "logins/__init__.py": "",
        "logins/views.py": LOGIN,
    }
    # what `validate` raises, itself or through a helper (a static `validate_...` one included), answers
    # under `non_field_errors`; a field's validator under the field's name
    assert answers(catalog(tmp_path, files)) == {
        ("post", "/login/"): [
            (400, "Unknown domain.", "email"),
            (400, 'Must include "email" and "password".', "non_field_errors"),
            (400, "User account is disabled.", "non_field_errors"),
        ]
    }


RUNNER = """\
import json, os, sys
os.environ["DJANGO_SETTINGS_MODULE"] = "proj.settings"
import django
django.setup()
from rest_framework.test import APIClient
answers = []
for method, url, body, headers in json.loads(sys.argv[1]):
    got = getattr(APIClient(), method)(url, body, format="json", headers=headers)
    answers.append([got.status_code, got.json()])
print(json.dumps(answers))
"""
RUN_SETTINGS = """\
SECRET_KEY = "test"
ROOT_URLCONF = "proj.urls"
INSTALLED_APPS = ["django.contrib.contenttypes", "django.contrib.auth", "rest_framework"]
DATABASES = {}
"""


def run_project(root: Path, requests: list[tuple[str, str, dict[str, str], dict[str, str]]]) -> list[Any]:
    """What the project under `root` answers each request, run with REST framework's test client in a
    process of its own (Django's settings are one per process)."""
    settings = root / "proj" / "settings.py"
    settings.write_text(settings.read_text(encoding="utf-8") + RUN_SETTINGS, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-c", RUNNER, json.dumps(requests)],
        cwd=root,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    answers: list[Any] = json.loads(done.stdout)
    return answers


def test_the_running_project_answers_as_the_catalog_says(tmp_path: Path) -> None:
    """The knox-like login (the project's scheme-naming class, a message bound in each branch), the detail
    dict built in `__init__`, and the login serializer's helpers, each against REST framework itself."""
    files = {
        "proj/urls.py": "from django.urls import path\n\nfrom knoxish.views import LoginView\n"
        "from tokens.views import check\nfrom logins.views import LoginView as Login\n\n"
        'urlpatterns = [path("login/", LoginView.as_view()), path("check/", check),'
        ' path("signin/", Login.as_view())]\n',
        "knoxish/__init__.py": "",
        "knoxish/auth.py": KNOX_AUTH,
        "knoxish/views.py": KNOX_VIEWS,
        "tokens/__init__.py": "",
        "tokens/views.py": DETAIL_DICT,
        "logins/__init__.py": "",
        "logins/views.py": LOGIN,
    }
    found = answers(catalog(tmp_path, files, KNOX_SETTINGS))
    got = run_project(
        tmp_path,
        [
            ("post", "/login/", {}, {}),
            ("post", "/login/", {}, {"Authorization": "Token"}),
            ("post", "/login/", {}, {"Authorization": "Token a b"}),
            ("post", "/check/", {"a": "1"}, {}),
            ("post", "/check/", {"b": "1"}, {}),
            ("post", "/check/", {}, {}),
            ("post", "/signin/", {"email": "x@example.org"}, {}),
        ],
    )
    # the project's first authentication class names a scheme here: every refusal is a 401
    listed = [(status, detail) for status, detail, _key in found[("post", "/login/")]]
    assert [(status, body["detail"]) for status, body in got[:3]] == listed
    # after the two refusals of the authentication class, which runs before every view
    assert [(status, body["detail"]) for status, body in got[3:6]] == [
        (status, detail) for status, detail, _key in found[("post", "/check/")][2:]
    ]
    assert got[6] == [400, {"email": ["Unknown domain."]}]
    assert (400, "Unknown domain.", "email") in found[("post", "/signin/")]


SAVING = """\
from rest_framework import serializers
from rest_framework.decorators import api_view
from rest_framework.generics import CreateAPIView
from rest_framework.response import Response


class InviteSerializer(serializers.Serializer):
    email = serializers.EmailField()

    def create(self, validated_data):
        raise serializers.ValidationError("Invitations are closed.")

    def update(self, instance, validated_data):
        raise serializers.ValidationError("An invitation cannot change.")


class Invite(CreateAPIView):
    permission_classes = ()
    serializer_class = InviteSerializer


@api_view(["PUT"])
def renew(request):
    serializer = InviteSerializer(object(), data=request.data)
    serializer.is_valid(raise_exception=True)
    serializer.save()
    return Response({})
"""


def test_what_a_serializers_save_runs(tmp_path: Path) -> None:
    files = {
        "proj/urls.py": "from django.urls import path\n\nfrom invites.views import Invite, renew\n\n"
        'urlpatterns = [path("invites/", Invite.as_view()), path("renew/", renew)]\n',
        "invites/__init__.py": "",
        "invites/views.py": SAVING,
    }
    # a `ValidationError` given a text answers a bare list (`["..."]`), recorded under `detail`
    assert answers(catalog(tmp_path, files)) == {
        ("post", "/invites/"): [(400, "Invitations are closed.", "detail")],
        ("put", "/renew/"): [(400, "An invitation cannot change.", "detail")],
    }
