"""A FilterSet's validation and filtering of one request as a *shape* and SQL parameters, without a FilterSet.

Building a FilterSet, validating its whole form and turning its cleaned values into a queryset, then
compiling that queryset to SQL, cost a catalog list that misses the response cache more CPU than everything
else it does (issue 26). Yet the SQL text depends only on which filters are active and on a few structural
facts about their values (how many values a multiple-choice filter has, a boolean, NULL, an integer beyond
the column's range, the ordering); the values themselves are only parameters.
`FilterBinding(filterset_class).bind(data)` gives, for a request's query parameters, that shape and the
parameters in the order the compiled SQL takes them, so a caller can compile the SQL once per shape (from the
ORM, with the first request of that shape) and bind the values of every later request (cards.list_forms).

Validation stays the form's: each parameter present is cleaned by the form field django-filter builds for it
(the same field objects, so the same values and the same errors); an absent parameter of an optional field
cleans to an empty value, which no filter acts on. Any parameter that fails validation, and any filter whose
SQL this module cannot describe (a `method` filter with a value, a filter class it does not know, a lookup or
a field type it does not model), gives None: the caller then takes the FilterSet path, which answers exactly
as before (its 400 and error body included). The caller checks, when it compiles a shape, that the ORM's
parameters for the request are the ones `bind` gave, and does not compile the shape otherwise.

A filter class opts in by its `compiled_kind` ("plain", "multiple" or "ordering") when it overrides `filter`
with the same SQL as the django-filter class it derives from; django-filter's own classes are recognised.
"""

from __future__ import annotations

import threading
from decimal import Decimal
from typing import Any

import django_filters as df
from django import forms
from django.core.exceptions import FieldDoesNotExist, ValidationError
from django.db.models import QuerySet
from django.db.models.lookups import IntegerFieldOverflow
from django_filters.constants import EMPTY_VALUES
from django_filters.widgets import BaseCSVWidget

from config.filters import StrictBooleanWidget

_INTEGER_TYPES = frozenset(
    {
        "IntegerField",
        "BigIntegerField",
        "SmallIntegerField",
        "PositiveIntegerField",
        "PositiveSmallIntegerField",
        "PositiveBigIntegerField",
        "AutoField",
        "BigAutoField",
        "SmallAutoField",
    }
)
_TEXT_TYPES = frozenset({"CharField", "TextField", "SlugField"})
_COMPARISONS = frozenset({"exact", "gt", "gte", "lt", "lte"})
# how widgets that read exactly the parameter of the field's name (absent: None or []) read it
_READERS = frozenset(
    {
        forms.Widget.value_from_datadict,
        forms.widgets.ChoiceWidget.value_from_datadict,
        forms.SelectMultiple.value_from_datadict,
        StrictBooleanWidget.value_from_datadict,
        BaseCSVWidget.value_from_datadict,
    }
)
_PLAIN_FILTERS = {df.Filter.filter, df.ChoiceFilter.filter}


class Unsupported(Exception):
    """This request (or filter) is not described here: take the FilterSet path."""


class _Target:
    """The model field a lookup path ends on, and how a value becomes that lookup's SQL parameter (as Django's
    lookups prepare it: the field's get_prep_value, the integer range check of IntegerFieldOverflow, then
    get_db_prep_value)."""

    def __init__(self, model, path: str, lookup: str | None) -> None:
        parts = path.split("__")
        field = None
        for index, part in enumerate(parts):
            if field is not None and not field.is_relation:  # "<field>__<lookup>": nothing may follow it
                if lookup is not None or index != len(parts) - 1:
                    raise Unsupported(path)
                lookup = part
                break
            try:
                field = model._meta.get_field(part)
            except FieldDoesNotExist:
                raise Unsupported(path) from None
            if field.is_relation and index < len(parts) - 1:
                model = field.related_model
        if field is None:
            raise Unsupported(path)
        self.field = field
        self.lookup = lookup or "exact"
        self.relation = field.is_relation
        self.internal = None if self.relation else field.get_internal_type()
        self.lookup_class = None if self.relation else field.get_lookup(self.lookup)
        if not self.relation and self.lookup_class is None:
            raise Unsupported(path)

    def leaf(self, value: Any, connection) -> tuple[Any, tuple]:
        """(what the SQL text depends on, the SQL parameters) of `value` under this lookup."""
        if self.lookup == "isnull":
            if isinstance(value, bool):
                return ("isnull", value), ()
            raise Unsupported("isnull")
        if self.relation:
            raise Unsupported("relation")
        if value is None:
            if self.lookup == "exact":
                return ("null",), ()
            raise Unsupported("None")
        if isinstance(value, bool):
            if self.internal == "BooleanField" and self.lookup == "exact":
                return ("bool", value), ()
            raise Unsupported("bool")
        if self.internal in _INTEGER_TYPES and self.lookup in _COMPARISONS:
            if not isinstance(value, (int, Decimal, str)):
                raise Unsupported(type(value).__name__)
            try:
                prepared = self.field.get_prep_value(value)
            except (TypeError, ValueError):
                raise Unsupported("integer") from None
            if issubclass(self.lookup_class, IntegerFieldOverflow):
                low, high = connection.ops.integer_field_range(self.internal)
                if low is not None and prepared < low:
                    return ("under",), ()
                if high is not None and prepared > high:
                    return ("over",), ()
            return ("value",), (self.field.get_db_prep_value(prepared, connection, prepared=True),)
        if self.internal in _TEXT_TYPES and self.lookup == "exact" and isinstance(value, str):
            prepared = self.field.get_prep_value(value)
            return ("value",), (self.field.get_db_prep_value(prepared, connection, prepared=True),)
        raise Unsupported(f"{self.internal}__{self.lookup}")


