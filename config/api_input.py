"""The one way an API view validates its input: the serializer's validated data, or the DRF ValidationError
that the project's exception handler shapes into the one error body (`{"status", "code", "detail", ...}`
with the per-field errors)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers


def validated_input(
    serializer_class: type[serializers.Serializer], data: Any, *, partial: bool = False
) -> dict[str, Any]:
    serializer = serializer_class(data=data, partial=partial)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data
