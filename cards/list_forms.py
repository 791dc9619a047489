"""Catalog list pages from pre-encoded serialized forms, kept per process and checked against the rows.

Each row's serialized form is kept in each process as the JSON bytes DRF's JSONRenderer makes of it, per view,
scheme and host (its links are absolute). A list request filters, orders and paginates in the database as
primary keys only (the same FilterSet, `?q=`, `?search=` and ordering as before, so the same rows in the same
order; the total count comes with the page's keys, one statement), serializes the rows of its page whose form
it does not hold (one query plus the view's prefetches), and answers with the page's forms joined as bytes
into the same envelope (count, next, previous, results, and the view's extras such as `warnings`): the same
body, byte for byte, as rendering the page's dicts. A renderer other than plain JSON (the browsable API,
`indent`) gets the forms decoded and renders as before.

Never stale: a catalog change is a new version token (the view's `cache_token`, visible in every process
within CATALOG_TOKEN_SECONDS, as for the response cache), and no form is served under a token it was not
built or checked at:
  * a view that names the rows its form is made of (`form_sources`: the row itself always, plus relations
    followed from it, e.g. "nation", "memberships__card_set") keeps each form with a fingerprint of that
    content: an MD5, computed in SQL, over every column of the row and of each related row (on PostgreSQL
    the rows' text, in which a value is quoted wherever a delimiter could be read into it). A form is checked
    once per token: the first page a process serves under a new token reads its rows' fingerprints in the
    statement that reads its keys, a later page of that token those of its unchecked rows in one query (the
    page's rows only; never again under a token already checked: the fingerprint costs the database more
    than the page's keys), and each form whose content changed is built again; the others are kept. A catalog
    change therefore keeps the forms of every row that did not change. A form is built in one snapshot with
    the fingerprint it is stored under (REPEATABLE READ on PostgreSQL outside a transaction), so it is never
    kept under the fingerprint of other content.
  * a view without `form_sources` (its forms hold aggregates over other tables: counts, sums) keeps its forms
    per token: a new token starts an empty table.
"""

from __future__ import annotations

import contextlib
import json
import threading
from collections import OrderedDict
from typing import Any

from django.core.exceptions import ImproperlyConfigured
from django.core.paginator import InvalidPage
from django.db import connection, transaction
from django.db.models import Count, Window
from django.db.models.expressions import RawSQL
from django_filters.rest_framework import DjangoFilterBackend
from rest_framework import filters as drf_filters
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.settings import api_settings

from config.compiled_filters import binding_for
from config.pagination import addressable

from .list_plans import (
    EMPTY,
    UNSUPPORTED,
    Plan,
    Slice,
    captured_count,
    compile_queryset,
    converted,
    plans,
    run_statement,
    same_params,
)

Entry = tuple[str | None, bytes, str]  # (fingerprint or None, JSON bytes, token last checked at)
MAX_TABLES = 32  # (view, scheme, host[, version]) tables kept per process, least recently used dropped
_FINGERPRINT = "_form_fingerprint"
_TOTAL = "_form_total"


class Table(dict):
    """pk -> Entry, for one view, scheme and host (and version token, for a view without form_sources)."""

    token: str | None = None  # the version token of the last request that used the table


class _Tables:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._tables: OrderedDict[tuple, Table] = OrderedDict()
        self.builds = 0  # how many tables were started in this process (tests, benchmarks)
        self.forms_built = 0  # how many rows were serialized into forms in this process (tests, benchmarks)

    def get(self, key: tuple) -> Table:
        with self._lock:
            table = self._tables.get(key)
            if table is not None:
                self._tables.move_to_end(key)
                return table
            self.builds += 1
            table = self._tables[key] = Table()
            while len(self._tables) > MAX_TABLES:
                self._tables.popitem(last=False)
            return table

    def clear(self) -> None:
        with self._lock:
            self._tables.clear()


tables = _Tables()
_encoder = JSONRenderer()


# ----------------------------------------------------------------------------------------- the fingerprint


def _encoded(expression: str) -> str:
    """A column as self-delimiting text: "<length>:<text>", or "-" for NULL."""
    text = f"CAST({expression} AS TEXT)"
    return f"COALESCE(CAST(LENGTH({text}) AS TEXT) || ':' || {text}, '-')"


