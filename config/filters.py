"""Filters shared by every app's filtersets."""
from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django_filters import BooleanFilter, NumberFilter
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
