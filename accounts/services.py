"""Writes of accounts: registration and API tokens (DRF's authtoken `Token`, one per user;
config.authentication expires it). Each write is one transaction."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import authenticate, get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import IntegrityError, transaction
from rest_framework.authtoken.models import Token

from config.authentication import token_expired
from config.errors import Conflict, DomainError, ValidationFailed


class InvalidCredentials(DomainError):
    status = 400
    code = "invalid_credentials"
    default_detail = "Unable to log in with these credentials."


@transaction.atomic
def user_register(*, username: str, password: str, email: str = "") -> tuple[Any, str]:
    """Create a user (password checked by Django's validators) and return it with its API token."""
    user_model = get_user_model()
    if user_model.objects.filter(username__iexact=username).exists():
        raise Conflict("That username is taken.", code="username_taken")
    candidate = user_model(username=username, email=email)
    try:
        validate_password(password, user=candidate)
    except DjangoValidationError as exc:
        raise ValidationFailed(
            " ".join(exc.messages), code="weak_password", errors={"password": exc.messages}
        ) from None
    try:
        with transaction.atomic():
            user = user_model.objects.create_user(username=username, email=email, password=password)
    except IntegrityError:
        raise Conflict("That username is taken.", code="username_taken") from None
    token = Token.objects.create(user=user)
    return user, token.key


@transaction.atomic
def auth_token_obtain(*, username: str, password: str) -> str:
    user = authenticate(username=username, password=password)
    if user is None or not user.is_active:
        raise InvalidCredentials()
    token, _ = Token.objects.get_or_create(user=user)
    if token_expired(token):  # an expired token is replaced, never handed out again
        token.delete()
        token = Token.objects.create(user=user)
    return token.key


def auth_token_revoke(*, user: Any) -> None:
    """Log out of the API: the user's token stops working at once (POST /api/auth/token/ issues a new one)."""
    Token.objects.filter(user=user).delete()
