"""One deck builder for every game with decks: Battlecards and The War decks through the same API (issue 23,
section 2). A deck has a game; The War decks hold an army in `nation`, are validated by decks/rules_the_war.py
against the catalog in the database, and go through versions, diffs, text, stats, starters and print."""

from __future__ import annotations

import io
import re

import pytest
from django.db import connection
from django.test import override_settings
from django.urls import reverse
from pypdf import PdfReader

from cards.the_war.models import TheWarCard
from cards.the_war.services import the_war_version_record
from decks.models import Deck, DeckEntry, DeckVersion
from tests.decks.conftest import GB_STARTER, as_list
from tests.decks.test_print import faces_per_page

RED_STARTER = "tw-starter-red-army"
WEHRMACHT_STARTER = "tw-starter-wehrmacht"


@pytest.fixture
def red_entries(anon_client) -> dict[str, int]:
    body = anon_client.get(reverse("starter-detail", args=[RED_STARTER])).json()
    return {row["card"]: row["count"] for row in body["entries"]}


def test_a_battlecards_deck_and_a_the_war_deck_each_go_through_every_deck_feature(
    owner_client, gb_entries, red_entries
):
    decks = {
        "battlecards": ("GB", gb_entries, "gb-infantry", "Battlecards deck"),
        "the-war": ("red-army", red_entries, "tw-t-34-76", "Red Army deck"),
    }
    for game, (side, entries, card, name) in decks.items():
        # create
        response = owner_client.post(
            reverse("deck-list"),
            {"name": name, "game": game, "nation": side, "entries": as_list(entries)},
            format="json",
        )
        assert response.status_code == 201, response.json()
        deck = response.json()
        assert (deck["game"], deck["nation"], deck["is_valid"]) == (game, side, True)
        assert deck["totals"]["cards"] == sum(entries.values())
        assert {row["card"]: row["count"] for row in deck["entries"]} == entries
        assert all(row["name"] for row in deck["entries"])
        deck_id = deck["id"]

        # validate (saved and unsaved)
        validation = owner_client.get(reverse("deck-validation", args=[deck_id])).json()
        assert (validation["game"], validation["is_valid"], validation["violations"]) == (game, True, [])
        unsaved = owner_client.post(
            reverse("deck-validate"),
            {"game": game, "nation": side, "entries": as_list(entries)},
            format="json",
        ).json()
        assert unsaved["is_valid"] is True and unsaved["game"] == game

        # export: the header names the game (and The War's army); import of the export round-trips
        text = owner_client.get(reverse("deck-export", args=[deck_id])).content.decode()
        if game == "battlecards":
            assert text.startswith(f"# name: {name}\n# nation: GB\n# game: battlecards\n")
        else:
            assert text.startswith(f"# name: {name}\n# game: the-war\n# army: red-army\n")
            assert "\n3 T-34/76\n" in text  # by title
        imported = owner_client.post(reverse("deck-import"), {"text": text}, format="json")
        assert imported.status_code == 201, imported.json()
        copy = imported.json()
        assert (copy["name"], copy["game"], copy["nation"], copy["is_valid"]) == (name, game, side, True)
        assert {row["card"]: row["count"] for row in copy["entries"]} == entries

        # a new version and the diff between the two
        assert entries[card] >= 2
        changed = dict(entries)
        changed[card] -= 1  # one copy fewer
        response = owner_client.put(
            reverse("deck-entries", args=[deck_id]),
            {"entries": as_list(changed), "version": 1},
            format="json",
        )
        assert response.status_code == 200, response.json()
        assert response.json()["version"] == 2
        assert response.json()["is_valid"] is (game == "battlecards")  # 46 cards: still legal
        versions = owner_client.get(reverse("deck-version-list", args=[deck_id])).json()["results"]
        assert [v["number"] for v in versions] == [2, 1]
        assert {row["card"]: row["count"] for row in versions[1]["entries"]} == entries
        assert all(row["name"] for row in versions[0]["entries"])
        diff = owner_client.get(reverse("deck-version-diff", args=[deck_id]), {"from": 1, "to": 2}).json()
        assert diff["changed"] == [
            {"card": card, "from": entries[card], "to": entries[card] - 1, "delta": -1}
        ]
        assert diff["added"] == diff["removed"] == []
        assert diff["cards"]["delta"] == -1
        if game == "the-war":  # 59 cards
            invalid = owner_client.get(reverse("deck-validation", args=[deck_id])).json()
            assert [v["code"] for v in invalid["violations"]] == ["too_few_cards"]

        # print: one face per copy
        response = owner_client.get(reverse("deck-print", args=[deck_id]))
        assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
        counts, _ = faces_per_page(response.content)
        assert sum(counts) == sum(changed.values())