def _columns(model, alias: str, qn, vendor: str) -> list[str]:
    """Every column of the row `alias` as self-delimiting text: on PostgreSQL the whole row's text, whose
    values are quoted wherever a delimiter could be read into them ("-" for no row); elsewhere column by
    column."""
    if vendor == "postgresql":
        return [f"COALESCE(CAST({alias} AS TEXT), '-')"]
    return [_encoded(f"{alias}.{qn(field.column)}") for field in model._meta.concrete_fields]


def _followed(model, alias: str, names: list[str], qn, vendor: str) -> tuple[str, list[str]]:
    """LEFT JOINs along forward foreign keys from `alias`, and the encoded columns of every row joined."""
    joins, columns = "", _columns(model, alias, qn, vendor)
    for depth, name in enumerate(names):
        field = model._meta.get_field(name)
        if not field.many_to_one:
            raise ImproperlyConfigured(f"form_sources: {name!r} of {model.__name__} is not a foreign key")
        target = field.related_model
        joined = qn(f"{alias.strip(qn(''))}_{depth}")
        joins += (
            f" LEFT JOIN {qn(target._meta.db_table)} {joined}"
            f" ON {joined}.{qn(field.target_field.column)} = {alias}.{qn(field.column)}"
        )
        columns += _columns(target, joined, qn, vendor)
        model, alias = target, joined
    return joins, columns


def fingerprint_sql(model, sources: tuple[str, ...], vendor: str) -> str:
    """SQL of one row's fingerprint in a query on `model`'s table: MD5 over every column of the row and of
    each source (a forward foreign key, or a reverse one, i.e. many rows, each optionally followed along
    forward foreign keys: "memberships__card_set"). Every part is self-delimiting, so different content never
    makes the same text."""
    qn = connection.ops.quote_name
    base = qn(model._meta.db_table)
    parts = _columns(model, base, qn, vendor)
    for index, source in enumerate(sources):
        first, *rest = source.split("__")
        field = model._meta.get_field(first)
        alias = qn(f"fp{index}")
        related = field.related_model
        joins, columns = _followed(related, alias, rest, qn, vendor)
        text = " || ".join(columns)
        if field.many_to_one:  # one row (or none)
            where = f"{alias}.{qn(field.target_field.column)} = {base}.{qn(field.column)}"
        elif field.one_to_many:  # every row pointing at this one, in a fixed order
            remote = field.field
            where = f"{alias}.{qn(remote.column)} = {base}.{qn(remote.target_field.column)}"
            pk = f"{alias}.{qn(related._meta.pk.column)}"
            ordered = f"STRING_AGG({text}, '' ORDER BY {pk})"
            # SQLite's GROUP_CONCAT takes no order: another order only makes another fingerprint (a rebuild)
            text = ordered if vendor == "postgresql" else f"GROUP_CONCAT({text}, '')"
        else:
            raise ImproperlyConfigured(f"form_sources: {first!r} of {model.__name__} is not a foreign key")
        table = qn(related._meta.db_table)
        related_rows = f"SELECT {text} FROM {table} {alias}{joins} WHERE {where}"  # noqa: S608 - names only
        parts.append(f"COALESCE(MD5(({related_rows})), '-')")
    return f"MD5({' || '.join(parts)})"


_fingerprints: dict[tuple, str] = {}


# ------------------------------------------------------------------------------------------------ rendering


_MARK = "\x00prebuilt-forms\x00"  # where the joined forms go in the rendered envelope (JSON escapes it)
_MARK_JSON = json.dumps(_MARK).encode()


class Forms(list):
    """The page's forms: JSON bytes of each row."""


class PrebuiltResponse(Response):
    """A DRF Response whose data holds a Forms list (the data itself, or its "results"): rendered as plain
    JSON by joining the forms' bytes into the rendered envelope; any other renderer gets the forms decoded."""

    @staticmethod
    def _swap(data: Any, value_of) -> Any:
        if isinstance(data, Forms):
            return value_of(data)
        if isinstance(data, dict) and isinstance(data.get("results"), Forms):
            return {**data, "results": value_of(data["results"])}
        return data

    @property
    def rendered_content(self):
        data = self.data
        forms: list[Forms] = []

        def mark(found: Forms) -> str:
            forms.append(found)
            return _MARK

        renderer = getattr(self, "accepted_renderer", None)
        plain = type(renderer) is JSONRenderer and renderer.get_indent(
            getattr(self, "accepted_media_type", None), getattr(self, "renderer_context", None) or {}
        ) is None
        try:
            if plain:
                self.data = self._swap(data, mark)
                body = super().rendered_content
                if forms:
                    body = body.replace(_MARK_JSON, b"[" + b",".join(forms[0]) + b"]", 1)
                return body
            self.data = self._swap(data, lambda found: [json.loads(form) for form in found])
            return super().rendered_content
        finally:
            self.data = data


