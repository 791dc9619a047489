"""One DRF exception handler: every 4xx has the shape {"status", "code", "detail", ...}."""
from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig, SuspiciousOperation, TooManyFieldsSent, TooManyFilesSent
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404, JsonResponse
from rest_framework import exceptions as drf_exceptions
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.views import exception_handler as drf_default_handler

from config.authentication import InvalidTicket, TokenExpired
from config.errors import DomainError

NON_FIELD_ERRORS = api_settings.NON_FIELD_ERRORS_KEY

_DRF_CODES: dict[type[Exception], str] = {
    TokenExpired: "token_expired",  # before its base class AuthenticationFailed: the first match wins
    InvalidTicket: "invalid_ticket",
    drf_exceptions.ParseError: "malformed_request",
    drf_exceptions.AuthenticationFailed: "authentication_failed",
    drf_exceptions.NotAuthenticated: "not_authenticated",
    drf_exceptions.PermissionDenied: "forbidden",
    drf_exceptions.NotFound: "not_found",
    drf_exceptions.MethodNotAllowed: "method_not_allowed",
    drf_exceptions.NotAcceptable: "not_acceptable",
    drf_exceptions.UnsupportedMediaType: "unsupported_media_type",
    drf_exceptions.Throttled: "throttled",
    drf_exceptions.ValidationError: "invalid",
}


def _flatten_detail(detail: Any) -> str:
    if isinstance(detail, list):
        return " ".join(_flatten_detail(d) for d in detail)
    if isinstance(detail, dict):
        return " ".join(f"{k}: {_flatten_detail(v)}" for k, v in detail.items())
    return str(detail)


def field_errors(detail: Any) -> dict[str, list[str]]:
    """DRF's nested error detail as one flat map: dotted field path -> messages.

    {"my_deck": {"non_field_errors": ["..."]}, "packs": {0: ["..."]}} becomes
    {"my_deck": ["..."], "packs.0": ["..."]}; errors of no one field are under "non_field_errors".
    """
    out: dict[str, list[str]] = {}

    def walk(value: Any, path: str) -> None:
        if isinstance(value, dict):
            for key, inner in value.items():
                key = str(key)
                walk(inner, path if key == NON_FIELD_ERRORS and path else f"{path}.{key}" if path else key)
        elif isinstance(value, list | tuple) and any(isinstance(v, dict | list | tuple) for v in value):
            for index, inner in enumerate(value):
                walk(inner, f"{path}.{index}" if path else str(index))
        elif isinstance(value, list | tuple):
            out.setdefault(path or NON_FIELD_ERRORS, []).extend(str(v) for v in value)
        else:
            out.setdefault(path or NON_FIELD_ERRORS, []).append(str(value))

    walk(detail, "")
    return out


def error_body(status: int, code: str, detail: str, **extra: Any) -> dict[str, Any]:
    return {"status": status, "code": code, "detail": detail, **extra}


def invalid_input_body(status: int, code: str, errors: Any) -> dict[str, Any]:
    """The one shape of a field-level validation failure: a readable summary in `detail`, the messages
    per field in `errors` ({field: [messages]})."""
    flat = field_errors(errors)
    summary = "; ".join(
        " ".join(messages) if field == NON_FIELD_ERRORS else f"{field}: {' '.join(messages)}"
        for field, messages in flat.items()
    )
    return error_body(status, code, f"Invalid input: {summary}" if summary else "Invalid input.", errors=flat)


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, DomainError):
        body = exc.as_dict()
        if "errors" in body:
            body["errors"] = field_errors(body["errors"])
        retry_after = exc.extra.get("retry_after")
        headers = {"Retry-After": str(retry_after)} if retry_after is not None else {}
        view, request = context.get("view"), context.get("request")
        if exc.status == 401 and view is not None and request is not None:
            challenge = view.get_authenticate_header(request)  # as DRF's own 401 (the token scheme)
            if challenge:
                headers["WWW-Authenticate"] = challenge
        return Response(body, status=exc.status, headers=headers or None)
    if isinstance(exc, DjangoValidationError):
        exc = drf_exceptions.ValidationError(exc.messages)
    elif isinstance(exc, Http404):
        exc = drf_exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = drf_exceptions.PermissionDenied()
    elif isinstance(exc, RequestDataTooBig):
        return Response(error_body(413, "request_too_large", "The request body is too large."), status=413)
    elif isinstance(exc, SuspiciousOperation):
        body = suspicious_body(exc)
        return Response(body, status=body["status"])

    response = drf_default_handler(exc, context)
    if response is None or not isinstance(exc, drf_exceptions.APIException):
        return response
    if isinstance(exc, drf_exceptions.ValidationError):
        # a view may name the code of its bad input (e.g. the action endpoint: "malformed_action")
        code = getattr(context.get("view"), "invalid_input_code", "invalid")
        response.data = invalid_input_body(response.status_code, code, exc.detail)
        return response
    code = next((c for t, c in _DRF_CODES.items() if isinstance(exc, t)), None) or str(
        getattr(exc, "default_code", "error")
    )
    extra: dict[str, Any] = {}
    if isinstance(exc, drf_exceptions.Throttled):
        extra["retry_after"] = int(response.get("Retry-After", "1"))
    response.data = error_body(response.status_code, code, _flatten_detail(exc.detail), **extra)
    return response


def suspicious_body(exc: SuspiciousOperation) -> dict[str, Any]:
    """A request Django refuses to read (too many fields or files, ...): a 400, never a 500."""
    if isinstance(exc, RequestDataTooBig):
        return error_body(413, "request_too_large", "The request body is too large.")
    if isinstance(exc, TooManyFieldsSent | TooManyFilesSent):
        return error_body(
            400, "too_many_fields", "The request has too many query or form fields (at most 1000)."
        )
    return error_body(400, "bad_request", "Bad request.")


def json_404(request, exception=None):  # noqa: ARG001 - Django handler signature
    return JsonResponse(error_body(404, "not_found", "Not found."), status=404)


def json_500(request):  # noqa: ARG001
    return JsonResponse(error_body(500, "server_error", "Internal server error."), status=500)


def json_400(request, exception=None):  # noqa: ARG001
    return JsonResponse(error_body(400, "bad_request", "Bad request."), status=400)
