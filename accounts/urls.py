"""Routes of accounts under /api/auth/ (registration, API tokens, the browsable API's session log-in)."""

from django.urls import include, path

from accounts import apis

urlpatterns = [
    path("auth/token/", apis.TokenApi.as_view(), name="auth-token"),
    path("auth/logout/", apis.LogoutApi.as_view(), name="auth-logout"),
    path("auth/register/", apis.RegisterApi.as_view(), name="auth-register"),
    path("auth/session/", include("rest_framework.urls")),  # log in/out of the browsable API
]