def test_the_war_deck_text_names_its_cards_by_title(owner_client, red_entries):
    text = owner_client.post(
        reverse("deck-list"),
        {"name": "Red", "game": "the-war", "nation": "red-army", "entries": as_list(red_entries)},
        format="json",
    ).json()
    exported = owner_client.get(reverse("deck-export", args=[text["id"]])).content.decode()
    assert "2 KV-1 (1940)" in exported.splitlines()
    assert "7 Depot" in exported.splitlines() or "7 tw-depot" in exported.splitlines()
    # the request's game and army win over the headers; a title with another count reads back
    response = owner_client.post(
        reverse("deck-import"),
        {"game": "the-war", "nation": "red-army", "name": "Two tanks", "text": "2 KV-1 (1940)\nT-34/76 x3\n"},
        format="json",
    )
    assert response.status_code == 201, response.json()
    assert {row["card"]: row["count"] for row in response.json()["entries"]} == {
        "tw-kv-1-1940": 2,
        "tw-t-34-76": 3,
    }
    # a game line names a known game; a The War list names its army
    bad = owner_client.post(
        reverse("deck-import"), {"text": "# name: X\n# game: chess\n1 Depot\n"}, format="json"
    )
    assert bad.status_code == 400 and bad.json()["code"] == "unknown_game"
    bad = owner_client.post(
        reverse("deck-import"), {"text": "# name: X\n# game: the-war\n1 Depot\n"}, format="json"
    )
    assert bad.status_code == 400 and "# army" in bad.json()["errors"]["nation"][0]


def test_an_illegal_the_war_deck_gets_every_violation(owner_client, red_entries):
    entries = dict(red_entries)
    entries["tw-t-34-76"] = 5  # over four copies of a title
    entries["tw-vasily-zaitsev"] = 2  # a hero twice
    entries["tw-pzkpfw-vi-tiger"] = 1  # a Wehrmacht card in a Red Army deck
    entries["tw-depot"] = 20  # basic resources are unlimited: no violation, but the deck is now too large
    response = owner_client.post(
        reverse("deck-list"),
        {"name": "Illegal", "game": "the-war", "nation": "red-army", "entries": as_list(entries)},
        format="json",
    )
    assert response.status_code == 201  # saved while under construction, like a Battlecards deck
    deck = response.json()
    assert deck["is_valid"] is False
    validation = owner_client.get(reverse("deck-validation", args=[deck["id"]])).json()
    by_code = {v["code"]: v for v in validation["violations"]}
    assert set(by_code) == {"over_max_copies", "hero_single", "wrong_army", "too_many_cards"}
    assert (by_code["over_max_copies"]["card"], by_code["over_max_copies"]["limit"]) == ("tw-t-34-76", 4)
    assert (by_code["hero_single"]["card"], by_code["hero_single"]["actual"]) == ("tw-vasily-zaitsev", 2)
    assert by_code["wrong_army"]["card"] == "tw-pzkpfw-vi-tiger"
    assert by_code["too_many_cards"]["actual"] == sum(entries.values())
    assert all(
        set(v) == {"code", "message", "card", "limit", "actual", "deck", "pack"} for v in by_code.values()
    )
    # an unsaved deck: unknown codes are violations there, and an unknown army too
    unsaved = owner_client.post(
        reverse("deck-validate"),
        {"game": "the-war", "nation": "luftwaffe", "entries": {"tw-no-such-card": 1}},
        format="json",
    ).json()
    assert {v["code"] for v in unsaved["violations"]} == {"unknown_army", "unknown_card", "too_few_cards"}


