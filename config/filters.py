"""Filters shared by every app's filtersets."""
from __future__ import annotations

import copy

from django import forms
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.http import QueryDict
from django_filters import BooleanFilter, FilterSet, NumberFilter
from django_filters import OrderingFilter as DjangoOrderingFilter
from django_filters.fields import BaseCSVField
from django_filters.widgets import BooleanWidget

# The largest number a filter or a ?q= term accepts (beyond: a 400 `invalid` for a filter, an unusable term
# for ?q=), on every catalog and every database: 2^31-1, the largest integer every database column stores.
MAX_QUERY_NUMBER = 2**31 - 1

_TRUTH = {"1": True, "true": True, "yes": True, "0": False, "false": False, "no": False}


class StrictBooleanWidget(BooleanWidget):
    """Like django-filter's BooleanWidget, but an unrecognised value reaches the field (and fails there)."""

    def value_from_datadict(self, data, files, name):
        value = data.get(name, None)
        if isinstance(value, str):
            return _TRUTH.get(value.lower(), value)
        return value


class StrictBooleanField(forms.NullBooleanField):
    widget = StrictBooleanWidget

    def to_python(self, value):
        if value in (None, "", True, False):
            return None if value == "" else value
        raise ValidationError("Use true or false.", code="invalid")

    def validate(self, value):
        return None


class StrictBooleanFilter(BooleanFilter):
    """?flag=true|false (also 1/0, yes/no); anything else is a 400 instead of being silently ignored."""

    field_class = StrictBooleanField


class BoundedNumberFilter(NumberFilter):
    """django-filter's NumberFilter within +-MAX_QUERY_NUMBER (its own bound is 1e50): beyond is a 400."""

    def get_max_validator(self):
        return MaxValueValidator(MAX_QUERY_NUMBER)

    @property
    def field(self):
        field = super().field
        if not any(isinstance(v, MinValueValidator) for v in field.validators):
            field.validators.append(MinValueValidator(-MAX_QUERY_NUMBER))
        return field


class _WholeItemsCSVField(BaseCSVField):
    """A comma-separated value whose every item is given: `?ordering=name,` or `?ordering=,` is a 400 (the
    whole value empty, `?ordering=`, is as if absent)."""

    def clean(self, value):
        if value and any(item in (None, "") for item in value):
            raise ValidationError("Give each item: no empty one between commas.", code="invalid")
        return super().clean(value)


class OrderingFilter(DjangoOrderingFilter):
    """django-filter's OrderingFilter (?ordering=name,-points), without empty items."""

    base_field_class = _WholeItemsCSVField


class _SharedFields(dict):
    """A filter form's base_fields, shared by every instance of the form: Django deep-copies base_fields for
    each form, but a filter form only validates (its fields are never changed per request)."""

    def __deepcopy__(self, memo):
        return dict(self)


class SharedFormFilterSet(FilterSet):
    """django-filter's FilterSet without the per-request deep copies: each filter is a shallow copy of the
    class's (django-filter deep-copies every filter with its querysets), and the validating form class is
    built once per FilterSet class with fields every request shares. They were 10 % of the CPU of a catalog
    list that misses the response cache (issue 26). The filters, their validation and their 400s are the
    same."""

    def __init__(self, data=None, queryset=None, *, request=None, prefix=None):
        if queryset is None:
            queryset = self._meta.model._default_manager.all()
        model = queryset.model
        self.is_bound = data is not None
        self.data = data or QueryDict()
        self.queryset = queryset
        self.request = request
        self.form_prefix = prefix
        self.filters = {}
        for name, base in self.base_filters.items():
            filter_ = copy.copy(base)
            if filter_.method is not None:  # re-bind its FilterMethod to the copy (it looks on `parent`)
                filter_.method = filter_.method
            filter_.model = model
            filter_.parent = self
            self.filters[name] = filter_

    def get_form_class(self):
        cls = type(self)
        form_class = cls.__dict__.get("_shared_form_class")
        if form_class is None:
            form_class = super().get_form_class()
            form_class.base_fields = _SharedFields(form_class.base_fields)
            cls._shared_form_class = form_class
        return form_class
