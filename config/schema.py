"""The OpenAPI schema's shared parts: the one error component and the error answers of every operation.

Every endpoint can answer with the error shape of config.exceptions (400 bad input, 401 bad or missing
credentials, 404 unknown object or page, 429 throttled; writes also 403, 409 and 413); the AutoSchema
below documents each status an operation does not document itself, with the `Error` component.
"""

from __future__ import annotations

from typing import Any

from django.core.validators import MaxValueValidator, MinValueValidator
from django_filters import BooleanFilter, NumberFilter
from drf_spectacular import openapi
from drf_spectacular.contrib.django_filters import DjangoFilterExtension
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiResponse
from rest_framework import serializers


class ErrorSerializer(serializers.Serializer):
    """Every error answer: {"status", "code", "detail", ...}; some codes add fields (e.g. violations)."""

    status = serializers.IntegerField(help_text="The HTTP status, repeated.")
    code = serializers.CharField(help_text="A machine code, e.g. not_found, invalid, stale_version.")
    detail = serializers.CharField(help_text="A human message.")
    errors = serializers.DictField(
        child=serializers.ListField(child=serializers.CharField()),
        required=False,
        help_text="Bad input: the messages per field (dotted path for nested fields, e.g. my_deck.starter; "
        "non_field_errors for the input as a whole).",
    )

    class Meta:
        ref_name = "Error"


def error_response(
    description: str, code: str, detail: str, status_code: int = 400, **extra: Any
) -> OpenApiResponse:
    """An operation's documented error answer: the Error component with one example of `code`."""
    return OpenApiResponse(
        ErrorSerializer,
        description=description,
        examples=[
            OpenApiExample(code, value={"status": status_code, "code": code, "detail": detail, **extra})
        ],
    )


ERROR_STATUSES: dict[str, str] = {
    "400": "Bad input (malformed body or query, invalid field values): `errors` lists them per field.",
    "401": "Missing, unknown or revoked credentials.",
    "403": "Not allowed (not your object, not your seat, CSRF check of a session).",
    "404": "No such object (or not visible to you), or no such page.",
    "409": "The object's state forbids it (changed version, game not open, finished...).",
    "413": "The request body is too large.",
    "429": "Too many requests: slow down (see Retry-After).",
}
SAFE_METHOD_STATUSES = ("400", "401", "404", "429")

# One server-sent event (text/event-stream): each `data` is one JSON document.
SSE_EVENT: dict[str, Any] = {
    "type": "object",
    "properties": {
        "event": {"type": "string", "description": "Absent for log entries; end, timeout or error."},
        "data": {"type": "string", "description": "A JSON document."},
        "id": {"type": "string", "description": "The log seq (send it back as Last-Event-ID)."},
        "retry": {"type": "integer"},
    },
}


# How an error looks in a media type other than JSON: an event stream sends an `error` event; the binary
# downloads (faces, PDFs, the bulk file: cards.extra_apis.BinaryRenderer, "*/*") still send the JSON error.
OTHER_MEDIA_ERRORS: dict[str, Any] = {"text/event-stream": SSE_EVENT, "*/*": ErrorSerializer}


# A reconnecting EventSource's Last-Event-ID header: the last seq it saw, digits only (another value is a 400;
# an empty one is as if absent).
LAST_EVENT_ID_SCHEMA: dict[str, Any] = {"type": "string", "pattern": "^[0-9]*$"}

# config.middleware refuses a query string holding a NUL character (400 invalid_characters), and DRF's
# CharField a body string holding one (400 invalid): every text query parameter and body string says so.
NO_NUL = "^[^\\u0000]*$"


def _forbid_nul(schema: dict[str, Any]) -> None:
    if schema.get("type") == "array":
        _forbid_nul(schema.get("items", {}))
    elif schema.get("type") == "string" and "pattern" not in schema and "enum" not in schema:
        schema["pattern"] = NO_NUL


def _declare_empty_value(parameter: dict[str, Any]) -> None:
    """An optional query parameter of one value given empty (`?game=`) is as if absent on every endpoint
    (django-filter, the pagination, the query serializers), as is a comma-separated list's (`?ordering=`):
    `allowEmptyValue` says so. (A repeatable one, `?nation=GB&nation=US`, takes no empty value: 400.)"""
    repeated = parameter.get("schema", {}).get("type") == "array" and parameter.get("explode") is not False
    if parameter.get("in") == "query" and not parameter.get("required") and not repeated:
        parameter.setdefault("allowEmptyValue", True)


