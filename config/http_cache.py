"""Cached GET responses of read-only resources that change only with a version (the card catalog).

A view that mixes in VersionedCacheMixin (before its DRF base class) and says what its current version token
is gets, on every GET:
  * query parameters the view does not understand (cache_query_params: its filters, search, ordering,
    pagination, `format`, and any `cache_extra_params`) are dropped before the view runs, as if they had not
    been sent: `&x123=1` is the same answer and the same cache entry as without it;
  * an ETag computed from the token and the normalised request (path, sorted query, host), before any work,
    so `If-None-Match` with a current ETag is answered 304 at once;
  * the rendered JSON body from this process's memory (an LRU bounded by HTTP_CACHE_LOCAL_BYTES and
    HTTP_CACHE_LOCAL_ENTRIES) or from the shared cache when
    another request (in any worker) built it already: an entry's key holds the version token, so an entry
    never goes stale and the local copy needs no invalidation. A body is given to the shared cache when
    this process is asked for it a second time (or at once when it is too large to hold here): an answer
    asked only once (a one-off filter) never pays for the write of its whole body to the shared cache;
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
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified, QueryDict
from django.utils.cache import patch_vary_headers
from django.utils.http import parse_etags
from rest_framework import filters
from rest_framework.settings import api_settings

JSON = "application/json"


class _LocalLru:
    """In-process copy of cached bodies (thread-safe); saves the round trip to the shared cache.

    Bounded by bytes (HTTP_CACHE_LOCAL_BYTES, the sum of the bodies) and by entries
    (HTTP_CACHE_LOCAL_ENTRIES): the least recently used bodies go first; a body larger than the whole bound
    is not kept here at all."""

    def __init__(self) -> None:
        self._items: OrderedDict[str, bytes] = OrderedDict()
        self._unshared: set[str] = set()  # held here, not yet given to the shared cache
        self._lock = threading.Lock()
        self.size = 0  # bytes held

    def __len__(self) -> int:
        return len(self._items)

    def get(self, key: str) -> bytes | None:
        with self._lock:
            value = self._items.get(key)
            if value is not None:
                self._items.move_to_end(key)
            return value

    def put(self, key: str, value: bytes, *, shared: bool = True) -> bool:
        """Hold `value` (False: larger than the whole bound, not held). shared=False: the shared cache does
        not have it yet (`take_unshared` says so once)."""
        limit = settings.HTTP_CACHE_LOCAL_BYTES
        with self._lock:
            old = self._items.pop(key, None)
            self._unshared.discard(key)
            if old is not None:
                self.size -= len(old)
            if len(value) > limit:
                return False
            self._items[key] = value
            if not shared:
                self._unshared.add(key)
            self.size += len(value)
            while self.size > limit or len(self._items) > settings.HTTP_CACHE_LOCAL_ENTRIES:
                dropped_key, dropped = self._items.popitem(last=False)
                self._unshared.discard(dropped_key)
                self.size -= len(dropped)
            return True

    def take_unshared(self, key: str) -> bool:
        """True once for a body held here that the shared cache does not have yet."""
        with self._lock:
            if key in self._unshared:
                self._unshared.discard(key)
                return True
            return False

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self._unshared.clear()
            self.size = 0


local_bodies = _LocalLru()


def normalised_query(query_string: str) -> str:
    """The query with its parameters sorted (order and encoding do not make a different answer)."""
    return urlencode(sorted(parse_qsl(query_string, keep_blank_values=True)))


def _wants_html(request: HttpRequest) -> bool:
    return "text/html" in request.headers.get("Accept", "") or request.GET.get("format") == "api"


def _filter_params(filterset_class: Any) -> set[str]:
    names: set[str] = set()
    for name, declared in filterset_class.base_filters.items():
        suffixes = getattr(getattr(declared.field_class, "widget", None), "suffixes", None)
        if suffixes:  # e.g. a RangeFilter reads name_min and name_max
            names.update(f"{name}_{suffix}" if suffix else name for suffix in suffixes)
        else:
            names.add(name)
    return names


_known_params: dict[tuple, frozenset[str]] = {}


class VersionedCacheMixin:
    cache_namespace: str = ""
    cache_extra_params: tuple[str, ...] = ()  # query parameters the view reads itself (e.g. "since", "q")

    def cache_token(self) -> str:  # pragma: no cover - each view says what its data's version is
        raise NotImplementedError

    def cache_query_params(self) -> frozenset[str]:
        """The query parameters this view understands; any other is dropped before the view runs (computed
        once per view class and action: they are class attributes)."""
        action = getattr(self, "action_map", {}).get("get")
        key = (type(self), action)
        known = _known_params.get(key)
        if known is None:
            known = _known_params[key] = self._cache_query_params(action)
        return known

    def _cache_query_params(self, action) -> frozenset[str]:
        names = {api_settings.URL_FORMAT_OVERRIDE, *self.cache_extra_params}
        if action not in (None, "list"):  # a viewset's detail: no filters, search or pages
            return frozenset(names)
        pagination = getattr(self, "pagination_class", None)
        if pagination is not None:
            names.update(
                p for p in (getattr(pagination, "page_query_param", None),
                            getattr(pagination, "page_size_query_param", None)) if p
            )
        backends = getattr(self, "filter_backends", ())
        if any(issubclass(b, filters.SearchFilter) for b in backends):
            names.add(api_settings.SEARCH_PARAM)
        if any(issubclass(b, filters.OrderingFilter) for b in backends):
            names.add(api_settings.ORDERING_PARAM)
        filterset_class = getattr(self, "filterset_class", None)
        if filterset_class is not None:
            names |= _filter_params(filterset_class)
        return frozenset(names)

    def _drop_unknown_params(self, request: HttpRequest) -> None:
        known = self.cache_query_params()
        pairs = parse_qsl(request.META.get("QUERY_STRING", ""), keep_blank_values=True)
        kept = [(name, value) for name, value in pairs if name in known]
        if len(kept) != len(pairs):
            query = urlencode(kept)
            request.META["QUERY_STRING"] = query
            request.GET = QueryDict(query)  # the view, its filters and its page links see only these

    def _cache_headers(self, response: HttpResponse, etag: str) -> HttpResponse:
        response["ETag"] = etag
        response["Cache-Control"] = f"public, max-age={settings.HTTP_CACHE_MAX_AGE}"
        patch_vary_headers(response, ("Accept",))
        return response

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> Any:
        if request.method != "GET" or _wants_html(request):
            return super().dispatch(request, *args, **kwargs)
        self._drop_unknown_params(request)
        self.version_token = self.cache_token()  # read once per request (cards.list_forms keys on it too)
        identity = "|".join(
            (
                self.cache_namespace,
                self.version_token,
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
        if hit is not None and local_bodies.take_unshared(key):  # asked again: worth sharing now
            cache.set(key, hit, settings.HTTP_CACHE_SECONDS)
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
        if not local_bodies.put(key, response.content, shared=False):  # too large to hold here: share now
            cache.set(key, response.content, settings.HTTP_CACHE_SECONDS)
        return self._cache_headers(response, etag)
