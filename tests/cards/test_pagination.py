import pytest


@pytest.mark.django_db
@pytest.mark.parametrize("bad", ["abc", "0", "-3", "1.5"])
def test_a_page_size_that_is_not_a_positive_integer_is_a_400(client, bad):
    response = client.get(f"/api/nations/?page_size={bad}")
    assert response.status_code == 400
    body = response.json()
    assert body["status"] == 400 and body["code"] == "invalid" and "page_size" in body["detail"]


@pytest.mark.django_db
def test_a_page_size_above_the_maximum_is_capped(client, catalog_rows):
    body = client.get("/api/arsenal-cards/?page_size=100000").json()
    assert len(body["results"]) == min(body["count"], 500)
    assert body["count"] == 253 or body["next"] is not None
