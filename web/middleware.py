"""The site's own "Not found" page under DEBUG too (docs/site.md promises it): Django answers an unknown
address with its technical 404, which lists every URL pattern, instead of handler404 when DEBUG is on."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.core.exceptions import MiddlewareNotUsed
from django.http import Http404, HttpRequest, HttpResponse
from django.urls import Resolver404, resolve

from web.views import not_found


class SiteNotFoundMiddleware:
    """Under DEBUG only (otherwise handler404 already answers): an address outside /api/ that no pattern
    resolves, or a view's Http404 there, is the site's "Not found" page. Sits inside CommonMiddleware, so
    a missing slash is still redirected (APPEND_SLASH)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        if not settings.DEBUG:
            raise MiddlewareNotUsed
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not request.path.startswith("/api/"):
            try:
                resolve(request.path_info)
            except Resolver404:
                return not_found(request)
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, Http404) and not request.path.startswith("/api/"):
            return not_found(request, exception)
        return None
