"""Cached GET responses of read-only resources that change only with a version (the card catalog).

A view that mixes in VersionedCacheMixin (before its DRF base class) and says what its current version token
is gets, on every GET:
  * an ETag computed from the token and the normalised request (path, sorted query, host), before any work,
    so `If-None-Match` with a current ETag is answered 304 at once;
  * the rendered JSON body from the shared cache when another request (in any worker) built it already;
  * `Cache-Control: public, max-age=<HTTP_CACHE_MAX_AGE>` and `Vary: Accept`.
The token changes whenever the data changes, so nothing is ever invalidated by hand: old entries are never
asked for again and expire. Only 200 JSON answers are stored; errors and the browsable API (HTML, which
shows who is logged in) are never cached.

Use it for any view whose answer depends only on the request and the version: e.g.

    class ThingViewSet(VersionedCacheMixin, viewsets.ReadOnlyModelViewSet):
        cache_namespace = "things"
        def cache_token(self) -> str: return selectors.things_version()
"""

from __future__ import annotations

import hashlib
from typing import Any
from urllib.parse import parse_qsl, urlencode

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.utils.cache import patch_vary_headers
from django.utils.http import parse_etags

JSON = "application/json"


def normalised_query(query_string: str) -> str:
    """The query with its parameters sorted (order and encoding do not make a different answer)."""
    return urlencode(sorted(parse_qsl(query_string, keep_blank_values=True)))


def _wants_html(request: HttpRequest) -> bool:
    return "text/html" in request.headers.get("Accept", "") or request.GET.get("format") == "api"


class VersionedCacheMixin:
    cache_namespace: str = ""

    def cache_token(self) -> str:  # pragma: no cover - each view says what its data's version is
        raise NotImplementedError

    def _cache_headers(self, response: HttpResponse, etag: str) -> HttpResponse:
        response["ETag"] = etag
        response["Cache-Control"] = f"public, max-age={settings.HTTP_CACHE_MAX_AGE}"
        patch_vary_headers(response, ("Accept",))
        return response

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> Any:
        if request.method != "GET" or _wants_html(request):
            return super().dispatch(request, *args, **kwargs)
        identity = "|".join(
            (
                self.cache_namespace,
                self.cache_token(),
                request.get_host(),
                request.scheme,
                request.path,
                normalised_query(request.META.get("QUERY_STRING", "")),
            )
        )
        digest = hashlib.sha256(identity.encode()).hexdigest()
        etag = f'"{digest[:40]}"'
        if etag in parse_etags(request.headers.get("If-None-Match", "")):
            return self._cache_headers(HttpResponseNotModified(), etag)
        key = f"http:{self.cache_namespace}:{digest}"
        hit = cache.get(key)
        if hit is not None:
            return self._cache_headers(HttpResponse(hit, content_type=JSON), etag)
        response = super().dispatch(request, *args, **kwargs)
        if response.status_code != 200:
            return response
        if hasattr(response, "render") and not response.is_rendered:
            response.render()  # DRF sets the Content-Type while rendering
        if not response.get("Content-Type", "").startswith(JSON):
            return response
        cache.set(key, response.content, settings.HTTP_CACHE_SECONDS)
        return self._cache_headers(response, etag)
