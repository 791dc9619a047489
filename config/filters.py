"""Filters shared by every app's filtersets."""
from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError
from django_filters import BooleanFilter
from django_filters.widgets import BooleanWidget

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