def test_a_card_of_another_game_is_a_400_and_nothing_is_written(owner_client, red_entries, gb_entries):
    decks, entries, versions = Deck.objects.count(), DeckEntry.objects.count(), DeckVersion.objects.count()
    cases = [
        ("the-war", "red-army", {**red_entries, "de-tiger-i": 1}, "de-tiger-i"),
        ("battlecards", "GB", {**gb_entries, "tw-kv-1-1940": 1}, "tw-kv-1-1940"),
    ]
    for game, side, bad, code in cases:
        for url in (reverse("deck-list"), reverse("deck-validate")):
            response = owner_client.post(
                url, {"name": "Mixed", "game": game, "nation": side, "entries": as_list(bad)}, format="json"
            )
            assert response.status_code == 400, response.json()
            body = response.json()
            assert (body["code"], body["cards"], body["game"]) == ("card_of_another_game", [code], game)
            assert "another game" in body["detail"]
    assert (Deck.objects.count(), DeckEntry.objects.count(), DeckVersion.objects.count()) == (
        decks,
        entries,
        versions,
    )
    # a saved The War deck: replacing its entries with a Battlecards card changes nothing
    deck = owner_client.post(
        reverse("deck-list"),
        {"name": "Red", "game": "the-war", "nation": "red-army", "entries": as_list(red_entries)},
        format="json",
    ).json()
    response = owner_client.put(
        reverse("deck-entries", args=[deck["id"]]), {"entries": {"gb-infantry": 2}}, format="json"
    )
    assert response.status_code == 400 and response.json()["code"] == "card_of_another_game"
    after = owner_client.get(reverse("deck-detail", args=[deck["id"]])).json()
    assert after["version"] == 1 and {r["card"]: r["count"] for r in after["entries"]} == red_entries
    # a text import naming a card of the other game, by name or by code: every such line says so
    for game, side, text, codes, other in (
        ("the-war", "red-army", "2 KV-1 (1940)\n3 Tiger I Tank\n1 gb-infantry\n", [2, 3], "Battlecards"),
        ("battlecards", "GB", "3 British Infantry\n2 KV-1 (1940)\n", [2], "The War"),
    ):
        response = owner_client.post(
            reverse("deck-import"),
            {"name": "Mixed", "game": game, "nation": side, "text": text},
            format="json",
        )
        assert response.status_code == 400 and response.json()["code"] == "import_failed"
        lines = response.json()["lines"]
        assert [(line["line"], line["code"]) for line in lines] == [
            (n, "card_of_another_game") for n in codes
        ]
        assert all(f"is a {other} card" in line["message"] and line["suggestions"] == [] for line in lines)
    # a nation is not an army, and a Battlefront card is refused as before
    response = owner_client.patch(reverse("deck-detail", args=[deck["id"]]), {"nation": "GB"}, format="json")
    assert response.status_code == 400 and response.json()["code"] == "unknown_army"
    response = owner_client.post(
        reverse("deck-list"),
        {"name": "BF", "game": "the-war", "nation": "red-army", "entries": {"bf-tank-brigade": 1}},
        format="json",
    )
    assert response.status_code == 400 and response.json()["code"] == "battlefront_card_in_deck"
    assert DeckVersion.objects.filter(deck_id=deck["id"]).count() == 1


def test_starters_of_both_games_are_listed_filtered_and_cloned(owner_client):
    every = owner_client.get(reverse("starter-list")).json()
    the_war = owner_client.get(reverse("starter-list"), {"game": "the-war"}).json()
    battlecards = owner_client.get(reverse("starter-list"), {"game": "battlecards"}).json()
    assert {s["code"] for s in the_war} == {RED_STARTER, WEHRMACHT_STARTER}
    assert GB_STARTER in {s["code"] for s in battlecards}
    assert {s["code"] for s in every} == {s["code"] for s in the_war + battlecards}
    assert all(s["is_valid"] and s["totals"] == {"cards": 60} and s["game"] == "the-war" for s in the_war)
    assert owner_client.get(reverse("starter-list"), {"game": "chess"}).status_code == 400

    response = owner_client.post(reverse("starter-clone", args=[WEHRMACHT_STARTER]), {}, format="json")
    assert response.status_code == 201, response.json()
    clone = response.json()
    assert (clone["game"], clone["nation"], clone["is_valid"], clone["totals"]) == (
        "the-war",
        "wehrmacht",
        True,
        {"cards": 60},
    )
    stats = owner_client.get(reverse("deck-stats", args=[clone["id"]])).json()
    assert stats["game"] == "the-war" and stats["totals"] == {"cards": 60}
    assert sum(stats["by_category"].values()) == 60
    assert set(stats["resource_curve"]) == {"depot", "plant", "fuel"}
    non_resource = 60 - stats["by_category"]["resource"]
    assert all(sum(b["cards"] for b in curve) == non_resource for curve in stats["resource_curve"].values())
    assert sum(stats["by_unit_type"].values()) == stats["by_category"]["unit"]
    assert set(stats["by_line"]) <= {"1", "2"}

    pdf = owner_client.get(reverse("starter-print", args=[RED_STARTER]))
    assert pdf.status_code == 200
    counts, reader = faces_per_page(pdf.content)
    assert sum(counts) == 60
    assert "KV-1 (1940)" in "".join(page.extract_text() for page in reader.pages)


def test_the_deck_list_filters_by_game(owner_client, red_entries, gb_entries):
    for game, side, entries in (("the-war", "red-army", red_entries), ("battlecards", "GB", gb_entries)):
        owner_client.post(
            reverse("deck-list"),
            {"name": game, "game": game, "nation": side, "entries": as_list(entries)},
            format="json",
        )
    for game in ("the-war", "battlecards"):
        body = owner_client.get(reverse("deck-list"), {"game": game}).json()
        assert [d["game"] for d in body["results"]] == [game]
    assert len(owner_client.get(reverse("deck-list")).json()["results"]) == 2
    response = owner_client.get(reverse("deck-list"), {"game": "chess"})
    assert response.status_code == 400


