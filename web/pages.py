"""What the pages share: domain errors shown as a page (or a fragment) in the error's status, paging."""

from __future__ import annotations

import functools
from collections.abc import Callable

from django.contrib.auth.views import redirect_to_login
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from config.errors import DomainError

PAGE_SIZE = 48


def is_fragment(request: HttpRequest) -> bool:
    """An htmx request (it wants the fragment, not the whole page)."""
    return request.headers.get("HX-Request") == "true"


def error_page(request: HttpRequest, error: DomainError) -> HttpResponse:
    template = "web/partials/error.html" if is_fragment(request) else "web/error.html"
    return render(request, template, {"error": error.as_dict()}, status=error.status)


def page(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """A site view: a DomainError a service or selector raises is the error page in its status (401: the
    login page, then back)."""

    @functools.wraps(view)
    def wrapped(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        try:
            return view(request, *args, **kwargs)
        except DomainError as error:
            if error.status == 401:  # a signed-in user's page (games.spectator_selectors: watching)
                return redirect_to_login(request.get_full_path())
            return error_page(request, error)

    return wrapped


def paginate(request: HttpRequest, items, *, size: int = PAGE_SIZE):
    return Paginator(items, size).get_page(request.GET.get("page"))


def query_without_page(request: HttpRequest) -> str:
    params = request.GET.copy()
    params.pop("page", None)
    return params.urlencode()