class FilterExtension(DjangoFilterExtension):
    """django-filter's parameters, declaring what each filter's form enforces (beyond it: a 400): a number
    filter takes any decimal number (drf-spectacular says integer for an integer column) within its bounds
    (its Min/MaxValueValidator), and a filter with `schema_enum()` the values it lists (e.g. the codes of the
    catalog rows a cards.filters.CodeFilter takes)."""

    priority = 1  # instead of drf-spectacular's own

    def resolve_filter_field(self, auto_schema, model, filterset_class, field_name, filter_field):
        parameters = super().resolve_filter_field(
            auto_schema, model, filterset_class, field_name, filter_field
        )
        bounds: dict[str, Any] = {}
        for validator in getattr(filter_field.field, "validators", ()):
            if isinstance(validator, MinValueValidator):
                bounds["minimum"] = validator.limit_value
            elif isinstance(validator, MaxValueValidator):
                bounds["maximum"] = validator.limit_value
        enum = filter_field.schema_enum() if hasattr(filter_field, "schema_enum") else None
        for parameter in parameters:
            if isinstance(filter_field, BooleanFilter):  # also with a filter method (its hint: a string)
                parameter["schema"] = {"type": "boolean"}
            schema = parameter["schema"]
            schema = schema["items"] if schema.get("type") == "array" else schema
            if schema.get("type") in ("integer", "number"):
                if isinstance(filter_field, NumberFilter):  # a forms.DecimalField: 2.5 and 1e3 too
                    schema["type"] = "number"
                schema.update(bounds)
            if enum:  # an empty catalog lists no codes: OpenAPI refuses an empty enum, so none is declared
                schema["enum"] = enum
        return parameters


class AutoSchema(openapi.AutoSchema):
    """Adds the common error answers; and `security: []` (no padlock in Swagger UI) for an operation anyone
    may call with the same answer: its view says `schema_public = True` (the catalog, starters), or it
    accepts no credentials at all (register, token)."""

    def get_operation(self, *args: Any, **kwargs: Any) -> dict[str, Any] | None:
        operation = super().get_operation(*args, **kwargs)
        if operation is None:
            return None
        if self._public():
            operation["security"] = []
        for parameter in operation.get("parameters", []):
            if parameter.get("in") == "query":
                _forbid_nul(parameter.get("schema", {}))
                _declare_empty_value(parameter)
        return operation

    def _map_serializer_field(self, field: Any, direction: Any, bypass_extensions: bool = False) -> Any:
        schema = super()._map_serializer_field(field, direction, bypass_extensions)
        if direction == "request" and isinstance(field, serializers.CharField):  # its validator refuses NUL
            _forbid_nul(schema)
        return schema

    def _public(self) -> bool:
        auths = self.get_auth()
        return {} in auths and (getattr(self.view, "schema_public", False) or auths == [{}])

    def _get_response_bodies(self, direction: Any = "response") -> dict[str, Any]:
        responses = super()._get_response_bodies(direction)
        statuses = (
            SAFE_METHOD_STATUSES if self.method in ("GET", "HEAD", "OPTIONS") else tuple(ERROR_STATUSES)
        )
        media_types = self.map_renderers("media_type")
        json_types = [m for m in media_types if "json" in m] or ["application/json"]
        other_types = [m for m in media_types if "json" not in m and m != "text/html"]
        for status in statuses:
            if status in responses:
                continue
            response = OpenApiResponse(ErrorSerializer, description=ERROR_STATUSES[status])
            responses[status] = self._get_response_for_code(response, status, json_types, direction)
            for media_type in other_types:  # e.g. an event stream renders the error as an `error` event
                body = OTHER_MEDIA_ERRORS.get(media_type, OpenApiTypes.STR)
                text = OpenApiResponse(body, description=ERROR_STATUSES[status])
                other = self._get_response_for_code(text, status, [media_type], direction)
                responses[status]["content"].update(other["content"])
        return responses
