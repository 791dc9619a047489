"""The accounts API's OpenAPI declarations: one `extend_schema` decorator per operation, named after its API
and method (`register_post` documents RegisterApi.post). accounts.apis only applies them."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, extend_schema

from accounts.serializers import (
    RegisterInputSerializer,
    RegisterOutputSerializer,
    TokenInputSerializer,
    TokenOutputSerializer,
)
from config.schema import error_response as _error

NOT_AUTHENTICATED = _error(
    "Log in first (token or session).",
    "not_authenticated",
    "Authentication credentials were not provided.",
    401,
)


register_post = extend_schema(
    tags=["auth"],
    summary="Create an account; returns its API token",
    request=RegisterInputSerializer,
    responses={
        201: RegisterOutputSerializer,
        400: _error("Weak password or bad username.", "weak_password", "This password is too common."),
        409: _error("Username taken.", "username_taken", "That username is taken.", 409),
    },
    examples=[
        OpenApiExample(
            "register",
            value={"username": "monty", "password": "El-Alamein-1942", "email": "monty@example.org"},
            request_only=True,
        ),
        OpenApiExample(
            "registered",
            value={"id": 7, "username": "monty", "token": "9944b09199c62bcf9418ad846dd0e4bbdfc6ee4b"},
            response_only=True,
            status_codes=["201"],
        ),
    ],
)


token_post = extend_schema(
    tags=["auth"],
    summary="Exchange a username and password for an API token (Authorization: Token <key>)",
    request=TokenInputSerializer,
    responses={
        200: TokenOutputSerializer,
        400: _error(
            "Wrong username or password.",
            "invalid_credentials",
            "Unable to log in with these credentials.",
        ),
    },
    examples=[
        OpenApiExample(
            "log in", value={"username": "monty", "password": "El-Alamein-1942"}, request_only=True
        ),
        OpenApiExample(
            "token", value={"token": "9944b09199c62bcf9418ad846dd0e4bbdfc6ee4b"}, response_only=True
        ),
    ],
)


logout_post = extend_schema(
    tags=["auth"],
    summary="Revoke my API token (log out); POST /api/auth/token/ issues a new one",
    request=None,
    responses={204: None, 401: NOT_AUTHENTICATED},
)
