"""Catalog list pages from serialized forms built once per catalog version, per process.

The catalog is immutable between two catalog versions (the view's `cache_token`), so each row's serialized
form is built once per version, scheme and host (its links are absolute) in each process. A list request
filters, orders and paginates in the database as primary keys only (the same FilterSet, `?q=`, `?search=` and
ordering as before, so the same rows in the same order), serializes the rows of its page that no earlier
request of this version did (one query plus the view's prefetches), and answers with the forms of its page.

Never stale: a catalog change is a new token (visible in every process within CATALOG_TOKEN_SECONDS, as for
the response cache), and a new token starts an empty table. The first page after a change costs what a page
cost before (its rows are serialized); every later page of that version reuses them.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from rest_framework.response import Response

MAX_TABLES = 32  # (view, version, scheme, host) tables kept per process, least recently used dropped


class _Tables:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._tables: OrderedDict[tuple, dict[Any, Any]] = OrderedDict()
        self.builds = 0  # how many tables were built in this process (tests, benchmarks)

    def get(self, key: tuple) -> dict[Any, Any] | None:
        with self._lock:
            table = self._tables.get(key)
            if table is not None:
                self._tables.move_to_end(key)
            return table

    def put(self, key: tuple, table: dict[Any, Any]) -> None:
        with self._lock:
            self.builds += 1  # tables started
            self._tables[key] = table
            self._tables.move_to_end(key)
            while len(self._tables) > MAX_TABLES:
                self._tables.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._tables.clear()


tables = _Tables()


class PrebuiltListMixin:
    """For a read-only catalog viewset (before the DRF base): `list` answers from the prebuilt forms."""

    def _forms_key(self) -> tuple:
        request = self.request
        token = getattr(self, "version_token", None) or self.cache_token()  # config.http_cache read it
        return (type(self).__qualname__, type(self).__module__, token, request.scheme, request.get_host())

    def _forms_for(self, pks: list[Any]) -> list[Any]:
        key = self._forms_key()
        table = tables.get(key)
        if table is None:
            table = {}
            tables.put(key, table)
        missing = [pk for pk in pks if pk not in table]
        if missing:  # serialized once per version: the page's rows that no earlier page of it had
            rows = list(self.get_queryset().filter(pk__in=missing))
            forms = self.get_serializer(rows, many=True).data
            table.update({row.pk: form for row, form in zip(rows, forms, strict=True)})
        return [table[pk] for pk in pks if pk in table]

    def list(self, request, *args, **kwargs):
        queryset = self.filter_queryset(self.get_queryset())
        pks = queryset.prefetch_related(None).values_list("pk", flat=True)
        page = self.paginate_queryset(pks)
        if page is not None:
            return self.get_paginated_response(self._forms_for(list(page)))
        return Response(self._forms_for(list(pks)))
