"""The site's pages through Django's test client: each page answers, reads what the API reads, and the deck
editor shows every violation next to its card."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model

from decks import services as deck_services
from decks.models import Deck

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-pass-phrase-42"


@pytest.fixture
def user(db):
    return get_user_model().objects.create_user(username="ada", password=PASSWORD)


@pytest.fixture
def logged_in(client, user):
    client.force_login(user)
    return client


def test_home_page_answers_at_root_with_navigation(client):
    response = client.get("/")
    assert response.status_code == 200
    html = response.content.decode()
    for link in ('href="/cards/"', 'href="/decks/"', 'href="/accounts/login/"', 'href="/accounts/signup/"'):
        assert link in html
    assert 'href="#main"' in html  # the skip link of keyboard users
    assert "htmx-2.0.11.min.js" in html and "//unpkg" not in html and "cdn" not in html.lower()


def test_the_admins_view_site_link_is_the_home_page(admin_client):
    html = admin_client.get("/admin/").content.decode()
    assert 'href="/"' in html
    assert admin_client.get("/").status_code == 200


def test_vendored_htmx_is_served_with_its_licence(client):
    from django.contrib.staticfiles import finders

    assert finders.find("web/vendor/htmx-2.0.11.min.js")
    with open(finders.find("web/vendor/htmx-LICENSE.txt")) as licence:
        assert "Zero-Clause BSD" in licence.read()


def test_sign_up_creates_the_account_and_logs_in(client):
    page = client.get("/accounts/signup/")
    assert page.status_code == 200 and "csrfmiddlewaretoken" in page.content.decode()
    response = client.post(
        "/accounts/signup/", {"username": "grace", "password": PASSWORD, "password_again": PASSWORD}
    )
    assert response.status_code == 302 and response["Location"] == "/"
    assert "grace" in client.get("/").content.decode()


def test_sign_up_shows_why_a_password_is_refused(client):
    response = client.post(
        "/accounts/signup/", {"username": "grace", "password": "123", "password_again": "123"}
    )
    assert response.status_code == 400
    assert "too short" in response.content.decode()
    assert not get_user_model().objects.filter(username="grace").exists()


def test_sign_up_refuses_a_taken_name(client, user):
    response = client.post(
        "/accounts/signup/", {"username": "ADA", "password": PASSWORD, "password_again": PASSWORD}
    )
    assert response.status_code == 400 and "taken" in response.content.decode()


def test_log_in_and_log_out(client, user):
    assert client.get("/accounts/login/").status_code == 200
    response = client.post("/accounts/login/", {"username": "ada", "password": PASSWORD})
    assert response.status_code == 302 and response["Location"] == "/"
    assert "Log out" in client.get("/").content.decode()
    assert client.post("/accounts/logout/").status_code == 302
    assert "Log out" not in client.get("/").content.decode()


def test_log_in_form_needs_the_csrf_token(user):
    from django.test import Client

    strict = Client(enforce_csrf_checks=True)
    assert strict.post("/accounts/login/", {"username": "ada", "password": PASSWORD}).status_code == 403


# ---------------------------------------------------------------------------------------------- cards


@pytest.mark.parametrize(
    ("kind", "code"),
    [
        ("arsenal", "gb-montgomery"),
        ("conflict", "we-military-build-up"),
        ("battlecards", "we-invasion-of-britain"),
    ],
)
def test_every_catalog_lists_its_cards_with_their_faces(client, catalog_rows, kind, code):
    html = client.get(f"/cards/{kind}/").content.decode()
    assert 'data-code="' in html and "face.svg" in html
    detail = client.get(f"/cards/{kind}/{code}/")
    assert detail.status_code == 200
    assert "/face.svg" in detail.content.decode() and "Rulings" in detail.content.decode()


def test_battlefront_and_the_war_catalogs_list_cards(client, catalog_rows):
    for kind, face in (("battlefront", "/api/battlefront/cards/"), ("the-war", "/api/the-war/cards/")):
        html = client.get(f"/cards/{kind}/").content.decode()
        code = re.search(r'data-code="([^"]+)"', html).group(1)
        assert f"{face}{code}/face.svg" in html
        assert client.get(f"/cards/{kind}/{code}/").status_code == 200


def test_search_uses_the_q_language_of_the_api(client, catalog_rows):
    html = client.get("/cards/arsenal/", {"q": "nation:de kind:air points<15"}).content.decode()
    codes = set(re.findall(r'<li data-code="([^"]+)"', html))
    api = client.get("/api/arsenal-cards/", {"q": "nation:de kind:air points<15", "page_size": 500}).json()
    assert codes == {card["code"] for card in api["results"]} and codes


def test_search_shows_ignored_terms_and_syntax_errors(client, catalog_rows):
    html = client.get("/cards/arsenal/", {"q": "nation:de colour:red"}).content.decode()
    assert "unknown key" in html
    response = client.get("/cards/arsenal/", {"q": "nation:de ((("})
    assert response.status_code == 400 and 'data-code="query_syntax"' in response.content.decode()


def test_card_page_shows_provenance_honestly(client, catalog_rows):
    html = client.get("/cards/arsenal/gb-montgomery/").content.decode()
    assert "source-estimated" in html and "estimated" in html
    assert "{" not in re.sub(r"<script.*?</script>|hx-headers='[^']*'", "", html, flags=re.S)  # no raw JSON


def test_unknown_card_is_a_404_page(client, catalog_rows):
    response = client.get("/cards/arsenal/no-such-card/")
    assert response.status_code == 404 and "text/html" in response["Content-Type"]
    assert client.get("/cards/nothing/").status_code == 404


# ---------------------------------------------------------------------------------------------- decks


def _deck(user, **kwargs) -> Deck:
    return deck_services.deck_create(owner=user, **({"name": "Tommies", "nation": "GB"} | kwargs))


def test_deck_pages_need_a_login_to_build(client, catalog_rows):
    assert client.get("/decks/").status_code == 200
    assert client.get("/decks/new/")["Location"].startswith("/accounts/login/")


def test_create_a_deck(logged_in, catalog_rows):
    assert logged_in.get("/decks/new/").status_code == 200
    response = logged_in.post("/decks/new/", {"name": "Desert rats", "game": "battlecards", "nation": "GB"})
    deck = Deck.objects.get(name="Desert rats")
    assert response["Location"] == f"/decks/{deck.pk}/"
    assert "Desert rats" in logged_in.get("/decks/").content.decode()


def test_editor_shows_each_violation_next_to_its_card(logged_in, user, catalog_rows):
    deck = _deck(user)
    response = logged_in.post(
        f"/decks/{deck.pk}/check/",
        {"count:gb-montgomery": "3", "count:gb-infantry": "4"},
        HTTP_HX_REQUEST="true",
    )
    html = response.content.decode()
    assert response.status_code == 200
    montgomery = re.search(
        r'<div id="viol-gb-montgomery"[^>]*hx-swap-oob="true">(.*?)</div>', html, re.S
    ).group(1)
    assert "violation" in montgomery  # one general: at most one copy
    infantry = re.search(r'<div id="viol-gb-infantry"[^>]*>(.*?)</div>', html, re.S).group(1)
    assert "violation" not in infantry
    assert 'id="validation"' in html and "Not legal yet" in html


def test_editor_adds_a_card_by_name_without_saving(logged_in, user, catalog_rows):
    deck = _deck(user)
    response = logged_in.post(
        f"/decks/{deck.pk}/edit/", {"add_code": "British Infantry", "add_count": "2"}, HTTP_HX_REQUEST="true"
    )
    html = response.content.decode()
    assert 'name="count:gb-infantry" value="2"' in html and html.startswith("<form")
    assert deck.entries.count() == 0


def test_saving_records_a_version_and_the_diff_shows_it(logged_in, user, catalog_rows):
    deck = _deck(user)
    response = logged_in.post(
        f"/decks/{deck.pk}/save/", {"expected_version": "1", "name": "Tommies", "count:gb-infantry": "4"}
    )
    assert response.status_code == 302
    deck.refresh_from_db()
    assert deck.version == 2
    html = logged_in.get(f"/decks/{deck.pk}/versions/", {"from": 1, "to": 2}).content.decode()
    assert "+ 4 British Infantry" in html


def test_saving_a_stale_version_is_refused(logged_in, user, catalog_rows):
    deck = _deck(user)
    deck_services.deck_update(deck=deck, name="Changed elsewhere")
    response = logged_in.post(f"/decks/{deck.pk}/save/", {"expected_version": "1", "count:gb-infantry": "4"})
    assert response.status_code == 409


def test_another_players_private_deck_is_not_found(client, user, catalog_rows):
    deck = _deck(user, entries={"gb-infantry": 4})
    other = get_user_model().objects.create_user(username="eve", password=PASSWORD)
    client.force_login(other)
    response = client.get(f"/decks/{deck.pk}/")
    assert response.status_code == 404 and "gb-infantry" not in response.content.decode()
    assert "Tommies" not in client.get("/decks/").content.decode()
    assert client.post(f"/decks/{deck.pk}/check/", {"count:gb-infantry": "4"}).status_code == 404


def test_a_public_deck_is_read_only_for_others(client, user, catalog_rows):
    deck = _deck(user, entries={"gb-infantry": 4}, is_public=True)
    other = get_user_model().objects.create_user(username="eve", password=PASSWORD)
    client.force_login(other)
    html = client.get(f"/decks/{deck.pk}/").content.decode()
    assert "British Infantry" in html and "deck-editor" not in html
    assert client.post(f"/decks/{deck.pk}/save/", {"count:gb-infantry": "1"}).status_code == 403


def test_import_and_export_text(logged_in, user, catalog_rows):
    text = "# name: Imported\n# nation: GB\n4 British Infantry\n"
    response = logged_in.post("/decks/import/", {"text": text})
    deck = Deck.objects.get(name="Imported")
    assert response["Location"] == f"/decks/{deck.pk}/"
    assert "British Infantry" in logged_in.get(f"/api/decks/{deck.pk}/export/").content.decode()
    bad = logged_in.post("/decks/import/", {"text": "# name: X\n# nation: GB\n4 Bogus Card\n"})
    assert bad.status_code == 400 and "Bogus Card" in bad.content.decode()


def test_clone_a_starter_gives_a_legal_deck(logged_in, catalog_rows):
    html = logged_in.get("/decks/starters/").content.decode()
    assert "gb-we-starter" in html and "tw-" in html
    response = logged_in.post("/decks/starters/gb-we-starter/clone/")
    deck = Deck.objects.get(pk=int(response["Location"].strip("/").split("/")[-1]))
    assert "Legal deck" in logged_in.get(f"/decks/{deck.pk}/").content.decode()


def test_a_the_war_deck_is_edited_by_its_own_rules(logged_in, user, catalog_rows):
    code = re.search(
        r"/decks/starters/(tw-[^/]+)/clone/", logged_in.get("/decks/starters/").content.decode()
    ).group(1)
    response = logged_in.post(f"/decks/starters/{code}/clone/")
    html = logged_in.get(response["Location"]).content.decode()
    assert "The War" in html and "/cards/the-war/tw-" in html and "Legal deck" in html


def test_the_deck_list_and_a_deck_page_name_each_decks_game(logged_in, catalog_rows):
    """The game's name comes from its registered definition (the deck model has no choices to display)."""
    starters = logged_in.get("/decks/starters/").content.decode()
    tw_code = re.search(r"/decks/starters/(tw-[^/]+)/clone/", starters).group(1)
    for code in ("gb-we-starter", tw_code):
        response = logged_in.post(f"/decks/starters/{code}/clone/")
        page = logged_in.get(response["Location"]).content.decode()
        game = "The War" if code == tw_code else "Battlecards"  # the deck builder's name of the game
        assert re.search(rf"<h1>[^<]*<small>{game} · ", page)
    listing = logged_in.get("/decks/").content.decode()
    assert "<td>Battlecards</td>" in listing and "<td>The War</td>" in listing


