"""The OpenAPI schema's shared parts: the one error component and the error answers of every operation.

Every endpoint can answer with the error shape of config.exceptions (400 bad input, 401 bad or missing
credentials, 404 unknown object or page, 429 throttled; writes also 403, 409 and 413); the AutoSchema
below documents each status an operation does not document itself, with the `Error` component.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular import openapi
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse
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


# config.middleware refuses a query string holding a NUL character (400 invalid_characters): every text query
# parameter says so with a pattern.
NO_NUL = "^[^\\u0000]*$"


def _forbid_nul(schema: dict[str, Any]) -> None:
    if schema.get("type") == "array":
        _forbid_nul(schema.get("items", {}))
    elif schema.get("type") == "string" and "pattern" not in schema and "enum" not in schema:
        schema["pattern"] = NO_NUL


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
        return operation

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