# ------------------------------------------------------------------------------------- compiled list queries
# (cards.list_plans: the compiled statements and their plans; the two switches stay here, read per request)

COMPILED = True  # False: every list takes the queryset path (tests compare both)
VERIFY = False  # True (tests): each compiled request compiles its queryset too: the same SQL and parameters


# ------------------------------------------------------------------------------------------------- the mixin


class PrebuiltListMixin:
    """For a read-only catalog viewset (before the DRF base): `list` answers from the prebuilt forms.

    `form_sources`: the relations a row's form is made of besides the row (see the module docstring); None
    keeps the forms per catalog version instead. A list's statements are compiled once per filter shape
    ("compiled list queries" above): the view's get_queryset must not depend on the request (as the forms
    kept per view already require)."""

    form_sources: tuple[str, ...] | None = None

    def _fingerprint(self, model) -> str | None:
        if self.form_sources is None:
            return None
        key = (type(self), connection.vendor)
        sql = _fingerprints.get(key)
        if sql is None:
            sql = _fingerprints[key] = fingerprint_sql(model, self.form_sources, connection.vendor)
        return sql

    def _token(self) -> str:
        return getattr(self, "version_token", None) or self.cache_token()  # config.http_cache read it

    def _forms_key(self, token: str) -> tuple:
        request = self.request
        key = (type(self).__qualname__, type(self).__module__, request.scheme, request.get_host())
        return key if self.form_sources is not None else (*key, token)

    def _build(self, pks: list[Any], fingerprint: str | None) -> dict[Any, tuple[str | None, bytes]]:
        """The forms of these rows, each with the fingerprint of the content it was built from: on
        PostgreSQL outside a transaction, the rows, their fingerprints and their prefetches are read in one
        REPEATABLE READ snapshot (inside a caller's transaction, in the caller's)."""
        postgresql = connection.vendor == "postgresql"
        snapshot = fingerprint is not None and postgresql and not connection.in_atomic_block
        with transaction.atomic() if snapshot else contextlib.nullcontext():
            if snapshot:
                with connection.cursor() as cursor:
                    cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
            queryset = self.get_queryset().filter(pk__in=pks)
            if fingerprint is not None:
                queryset = queryset.annotate(**{_FINGERPRINT: RawSQL(fingerprint, ())})  # noqa: S611 - no input
            rows = list(queryset)
            forms = self.get_serializer(rows, many=True).data
        tables.forms_built += len(rows)
        return {
            row.pk: (getattr(row, _FINGERPRINT, None), _encoder.render(form))
            for row, form in zip(rows, forms, strict=True)
        }

    def _forms_for(
        self, table: Table, token: str, rows: list[tuple], model, fingerprint: str | None
    ) -> Forms:
        """The forms of these rows ((pk,) or (pk, fingerprint now)), in their order: each checked once per
        version token (its fingerprint against the rows now, SQL `fingerprint`: read with the page, or in
        one query for the page's unchecked rows) and built again when its content changed."""
        pks = [row[0] for row in rows]
        kept_now = [table.get(pk) for pk in pks]
        unchecked = [pk for pk, kept in zip(pks, kept_now, strict=True) if kept is None or kept[2] != token]
        if not unchecked:  # every form kept and checked under this token (the usual case)
            table.token = token
            return Forms(kept[1] for kept in kept_now)  # type: ignore[index]
        if unchecked and fingerprint is not None and any(pk in table for pk in unchecked):
            now = {row[0]: row[1] for row in rows if len(row) > 1}
            if any(pk not in now for pk in unchecked):
                now.update(
                    model._base_manager.filter(pk__in=[pk for pk in unchecked if pk not in now])
                    .annotate(**{_FINGERPRINT: RawSQL(fingerprint, ())})  # noqa: S611 - names only, no input
                    .values_list("pk", _FINGERPRINT)
                )
            missing = []
            for pk in unchecked:
                kept = table.get(pk)
                if kept is not None and pk in now and kept[0] == now[pk]:
                    table[pk] = (kept[0], kept[1], token)  # the same content: the same form
                else:
                    missing.append(pk)
        else:
            missing = unchecked
        if missing:
            built = self._build(missing, fingerprint)
            table.update((pk, (print_, form, token)) for pk, (print_, form) in built.items())
        table.token = token
        entries = (table.get(pk) for pk in pks)  # a row gone since the page was read: left out, as before
        return Forms(entry[1] for entry in entries if entry is not None and entry[2] == token)

    def _compiled_binding(self, request):
        """The FilterBinding of this list when its request can take the compiled path, else None."""
        if not COMPILED or getattr(self, "action", None) != "list" or self.paginator is None:
            return None
        filterset_class = getattr(self, "filterset_class", None)
        backends = self.filter_backends
        if filterset_class is None or any(
            b is not DjangoFilterBackend and b is not drf_filters.SearchFilter for b in backends
        ):
            return None
        binding = binding_for(filterset_class)
        if not binding.supported:
            return None
        pagination = self.paginator
        known = binding.params | {
            pagination.page_query_param,
            pagination.page_size_query_param,
            api_settings.URL_FORMAT_OVERRIDE,
        }
        if any(name not in known for name in request.query_params):  # ?q=, ?search=, anything else
            return None
        return binding

    def _compiled_list(self, request):
        """`list` from the compiled statements of this request's shape; None: take the queryset path."""
        binding = self._compiled_binding(request)
        if binding is None:
            return None
        pagination = self.paginator
        raw = request.query_params.get(pagination.page_query_param) or 1
        try:
            number = int(raw)
        except (TypeError, ValueError):  # "last", or the queryset path's 404 (before any validation query)
            return None
        if number < 1:
            return None
        bound = binding.bind(request.query_params, connection)
        if bound is None:  # an invalid value (the queryset path gives its 400) or a shape not described
            return None
        shape, params, cleaned = bound
        pagination.request = request
        size = pagination.get_page_size(request)  # a bad page_size: its 400, after the filters' (as before)
        if not size or not addressable(number, size):  # a huge page: the queryset path's 404
            return None
        model = binding.model
        token = self._token()
        table = tables.get(self._forms_key(token))
        fingerprint = self._fingerprint(model)
        with_fingerprint = bool(fingerprint is not None and table.token != token and table)
        key = (type(self), connection.alias, shape, with_fingerprint)
        plan = plans.get(key)
        counted = None
        if plan is None or VERIFY:
            compiled = self._compile_plan(binding, cleaned, params, fingerprint if with_fingerprint else None)
            if compiled is None:  # the ORM takes other parameters than bound: not compiled (VERIFY: a bug)
                assert not VERIFY, f"the SQL of {shape} does not take the parameters {params}"
                plans.put(key, UNSUPPORTED)
                return None
            if plan is not None and plan is not UNSUPPORTED:  # VERIFY: the kept plan is the same SQL
                fresh = compiled[0]
                assert plan.distinct == fresh.distinct, (shape, plan.distinct)
                for kept, now in ((plan.page, fresh.page), (plan.count, fresh.count)):
                    assert (kept and (kept.sql, kept.columns)) == (now and (now.sql, now.columns)), shape
            plan, counted = compiled
            plans.put(key, plan)
        if plan is UNSUPPORTED:
            return None
        paginator = pagination.django_paginator_class(Slice(), size)
        if plan.distinct:
            if counted is None:
                counted = run_statement(plan.count, params, 0, None)
                counted = int(counted[0][0]) if counted else 0
            paginator.count = counted
            try:
                page_of = paginator.page(number)
            except InvalidPage:  # its 404 from the queryset path
                return None
            taken = paginator.object_list.taken
            rows = [(row[0],) for row in run_statement(plan.page, params, taken.start, taken.stop)]
        else:
            found = run_statement(plan.page, params, (number - 1) * size, number * size, last=False)
            if not found and number != 1:  # past the end: the queryset path's 404
                return None
            paginator.count = converted(plan.page, found[0])[-1] if found else 0  # type: ignore[arg-type]
            page_of = paginator.page(number)
            rows = [row[:-1] for row in found]
        plans.served += 1
        pagination.page = page_of
        if paginator.num_pages > 1 and pagination.template is not None:
            pagination.display_page_controls = True
        response = self.get_paginated_response(self._forms_for(table, token, rows, model, fingerprint))
        return PrebuiltResponse(response.data, status=response.status_code)

    def _compile_plan(self, binding, cleaned, params, fingerprint):
        """(the plan of this shape, the count if compiling ran it) from the queryset `list` builds for this
        request, or None when its SQL does not take `params` as bound."""
        filterset = self.filterset_class(data=None, queryset=self.get_queryset(), request=self.request)
        rows = filterset.queryset.all()
        if rows.model is not binding.model:
            return None
        for name, value in cleaned.items():  # the active filters, in the form's order (FilterSet.qs)
            rows = filterset.filters[name].filter(rows, value)
        rows = rows.prefetch_related(None)
        if fingerprint is not None:
            rows = rows.annotate(**{_FINGERPRINT: RawSQL(fingerprint, ())})  # noqa: S611 - names only
        fields = ("pk", _FINGERPRINT) if fingerprint is not None else ("pk",)
        try:
            if not rows.query.distinct:
                page, page_params = compile_queryset(
                    rows.annotate(**{_TOTAL: Window(Count("pk"))}).values_list(*fields, _TOTAL)
                )
                if page is not EMPTY and not same_params(page_params, params):
                    return None
                return Plan(False, page, None), None
            keys = rows.values_list("pk", flat=True)
            page, page_params = compile_queryset(keys)
            count, count_params, counted = captured_count(keys)
        except LookupError:
            return None
        if (page is not EMPTY and not same_params(page_params, params)) or (
            count is not EMPTY and not same_params(count_params, params)
        ):
            return None
        return Plan(True, page, count), counted

    def _page(self, rows, fields: tuple[str, ...]) -> list[tuple] | None:
        """The page's rows (`fields` of each), as DRF's pagination picks them (its 404s too), with the total
        count from the same statement when the page number is a plain one; None: not paginated."""
        pagination = self.paginator
        request = self.request
        pagination.request = request
        size = pagination.get_page_size(request)
        if not size:
            return None
        raw = request.query_params.get(pagination.page_query_param) or 1
        try:
            number = int(raw)
        except (TypeError, ValueError):
            number = 0
        # the window counts the rows with the page (not under DISTINCT: there it counts them before it); a
        # page that is not a plain number, or past what a database addresses, takes the paginator's path
        if addressable(number, size) and not rows.query.distinct:
            counted = rows.annotate(**{_TOTAL: Window(Count("pk"))}).values_list(*fields, _TOTAL)
            page = list(counted[(number - 1) * size : number * size])
            if page or number == 1:
                paginator = pagination.django_paginator_class(rows.values_list("pk", flat=True), size)
                paginator.count = page[0][-1] if page else 0
                pagination.page = paginator.page(number)
                if paginator.num_pages > 1 and pagination.template is not None:
                    pagination.display_page_controls = True
                return [row[:-1] for row in page]
        pks = pagination.paginate_queryset(rows.values_list("pk", flat=True), request, view=self)
        return [(pk,) for pk in pks]  # the other cases, and their 404s

    def list(self, request, *args, **kwargs):
        compiled = self._compiled_list(request)
        if compiled is not None:
            return compiled
        queryset = self.filter_queryset(self.get_queryset())
        model = queryset.model
        token = self._token()
        table = tables.get(self._forms_key(token))
        rows = queryset.prefetch_related(None)
        fields: tuple[str, ...] = ("pk",)
        fingerprint = self._fingerprint(model)
        if fingerprint is not None and table.token != token and table:  # a new token: check with the page
            rows = rows.annotate(**{_FINGERPRINT: RawSQL(fingerprint, ())})  # noqa: S611 - names only
            fields = ("pk", _FINGERPRINT)
        page = self._page(rows, fields) if self.paginator is not None else None
        if page is None:
            every = list(rows.values_list(*fields))
            return PrebuiltResponse(self._forms_for(table, token, every, model, fingerprint))
        response = self.get_paginated_response(self._forms_for(table, token, page, model, fingerprint))
        return PrebuiltResponse(response.data, status=response.status_code)