def test_deck_page_links_export_print_and_versions(logged_in, user, catalog_rows):
    deck = _deck(user)
    html = logged_in.get(f"/decks/{deck.pk}/").content.decode()
    for href in (
        f"/api/decks/{deck.pk}/export/",
        f"/api/decks/{deck.pk}/print.pdf",
        f"/decks/{deck.pk}/versions/",
    ):
        assert href in html


def _rates(**scopes):
    import copy

    from django.conf import settings

    rest = copy.deepcopy(settings.REST_FRAMEWORK)
    rest["DEFAULT_THROTTLE_RATES"].update(scopes)
    return rest


def test_the_sites_log_in_and_sign_up_are_throttled_like_the_api(client):
    from django.test import override_settings

    with override_settings(REST_FRAMEWORK=_rates(login="2/min", register="1/min")):
        for _ in range(2):
            assert client.post("/accounts/login/", {"username": "x", "password": "y"}).status_code == 200
        assert client.post("/accounts/login/", {"username": "x", "password": "y"}).status_code == 429
        assert client.get("/accounts/login/").status_code == 200
        body = {"username": "grace", "password": PASSWORD, "password_again": PASSWORD}
        assert client.post("/accounts/signup/", body).status_code == 302
        client.logout()  # a signed-in user is counted apart (by user id), as in the API
        assert client.post("/accounts/signup/", body | {"username": "hopper"}).status_code == 429


def test_the_live_check_shows_a_bad_count_where_the_check_lands(logged_in, user, catalog_rows):
    deck = _deck(user)
    response = logged_in.post(f"/decks/{deck.pk}/check/", {"count:gb-infantry": "x"}, HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert response.status_code == 200 and 'id="validation"' in html and "not a number" in html


def test_adding_an_unknown_card_says_so_beside_the_field(logged_in, user, catalog_rows):
    deck = _deck(user, entries={"gb-infantry": 4})
    response = logged_in.post(
        f"/decks/{deck.pk}/edit/",
        {"count:gb-infantry": "4", "add_code": "Tiger Moth"},
        HTTP_HX_REQUEST="true",
    )
    html = response.content.decode()
    assert response.status_code == 200 and 'id="add-error"' in html and "Tiger Moth" in html
    assert 'name="count:gb-infantry" value="4"' in html
