"""Issue 38 §5, the small items: signup refuses exactly the user names the API refuses, /accounts/logout/ by
GET is a page with the button, /favicon.ico is served, the site's own 404 page under DEBUG too, and a home
page that speaks to a player first."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from accounts.serializers import RegisterInputSerializer
from web.forms import SignUpForm

PASSWORD = "Tobruk-1941-holds"


def _form(username: str) -> SignUpForm:
    return SignUpForm({"username": username, "password": PASSWORD, "password_again": PASSWORD})


@pytest.mark.parametrize("username", ["a b", "<script>", "x" * 151, "alice/bob", "semi;colon"])
def test_signup_refuses_the_names_the_api_refuses(username):
    form = _form(username)
    assert not form.is_valid() and form.errors["username"]
    assert not RegisterInputSerializer(data={"username": username, "password": PASSWORD}).is_valid()


@given(st.text(alphabet="ab1 <>@.+-_é/\t", min_size=1, max_size=12) | st.just("x" * 150))
def test_the_form_and_the_api_agree_on_every_username(username):
    api = RegisterInputSerializer(data={"username": username, "password": PASSWORD})
    assert _form(username).is_valid() == api.is_valid()


@pytest.mark.django_db
def test_signup_page_shows_the_refusal_and_makes_no_account(client, django_user_model):
    response = client.post(
        "/accounts/signup/", {"username": "a b", "password": PASSWORD, "password_again": PASSWORD}
    )
    assert response.status_code == 400 and "Enter a valid username" in response.content.decode()
    assert not django_user_model.objects.exists()


@pytest.mark.django_db
def test_logout_by_address_is_a_page_with_the_button(client, alice):
    client.force_login(alice)
    page = client.get("/accounts/logout/")
    assert page.status_code == 200 and "Log out now" in page.content.decode()
    assert "_auth_user_id" in client.session  # a GET logs nobody out
    assert client.post("/accounts/logout/").status_code == 302
    assert "_auth_user_id" not in client.session
    assert "You are not logged in" in client.get("/accounts/logout/").content.decode()


def test_the_favicon_is_served(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 200 and response["Content-Type"] == "image/x-icon"
    body = b"".join(response.streaming_content)
    assert body[:4] == b"\x00\x00\x01\x00" and len(body) > 1000  # an ICO file


@pytest.mark.django_db
def test_the_sites_own_404_page_under_debug_too(client, settings):
    settings.DEBUG = True
    missing = client.get("/nope/")
    html = missing.content.decode()
    assert missing.status_code == 404 and "There is no page at this address." in html
    assert "URLconf" not in html and "Skip to content" in html
    assert client.get("/cards/arsenal/no-such-card/").status_code == 404
    api = client.get("/api/nope/")
    assert api.status_code == 404 and api.json()["code"] == "not_found"
    assert client.get("/play")["Location"] == "/play/"  # a missing slash is still added


@pytest.mark.django_db
def test_the_home_page_speaks_to_a_player_first_with_a_play_link_for_visitors(client):
    html = client.get("/").content.decode()
    main = html[html.index('<main'):]
    assert main.index('href="/play/"') < main.index('href="/cards/')  # play comes before browsing cards
    assert 'href="/watch/"' in main and 'href="/decks/starters/"' in main
    for game in ("Battlecards", "Battlefront", "The War", "Tide of Iron"):
        assert f"<strong>{game}</strong>" in main
    nav = html[html.index('aria-label="Site"'):html.index("</nav>")]
    assert 'href="/play/"' in nav and 'href="/watch/"' in nav  # for visitors too
