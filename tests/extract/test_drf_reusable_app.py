"""Patterns of reusable REST framework apps (a password-reset app mounted by `include()`): views bound to a
module-level name by `as_view()`, a serializer made from `self.serializer_class`, whose `validate` a plain
mixin gives, a lookup shortcut inside a `try` that turns its 404 into another, and errors by field whose
message is a translated string in a list. Each value below is what REST framework answers for it."""

from __future__ import annotations

from pathlib import Path

from tests.extract.test_drf_styles import answers, catalog

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
