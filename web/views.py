"""The home page and accounts (sign up; log in and out are Django's auth views, see web/urls.py)."""

from __future__ import annotations

from django.contrib.auth import login
from django.contrib.auth.views import LogoutView
from django.contrib.staticfiles import finders
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme

from accounts import services
from config.errors import DomainError
from web.catalogs import KINDS
from web.forms import SignUpForm

GAMES = (
    ("Battlecards", "BATTLECARDS: World Conflict: armies of arsenal cards fight over conflict cards."),
    ("Battlefront", "Battlefront: a short card game of fronts and forces."),
    ("The War", "The War: build resources, put units on two lines, and attack."),
    ("Tide of Iron", "Tide of Iron's Strategy decks: the server referees a match two people play at one "
     "physical board."),
)


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "web/home.html", {"kinds": KINDS.values(), "games": GAMES})


_logout = LogoutView.as_view(next_page="/")


def logout(request: HttpRequest) -> HttpResponse:
    """Log out: a POST (CSRF-protected, as Django's LogoutView wants); an address typed or followed (GET) is
    a page with the button, not a blank 405."""
    if request.method == "POST":
        return _logout(request)
    return render(request, "web/logout.html")


def favicon(request: HttpRequest) -> HttpResponse:
    """/favicon.ico, which browsers ask for by themselves (the vendored static file; a week in caches)."""
    path = finders.find("web/favicon.ico")
    if path is None:
        raise Http404("no favicon")
    response = FileResponse(open(path, "rb"), content_type="image/x-icon")  # noqa: SIM115 (FileResponse closes it)
    response["Cache-Control"] = "public, max-age=604800"
    return response


def signup(request: HttpRequest) -> HttpResponse:
    """A new account (accounts.services.user_register, as POST /api/auth/register/), then logged in."""
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
