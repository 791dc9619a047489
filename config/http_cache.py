"""Cached GET responses of read-only resources that change only with a version (the card catalog).

A view that mixes in VersionedCacheMixin (before its DRF base class) and says what its current version token
is gets, on every GET:
  * an ETag computed from the token and the normalised request (path, sorted query, host), before any work,
    so `If-None-Match` with a current ETag is answered 304 at once;
  * the rendered JSON body from this process's memory (a bounded LRU) or from the shared cache when
    another request (in any worker) built it already: an entry's key holds the version token, so an entry
    never goes stale and the local copy needs no invalidation;
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
import threading
from collections import OrderedDict
from typing import Any
from urllib.parse import parse_qsl, urlencode

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.utils.cache import patch_vary_headers
from django.utils.http import parse_etags

JSON = "application/json"


class _LocalLru:
    """Bounded in-process copy of cached bodies (thread-safe); saves the round trip to the shared cache."""

    def __init__(self) -> None:
        self._items: OrderedDict[str, bytes] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: str) -> bytes | None:
        with self._lock:
            value = self._items.get(key)
            if value is not None:
                self._items.move_to_end(key)
            return value

    def put(self, key: str, value: bytes) -> None:
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > settings.HTTP_CACHE_LOCAL_ENTRIES:
                self._items.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()


local_bodies = _LocalLru()


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
        hit = local_bodies.get(key)
        if hit is None:
            hit = cache.get(key)
            if hit is not None:
                local_bodies.put(key, hit)
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
        local_bodies.put(key, response.content)
        return self._cache_headers(response, etag)
