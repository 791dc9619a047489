"""The home page and accounts (sign up; log in and out are Django's auth views, see web/urls.py)."""

from __future__ import annotations

from django.contrib.auth import login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme

from config.errors import DomainError
from decks import services
from web.catalogs import KINDS
from web.forms import SignUpForm


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "web/home.html", {"kinds": KINDS.values()})


def signup(request: HttpRequest) -> HttpResponse:
    """A new account (decks.services.user_register, as POST /api/auth/register/), then logged in."""
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            user, _token = services.user_register(
                username=form.cleaned_data["username"], password=form.cleaned_data["password"]
            )
        except DomainError as error:
            for field, errors in error.extra.get("errors", {}).items():
                for message in errors:
                    form.add_error(field if field in form.fields else None, message)
            if not error.extra.get("errors"):
                form.add_error("username" if error.code == "username_taken" else None, error.detail)
        else:
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            target = request.POST.get("next", "")
            if not url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}):
                target = "/"
            return redirect(target or "/")
    return render(request, "web/signup.html", {"form": form}, status=400 if form.errors else 200)


def not_found(request: HttpRequest, exception=None) -> HttpResponse:
    """The project's 404 handler: the API's paths answer the API's JSON error; every other path is the site's
    "Not found" page."""
    from config.exceptions import json_404

    if request.path.startswith("/api/"):
        return json_404(request, exception)
    error = {"status": 404, "code": "not_found", "detail": "There is no page at this address."}
    return render(request, "web/error.html", {"error": error}, status=404)