def _kind(filter_) -> str | None:
    if filter_.method is not None:
        return None
    declared = getattr(type(filter_), "compiled_kind", None)
    if declared is not None:
        return declared
    if type(filter_).filter in _PLAIN_FILTERS:
        return "plain"
    if type(filter_).filter is df.MultipleChoiceFilter.filter:
        return "multiple"
    return None


class _Bound:
    __slots__ = ("name", "filter", "field", "kind", "target", "targets")

    def __init__(self, name, filter_, field, kind, target) -> None:
        self.name, self.filter, self.field, self.kind, self.target = name, filter_, field, kind, target
        self.targets: dict[str, _Target] = {}


class FilterBinding:
    """One FilterSet class's filters as shapes and parameters (see the module docstring). `supported` is False
    when some field of its form is not modelled here (then `bind` always gives None)."""

    def __init__(self, filterset_class) -> None:
        self.model = filterset_class._meta.model
        self.supported = True
        self.filters: list[_Bound] = []
        form_class = filterset_class(data=None).get_form_class()
        base = filterset_class.base_filters
        if form_class.clean is not forms.Form.clean or form_class._post_clean is not forms.Form._post_clean:
            self.supported = False
        for name, field in form_class.base_fields.items():
            filter_ = base.get(name)
            widget = field.widget
            if (
                filter_ is None
                or field.required
                or field.disabled
                or hasattr(form_class, f"clean_{name}")
                or isinstance(widget, forms.MultiWidget)
                or type(widget).value_from_datadict not in _READERS
            ):
                self.supported = False
                continue
            kind = _kind(filter_)
            target = None
            if kind == "plain":
                try:
                    target = _Target(self.model, filter_.field_name, filter_.lookup_expr)
                except Unsupported:
                    kind = None
            if kind == "multiple" and (filter_.conjoined or not filter_.always_filter):
                kind = None
            self.filters.append(_Bound(name, filter_, field, kind, target))
        self.params = frozenset(bound.name for bound in self.filters)
        self.undescribed = tuple(bound.name for bound in self.filters if bound.kind is None)

    def _multiple_target(self, bound: _Bound, name: str) -> _Target:
        target = bound.targets.get(name)
        if target is None:
            target = bound.targets[name] = _Target(self.model, name, None)
        return target

    def bind(self, data, connection) -> tuple[tuple, list[Any], dict[str, Any]] | None:
        """(shape, SQL parameters, the cleaned values of the active filters) of the query parameters `data`,
        or None: some value is invalid, or some active filter is not described here."""
        if not self.supported or any(name in data for name in self.undescribed):
            return None  # (before any validation query: the FilterSet path runs its own)
        shape: list[tuple] = []
        params: list[Any] = []
        cleaned: dict[str, Any] = {}
        try:
            for bound in self.filters:
                name = bound.name
                if name not in data:
                    continue
                field = bound.field
                value = field.clean(field.widget.value_from_datadict(data, {}, name))
                filter_ = bound.filter
                kind = bound.kind
                if kind == "multiple":
                    if isinstance(value, QuerySet) and value.query.is_empty():
                        continue
                    if not value:
                        continue
                elif value in EMPTY_VALUES:
                    continue
                cleaned[name] = value
                if kind == "ordering":
                    shape.append((name, "ordering", tuple(value)))
                elif kind == "plain":
                    if isinstance(filter_, df.ChoiceFilter) and value == filter_.null_value:
                        value = None
                    leaf, values = bound.target.leaf(value, connection)
                    shape.append((name, leaf))
                    params.extend(values)
                else:  # multiple: one OR'd predicate per distinct value, as MultipleChoiceFilter.filter
                    leaves = []
                    for item in set(value):
                        if item == filter_.null_value:
                            item = None
                        ((path, predicate),) = filter_.get_filter_predicate(item).items()
                        leaf, values = self._multiple_target(bound, path).leaf(predicate, connection)
                        leaves.append((path, leaf))
                        params.extend(values)
                    shape.append((name, tuple(leaves)))
        except (ValidationError, Unsupported):
            return None
        return tuple(shape), params, cleaned


_bindings: dict[type, FilterBinding] = {}
_bindings_lock = threading.Lock()


def binding_for(filterset_class) -> FilterBinding:
    binding = _bindings.get(filterset_class)
    if binding is None:
        with _bindings_lock:
            binding = _bindings.get(filterset_class) or FilterBinding(filterset_class)
            _bindings[filterset_class] = binding
    return binding
