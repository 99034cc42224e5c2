"""A new route error's id: from the application's exception class, else from status and detail, cut at the end
of a word; a committed id is kept whatever the rule would give now."""

from __future__ import annotations

from docgen.extract.raises import Raised
from docgen.kinds.routes.catalog import MAX_ID, assign_route_ids

WERKZEUG_404 = (
    "The requested URL was not found on the server. If you entered the URL manually please check your "
    "spelling and try again."
)


def _site(line: int, detail: str, exception: str = "abort", *, generic: bool = True) -> Raised:
    return Raised(
        404, detail, exception, "app.views.show", "app/views.py", line, None, "<html>", generic=generic
    )


def test_a_long_detail_is_cut_at_the_end_of_a_word_and_numbered_when_taken() -> None:
    sites = {("app/views.py", 10): _site(10, WERKZEUG_404), ("app/views.py", 20): _site(20, WERKZEUG_404)}
    ids = assign_route_ids(sites, [])
    assert ids == {
        ("app/views.py", 10): "404-the-requested-url-was-not-found-on-the",
        ("app/views.py", 20): "404-the-requested-url-was-not-found-on-the-2",
    }
    assert all(len(value) <= MAX_ID for value in ids.values() if not value.endswith("-2"))


def test_a_single_overlong_word_is_cut_where_the_limit_falls() -> None:
    word = "x" * 60
    assert assign_route_ids({("app/views.py", 1): _site(1, word)}, []) == {
        ("app/views.py", 1): f"404-{word[:44]}"
    }


def test_the_application_s_own_exception_class_names_the_error() -> None:
    site = _site(5, "No such book", "errors.BookNotFound", generic=False)
    assert assign_route_ids({("app/views.py", 5): site}, []) == {("app/views.py", 5): "book-not-found"}


def test_an_error_answered_without_a_body_is_named_by_its_status_phrase() -> None:
    # djoser's `return Response(status=status.HTTP_400_BAD_REQUEST)` once got the id `400-`.
    sites = {
        ("app/views.py", line): Raised(
            status, "", "Response", "v.f", "app/views.py", line, None, "detail", generic=True
        )
        for line, status in ((7, 400), (9, 499))
    }
    assert assign_route_ids(sites, []) == {
        ("app/views.py", 7): "400-bad-request",
        ("app/views.py", 9): "499-unknown",
    }
