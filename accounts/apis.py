"""Accounts: registration, API tokens (log in for a token, log out by revoking it). Thin views over
accounts.services; each operation's OpenAPI declaration is in accounts.schema. Every error has the common
shape {status, code, detail, ...}."""

from __future__ import annotations

from rest_framework import status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import schema, services
from accounts.serializers import RegisterInputSerializer, TokenInputSerializer
from config.api_input import validated_input
from config.throttling import RegisterThrottle, TokenThrottle


class RegisterApi(APIView):
    permission_classes = [AllowAny]
    authentication_classes: list = []
    throttle_classes = [RegisterThrottle]

    @schema.register_post
    def post(self, request: Request) -> Response:
        data = validated_input(RegisterInputSerializer, request.data)
        user, token = services.user_register(
            username=data["username"], password=data["password"], email=data["email"]
        )
        return Response(
            {"id": user.pk, "username": user.username, "token": token}, status=status.HTTP_201_CREATED
        )


class TokenApi(APIView):
    permission_classes = [AllowAny]
    authentication_classes: list = []
    throttle_classes = [TokenThrottle]  # slows password guessing

    @schema.token_post
    def post(self, request: Request) -> Response:
        data = validated_input(TokenInputSerializer, request.data)
        return Response(
            {"token": services.auth_token_obtain(username=data["username"], password=data["password"])}
        )


class LogoutApi(APIView):
    permission_classes = [IsAuthenticated]

    @schema.logout_post
    def post(self, request: Request) -> Response:
        services.auth_token_revoke(user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