def test_deck_list_queries_stay_constant_with_decks_of_both_games(
    owner_client, red_entries, gb_entries, django_assert_num_queries
):
    def add(n: int) -> None:
        for i in range(n):
            for game, side, entries in (
                ("the-war", "red-army", red_entries),
                ("battlecards", "GB", gb_entries),
            ):
                response = owner_client.post(
                    reverse("deck-list"),
                    {"name": f"{game} {i}", "game": game, "nation": side, "entries": as_list(entries)},
                    format="json",
                )
                assert response.status_code == 201

    add(1)
    owner_client.get(reverse("deck-list"))  # the catalogs are read and held in memory once
    few: list[str] = []  # counted by a wrapper: the test client's request_started resets connection.queries

    def count(execute, sql, params, many, context):
        few.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(count):
        assert len(owner_client.get(reverse("deck-list")).json()["results"]) == 2
    assert few  # the page was read from the database
    add(5)
    with django_assert_num_queries(len(few)):
        body = owner_client.get(reverse("deck-list")).json()
    assert len(body["results"]) == 12 and {d["game"] for d in body["results"]} == {"the-war", "battlecards"}
    assert all(d["is_valid"] for d in body["results"])


def test_the_war_decks_read_the_catalog_in_the_database(owner_client, red_entries):
    """An admin edit counts: the rules read the cards from the database, not from the fixture."""
    deck = owner_client.post(
        reverse("deck-list"),
        {"name": "Red", "game": "the-war", "nation": "red-army", "entries": as_list(red_entries)},
        format="json",
    ).json()
    assert deck["is_valid"] is True
    TheWarCard.objects.filter(code="tw-t-34-76").update(army="wehrmacht")
    the_war_version_record()
    validation = owner_client.get(reverse("deck-validation", args=[deck["id"]])).json()
    assert [(v["code"], v["card"]) for v in validation["violations"]] == [("wrong_army", "tw-t-34-76")]


def test_a_legal_the_war_deck_prints_whatever_print_max_cards(owner_client, red_entries, gb_entries):
    """The print cap: a deck prints when within its game's size limit or PRINT_MAX_CARDS."""
    ids = {}
    for game, side, entries in (("the-war", "red-army", red_entries), ("battlecards", "GB", gb_entries)):
        ids[game] = owner_client.post(
            reverse("deck-list"),
            {"name": game, "game": game, "nation": side, "entries": as_list(entries)},
            format="json",
        ).json()["id"]
    with override_settings(PRINT_MAX_CARDS=10):
        assert owner_client.get(reverse("deck-print", args=[ids["the-war"]])).status_code == 200
        response = owner_client.get(reverse("deck-print", args=[ids["battlecards"]]))
        assert response.status_code == 400 and response.json()["code"] == "too_many_cards_to_print"
        PdfReader(io.BytesIO(owner_client.get(reverse("starter-print", args=[RED_STARTER])).content))


def test_a_the_war_deck_is_not_a_matchup_side(owner_client, red_entries):
    deck = owner_client.post(
        reverse("deck-list"),
        {"name": "Red", "game": "the-war", "nation": "red-army", "entries": as_list(red_entries)},
        format="json",
    ).json()
    response = owner_client.post(
        reverse("deck-matchup"), {"a": {"deck_id": deck["id"]}, "b": {"starter": GB_STARTER}}, format="json"
    )
    assert response.status_code == 400 and response.json()["code"] == "wrong_game"


def test_the_admin_offers_a_the_war_deck_the_two_armies(admin_client, owner_client, red_entries):
    deck = owner_client.post(
        reverse("deck-list"),
        {"name": "Red", "game": "the-war", "nation": "red-army", "entries": as_list(red_entries)},
        format="json",
    ).json()
    url = reverse("admin:decks_deck_change", args=[deck["id"]])
    page = admin_client.get(url).content.decode()
    select = re.search(r'<select name="nation"[^>]*>(.*?)</select>', page, flags=re.S)
    assert set(re.findall(r'<option value="([^"]+)"', select.group(1))) == {"red-army", "wehrmacht"}
    form = {
        "owner": Deck.objects.get(pk=deck["id"]).owner_id,
        "name": "Red",
        "nation": "wehrmacht",
        "description": "",
        "entries-TOTAL_FORMS": "0",
        "entries-INITIAL_FORMS": "0",
        "versions-TOTAL_FORMS": "0",
        "versions-INITIAL_FORMS": "0",
    }
    assert admin_client.post(url, form).status_code == 302
    assert Deck.objects.get(pk=deck["id"]).nation == "wehrmacht"
    assert admin_client.post(url, {**form, "nation": "GB"}).status_code == 200  # not an army: the form again
    assert Deck.objects.get(pk=deck["id"]).game == "the-war"
