"""The API keeps its one error shape at the edges DRF does not see (QA findings on the live server)."""

import json

import pytest
from django.test import override_settings
from django.urls import path

from config.urls import urlpatterns as project_urls


def _boom(request):
    raise RuntimeError("unexpected")


urlpatterns = [path("api/boom/", _boom), *project_urls]


def _assert_shape(response, status, code):
    assert response.status_code == status
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    assert body["status"] == status and body["code"] == code and body["detail"]
    return body


@pytest.mark.django_db
@override_settings(DEBUG=True)
@pytest.mark.parametrize("url", ["/api/decks/abc/", "/api/games/not-a-uuid/", "/api/nothing-here/"])
def test_unrouted_api_urls_are_json_404s_even_with_debug_on(client, url):
    _assert_shape(client.get(url), 404, "not_found")


@pytest.mark.django_db
@pytest.mark.parametrize(
    "url", ["/api/arsenal-cards/%00/", "/api/battlecards/a%00b/", "/api/arsenal-cards/?search=%00"]
)
def test_a_nul_byte_in_the_url_is_a_400_not_a_database_error(client, url):
    _assert_shape(client.get(url), 400, "invalid_characters")


@pytest.mark.django_db
def test_a_post_without_the_trailing_slash_is_redirected_with_its_method_kept(client):
    response = client.post(
        "/api/decks/validate?x=1", {"nation": "GB", "entries": []}, content_type="application/json"
    )
    assert response.status_code == 308
    assert response["Location"] == "/api/decks/validate/?x=1"


@pytest.mark.django_db
@override_settings(ROOT_URLCONF=__name__, DEBUG=True)
def test_an_unhandled_error_is_a_json_500_without_a_debug_page(client):
    client.raise_request_exception = False
    body = _assert_shape(client.get("/api/boom/"), 500, "server_error")
    assert "Traceback" not in str(body) and "SECRET_KEY" not in str(body)


@pytest.mark.django_db
def test_pages_outside_the_api_keep_their_html(client):
    response = client.get("/admin/")
    assert response.status_code == 302 and "/admin/login/" in response["Location"]


@pytest.mark.django_db
def test_swagger_ui_is_served_without_a_cdn(client):
    html = client.get("/api/docs/").content.decode()
    assert "cdn.jsdelivr" not in html and "swagger-ui" in html


@pytest.mark.django_db
@pytest.mark.parametrize(
    "url",
    ["/api/battlecards/?is_homeland=maybe", "/api/arsenal-cards/?ukrainian=2", "/api/decks/?is_public=x"],
)
def test_a_boolean_filter_with_a_value_that_is_not_true_or_false_is_a_400(client, url):
    body = _assert_shape(client.get(url), 400, "invalid")
    assert "true or false" in json.dumps(body)


@pytest.mark.django_db
def test_boolean_filters_accept_true_false_and_1_0(client, catalog_rows):
    homelands = client.get("/api/battlecards/?is_homeland=true").json()["results"]
    assert homelands and all(b["homeland_of"] for b in homelands)
    others = client.get("/api/battlecards/?is_homeland=0").json()["results"]
    assert others and not any(b["homeland_of"] for b in others)
